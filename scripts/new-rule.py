#!/usr/bin/env python3
"""Scaffolds a new built-in rule (docs/maintaining.md "Adding a rule").

    scripts/new-rule.py SM404 spot-without-retry "A Spot training job has no retry strategy." \
        [--kind training_job] [--severity warning] [--root DIR]

writes, under the source tree (or --root):
  rules/smNNN_<name>.cc          the check, with its function declared in rules/checks.h
  rules/SMNNN.md                 the rule's documentation, in the shape of the other rules' docs
  fixtures/rules/SMNNN/trigger/  one minimal workload per input format (CloudFormation, Terraform,
  fixtures/rules/SMNNN/clean/    Python): the same valid workload in both, which the author
                                 changes so that trigger/ shows the cost mistake and clean/ avoids it
  fixtures/rules/SMNNN/expected.txt  empty: the findings' snapshot (UPDATE_SNAPSHOTS=1 fills it)
and the rule's row in rules/registry.cc, in ID order. It refuses an ID, a name or a file that
exists, and writes nothing then.
"""

import argparse
import os
import re
import sys

SEVERITIES = {"error": "kError", "warning": "kWarning", "note": "kNote"}

# The WorkloadKind enumerators by their names (linter/model/workload_kinds.cc).
KINDS = {
    "training_job": "kTrainingJob",
    "tuning_job": "kTuningJob",
    "processing_job": "kProcessingJob",
    "transform_job": "kTransformJob",
    "notebook_instance": "kNotebookInstance",
    "studio_domain": "kStudioDomain",
    "studio_user_profile": "kStudioUserProfile",
    "studio_space": "kStudioSpace",
    "endpoint_variant": "kEndpointVariant",
    "scalable_target": "kScalableTarget",
    "lifecycle_script": "kLifecycleScript",
    "iam_statement": "kIamStatement",
    "studio_app": "kStudioApp",
    "inference_component": "kInferenceComponent",
    "hyperpod_cluster": "kHyperPodCluster",
}

# A minimal workload of a kind in each input format: what the fixtures start from.
EXAMPLES = {
    "training_job": {
        # CloudFormation has no training job resource: a Step Functions task starts it.
        "workload.yaml": """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  TrainingWorkflow:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::111122223333:role/stepfunctions-sagemaker
      Definition:
        StartAt: Train
        States:
          Train:
            Type: Task
            Resource: arn:aws:states:::sagemaker:createTrainingJob.sync
            End: true
            Parameters:
              TrainingJobName.$: $.job_name
              RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
              AlgorithmSpecification:
                TrainingImage: 763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310
                TrainingInputMode: FastFile
              ResourceConfig:
                InstanceType: ml.g5.2xlarge
                InstanceCount: 1
                VolumeSizeInGB: 30
              StoppingCondition:
                MaxRuntimeInSeconds: 86400
              OutputDataConfig:
                S3OutputPath: s3://ml-artifacts/output/
""",
        "workload.tf": """resource "aws_sagemaker_training_job" "train" {
  training_job_name = "train"
  role_arn          = "arn:aws:iam::111122223333:role/sagemaker-execution"

  algorithm_specification {
    training_image      = "763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.1.0-gpu-py310"
    training_input_mode = "FastFile"
  }

  resource_config {
    instance_type     = "ml.g5.2xlarge"
    instance_count    = 1
    volume_size_in_gb = 30
  }

  stopping_condition {
    max_runtime_in_seconds = 86400
  }

  output_data_config {
    s3_output_path = "s3://ml-artifacts/output/"
  }
}
""",
        "workload.py": """import sagemaker
from sagemaker.pytorch import PyTorch

role = sagemaker.get_execution_role()

estimator = PyTorch(
    entry_point="train.py",
    role=role,
    framework_version="2.1",
    py_version="py310",
    instance_type="ml.g5.2xlarge",
    instance_count=1,
    input_mode="FastFile",
    max_run=86400,
)
estimator.fit({"train": "s3://ml-data/clicks/train/"})
""",
    },
    "endpoint_variant": {
        "workload.yaml": """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  ScoringEndpointConfig:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: scoring
          InstanceType: ml.m5.xlarge
          InitialInstanceCount: 1
""",
        "workload.tf": """resource "aws_sagemaker_endpoint_configuration" "scoring" {
  name = "scoring"

  production_variants {
    variant_name           = "AllTraffic"
    model_name             = "scoring"
    instance_type          = "ml.m5.xlarge"
    initial_instance_count = 1
  }
}
""",
        "workload.py": """import boto3

sm = boto3.client("sagemaker")
sm.create_endpoint_config(
    EndpointConfigName="scoring",
    ProductionVariants=[
        {
            "VariantName": "AllTraffic",
            "ModelName": "scoring",
            "InstanceType": "ml.m5.xlarge",
            "InitialInstanceCount": 1,
        }
    ],
)
""",
    },
    "notebook_instance": {
        "workload.yaml": """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.medium
      RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
      LifecycleConfigName: auto-stop-idle
""",
        "workload.tf": """resource "aws_sagemaker_notebook_instance" "explore" {
  name                  = "explore"
  role_arn              = "arn:aws:iam::111122223333:role/sagemaker-execution"
  instance_type         = "ml.t3.medium"
  lifecycle_config_name = "auto-stop-idle"
}
""",
        "workload.py": """import boto3

sm = boto3.client("sagemaker")
sm.create_notebook_instance(
    NotebookInstanceName="explore",
    InstanceType="ml.t3.medium",
    RoleArn="arn:aws:iam::111122223333:role/sagemaker-execution",
    LifecycleConfigName="auto-stop-idle",
)
""",
    },
}
EXAMPLES["tuning_job"] = EXAMPLES["training_job"]


