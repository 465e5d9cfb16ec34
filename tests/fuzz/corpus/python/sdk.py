"""Shapes from the SageMaker examples: constants, aliases, kwargs, processors, tuners."""
import boto3
import sagemaker
import sagemaker.sklearn as sk
from sagemaker.estimator import Estimator as Generic
from sagemaker.inputs import FileSystemInput, TrainingInput
from sagemaker.processing import ProcessingInput
from sagemaker.sklearn.processing import SKLearnProcessor
from sagemaker.serverless import ServerlessInferenceConfig
from sagemaker.tuner import HyperparameterTuner
from sagemaker.workflow.parameters import ParameterInteger

ROLE = sagemaker.get_execution_role()
GPU = "ml.p3.2xlarge"
REGION = boto3.Session().region_name
count = ParameterInteger(name="TrainCount", default_value=2)
image = sagemaker.image_uris.retrieve("sklearn", REGION, version="1.2-1")

sk_est = sk.SKLearn(entry_point="train.py", role=ROLE, instance_type=GPU, instance_count=count,
                    train_use_spot_instances=True, train_max_wait=3600, train_max_run=7200)
sk_est.fit({"train": TrainingInput("s3://bkt/train/", input_mode="Pipe", distribution="ShardedByS3Key"),
            "fsx": FileSystemInput("fs-1", "FSxLustre", "/fsx", "File")})

generic = Generic(image_uri=image, role=ROLE, instance_type=f"ml.m5.{'xlarge'}", instance_count=1,
                  **sagemaker_kwargs())
tuner = HyperparameterTuner(generic, "validation:rmse", {})
tuner.fit("s3://bkt/tune/")

local = Generic(image_uri=image, role=ROLE, instance_type="local", instance_count=1)

settings = {"instance_type": "ml.c5.xlarge", "instance_count": 3}
processor = SKLearnProcessor(framework_version="1.2-1", role=ROLE, **settings)
processor.run(inputs=[ProcessingInput(source="s3://bkt/raw/", destination="/opt/ml/processing/in")])

serverless = sk.SKLearnModel(model_data="s3://bkt/m.tar.gz", role=ROLE, entry_point="i.py")
serverless.deploy(serverless_inference_config=ServerlessInferenceConfig(memory_size_in_mb=2048))

sm = boto3.client("sagemaker")
sm.create_notebook_instance_lifecycle_config(
    NotebookInstanceLifecycleConfigName="idle",
    OnStart=[{"Content": "IyEvYmluL2Jhc2gKSURMRV9USU1FPTM2MDAK"}],
)
sm.create_notebook_instance(NotebookInstanceName="nb", InstanceType="ml.t3.medium", RoleArn=ROLE,
                            LifecycleConfigName="idle")
sm.create_endpoint_config(EndpointConfigName="cfg", ProductionVariants=[
    {"VariantName": "v1", "ModelName": "m", "InstanceType": "ml.m5.large", "InitialInstanceCount": 1,
     "AcceleratorType": "ml.eia1.medium"}])
sm.create_endpoint(EndpointName="ep", EndpointConfigName="cfg")


class Estimator:  # a look-alike that is not SageMaker
    def __init__(self, **kw):
        pass


mine = Estimator(instance_type="ml.p4d.24xlarge")
