#include <algorithm>

#include "rules/checks_cost.h"
#include "tests/catch.h"
#include "tests/rules/capture_sink.h"

using namespace sagelint;

namespace {

constexpr const char* kAnyType =
    "with no sagemaker:InstanceTypes condition: whoever holds it can launch any instance type, up to multi-GPU "
    "ml.p5.48xlarge clusters";

Workload Statement(std::string effect, std::vector<std::string> actions) {
  Workload w;
  w.kind = WorkloadKind::kIamStatement;
  w.format = Format::kCloudFormation;
  w.label = "IAM policy 'MLPolicy' statement 1";
  w.iam.effect = Val::Known(std::move(effect));
  int line = 10;
  for (auto& a : actions) w.iam.actions.push_back(Val::Known(std::move(a), SourceRange{{line++, 9}, {line, 30}}));
  w.iam.policy = "MLPolicy";
  return w;
}

std::vector<Report> Run(const Workload& w) {
  testing::CaptureSink sink;
  rules::CheckIamUnrestrictedInstanceTypes(w, RuleContext{}, sink);
  return sink.reports;
}

IamCondition Cond(std::string op, std::vector<std::string> values, std::string key = "sagemaker:InstanceTypes") {
  return IamCondition{std::move(op), std::move(key), std::move(values), true};
}

}  // namespace

TEST_CASE("SM501 fires on an unconditioned Allow of sagemaker:*", "[SM501]") {
  auto reports = Run(Statement("Allow", {"s3:GetObject", "sagemaker:*"}));
  REQUIRE(reports.size() == 1);
  const Report& r = reports[0];
  CHECK(r.message ==
        std::string("IAM policy 'MLPolicy' statement 1 allows sagemaker:CreateApp, sagemaker:CreateCluster, "
                    "sagemaker:CreateDataQualityJobDefinition and 20 more ") +
            kAnyType);
  CHECK(r.suggestion ==
        "restrict the Allow with \"ForAllValues:StringLike\": {\"sagemaker:InstanceTypes\": [approved types]} plus "
        "\"Null\": {\"sagemaker:InstanceTypes\": \"false\"}, or add a Deny with \"ForAnyValue:StringLike\" on "
        "explicit GPU families (ml.p4d.*, ml.p5.*, ml.g5.*, …; not ml.g*, which also matches ml.geospatial.*); "
        "`sagelint iam-policy` writes one");
  CHECK(r.at.begin.line == 11);
  REQUIRE(r.iam);
  CHECK(r.iam->condition_key == "sagemaker:InstanceTypes");
  // Every action sagemaker:InstanceTypes applies to (the Service Authorization Reference's list).
  CHECK(r.iam->actions.size() == 23);
}

TEST_CASE("SM501 wildcards: Create* leaves out the Update actions, case-insensitive", "[SM501]") {
  auto reports = Run(Statement("Allow", {"SageMaker:create*"}));
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].iam->actions.size() == 16);
  for (const std::string& a : reports[0].iam->actions) CHECK(a.rfind("sagemaker:Create", 0) == 0);
  reports = Run(Statement("Allow", {"sagemaker:CreateTrainingJob", "sagemaker:DescribeTrainingJob"}));
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].message ==
        "IAM policy 'MLPolicy' statement 1 allows sagemaker:CreateTrainingJob with no sagemaker:InstanceTypes "
        "condition: whoever holds it can choose any instance type for jobs, up to multi-GPU ml.p5.48xlarge");
  CHECK(reports[0].iam->actions == std::vector<std::string>{"sagemaker:CreateTrainingJob"});
  CHECK(Run(Statement("Allow", {"sagemaker:Describe*", "sagemaker:CreateEndpoint"})).empty());
}

TEST_CASE("SM501 leaves grants of every service to security linters", "[SM501]") {
  CHECK(Run(Statement("Allow", {"*"})).empty());
  CHECK(Run(Statement("Allow", {"*", "s3:GetObject"})).empty());
  CHECK(Run(Statement("Allow", {"*:Create*"})).empty());
  Workload w = Statement("Allow", {"iam:*", "organizations:*"});
  w.iam.not_action = true;
  CHECK(Run(w).empty());
  // Naming SageMaker next to the wildcard is a SageMaker grant.
  CHECK(Run(Statement("Allow", {"*", "sagemaker:CreateTrainingJob"})).size() == 1);
}

TEST_CASE("SM501 lists only what Resource and NotResource leave granted", "[SM501]") {
  Workload w = Statement("Allow", {"sagemaker:Create*"});
  w.iam.resources = {Val::Known("arn:aws:sagemaker:*:*:training-job/*")};
  w.iam.not_resource = true;
  auto reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].iam->actions.size() == 15);
  CHECK(std::find(reports[0].iam->actions.begin(), reports[0].iam->actions.end(), "sagemaker:CreateTrainingJob") ==
        reports[0].iam->actions.end());

  w.iam.not_resource = false;
  w.iam.resources = {Val::Known("arn:aws:sagemaker:eu-west-1:111122223333:training-job/team-a-*")};
  reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].iam->actions == std::vector<std::string>{"sagemaker:CreateTrainingJob"});

  // A name filter over every resource type still grants each create on matching names.
  w.iam.resources = {Val::Known("arn:aws:sagemaker:*:*:*/*custom-project*")};
  reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].iam->actions.size() == 16);
  w.iam.resources = {Val::Known("arn:aws:sagemaker:*:*:endpoint/*"), Val::Known("arn:aws:s3:::bucket/*")};
  CHECK(Run(w).empty());
  w.iam.resources = {Val::Known("*")};
  w.iam.not_resource = true;
  CHECK(Run(w).empty());
  // An unresolved resource may be anything: the grant stands.
  w.iam.resources = {Val::Unknown()};
  CHECK(Run(w).size() == 1);
}

