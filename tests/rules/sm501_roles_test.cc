// SM501 as rules/SM501.md has it: a role only AWS services assume is a note
// naming them; a statement reached through several `module` calls is one
// finding naming the callers; the message names what the granted actions launch.
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

constexpr const char* kServiceRoles = R"(AWSTemplateFormatVersion: "2010-09-09"
Transform: AWS::Serverless-2016-10-31
Resources:
  TrainerRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Statement:
          - Effect: Allow
            Principal: {Service: [sagemaker.amazonaws.com, lambda.amazonaws.com]}
            Action: sts:AssumeRole
      Policies:
        - PolicyName: train
          PolicyDocument:
            Statement:
              - {Effect: Allow, Action: sagemaker:CreateTrainingJob, Resource: "*"}
  PeopleRole:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Statement:
          - Effect: Allow
            Principal: {Service: lambda.amazonaws.com, AWS: "arn:aws:iam::111122223333:root"}
            Action: sts:AssumeRole
      Policies:
        - PolicyName: train
          PolicyDocument:
            Statement:
              - {Effect: Allow, Action: sagemaker:CreateTrainingJob, Resource: "*"}
  StudioPolicy:
    Type: AWS::IAM::Policy
    Properties:
      PolicyName: studio
      Roles: [!Ref TrainerRole]
      PolicyDocument:
        Statement:
          - {Effect: Allow, Action: [sagemaker:CreateUserProfile, sagemaker:UpdateDomain], Resource: "*"}
  Handler:
    Type: AWS::Serverless::Function
    Properties:
      Runtime: python3.12
      Handler: app.handler
      Policies:
        - Statement:
            - {Effect: Allow, Action: sagemaker:CreateEndpointConfig, Resource: "*"}
)";

constexpr const char* kServiceRolesTf = R"(data "aws_iam_policy_document" "trust" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["sagemaker.amazonaws.com"]
    }
  }
}

resource "aws_iam_role" "pipeline" {
  name               = "pipeline"
  assume_role_policy = data.aws_iam_policy_document.trust.json
}

resource "aws_iam_role_policy_attachment" "full" {
  role       = aws_iam_role.pipeline.name
  policy_arn = "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess"
}

resource "aws_iam_role" "inline" {
  name = "inline"
  assume_role_policy = jsonencode({
    Statement = [{ Effect = "Allow", Action = "sts:AssumeRole", Principal = { Service = "codebuild.amazonaws.com" } }]
  })
  inline_policy {
    name = "train"
    policy = jsonencode({
      Statement = [{ Effect = "Allow", Action = "sagemaker:CreateProcessingJob", Resource = "*" }]
    })
  }
}
)";

}  // namespace

TEST_CASE("SM501: a role only AWS services assume is a note naming them", "[rules][sm501]") {
  TempDir dir;
  dir.Write("roles.yaml", kServiceRoles);
  dir.Write("roles.tf", kServiceRolesTf);
  auto r = RunSagelint("scan --select SM501 --no-color --quiet --fail-on none .", dir.path());
  CHECK(r.out ==
        "roles.tf:18:16: note[SM501] 'aws_iam_role_policy_attachment.full' managed policy "
        "AmazonSageMakerFullAccess attaches the AWS managed policy AmazonSageMakerFullAccess, which allows "
        "sagemaker:* with no sagemaker:InstanceTypes condition: only sagemaker.amazonaws.com can use this "
        "role; code running there can launch any instance type, up to multi-GPU ml.p5.48xlarge clusters\n"
        "roles.tf:29:49: note[SM501] IAM policy 'inline' statement 1 allows sagemaker:CreateProcessingJob "
        "with no sagemaker:InstanceTypes condition: only codebuild.amazonaws.com can use this role; code "
        "running there can choose any instance type for jobs, up to multi-GPU ml.p5.48xlarge\n"
        "roles.yaml:16:41: note[SM501] IAM policy 'TrainerRole/train' statement 1 allows "
        "sagemaker:CreateTrainingJob with no sagemaker:InstanceTypes condition: only lambda.amazonaws.com "
        "and sagemaker.amazonaws.com can use this role; code running there can choose any instance type for "
        "jobs, up to multi-GPU ml.p5.48xlarge\n"
        "roles.yaml:29:41: warning[SM501] IAM policy 'PeopleRole/train' statement 1 allows "
        "sagemaker:CreateTrainingJob with no sagemaker:InstanceTypes condition: whoever holds it can choose "
        "any instance type for jobs, up to multi-GPU ml.p5.48xlarge\n"
        "roles.yaml:37:38: note[SM501] IAM policy 'studio' statement 1 allows sagemaker:CreateUserProfile, "
        "sagemaker:UpdateDomain with no sagemaker:InstanceTypes condition: only lambda.amazonaws.com and "
        "sagemaker.amazonaws.com can use this role; code running there can choose any instance type for "
        "Studio apps\n"
        "roles.yaml:45:39: note[SM501] IAM policy 'Handler/Policies[0]' statement 1 allows "
        "sagemaker:CreateEndpointConfig with no sagemaker:InstanceTypes condition: only lambda.amazonaws.com "
        "can use this role; code running there can choose any instance type for endpoints, up to multi-GPU "
        "ml.p5.48xlarge\n");
}

TEST_CASE("a module statement reached through several module calls is one finding naming the callers",
          "[rules][sm501][terraform]") {
  TempDir dir;
  dir.Write("modules/iam/main.tf", R"(variable "team" {}

resource "aws_iam_role_policy_attachment" "full" {
  role       = "ml-${var.team}"
  policy_arn = "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess"
}
)");
  dir.Write("a/main.tf", "module \"iam\" {\n  source = \"../modules/iam\"\n  team   = \"a\"\n}\n");
  dir.Write("b/main.tf", "module \"iam\" {\n  source = \"../modules/iam\"\n  team   = \"b\"\n}\n");
  auto r = RunSagelint("scan --select SM501 --no-color --quiet --fail-on none .", dir.path());
  CHECK(r.out ==
        "modules/iam/main.tf:5:16: warning[SM501] 'module.iam.aws_iam_role_policy_attachment.full' managed policy "
        "AmazonSageMakerFullAccess (module calls in a/main.tf, b/main.tf) attaches the AWS managed policy "
        "AmazonSageMakerFullAccess, which allows sagemaker:* with no sagemaker:InstanceTypes condition: whoever "
        "holds it can launch any instance type, up to multi-GPU ml.p5.48xlarge clusters\n");
}