class Refused(Exception):
    pass


def cpp_string(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def check_function(name):
    return "Check" + "".join(part.capitalize() for part in name.split("-"))


def parse_args(argv):
    p = argparse.ArgumentParser(description="Scaffold a new sagelint rule (docs/maintaining.md).")
    p.add_argument("id", help="the rule ID, SM followed by three digits (SM404)")
    p.add_argument("name", help="its kebab-case name (spot-without-retry)")
    p.add_argument("summary", help="one sentence, ending with a full stop, used everywhere the rule is listed")
    p.add_argument("--kind", action="append", choices=sorted(KINDS),
                   help="a workload kind the rule applies to (repeatable; default training_job); the first "
                        "one with an example gives the fixtures: " + ", ".join(sorted(EXAMPLES)))
    p.add_argument("--severity", choices=sorted(SEVERITIES), default="warning")
    p.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                   help="the source tree (default: this script's)")
    return p.parse_args(argv)


def validate(args, registry):
    if not re.fullmatch(r"SM\d{3}", args.id):
        raise Refused(f"{args.id}: a rule ID is SM followed by three digits")
    if not re.fullmatch(r"[a-z][a-z0-9]*(-[a-z0-9]+)+", args.name):
        raise Refused(f"{args.name}: a rule name is kebab-case, two words or more (spot-without-retry)")
    if "\n" in args.summary or not args.summary.endswith(".") or not args.summary[:1].isupper():
        raise Refused("the summary is one sentence on one line: a capital first, a full stop last")
    if re.search(r'\{\.id = "' + args.id + r'",', registry):
        raise Refused(f"{args.id} exists in rules/registry.cc")
    if re.search(r'^\s*\.name = "' + re.escape(args.name) + r'",$', registry, re.M):
        raise Refused(f"the name {args.name} is taken in rules/registry.cc")
    kinds = args.kind or ["training_job"]
    if not any(k in EXAMPLES for k in kinds):
        raise Refused("no minimal example for " + ", ".join(kinds) + ": add one of " + ", ".join(sorted(EXAMPLES)) +
                      " to --kind, or write the fixtures by hand")
    return kinds


def registry_row(args, kinds, check):
    kind_list = ", ".join("K::" + KINDS[k] for k in kinds)
    return (f'      {{.id = {cpp_string(args.id)},\n'
            f'       .name = {cpp_string(args.name)},\n'
            f'       .severity = Severity::{SEVERITIES[args.severity]},\n'
            f'       .summary = {cpp_string(args.summary)},\n'
            f'       .kinds = {{{kind_list}}},\n'
            f'       .iam = {{.without_key = "no condition key exists"}},\n'
            f'       .check = rules::{check}}},\n')


def insert_row(registry, args, row):
    # Rows start with `      {.id = "SMNNN",` at the start of a line; the new one goes before the first larger ID.
    starts = [(m.group(1), m.start()) for m in re.finditer(r'^      \{\.id = "(SM\d{3})",\n', registry, re.M)]
    if not starts:
        raise Refused("rules/registry.cc: no rule rows found")
    for rule_id, at in starts:
        if rule_id > args.id:
            return registry[:at] + row + registry[at:]
    end = registry.index("  };\n  return rules;")
    return registry[:end] + row + registry[end:]


