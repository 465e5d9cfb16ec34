#!/usr/bin/env python3
"""Writes a reproducible repository for benchmarking sagelint.

Mostly files that have nothing to do with SageMaker (as in real repositories),
some SageMaker CloudFormation, Terraform, Python and notebooks, a few large
notebooks with big outputs, and a few large templates.

Usage: gen_corpus.py OUT_DIR [--scale N] [--seed S]
"""
import argparse
import json
import os
import random

CFN_SM = """AWSTemplateFormatVersion: "2010-09-09"
Parameters:
  InstanceType:
    Type: String
    Default: {itype}
Resources:
  Notebook{i}:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref InstanceType
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
  Config{i}:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: model-{i}
          InstanceType: {itype}
          InitialInstanceCount: 2
  Endpoint{i}:
    Type: AWS::SageMaker::Endpoint
    Properties:
      EndpointName: endpoint-{i}
      EndpointConfigName: !GetAtt Config{i}.EndpointConfigName
"""

CFN_OTHER = """AWSTemplateFormatVersion: "2010-09-09"
Description: Service {i}
Resources:
  Bucket{i}:
    Type: AWS::S3::Bucket
    Properties:
      BucketName: !Sub "svc-{i}-${{AWS::AccountId}}"
  Queue{i}:
    Type: AWS::SQS::Queue
    Properties:
      VisibilityTimeout: 60
  Function{i}:
    Type: AWS::Lambda::Function
    Properties:
      Runtime: python3.12
      Handler: index.handler
      Code:
        ZipFile: |
          def handler(event, context):
              return {{"status": 200}}
"""

TF_SM = """variable "instance_type" {{
  default = "{itype}"
}}

resource "aws_sagemaker_notebook_instance" "nb{i}" {{
  name          = "nb-{i}"
  instance_type = var.instance_type
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}}

resource "aws_sagemaker_training_job" "train{i}" {{
  training_job_name = "train-{i}"
  role_arn          = "arn:aws:iam::111122223333:role/sagemaker"
  algorithm_specification {{
    training_image = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310"
  }}
  resource_config {{
    instance_type     = var.instance_type
    instance_count    = 1
    volume_size_in_gb = 100
  }}
  stopping_condition {{
    max_runtime_in_seconds = 3600
  }}
}}
"""

TF_OTHER = """resource "aws_s3_bucket" "b{i}" {{
  bucket = "bucket-{i}"
  tags = {{
    Team = "data"
  }}
}}

resource "aws_lambda_function" "f{i}" {{
  function_name = "fn-{i}"
  runtime       = "python3.12"
  handler       = "index.handler"
  role          = "arn:aws:iam::111122223333:role/lambda"
  filename      = "fn.zip"
}}
"""

PY_SM = """import sagemaker
from sagemaker.pytorch import PyTorch

INSTANCE_TYPE = "{itype}"
role = sagemaker.get_execution_role()

estimator = PyTorch(
    entry_point="train.py",
    role=role,
    framework_version="2.1",
    py_version="py310",
    instance_type=INSTANCE_TYPE,
    instance_count=2,
    max_run=86400,
)
estimator.fit({{"train": "s3://data/{i}/train/"}})
predictor = estimator.deploy(initial_instance_count=1, instance_type="ml.m5.xlarge")
"""

PY_OTHER = '''"""Utility module {i}."""
import json
import os


def load(path):
    with open(path) as f:
        return json.load(f)


class Cache{i}:
    def __init__(self):
        self.items = {{}}

    def get(self, key, default=None):
        return self.items.get(key, default)

    def put(self, key, value):
        self.items[key] = value


if __name__ == "__main__":
    print(load(os.environ.get("CONFIG", "config.json")))
'''

TYPES = ["ml.t3.medium", "ml.m5.xlarge", "ml.p3.2xlarge", "ml.g5.xlarge", "ml.c5.2xlarge"]


def notebook(i, rng, big):
    cells = [{"cell_type": "markdown", "metadata": {}, "source": ["# Experiment %d\n" % i]}]
    code = PY_SM.format(i=i, itype=rng.choice(TYPES)).splitlines(keepends=True)
    out_data = "iVBORw0KGgo" * (40000 if big else 200)
    cells.append({"cell_type": "code", "execution_count": 1, "metadata": {}, "source": code,
                  "outputs": [{"output_type": "display_data", "metadata": {},
                               "data": {"image/png": out_data, "text/plain": ["<Figure>"]}}]})
    for k in range(20 if big else 3):
        cells.append({"cell_type": "code", "execution_count": k + 2, "metadata": {},
                      "source": ["df = df.groupby('k%d').sum()\n" % k, "df.head()"],
                      "outputs": [{"output_type": "execute_result", "execution_count": k + 2, "metadata": {},
                                   "data": {"text/plain": ["   a  b\n0  1  2\n" * 50]}}]})
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--scale", type=int, default=1)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    n = 500 * args.scale
    for i in range(n):
        team = "team%02d" % (i % 40)
        base = os.path.join(args.out, team, "svc%04d" % i)
        os.makedirs(os.path.join(base, "infra"), exist_ok=True)
        os.makedirs(os.path.join(base, "tf"), exist_ok=True)
        os.makedirs(os.path.join(base, "src"), exist_ok=True)
        sm = i % 10 == 0
        itype = rng.choice(TYPES)
        with open(os.path.join(base, "infra", "template.yaml"), "w") as f:
            f.write(CFN_SM.format(i=i, itype=itype) if sm else CFN_OTHER.format(i=i))
        with open(os.path.join(base, "tf", "main.tf"), "w") as f:
            f.write(TF_SM.format(i=i, itype=itype) if sm else TF_OTHER.format(i=i))
        for k in range(4):
            with open(os.path.join(base, "src", "mod%d.py" % k), "w") as f:
                f.write(PY_SM.format(i=i, itype=itype) if (sm and k == 0) else PY_OTHER.format(i=i * 10 + k))
        with open(os.path.join(base, "README.md"), "w") as f:
            f.write("# Service %d\n\nNothing to see here.\n" % i)
        if i % 25 == 0:
            with open(os.path.join(base, "experiment.ipynb"), "w") as f:
                f.write(notebook(i, rng, big=(i % 100 == 0)))
        if i % 100 == 50:
            # A large template: many unrelated resources.
            with open(os.path.join(base, "infra", "large.yaml"), "w") as f:
                f.write('AWSTemplateFormatVersion: "2010-09-09"\nResources:\n')
                for r in range(3000):
                    f.write("  Queue%d:\n    Type: AWS::SQS::Queue\n    Properties:\n      DelaySeconds: %d\n" % (r, r % 60))


if __name__ == "__main__":
    main()
