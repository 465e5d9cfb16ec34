// One source construct, one finding per rule (README "Usage"): the instances of a
// Terraform count/for_each, the branches of a conditional CloudFormation
// resource and the workloads sharing one SDK v3 Compute give one finding when
// their findings agree, and keep their own when they differ.
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

// rule -> the findings' resource labels, in report order.
std::multimap<std::string, nlohmann::json> ByRule(const std::string& dir, const std::string& args = "") {
  auto r = RunSagelint("scan --fail-on none --format json " + args + " .", dir);
  REQUIRE(r.status == 0);
  nlohmann::json j = nlohmann::json::parse(r.out);
  std::multimap<std::string, nlohmann::json> out;
  for (const auto& f : j["findings"]) out.emplace(f["rule"].get<std::string>(), f);
  return out;
}

}  // namespace

TEST_CASE("a for_each whose instances agree is one finding naming them, with the cost of all", "[grouping]") {
  TempDir dir;
  dir.Write("main.tf", R"(resource "aws_sagemaker_notebook_instance" "lab" {
  for_each      = toset(["ana", "bo", "chen"])
  name          = each.key
  instance_type = "ml.p3.2xlarge"
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}
)");
  auto found = ByRule(dir.path());
  REQUIRE(found.count("SM201") == 1);
  REQUIRE(found.count("SM103") == 1);
  const auto& f = found.find("SM103")->second;
  CHECK(f["resource"] ==
        "notebook instance 'aws_sagemaker_notebook_instance.lab[\"ana\",\"bo\",\"chen\"]' (3 instances)");
  CHECK(f["message"].get<std::string>().find("'aws_sagemaker_notebook_instance.lab[\"ana\",\"bo\",\"chen\"]' (3 "
                                             "instances) uses ml.p3.2xlarge") != std::string::npos);
  CHECK(f["line"] == 4);
  CHECK(f["cost"]["count"] == 3);
  CHECK(f["cost"]["instance_type"] == "ml.p3.2xlarge");
  // Three times one instance's price.
  TempDir single;
  single.Write("main.tf", R"(resource "aws_sagemaker_notebook_instance" "one" {
  instance_type = "ml.p3.2xlarge"
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}
)");
  auto alone = ByRule(single.path());
  REQUIRE(alone.count("SM103") == 1);
  CHECK(f["cost"]["hourly_usd"].get<double>() ==
        Approx(3 * alone.find("SM103")->second["cost"]["hourly_usd"].get<double>()));
  CHECK(f["cost"]["monthly_usd"].get<double>() ==
        Approx(3 * alone.find("SM103")->second["cost"]["monthly_usd"].get<double>()));

  // A suppression on the resource covers the one finding.
  dir.Write("main.tf",
            "# sagelint:ignore=SM103 a shared GPU lab\n" + sagelint::testing::ReadFileOrDie(dir.path() + "/main.tf"));
  found = ByRule(dir.path());
  CHECK(found.count("SM103") == 0);
  CHECK(found.count("SM201") == 1);
}

TEST_CASE("count instances whose findings differ are reported one by one", "[grouping]") {
  TempDir dir;
  dir.Write("main.tf", R"(resource "aws_sagemaker_notebook_instance" "c" {
  count         = 2
  name          = "c${count.index}"
  instance_type = count.index == 0 ? "ml.t3.medium" : "ml.g5.xlarge"
  role_arn      = "arn:aws:iam::111122223333:role/sagemaker"
}
)");
  auto found = ByRule(dir.path());
  // SM201 says the same of both: one finding, its cost naming both types.
  REQUIRE(found.count("SM201") == 1);
  const auto& f = found.find("SM201")->second;
  CHECK(f["resource"] == "notebook instance 'aws_sagemaker_notebook_instance.c[0,1]' (2 instances)");
  CHECK(f["cost"]["count"] == 2);
  CHECK(f["cost"]["instance_type"] == "ml.t3.medium + ml.g5.xlarge");
  // SM103 only for the GPU instance.
  REQUIRE(found.count("SM103") == 1);
  CHECK(found.find("SM103")->second["resource"] == "notebook instance 'aws_sagemaker_notebook_instance.c[1]'");
  auto text = RunSagelint("scan --fail-on none --select SM201 .", dir.path());
  CHECK(text.out.find("cost: ml.t3.medium + ml.g5.xlarge ≈ $") != std::string::npos);
}

TEST_CASE("a conditional resource gives one finding when both branches do, one per triggering branch otherwise",
          "[grouping]") {
  TempDir dir;
  dir.Write("t.yaml", R"(Conditions:
  IsProd: !Equals [!Ref Env, prod]
Parameters:
  Env: { Type: String }
Resources:
  Nb:
    Type: AWS::SageMaker::NotebookInstance
    Properties: !If
      - IsProd
      - InstanceType: ml.p3.2xlarge
        RoleArn: arn:aws:iam::111122223333:role/sagemaker
      - InstanceType: ml.t3.medium
        RoleArn: arn:aws:iam::111122223333:role/sagemaker
)");
  auto found = ByRule(dir.path());
  // Neither branch has a lifecycle configuration: one unconditional finding, costed at the costliest branch.
  REQUIRE(found.count("SM201") == 1);
  const auto& f = found.find("SM201")->second;
  CHECK(f["resource"] == "notebook instance 'Nb'");
  CHECK(f["condition"].is_null());
  CHECK(f["cost"]["instance_type"] == "ml.p3.2xlarge");
  // Only the production branch is accelerated.
  REQUIRE(found.count("SM103") == 1);
  CHECK(found.find("SM103")->second["condition"] == "condition IsProd is true");
  // Fingerprints stay distinct.
  CHECK(found.find("SM201")->second["fingerprint"] != found.find("SM103")->second["fingerprint"]);
}

TEST_CASE("workloads sharing one SDK v3 Compute get one finding on the shared setting", "[grouping]") {
  TempDir dir;
  dir.Write("train.py", R"(from sagemaker.modules.train import ModelTrainer
from sagemaker.modules.configs import Compute
compute = Compute(instance_type="ml.g5.xlarge", instance_count=1, keep_alive_period_in_seconds=3600)
t1 = ModelTrainer(training_image="x", compute=compute)
t2 = ModelTrainer(training_image="y", compute=compute)
t1.train()
t2.train()
)");
  auto found = ByRule(dir.path());
  REQUIRE(found.count("SM204") == 1);
  const auto& f = found.find("SM204")->second;
  CHECK(f["line"] == 3);
  CHECK(f["resource"] == "ModelTrainer 't1' (also 't2')");
  CHECK(f["cost"]["count"] == 2);
  // Each trainer's own call keeps its own finding.
  CHECK(found.count("SM401") == 2);
}