TEST_CASE("SM501 NotAction covers every launch action it does not name", "[SM501]") {
  Workload w = Statement("Allow", {"sagemaker:Create*", "iam:*"});
  w.iam.not_action = true;
  auto reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].message ==
        std::string("IAM policy 'MLPolicy' statement 1 allows sagemaker:UpdateCluster, sagemaker:UpdateDomain, "
                    "sagemaker:UpdateMonitoringSchedule and 4 more (through NotAction) ") +
            kAnyType);
  w.iam.actions = {Val::Known("sagemaker:*")};
  CHECK(Run(w).empty());
}

TEST_CASE("SM501 ForAllValues with and without the Null guard", "[SM501]") {
  Workload w = Statement("Allow", {"sagemaker:CreateTrainingJob", "sagemaker:CreateHyperParameterTuningJob"});
  w.iam.conditions = {Cond("ForAllValues:StringLike", {"ml.c5.*", "ml.m5.*"}), Cond("Null", {"false"})};
  CHECK(Run(w).empty());

  w.iam.conditions.pop_back();
  auto reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].message ==
        "IAM policy 'MLPolicy' statement 1 allows sagemaker:CreateHyperParameterTuningJob, "
        "sagemaker:CreateTrainingJob for instance types matching \"ml.c5.*\", \"ml.m5.*\" (ForAllValues:StringLike) "
        "without a Null guard: ForAllValues:StringLike is also true when a request names no instance type, so such "
        "requests are allowed too");
  CHECK(reports[0].suggestion == "add \"Null\": {\"sagemaker:InstanceTypes\": \"false\"} to the statement's Condition");

  w.iam.conditions = {Cond("ForAllValues:StringEquals", {"ml.m5.xlarge"}, "SageMaker:instancetypes"),
                      Cond("Null", {"false"}, "sagemaker:InstanceTypes")};
  CHECK(Run(w).empty());
}

TEST_CASE("SM501 other condition forms", "[SM501]") {
  Workload w = Statement("Allow", {"sagemaker:CreateNotebookInstance"});
  w.iam.conditions = {Cond("StringLike", {"ml.t3.*"})};
  CHECK(Run(w).empty());
  w.iam.conditions = {Cond("ForAnyValue:StringNotLike", {"ml.p*"})};
  CHECK(Run(w).empty());
  // A list that matches every type restricts nothing.
  w.iam.conditions = {Cond("ForAllValues:StringLike", {"ml.*"}), Cond("Null", {"false"})};
  CHECK(Run(w).size() == 1);
  // A condition on another key, or only the Null guard, restricts nothing.
  w.iam.conditions = {Cond("StringEquals", {"ml.t3.medium"}, "sagemaker:AcceleratorTypes"), Cond("Null", {"false"})};
  CHECK(Run(w).size() == 1);
}

TEST_CASE("SM501 stays quiet on Deny and on what it cannot see", "[SM501]") {
  Workload deny = Statement("Deny", {"sagemaker:*"});
  deny.iam.conditions = {Cond("ForAnyValue:StringNotLike", {"ml.t3.*", "ml.m5.*"})};
  CHECK(Run(deny).empty());

  Workload unknown_action = Statement("Allow", {"sagemaker:*"});
  unknown_action.iam.actions.push_back(Val::Unknown());
  CHECK(Run(unknown_action).empty());

  Workload incomplete = Statement("Allow", {"sagemaker:*"});
  incomplete.iam.actions_complete = false;
  CHECK(Run(incomplete).empty());

  Workload unknown_condition = Statement("Allow", {"sagemaker:*"});
  unknown_condition.iam.conditions = {Cond("ForAllValues:StringLike", {})};
  unknown_condition.iam.conditions[0].known = false;
  CHECK(Run(unknown_condition).empty());

  Workload unknown_conditions = Statement("Allow", {"sagemaker:*"});
  unknown_conditions.iam.conditions_known = false;
  CHECK(Run(unknown_conditions).empty());

  Workload unknown_effect = Statement("Allow", {"sagemaker:*"});
  unknown_effect.iam.effect = Val::Unknown();
  CHECK(Run(unknown_effect).empty());
}

TEST_CASE("SM501 AmazonSageMakerFullAccess attached by ARN", "[SM501]") {
  Workload w;
  w.kind = WorkloadKind::kIamStatement;
  w.label = "IAM role 'TrainerRole' managed policy AmazonSageMakerFullAccess";
  w.iam.managed_policy = "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess";
  auto reports = Run(w);
  REQUIRE(reports.size() == 1);
  CHECK(reports[0].message ==
        "IAM role 'TrainerRole' managed policy AmazonSageMakerFullAccess attaches the AWS managed policy "
        "AmazonSageMakerFullAccess, which allows sagemaker:* with no sagemaker:InstanceTypes condition: whoever "
        "holds it can launch any instance type, up to multi-GPU ml.p5.48xlarge clusters");
  CHECK(reports[0].suggestion.rfind("replace it with a customer managed policy whose Allow restricts "
                                    "sagemaker:InstanceTypes, or add a Deny with \"ForAnyValue:StringLike\"",
                                    0) == 0);
  CHECK(reports[0].iam->actions.size() == 23);

  w.iam.managed_policy = "arn:aws:iam::aws:policy/AmazonSageMakerReadOnly";
  CHECK(Run(w).empty());
}
