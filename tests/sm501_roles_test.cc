// SM501 as rules/SM501.md has it: a statement reached through several
// `module` calls is one finding naming the callers; the message names what the
// granted actions launch.
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

TEST_CASE("SM501 names what the granted actions launch", "[rules][sm501]") {
  TempDir dir;
  dir.Write("studio.yaml", R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  StudioPolicy:
    Type: AWS::IAM::ManagedPolicy
    Properties:
      PolicyDocument:
        Statement:
          - {Effect: Allow, Action: [sagemaker:CreateUserProfile, sagemaker:UpdateDomain], Resource: "*"}
          - {Effect: Allow, Action: [sagemaker:CreateEndpointConfig, sagemaker:CreateTrainingJob], Resource: "*"}
)");
  auto r = RunSagelint("scan --select SM501 --no-color --quiet --fail-on none .", dir.path());
  CHECK(r.out ==
        "studio.yaml:8:38: warning[SM501] IAM policy 'StudioPolicy' statement 1 allows sagemaker:CreateUserProfile, "
        "sagemaker:UpdateDomain with no sagemaker:InstanceTypes condition: whoever holds it can choose any instance "
        "type for Studio apps\n"
        "studio.yaml:9:38: warning[SM501] IAM policy 'StudioPolicy' statement 2 allows sagemaker:CreateEndpointConfig, "
        "sagemaker:CreateTrainingJob with no sagemaker:InstanceTypes condition: whoever holds it can choose any "
        "instance type for jobs and endpoints, up to multi-GPU ml.p5.48xlarge\n");
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
