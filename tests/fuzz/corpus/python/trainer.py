from sagemaker.modules.configs import CheckpointConfig, Compute, InputData, StoppingCondition
from sagemaker.modules.train import ModelTrainer

trainer = ModelTrainer(
    training_image="763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310",
    compute=Compute(instance_type="ml.g5.12xlarge", instance_count=2, enable_managed_spot_training=True,
                    keep_alive_period_in_seconds=3600),
    stopping_condition=StoppingCondition(max_runtime_in_seconds=7200, max_wait_time_in_seconds=3600),
    checkpoint_config=CheckpointConfig(s3_uri="s3://bkt/ckpt/"),
    input_data_config=[InputData(channel_name="train", data_source="s3://bkt/train/")],
)
trainer.train()

from sagemaker.train import ModelTrainer as V3Trainer

default_trainer = V3Trainer(training_image="img")
