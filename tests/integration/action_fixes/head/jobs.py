import boto3

sm = boto3.client("sagemaker")
sm.create_training_job(
    TrainingJobName="nightly",
    StoppingCondition={
        "MaxRuntimeInSeconds": 3600,
        "MaxWaitTimeInSeconds": 7200,
    },
)
