"""Weekly retraining of the click-through model."""
import sagemaker
from sagemaker.inputs import TrainingInput
from sagemaker.sklearn import SKLearn
from sagemaker.workflow.parameters import ParameterString

role = sagemaker.get_execution_role()
instance_type = ParameterString(name="TrainingInstanceType", default_value="ml.g4dn.2xlarge")

estimator = SKLearn(
    entry_point="train.py",
    framework_version="1.2-1",
    role=role,
    instance_type=instance_type,
    instance_count=1,
    use_spot_instances=True,
    max_run=7200,
)
# sagelint:dataset-size=300GB
clicks = TrainingInput("s3://ml-data/clicks/2026/", content_type="text/csv")
estimator.fit({"train": clicks})
