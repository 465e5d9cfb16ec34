// Custom policies: loading and validation, each operator, unknown values, and
// one policy over the same workload in every format.
#include "linter/policy/policy.h"

#include <filesystem>

#include "linter/cli/scan_options.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;

namespace {

std::string LoadError(const std::string& yaml) {
  std::vector<Policy> out;
  std::string error;
  YAML::Node doc = YAML::Load(yaml);
  CHECK(!LoadPolicies(doc["policies"], ".sagelint.yaml", {}, ".", &out, &error));
  return error;
}

std::vector<Policy> Load(const std::string& yaml) {
  std::vector<Policy> out;
  std::string error;
  YAML::Node doc = YAML::Load(yaml);
  INFO(error);
  REQUIRE(LoadPolicies(doc["policies"], ".sagelint.yaml", {}, ".", &out, &error));
  return out;
}

Workload Training(const std::string& type, std::optional<bool> spot, int count) {
  Workload w;
  w.kind = WorkloadKind::kTrainingJob;
  w.name = "job";
  w.instance_type = Val::Known(type, {{3, 5}, {3, 5}});
  if (spot) w.spot = Val::Known(*spot ? "true" : "false");
  w.instance_count = Val::Known(std::to_string(count));
  w.channels.push_back(Channel{"train", Val::Known("s3://b/"), Val::Known("Pipe"), {}, {}, false, {}});
  return w;
}

bool Matches(const std::string& where, const Workload& w) {
  auto p = Load("policies:\n  - id: T1\n    workload: training_job\n    message: m\n    where: " + where + "\n");
  SourceRange at;
  return PolicyMatches(p[0], w, nullptr, &at);
}

}  // namespace

TEST_CASE("policy validation errors name the policy, the key and the line", "[policy]") {
  CHECK(LoadError("policies:\n  - id: ORG001\n    workload: notebook_instance\n    where:\n      instance_typ: x\n"
                  "    message: m\n") ==
        ".sagelint.yaml:5: policy ORG001: unknown attribute 'instance_typ' (did you mean 'instance_type'?)");
  CHECK(LoadError("policies:\n  - id: ORG001\n    workload: notebook_instance\n    where:\n      instance_type: "
                  "{ matchez: x }\n    message: m\n") ==
        ".sagelint.yaml:5: policy ORG001: unknown operator 'matchez' (did you mean 'matches'?)");
  CHECK(
      LoadError("policies:\n  - id: ORG001\n    workload: notebok_instance\n    message: m\n") ==
      ".sagelint.yaml:3: policy ORG001: unknown workload kind 'notebok_instance' (did you mean 'notebook_instance'?)");
  CHECK(LoadError("policies:\n  - id: ORG001\n    workload: notebook_instance\n    where:\n      instance_type: "
                  "{ matches: '(' }\n    message: m\n")
            .rfind(".sagelint.yaml:5: policy ORG001: instance_type: bad regular expression '(':", 0) == 0);
  CHECK(LoadError("policies:\n  - id: ORG001\n    workload: training_job\n    message: a\n"
                  "  - id: ORG001\n    workload: training_job\n    message: b\n") ==
        ".sagelint.yaml:5: policy ORG001: duplicate policy ID");
  CHECK(LoadError("policies:\n  - id: SM900\n    workload: training_job\n    message: m\n") ==
        ".sagelint.yaml:2: policy SM900: IDs starting with SM are reserved for built-in rules");
  CHECK(LoadError("policies:\n  - id: ORG002\n    workload: training_job\n    where:\n      instance_count: { gt: "
                  "many }\n    message: m\n") ==
        ".sagelint.yaml:5: policy ORG002: instance_count: 'many' is not a number");
  CHECK(LoadError("policies:\n  - id: ORG002\n    workload: training_job\n    where:\n      spot: maybe\n"
                  "    message: m\n") == ".sagelint.yaml:5: policy ORG002: spot: 'maybe' is not true or false");
  CHECK(LoadError("policies:\n  - id: ORG002\n    workload: training_job\n    where:\n      image: { gt: 3 }\n"
                  "    message: m\n") == ".sagelint.yaml:5: policy ORG002: image: 'gt' needs a numeric attribute");
  CHECK(LoadError("policies:\n  - id: ORG003\n    workload: training_job\n    mesage: m\n") ==
        ".sagelint.yaml:4: policy ORG003: unknown key 'mesage' (did you mean 'message'?)");
}