def insert_declaration(checks_h, check):
    # After the last check declared.
    decls = list(re.finditer(r"^void Check\w+\(const Workload& w, const RuleContext& ctx, Sink& sink\);\n",
                             checks_h, re.M))
    if not decls:
        raise Refused("rules/checks.h: no check declarations found")
    at = decls[-1].end()
    return checks_h[:at] + f"void {check}(const Workload& w, const RuleContext& ctx, Sink& sink);\n" + checks_h[at:]


def check_source(args, check):
    return f"""// {args.id} {args.name}: {args.summary[0].lower() + args.summary[1:]}
// rules/{args.id}.md says what it reports and why.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {{

void {check}(const Workload& w, const RuleContext&, Sink& sink) {{
  // A value may be unknown or one of several alternatives (a condition, a
  // variable): report only what is known, each alternative with its condition.
  ForEachKnown(w.instance_type, [&](const Val& type) {{
    // Decide here whether this workload shows the cost mistake; return when it does not.
    (void)type;
    (void)sink;
  }});
}}

}}  // namespace sagelint::rules
"""


def doc_text(args, kinds, example):
    fence = {"workload.yaml": "yaml", "workload.tf": "hcl", "workload.py": "python"}
    first = "workload.yaml"
    return f"""# {args.id} {args.name}

## What it does
{args.summary}

## Why is this bad?
{args.summary}

## Example
```{fence[first]}
{example[first].rstrip()}
```

## Use instead
The workload of `fixtures/rules/{args.id}/clean/`.

## Options
None.

## IAM guard
No IAM condition key exists for this class; only this check, run in CI, enforces it.

## Suppress
`# sagelint:ignore={args.id} reason`.
"""


def plan(args):
    """The files to write (path -> text), or Refused."""
    root = args.root
    registry_path = os.path.join(root, "rules", "registry.cc")
    checks_path = os.path.join(root, "rules", "checks.h")
    with open(registry_path, encoding="utf-8") as f:
        registry = f.read()
    with open(checks_path, encoding="utf-8") as f:
        checks_h = f.read()
    kinds = validate(args, registry)
    check = check_function(args.name)
    if re.search(r"\b" + check + r"\b", checks_h):
        raise Refused(f"{check} is declared in rules/checks.h already")
    example = EXAMPLES[next(k for k in kinds if k in EXAMPLES)]
    stem = args.id.lower() + "_" + args.name.replace("-", "_")
    files = {
        os.path.join("rules", stem + ".cc"): check_source(args, check),
        os.path.join("rules", args.id + ".md"): doc_text(args, kinds, example),
        os.path.join("fixtures", "rules", args.id, "expected.txt"): "",
    }
    for sub in ("trigger", "clean"):
        for name, text in example.items():
            files[os.path.join("fixtures", "rules", args.id, sub, name)] = text
    for path in files:
        if os.path.exists(os.path.join(root, path)):
            raise Refused(f"{path} exists")
    if os.path.exists(os.path.join(root, "fixtures", "rules", args.id)):
        raise Refused(f"fixtures/rules/{args.id} exists")
    files[os.path.join("rules", "registry.cc")] = insert_row(registry, args, registry_row(args, kinds, check))
    files[os.path.join("rules", "checks.h")] = insert_declaration(checks_h, check)
    return files


def main(argv):
    args = parse_args(argv)
    try:
        files = plan(args)
    except Refused as e:
        print(f"new-rule.py: {e}; nothing written", file=sys.stderr)
        return 1
    for path, text in files.items():
        full = os.path.join(args.root, path)
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "w", encoding="utf-8") as f:
            f.write(text)
        print(path)
    print(f"""
Next: write the check in {[p for p in files if p.endswith('.cc') and 'registry' not in p][0]}; change
fixtures/rules/{args.id}/trigger/ so each file shows the mistake (clean/ stays without it); complete
rules/{args.id}.md ("Why is this bad?", "Use instead", and the IAM guard if a condition key prevents
the class: then the row's condition key and guardrail); then
  ninja -C build -j2 sagelint_tests && UPDATE_SNAPSHOTS=1 build/sagelint_tests "[fixtures]"
and read fixtures/rules/{args.id}/expected.txt.""")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
