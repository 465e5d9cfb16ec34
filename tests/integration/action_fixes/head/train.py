from sagemaker.pytorch import PyTorch

est = PyTorch(
    entry_point="train.py",
    role="arn:aws:iam::111122223333:role/sagemaker",
    instance_type="ml.g5.xlarge",
    instance_count=1,
    use_spot_instances=True,
    max_run=3600,
)
