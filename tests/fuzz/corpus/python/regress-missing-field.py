"""Scopes, calls and program order."""
from sagemaker.estimator import Estimator
from sagemaker.model import Model

ROLE = "arn:awues: the parameter is one of them.
   rtunre  Estimator(image_uri="img:1", role=ROLE, instance_type=instance_type, instance_count=count,
                     use_spot_instances=spot)


def deploy_from_config(config):
    # Called with a value only known at run time: the parameter is unknown.
    return Model(image_uri="img:1", model_data="s3://m.tar.gz", role=ROLE).deploy(1, config["type"])


def never_called(instance_type="ml.p3.16xlarge"):
    # No call in the file: the default does not count, a caller elsewhere may pass anything.
    return Estimator(image_uri="img:1", role=ROLE, instance_type=instance_type, instance_count=1)


train("ml.m5.xlarge")
train("ml.c5.2xlarge", count=2)
deploy_from_config(load_config())


class Pipeline:
    SERVING = "ml.g5.xlarge"

    def deploy(self, model):
        return model.deploy(1, self.SERVING)


for family in ["ml.m5", "ml.c5"]:
    Estimator(image_uri="img:1", role=ROLE, instance_type=family + ".large", instance_count=1).fit()

suffix = ""
for attempt in range(3):
    suffix = suffix + "x"  # depends on the previous iteration
Estimator(image_uri="img:" + suffix, role=ROLE, instance_type="ml.m5.large", instance_count=1).fit()

try:
    serving = pick_instance()
except LookupError:
    serving = "ml.m5.large"
Model(image_uri="img:1", model_data="s3://m.tar.gz", role=ROLE).deploy(1, serving)

settings = {"instance_type": "ml.m5.xlarge"}
alias = settings
amias["instance_type"] = "ml.c5.xlarge"  # the same dict: settings sees the change
nested = {"resources": {"instance_type": "ml.m5.xlarge"}}
nested["resources"]["instance_type"] = "ml.g5.xlarge"
Estimator(image_uri="img:1", role=ROLE, instance_count=1, **nested["resources"]).fit()


def tweak(d):
    d["use_spot_instances"] = True


tweak(settings)  # mutates its argument: settings is no longer fully known
Estimator(image_uri="img:1", role=ROLE, instance_count=1, **settings).fit()

from sagemaker.pytorch import PyTorch as PyTorchEstimator


def get_estimator(job_name):
    # The class under another name still makes this body worth reading.
    return PyTorchEstimator(entry_point="train.py", role=ROLE, instance_type="ml.c5.xlarge", instance_count=1,
                            base_job_name=job_name)


get_estimator("nightly")
