// The command line end to end: exit codes, config errors, suppressions,
// output shapes. Runs the built binary.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>

#include "linter/model/fix.h"
#include "linter/model/rule.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;

namespace {

using Scratch = sagelint::testing::TempDir;

constexpr const char* kNotebook = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
)";

}  // namespace

TEST_CASE("version and help exit 0", "[cli]") {
  auto r = RunSagelint("--version");
  CHECK(r.status == 0);
  CHECK(r.out.rfind("sagelint 0.1.0", 0) == 0);  // and the commit: cli_words_test.cc
  r = RunSagelint("--help");
  CHECK(r.status == 0);
  CHECK(r.out.find("Usage:") != std::string::npos);
}

TEST_CASE("usage errors exit 2 with a message", "[cli]") {
  auto r = RunSagelint("scan --frobnicate");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: unknown flag '--frobnicate' (see sagelint --help)\n");
  r = RunSagelint("scan does/not/exist");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: does/not/exist: no such file or directory\n");
  r = RunSagelint("scan --select SM4O1 .");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --select: unknown rule ID 'SM4O1' (did you mean 'SM401'?)\n");
  r = RunSagelint("scan --fail-on loud .");
  CHECK(r.status == 2);
  r = RunSagelint("scan --format xml .");
  CHECK(r.status == 2);
  CHECK(r.err.find("unknown format 'xml'") != std::string::npos);
}

TEST_CASE("findings exit 1 unless below --fail-on", "[cli]") {
  Scratch s;
  s.Write("nb.yaml", kNotebook);
  auto r = RunSagelint("scan --no-color .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("nb.yaml:3:3: warning[SM201] notebook instance 'Explore' has no lifecycle configuration: it never "
                   "stops when idle\n") == 0);
  CHECK(r.out.find("1 finding (0 errors, 1 warning, 0 notes) in 1 file") != std::string::npos);
  r = RunSagelint("scan --fail-on error .", s.path());
  CHECK(r.status == 0);
  r = RunSagelint("scan --ignore SM201 .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("No findings in 1 file") != std::string::npos);
}