TEST_CASE("each operator, and unknown values never match except exists: false", "[policy]") {
  Workload w = Training("ml.p4d.24xlarge", false, 8);
  CHECK(Matches("{ instance_type: ml.p4d.24xlarge }", w));
  CHECK(!Matches("{ instance_type: ml.p5.48xlarge }", w));
  CHECK(Matches("{ instance_family: { in: [p4d, p5] } }", w));
  CHECK(Matches("{ instance_family: { not_in: [g5] } }", w));
  CHECK(Matches("{ instance_type: { matches: '^ml\\.p' } }", w));
  CHECK(!Matches("{ instance_type: { not_matches: 'p4d' } }", w));
  CHECK(Matches("{ instance_count: { gt: 4 } }", w));
  CHECK(Matches("{ instance_count: { ge: 8 } }", w));
  CHECK(!Matches("{ instance_count: { lt: 8 } }", w));
  CHECK(Matches("{ instance_count: { le: 8 } }", w));
  CHECK(Matches("{ accelerator: gpu, spot: false, input_modes: Pipe }", w));
  CHECK(Matches("{ checkpoint: { exists: false } }", w));
  CHECK(!Matches("{ checkpoint: { exists: true } }", w));

  Workload unknown = w;
  unknown.instance_type = Val::Unknown();
  CHECK(!Matches("{ instance_type: { not_matches: '^ml\\.t3' } }", unknown));
  CHECK(!Matches("{ accelerator: none }", unknown));
  CHECK(Matches("{ instance_type: { exists: false } }", unknown));

  Workload absent_spot = Training("ml.g5.xlarge", std::nullopt, 1);
  CHECK(Matches("{ spot: false }", absent_spot));  // a fully visible job without Spot
  absent_spot.complete = false;
  CHECK(!Matches("{ spot: false }", absent_spot));
}

TEST_CASE("a policy applies to the kinds it names only", "[policy]") {
  auto p = Load("policies:\n  - id: ORG010\n    workload: [notebook_instance, studio_domain]\n    message: m\n");
  Workload w = Training("ml.t3.medium", true, 1);
  SourceRange at;
  CHECK(!PolicyMatches(p[0], w, nullptr, &at));
  w.kind = WorkloadKind::kNotebookInstance;
  CHECK(PolicyMatches(p[0], w, nullptr, &at));
}

TEST_CASE("one policy fires on the same workload in CloudFormation, Terraform and Python", "[policy][parity]") {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = {"fixtures/rules/SM401/trigger/workload.yaml", "fixtures/rules/SM401/trigger/workload.tf",
                "fixtures/rules/SM401/trigger/workload.py", "fixtures/rules/SM401/trigger/workload.ipynb"};
  opts.policies = Load(
      "policies:\n  - id: ORG002\n    severity: error\n    workload: [training_job, tuning_job]\n    where:\n"
      "      accelerator: gpu\n      spot: false\n    message: GPU training must use managed Spot\n");
  opts.select = {"ORG002"};
  ScanResult r = Scan(opts);
  std::string lines;
  for (const Finding& f : r.findings) {
    lines += f.path + ":" + std::to_string(f.range.begin.line) + " " + f.rule + " " +
             std::string(SeverityName(f.severity)) + " " + f.message + "\n";
  }
  CHECK(lines ==
        "fixtures/rules/SM401/trigger/workload.ipynb:45 ORG002 error PyTorch estimator 'estimator': GPU training must "
        "use managed Spot\n"
        "fixtures/rules/SM401/trigger/workload.py:11 ORG002 error PyTorch estimator 'estimator': GPU training must use "
        "managed Spot\n"
        "fixtures/rules/SM401/trigger/workload.tf:11 ORG002 error training job 'aws_sagemaker_training_job.train': GPU "
        "training must use managed Spot\n"
        "fixtures/rules/SM401/trigger/workload.yaml:22 ORG002 error training job 'TrainingWorkflow.Train': GPU "
        "training must use managed Spot\n");
  for (const Finding& f : r.findings) {
    REQUIRE(f.cost);
    CHECK(f.cost->instance_type == "ml.g5.2xlarge");
  }
}
