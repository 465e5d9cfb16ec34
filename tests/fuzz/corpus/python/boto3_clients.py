"""boto3 SageMaker clients however obtained: inline, from a session, under a shadowing name."""
# %%
import boto3
import sagemaker

request = {
    "AlgorithmSpecification": {"TrainingImage": "111122223333.dkr.ecr.us-east-1.amazonaws.com/churn:1",
                               "TrainingInputMode": "File"},
    "RoleArn": "arn:aws:iam::111122223333:role/sm",
    "OutputDataConfig": {"S3OutputPath": "s3://ml-data/out/"},
    "ResourceConfig": {"InstanceType": "ml.m5.xlarge", "InstanceCount": 1, "VolumeSizeInGB": 30},
    "StoppingCondition": {"MaxRuntimeInSeconds": 3600},
}

# %%
boto3.client("sagemaker").create_training_job(TrainingJobName="inline", **request)

# %%
session = sagemaker.Session()
session.sagemaker_client.create_training_job(TrainingJobName="from-session", **request)

# %%
boto3.Session(region_name="us-east-1").client("sagemaker").create_training_job(TrainingJobName="boto-session", **request)

# %%
sagemaker = boto3.client("sagemaker")
sagemaker.create_training_job(TrainingJobName="shadowing", **request)