TEST_CASE("configuration is validated strictly", "[cli][config]") {
  Scratch s;
  s.Write("nb.yaml", kNotebook);
  s.Write(".sagelint.yaml", "fail_on: warning\nrulez:\n  SM201: off\n");
  auto r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find(".sagelint.yaml:2: unknown key 'rulez' (did you mean 'rules'?)") != std::string::npos);

  s.Write(".sagelint.yaml", "rules:\n  SM201: sometimes\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find(".sagelint.yaml:2: rules.SM201: 'sometimes' is not one of off, note, warning, error") !=
        std::string::npos);

  s.Write(".sagelint.yaml", "rules:\n  SM999: off\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find(".sagelint.yaml:2: rules: unknown rule ID 'SM999'") != std::string::npos);

  s.Write(".sagelint.yaml", "rules:\n  SM204: { max_keep_alive: 60 }\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("unknown option 'max_keep_alive' (did you mean 'max_keep_alive_seconds'?)") != std::string::npos);

  s.Write(".sagelint.yaml", "rules:\n  SM201: off\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 0);

  s.Write(".sagelint.yaml", "rules:\n  SM201: error\nfail_on: error\n");
  r = RunSagelint("scan --no-color .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("error[SM201]") != std::string::npos);

  s.Write(".sagelint.yaml", "exclude: [\"nb.yaml\"]\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("No findings in 1 file") != std::string::npos);  // only the config itself was read
}

TEST_CASE("comment and metadata suppressions", "[cli][suppress]") {
  Scratch s;
  std::string above = kNotebook;
  above.replace(above.find("  Explore:"), 0, "  # sagelint:ignore=SM201 lab machine, stopped by a scheduler\n");
  s.Write("above.yaml", above);
  std::string meta = kNotebook;
  meta += "    Metadata:\n      sagelint:\n        ignore: [SM201]\n";
  s.Write("meta.yaml", meta);
  auto r = RunSagelint("scan --no-color .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out == "No findings in 2 files, 2 suppressed\n");

  std::string typo = kNotebook;
  typo.replace(typo.find("  Explore:"), 0, "  # sagelint:ignore=SM2O1\n");
  s.Write("typo.yaml", typo);
  r = RunSagelint("scan --no-color --quiet typo.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out ==
        "typo.yaml:3:5: note[SM002] sagelint:ignore names an unknown rule ID 'SM2O1'\n"
        "typo.yaml:4:3: warning[SM201] notebook instance 'Explore' has no lifecycle configuration: it never stops "
        "when idle\n");

  r = RunSagelint("scan --no-color --quiet --report-unused-ignores --ignore SM201 above.yaml", s.path());
  CHECK(r.out == "above.yaml:3:5: note[SM003] sagelint:ignore=SM201 suppresses nothing here\n");
}

TEST_CASE("a broken file is SM000 and the other files are still scanned", "[cli][errors]") {
  Scratch s;
  s.Write("good.yaml", kNotebook);
  s.Write("broken.yaml",
          "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  X: [unclosed, AWS::SageMaker::Model\n");
  auto r = RunSagelint("scan --no-color --quiet .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("broken.yaml:") == 0);
  CHECK(r.out.find("error[SM000]") != std::string::npos);
  CHECK(r.out.find("good.yaml:3:3: warning[SM201]") != std::string::npos);
}

TEST_CASE("JSON output has the stable shape", "[cli][json]") {
  Scratch s;
  s.Write("nb.yaml", kNotebook);
  auto r = RunSagelint("scan --format json .", s.path());
  CHECK(r.status == 1);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["schema_version"] == 1);
  CHECK(doc["tool"]["name"] == "sagelint");
  REQUIRE(doc["findings"].size() == 1);
  const auto& f = doc["findings"][0];
  CHECK(f["rule"] == "SM201");
  CHECK(f["name"] == "notebook-without-lifecycle-config");
  CHECK(f["severity"] == "warning");
  CHECK(f["path"] == "nb.yaml");
  CHECK(f["line"] == 3);
  CHECK(f["column"] == 3);
  CHECK(f["cell"].is_null());
  CHECK(f["resource"] == "notebook instance 'Explore'");
  CHECK(f["iam"]["condition_key"] == "sagemaker:NotebookInstanceLifecycleConfigArns");
  CHECK(f["fingerprint"].get<std::string>().size() == 16);
  CHECK(
      doc["summary"] ==
      nlohmann::json::parse(
          R"({"files_scanned":1,"findings":1,"errors":0,"warnings":1,"notes":0,"suppressed":0,"baselined":0,"avoidable_monthly_usd":0,"unpriced":0,"stale_baseline":0})"));
}

TEST_CASE("rules and explain", "[cli]") {
  auto r = RunSagelint("rules");
  CHECK(r.status == 0);
  CHECK(r.out.find("SM401  training-without-spot") != std::string::npos);
  r = RunSagelint("explain sm401");
  CHECK(r.status == 0);
  CHECK(r.out.find("SM401 training-without-spot (warning)") == 0);
  r = RunSagelint("explain SM4O1");
  CHECK(r.status == 2);
}

TEST_CASE("rules and explain say which rules fix themselves, and how safely", "[cli][fix]") {
  // As written (the rule docs' Markdown); a terminal's rendering: cli_words_test.cc.
  auto r = RunSagelint("explain SM104 --format markdown");
  CHECK(r.out.find("\nFix: safe, applied by `sagelint scan --fix` (see Fix below)\n\n# SM104") != std::string::npos);
  CHECK(r.out.find("\n## Fix\nSafe, applied by `sagelint scan --fix`") != std::string::npos);
  r = RunSagelint("explain studio-without-idle-shutdown --format markdown");
  CHECK(
      r.out.find("\nFix: unsafe (it changes behaviour: review it), applied by `sagelint scan --fix --unsafe-fixes`") !=
      std::string::npos);
  r = RunSagelint("explain SM201 --format markdown");
  CHECK(r.out.find("\nFix: none\n\n# SM201") != std::string::npos);
  CHECK(r.out.find("## Fix") == std::string::npos);

  r = RunSagelint("rules");
  CHECK(r.out.rfind("ID     NAME                                 SEVERITY FIX    SUMMARY\n", 0) == 0);
  CHECK(r.out.find("\nSM105  elastic-inference                    error    safe   An Elastic") != std::string::npos);
  CHECK(r.out.find("\nSM203  studio-without-idle-shutdown         warning  unsafe A Studio") != std::string::npos);
  CHECK(r.out.find("\nSM201  notebook-without-lifecycle-config    warning  -      A notebook") != std::string::npos);
  auto doc = nlohmann::json::parse(RunSagelint("rules --format json").out);
  for (const auto& rule : doc["rules"]) {
    std::optional<sagelint::Applicability> fix = sagelint::RuleFix(rule["id"].get<std::string>());
    CHECK(rule["fix"] == (fix ? nlohmann::json(sagelint::ApplicabilityName(*fix)) : nlohmann::json(nullptr)));
  }
  r = RunSagelint("rules --format markdown");
  CHECK(r.out.rfind("| ID | name | default | fix | what it finds | IAM guard |\n", 0) == 0);
  CHECK(r.out.find("| [SM403](rules/SM403.md) | `spot-max-wait-invalid` | error | safe |") != std::string::npos);
}

TEST_CASE("custom policies from the configuration: scan, rules, explain, typos", "[cli][policy]") {
  Scratch s;
  s.Write("nb.yaml", kNotebook);
  s.Write(".sagelint.yaml", "policy_files: [policies.yaml]\nrules:\n  SM201: off\n");
  s.Write(
      "policies.yaml",
      "policies:\n  - id: ORG001\n    severity: error\n    workload: notebook_instance\n    where:\n"
      "      instance_type: { not_matches: '^ml\\.(t3|m5)\\.large$' }\n    message: notebooks must be t3/m5 large\n");
  auto r = RunSagelint("scan --no-color --quiet .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out == "nb.yaml:6:21: error[ORG001] notebook instance 'Explore': notebooks must be t3/m5 large\n");
  r = RunSagelint("scan --quiet --ignore ORG001 .", s.path());
  CHECK(r.status == 0);
  r = RunSagelint("rules", s.path());
  CHECK(r.out.find("Custom policies:\nORG001") != std::string::npos);
  r = RunSagelint("explain ORG001", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("custom policy ORG001 (error, policies.yaml:2): notebooks must be t3/m5 large") == 0);
  s.Write("policies.yaml",
          "policies:\n  - id: ORG001\n    workload: notebook_instance\n    where:\n"
          "      instance_typ: x\n    message: m\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: policies.yaml:5: policy ORG001: unknown attribute 'instance_typ' (did you mean "
        "'instance_type'?)\n");
}

TEST_CASE("inventory lists every workload", "[cli][inventory]") {
  Scratch s;
  s.Write("nb.yaml", kNotebook);
  auto r = RunSagelint("inventory --format csv .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out ==
        "kind,resource,location,instance_type,instance_count,accelerator,spot,input_modes,lifecycle_config,"
        "idle_shutdown,autoscaling,hourly_usd,monthly_usd,currency\n"
        "notebook_instance,notebook instance 'Explore',nb.yaml:3,ml.t3.xlarge,-,none,-,-,-,false,-,0.2,146,USD\n");
  r = RunSagelint("inventory --format json .", s.path());
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["workloads"][0]["instance_type"] == "ml.t3.xlarge");
  CHECK(doc["workloads"][0]["idle_shutdown"] == false);
}

TEST_CASE("inventory counts ManagedInstanceScaling as autoscaling", "[cli][inventory]") {
  Scratch s;
  s.Write("managed.yaml",
          "Resources:\n"
          "  Config:\n"
          "    Type: AWS::SageMaker::EndpointConfig\n"
          "    Properties:\n"
          "      ProductionVariants:\n"
          "        - VariantName: Managed\n"
          "          ModelName: m\n"
          "          InstanceType: ml.m5.large\n"
          "          InitialInstanceCount: 2\n"
          "          ManagedInstanceScaling: {Status: ENABLED, MinInstanceCount: 1, MaxInstanceCount: 4}\n"
          "        - VariantName: Fixed\n"
          "          ModelName: m\n"
          "          InstanceType: ml.m5.large\n"
          "          InitialInstanceCount: 2\n"
          "          ManagedInstanceScaling: {Status: DISABLED}\n");
  s.Write("managed.tf",
          "resource \"aws_sagemaker_endpoint_configuration\" \"tf\" {\n"
          "  production_variants {\n"
          "    variant_name           = \"Managed\"\n"
          "    model_name             = \"m\"\n"
          "    instance_type          = \"ml.m5.large\"\n"
          "    initial_instance_count = 2\n"
          "    managed_instance_scaling {\n"
          "      status             = \"ENABLED\"\n"
          "      min_instance_count = 1\n"
          "      max_instance_count = 4\n"
          "    }\n"
          "  }\n"
          "}\n");
  auto r = RunSagelint("inventory --format json .", s.path());
  REQUIRE(r.status == 0);
  INFO(r.out);
  auto doc = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_resource;
  for (const auto& w : doc["workloads"]) {
    by_resource[w["resource"].get<std::string>()] = w["autoscaling"];
  }
  CHECK(by_resource["endpoint variant 'Config/Managed'"] == true);
  // No endpoint deploys the configuration: whether a scalable target names it is unknown.
  CHECK(by_resource["endpoint variant 'Config/Fixed'"].is_null());
  CHECK(by_resource["endpoint variant 'aws_sagemaker_endpoint_configuration.tf/Managed'"] == true);
  CHECK(by_resource.size() == 3);
}

TEST_CASE("template configuration files from --param-file and parameter_files:", "[cli][params]") {
  Scratch s;
  s.Write(".git/HEAD", "ref: refs/heads/main\n");
  s.Write("svc/a/endpoint.yaml",
          sagelint::testing::ReadFileOrDie(SourcePath("fixtures/parsers/cloudformation/params/endpoint.yaml")));
  s.Write("svc/a/staging-config.json",
          sagelint::testing::ReadFileOrDie(SourcePath("fixtures/parsers/cloudformation/params/staging-config.json")));
  s.Write("svc/a/prod-config.json",
          sagelint::testing::ReadFileOrDie(SourcePath("fixtures/parsers/cloudformation/params/prod-config.json")));
  // As a user would: one file on the command line.
  auto r = RunSagelint("scan --no-color --fail-on none --param-file svc/a/prod-config.json .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("cost: 2 × ml.g5.xlarge") != std::string::npos);
  // Every project's pair from the configuration: one evaluation each, named in the findings.
  s.Write(".sagelint.yaml", "parameter_files:\n  \"**/endpoint.yaml\": [staging-config.json, prod-config.json]\n");
  r = RunSagelint("scan --format json --fail-on none .", s.path());
  CHECK(r.status == 0);
  auto doc = nlohmann::json::parse(r.out);
  std::vector<std::string> resources;
  for (const auto& f : doc["findings"])
    resources.push_back(f["resource"].get<std::string>() + " " + f["rule"].get<std::string>());
  CHECK(std::count(resources.begin(), resources.end(),
                   "endpoint variant 'Config/AllTraffic' (parameters from prod-config.json) SM211") == 1);
  // Staging runs one instance: autoscaling could not shrink it (SM211 is silent there).
  CHECK(std::count(resources.begin(), resources.end(),
                   "endpoint variant 'Config/AllTraffic' (parameters from staging-config.json) SM211") == 0);
  // A broken file is a usage error with its position.
  s.Write("bad.json", "{\"Parameters\": [1, 2]}");
  r = RunSagelint("scan --param-file bad.json .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: --param-file: bad.json:1:1: expected {\"Parameters\": {...}} or [{\"ParameterKey\": ..., "
        "\"ParameterValue\": ...}]\n");
  s.Write(".sagelint.yaml", "parameter_files:\n  \"**/endpoint.yaml\": []\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("parameter_files.**/endpoint.yaml: name one or more parameter files") != std::string::npos);
}
