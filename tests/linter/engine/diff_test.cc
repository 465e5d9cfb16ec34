// `sagelint diff` and fingerprints (README "Adopting it", §10), end to end on git
// repositories the tests build themselves.
#include <sys/stat.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

constexpr const char* kNotebook = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
)";

constexpr const char* kEndpoint = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: scoring
          InstanceType: ml.g5.2xlarge
          InitialInstanceCount: 2
  Endpoint:
    Type: AWS::SageMaker::Endpoint
    Properties:
      EndpointConfigName: !GetAtt Config.EndpointConfigName
)";

using Repo = sagelint::testing::GitRepo;

nlohmann::json Json(const std::string& out) {
  auto j = nlohmann::json::parse(out, nullptr, false);
  REQUIRE(!j.is_discarded());
  return j;
}

std::multiset<std::string> Fingerprints(const nlohmann::json& findings) {
  std::multiset<std::string> out;
  for (const auto& f : findings) out.insert(f["fingerprint"].get<std::string>());
  return out;
}

}  // namespace

TEST_CASE("diff: an added unscaled two-instance endpoint costs money and is one new finding", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("base");
  repo.Write("infra/endpoint.yaml", kEndpoint);  // the base has no such file
  repo.Commit("head");

  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  REQUIRE(r.status == 1);
  auto j = Json(r.out);
  REQUIRE(j["new"].size() == 1);
  CHECK(j["new"][0]["rule"] == "SM211");
  CHECK(j["new"][0]["path"] == "infra/endpoint.yaml");
  CHECK(j["resolved"].empty());
  REQUIRE(j["spend_delta"]["workloads"].size() == 1);
  const auto& w = j["spend_delta"]["workloads"][0];
  CHECK(w["change"] == "added");
  CHECK(w["before"].is_null());
  CHECK(w["after"]["instance_type"] == "ml.g5.2xlarge");
  CHECK(w["after"]["instance_count"] == 2);
  CHECK(w["monthly_usd_delta"].get<double>() > 1000);
  CHECK(j["spend_delta"]["total_monthly_usd"] == w["monthly_usd_delta"]);
  // The notebook's finding exists on both sides: not new.
  CHECK(j["findings"].size() == 2);

  r = RunSagelint("diff --base HEAD~1 --format markdown", repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.rfind("<!-- sagelint-diff -->\n### sagelint: +$", 0) == 0);
  CHECK(r.out.find("/month of always-on SageMaker spend; 1 new finding\n") != std::string::npos);
  CHECK(r.out.find(
            "| endpoint variant 'Config/AllTraffic'<br><sub>infra/endpoint.yaml:7</sub> | — | 2 × ml.g5.2xlarge") !=
        std::string::npos);
  CHECK(r.out.find("- 🟠 `SM211` L10 ") != std::string::npos);

  // SARIF carries the new finding only.
  r = RunSagelint("diff --base HEAD~1 --format sarif", repo.path());
  auto sarif = Json(r.out);
  REQUIRE(sarif["runs"][0]["results"].size() == 1);
  CHECK(sarif["runs"][0]["results"][0]["ruleId"] == "SM211");

  // --fail-on applies to new findings only.
  r = RunSagelint("diff --base HEAD~1 --fail-on error", repo.path());
  CHECK(r.status == 0);
}

TEST_CASE("diff: a pure rename adds no finding and changes no spend", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("base");
  repo.Write("teams/ml/notebook.yaml", kNotebook);
  repo.Git("rm -q infra/notebook.yaml");
  repo.Commit("rename");

  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  CHECK(r.status == 0);
  auto j = Json(r.out);
  CHECK(j["new"].empty());
  CHECK(j["resolved"].empty());
  CHECK(j["spend_delta"]["workloads"].empty());
  CHECK(j["spend_delta"]["total_monthly_usd"] == 0);

  // Also when the rename is not committed yet (the work tree against HEAD).
  repo.Git("mv teams/ml/notebook.yaml notebook.yaml");
  r = RunSagelint("diff --base HEAD --format json", repo.path());
  CHECK(r.status == 0);
  CHECK(Json(r.out)["new"].empty());
}

TEST_CASE("diff: deleting a notebook instance resolves its findings and lowers spend", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("base");
  repo.Git("rm -q infra/notebook.yaml");
  repo.Commit("remove the notebook");

  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  CHECK(r.status == 0);
  auto j = Json(r.out);
  CHECK(j["new"].empty());
  REQUIRE(j["resolved"].size() == 1);
  CHECK(j["resolved"][0]["rule"] == "SM201");
  CHECK(j["resolved"][0]["path"] == "infra/notebook.yaml");
  REQUIRE(j["spend_delta"]["workloads"].size() == 1);
  const auto& w = j["spend_delta"]["workloads"][0];
  CHECK(w["change"] == "removed");
  CHECK(w["after"].is_null());
  CHECK(w["monthly_usd_delta"].get<double>() < 0);
  CHECK(j["spend_delta"]["total_monthly_usd"].get<double>() < 0);

  r = RunSagelint("diff --base HEAD~1", repo.path());
  CHECK(r.out.find("Resolved (1):\n  infra/notebook.yaml:3: warning[SM201]") != std::string::npos);
  CHECK(r.out.find("  - notebook instance 'Explore' (infra/notebook.yaml): ml.t3.xlarge, −$") != std::string::npos);
  CHECK(r.out.find("/month of always-on SageMaker spend; no new findings, 1 resolved (against HEAD~1)\n") !=
        std::string::npos);
}

TEST_CASE("diff: a file that did not parse at the base", "[diff]") {
  Repo repo;
  repo.Write("infra/endpoint.yaml", std::string(kEndpoint) + "  Broken: [\n");
  repo.Commit("base");
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("fixed");

  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  CHECK(r.status == 1);
  auto j = Json(r.out);
  REQUIRE(j["resolved"].size() == 1);
  CHECK(j["resolved"][0]["rule"] == "SM000");
  REQUIRE(j["new"].size() == 1);
  CHECK(j["new"][0]["rule"] == "SM211");
}

TEST_CASE(
    "diff: both sides are checked under the base's configuration, and --config-from head checks each under its own",
    "[diff]") {
  Repo repo;
  repo.Write(".sagelint.yaml", "rules:\n  SM211: off\n");
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("base: SM211 off");
  repo.Write(".sagelint.yaml", "fail_on: warning\n");
  repo.Commit("head: SM211 on");
  // The base's rules are in force: SM211 stays off; turning it on is a note.
  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  CHECK(r.status == 0);
  auto j = Json(r.out);
  REQUIRE(j["new"].size() == 1);
  CHECK(j["new"][0]["rule"] == "SM006");
  CHECK(j["new"][0]["severity"] == "note");
  CHECK(j["new"][0]["message"] == "the change turns on SM211 (endpoint-without-autoscaling)");
  CHECK(j["new"][0]["path"] == ".sagelint.yaml");
  CHECK(j["spend_delta"]["workloads"].empty());
  // Each side under its own: the endpoint's SM211 is new.
  r = RunSagelint("diff --base HEAD~1 --config-from head --format json", repo.path());
  CHECK(r.status == 1);
  j = Json(r.out);
  REQUIRE(j["new"].size() == 1);
  CHECK(j["new"][0]["rule"] == "SM211");
  r = RunSagelint("diff --base HEAD~1 --config-from theirs", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --config-from expects base or head, got 'theirs'\n");
}

TEST_CASE("diff: the work tree and the index are not touched", "[diff]") {
  Repo repo;
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("base");
  repo.Write("infra/notebook.yaml", kNotebook);  // untracked
  repo.Write("infra/endpoint.yaml", std::string(kEndpoint) + "# edited\n");
  struct stat before {};
  REQUIRE(::stat((repo.path() + "/.git/index").c_str(), &before) == 0);
  auto r = RunSagelint("diff --base HEAD", repo.path());
  CHECK(r.status == 1);
  struct stat after {};
  REQUIRE(::stat((repo.path() + "/.git/index").c_str(), &after) == 0);
  CHECK(before.st_mtim.tv_sec == after.st_mtim.tv_sec);
  CHECK(before.st_mtim.tv_nsec == after.st_mtim.tv_nsec);
  CHECK(before.st_size == after.st_size);
  std::ifstream in(repo.path() + "/infra/endpoint.yaml");
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == std::string(kEndpoint) + "# edited\n");
  // The untracked notebook is part of the work tree: its findings are new.
  CHECK(r.out.find("infra/notebook.yaml:3:3: warning[SM201]") != std::string::npos);
}

TEST_CASE("diff: usage errors", "[diff]") {
  Repo repo;
  repo.Write("infra/endpoint.yaml", kEndpoint);
  repo.Commit("base");
  auto r = RunSagelint("diff --base no-such-branch", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("--base: 'no-such-branch' is not a commit") != std::string::npos);
  r = RunSagelint("diff --base '--output=/tmp/x'", repo.path());
  CHECK(r.status == 2);
  r = RunSagelint("diff", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("diff needs --base REF") != std::string::npos);
  TempDir plain;
  plain.Write("endpoint.yaml", kEndpoint);
  r = RunSagelint("diff --base HEAD .", plain.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("is not inside a git work tree") != std::string::npos);
}

TEST_CASE("fingerprints do not depend on the working directory", "[fingerprint]") {
  Repo repo;
  repo.Write("infra/ml/endpoint.yaml", kEndpoint);
  repo.Write("infra/ml/notebook.yaml", kNotebook);
  repo.Commit("base");
  auto from_root = Json(RunSagelint("scan --format json --fail-on none .", repo.path()).out);
  auto from_sub = Json(RunSagelint("scan --format json --fail-on none ../..", repo.path() + "/infra/ml").out);
  auto from_outside =
      Json(RunSagelint("scan --format json --fail-on none '" + repo.path() + "'", fs::temp_directory_path()).out);
  REQUIRE(from_root["findings"].size() == 2);
  CHECK(Fingerprints(from_root["findings"]) == Fingerprints(from_sub["findings"]));
  CHECK(Fingerprints(from_root["findings"]) == Fingerprints(from_outside["findings"]));
}

TEST_CASE("identical findings get distinct fingerprints, and a baseline hides as many as it records", "[fingerprint]") {
  Repo repo;
  // Two notebooks of the same shape in one file: two findings per rule, distinct fingerprints.
  std::string two = std::string(kNotebook) + R"(  Explore2:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
)";
  repo.Write("nb.yaml", two);
  auto scan = Json(RunSagelint("scan --format json --fail-on none .", repo.path()).out);
  auto fps = Fingerprints(scan["findings"]);
  CHECK(fps.size() == scan["findings"].size());
  CHECK(std::set<std::string>(fps.begin(), fps.end()).size() == fps.size());

  // A baseline of one notebook hides that notebook's finding, not the copy added later.
  repo.Write("nb.yaml", kNotebook);
  REQUIRE(RunSagelint("scan --write-baseline base.json .", repo.path()).status == 0);
  repo.Write("nb.yaml", two);
  auto r = RunSagelint("scan --baseline base.json --format json .", repo.path());
  CHECK(r.status == 1);
  auto j = Json(r.out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["summary"]["baselined"] == 1);
}

TEST_CASE("a schema 1 baseline is still read, with a note", "[fingerprint]") {
  Repo repo;
  repo.Write("nb.yaml", kNotebook);
  // What the first baselines recorded: rule, path, resource, message, condition hashed together.
  auto current = Json(RunSagelint("scan --format json --fail-on none .", repo.path()).out);
  REQUIRE(current["findings"].size() == 1);
  // FNV-1a of the fields, each followed by 0xff (the first fingerprint algorithm).
  auto legacy = [](const nlohmann::json& f) {
    std::uint64_t h = 1469598103934665603ull;
    for (std::string s : {f["rule"].get<std::string>(), f["path"].get<std::string>(), f["resource"].get<std::string>(),
                          f["message"].get<std::string>(), std::string()}) {
      for (unsigned char c : s) {
        h ^= c;
        h *= 1099511628211ull;
      }
      h ^= 0xff;
      h *= 1099511628211ull;
    }
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return std::string(buf);
  };
  nlohmann::json old = {{"schema_version", 1},
                        {"tool", "sagelint"},
                        {"findings", {{{"fingerprint", legacy(current["findings"][0])}, {"rule", "SM201"}}}}};
  repo.Write("old.json", old.dump());
  auto r = RunSagelint("scan --baseline old.json .", repo.path());
  CHECK(r.status == 0);
  CHECK(r.err.find("schema 1 baseline") != std::string::npos);
  repo.Write("bad.json", R"({"schema_version": 7, "findings": []})");
  r = RunSagelint("scan --baseline bad.json .", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("schema_version 7") != std::string::npos);
}

TEST_CASE("diff: an unknown price is shown as ? and never counted as zero", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("base");
  std::string unknown = kEndpoint;
  unknown.replace(unknown.find("ml.g5.2xlarge"), 13, "!Ref ScoringInstanceType");
  unknown.insert(unknown.find("Resources:"), "Parameters:\n  ScoringInstanceType:\n    Type: String\n");
  repo.Write("infra/endpoint.yaml", unknown);
  repo.Commit("head");
  auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  auto j = Json(r.out);
  REQUIRE(j["spend_delta"]["workloads"].size() == 1);
  CHECK(j["spend_delta"]["workloads"][0]["monthly_usd_delta"].is_null());
  // Unknown is null in JSON, as in inventory JSON; the count is a number.
  CHECK(j["spend_delta"]["workloads"][0]["after"]["instance_type"].is_null());
  CHECK(j["spend_delta"]["workloads"][0]["after"]["instance_count"] == 2);
  CHECK(j["spend_delta"]["total_monthly_usd"] == 0);
  CHECK(j["spend_delta"]["unpriced_changes"] == 1);
  r = RunSagelint("diff --base HEAD~1 --format markdown", repo.path());
  CHECK(r.out.find("no change in always-on SageMaker spend (1 more change of unknown price)") != std::string::npos);
  CHECK(r.out.find("| — | 2 × ? · ? | ? |") != std::string::npos);
}

namespace {

// A notebook that deploys an endpoint; `cleanup` adds a cell that deletes it.
std::string DemoNotebook(bool cleanup) {
  std::string cells =
      R"nb({"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, "source": [)nb"
      R"nb("from sagemaker.model import Model\n", "model = Model(image_uri=\"img:1\", role=\"r\")\n", )nb"
      R"nb("predictor = model.deploy(initial_instance_count=2, instance_type=\"ml.g5.2xlarge\")"]})nb";
  if (cleanup) {
    cells += R"nb(, {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, )nb"
             R"nb("source": ["predictor.delete_endpoint()"]})nb";
  }
  return R"nb({"cells": [)nb" + cells +
         R"nb(], "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, )nb"
         R"nb("nbformat_minor": 5})nb";
}

}  // namespace

TEST_CASE("diff: a notebook endpoint its workflow deletes is hourly spend, never in the monthly delta", "[diff]") {
  SECTION("an added demo that cleans up after itself") {
    Repo repo;
    repo.Write("infra/notebook.yaml", kNotebook);
    repo.Commit("base");
    repo.Write("demo/deploy.ipynb", DemoNotebook(true));
    repo.Commit("head");
    auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
    auto j = Json(r.out);
    CHECK(j["new"].empty());  // neither SM213 nor SM211: the endpoint runs only while the notebook does
    REQUIRE(j["spend_delta"]["workloads"].size() == 1);
    const auto& w = j["spend_delta"]["workloads"][0];
    CHECK(w["change"] == "added");
    CHECK(w["after"]["instance_type"] == "ml.g5.2xlarge");
    CHECK(w["after"]["hourly_usd"].get<double>() > 0);
    CHECK(w["after"]["monthly_usd"].is_null());
    CHECK(w["monthly_usd_delta"].is_null());
    CHECK(j["spend_delta"]["total_monthly_usd"] == 0);
    CHECK(j["spend_delta"]["unpriced_changes"] == 0);
  }
  SECTION("a clean-up cell added to a demo that left its endpoint running") {
    Repo repo;
    repo.Write("demo/deploy.ipynb", DemoNotebook(false));
    repo.Commit("base");
    repo.Write("demo/deploy.ipynb", DemoNotebook(true));
    repo.Commit("head");
    auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
    auto j = Json(r.out);
    CHECK(j["new"].empty());
    std::multiset<std::string> resolved;
    for (const auto& f : j["resolved"]) resolved.insert(f["rule"].get<std::string>());
    CHECK(resolved == std::multiset<std::string>{"SM211", "SM213"});
    REQUIRE(j["spend_delta"]["workloads"].size() == 1);
    const auto& w = j["spend_delta"]["workloads"][0];
    CHECK(w["change"] == "changed");
    double before = w["before"]["monthly_usd"].get<double>();
    CHECK(before > 1000);
    CHECK(w["after"]["monthly_usd"].is_null());
    CHECK(w["monthly_usd_delta"].get<double>() == Approx(-before));
    CHECK(j["spend_delta"]["total_monthly_usd"].get<double>() == Approx(-before));
    r = RunSagelint("diff --base HEAD~1 --format markdown", repo.path());
    CHECK(r.out.find("/month · ") == std::string::npos);
  }
}

TEST_CASE("diff: the pull-request comment stays short", "[diff]") {
  Repo repo;
  repo.Write("README", "empty\n");
  repo.Commit("base");
  std::string many = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n";
  for (int i = 0; i < 80; ++i) {
    many += "  Explore" + std::to_string(i) + ":\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n" +
            "      InstanceType: ml.p3.2xlarge\n";
  }
  repo.Write("infra/notebooks.yaml", many);
  auto r = RunSagelint("diff --base HEAD --format markdown", repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.size() < 65536);
  CHECK(r.out.find("…and 110 more new findings: see the code scanning (SARIF) results.") != std::string::npos);
  auto j = Json(RunSagelint("diff --base HEAD --format json", repo.path()).out);
  CHECK(j["new"].size() == 160);  // SM103 and SM201 on each
}

namespace {

// Copies the files of `from` (a fixture folder) into the repository, replacing what was there.
void Replace(const Repo& repo, const fs::path& from) {
  for (const auto& e : fs::directory_iterator(repo.path())) {
    if (e.path().filename() != ".git") fs::remove_all(e.path());
  }
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    if (!e.is_regular_file()) continue;
    repo.Write(e.path().lexically_relative(from).generic_string(), sagelint::testing::ReadFileOrDie(e.path()));
  }
}

}  // namespace

TEST_CASE("SM006 fixtures: a change that weakens the gate's configuration, and one that does not", "[diff][rules]") {
  std::string snapshot;
  for (const char* kind : {"trigger", "clean"}) {
    fs::path dir = sagelint::testing::SourcePath(std::string("fixtures/rules/SM006/") + kind);
    Repo repo;
    Replace(repo, dir / "base");
    repo.Commit("base");
    Replace(repo, dir / "head");
    auto r = RunSagelint("diff --base HEAD --format json --fail-on none", repo.path());
    INFO(r.err);
    REQUIRE(r.status == 0);
    int errors = 0, found = 0;
    auto j = Json(r.out);
    for (const auto& f : j["new"]) {
      if (f["rule"] != "SM006") continue;
      ++found;
      errors += f["severity"] == "error";
      snapshot += std::string(kind) + "/" + f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) +
                  ": " + f["severity"].get<std::string>() + "[SM006] " + f["message"].get<std::string>() + "\n";
    }
    if (std::string(kind) == "trigger") {
      CHECK(errors > 0);
    } else {
      CHECK(found == 0);
    }
  }
  CHECK(sagelint::testing::CompareGolden("fixtures/rules/SM006/expected.txt", snapshot) == "");
}

TEST_CASE("diff: a change cannot exclude its own workloads from the gate", "[diff]") {
  // The attack: exclude everything while moving a notebook to ml.p3.16xlarge.
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("base");
  std::string big = kNotebook;
  big.replace(big.find("ml.t3.xlarge"), 12, "ml.p3.16xlarge");
  repo.Write("infra/notebook.yaml", big);
  repo.Write(".sagelint.yaml", "exclude: [\"**\"]\n");
  auto r = RunSagelint("diff --base HEAD --format json", repo.path());
  CHECK(r.status == 1);
  auto j = Json(r.out);
  std::multiset<std::string> rules;
  for (const auto& f : j["new"]) rules.insert(f["rule"].get<std::string>() + " " + f["severity"].get<std::string>());
  // SM201 (no lifecycle configuration) is the same finding on both sides.
  CHECK(rules == std::multiset<std::string>{"SM006 error", "SM006 note", "SM103 warning"});
  CHECK(j["resolved"].empty());
  REQUIRE(j["spend_delta"]["workloads"].size() == 1);
  CHECK(j["spend_delta"]["workloads"][0]["after"]["instance_type"] == "ml.p3.16xlarge");
  r = RunSagelint("diff --base HEAD --format text", repo.path());
  CHECK(r.out.find(".sagelint.yaml:1:1: error[SM006] the change adds the exclude pattern '**': the files it matches "
                   "are no longer checked") != std::string::npos);
}

TEST_CASE("diff: the base's baseline and policies are in force, and adding baseline entries is SM006", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Write(".sagelint.yaml",
             "policies:\n  - id: ORG001\n    severity: error\n    workload: notebook_instance\n    where:\n"
             "      instance_type: { not_matches: '^ml\\.t3\\.' }\n    message: notebooks use ml.t3\n");
  repo.Commit("no baseline yet");
  REQUIRE(RunSagelint("scan --write-baseline base.json --fail-on none .", repo.path()).status == 0);
  repo.Commit("base: the findings of the notebook recorded");
  // The change: a second notebook on a GPU, recorded in the baseline, and the policy removed.
  std::string gpu = kNotebook;
  gpu.replace(gpu.find("Explore"), 7, "Gpu");
  gpu.replace(gpu.find("ml.t3.xlarge"), 12, "ml.g5.xlarge");
  repo.Write("infra/gpu.yaml", gpu);
  repo.Write(".sagelint.yaml", "fail_on: warning\n");
  REQUIRE(RunSagelint("scan --write-baseline base.json --fail-on none .", repo.path()).status == 0);
  auto r = RunSagelint("diff --base HEAD --baseline base.json --format json", repo.path());
  CHECK(r.status == 1);
  auto j = Json(r.out);
  std::multiset<std::string> rules;
  for (const auto& f : j["new"]) rules.insert(f["rule"].get<std::string>() + " " + f["severity"].get<std::string>());
  CHECK(rules ==
        std::multiset<std::string>{"ORG001 error", "SM006 error", "SM006 error", "SM103 warning", "SM201 warning"});
  std::set<std::string> messages;
  for (const auto& f : j["new"]) {
    if (f["rule"] == "SM006") messages.insert(f["path"].get<std::string>() + ": " + f["message"].get<std::string>());
  }
  CHECK(messages == std::set<std::string>{
                        ".sagelint.yaml: the change removes the custom policy ORG001",
                        "base.json: the change adds 2 entries to the baseline: the findings they record are hidden "
                        "from the gate"});
  // Each side under its own configuration: the baseline hides the new notebook.
  r = RunSagelint("diff --base HEAD --baseline base.json --config-from head --format json", repo.path());
  CHECK(r.status == 0);
}

TEST_CASE("diff: the configuration's baseline: is in force, and pointing it at another file is SM006", "[diff]") {
  Repo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Write(".sagelint.yaml", "baseline: base.json\n");
  REQUIRE(RunSagelint("scan --write-baseline base.json --fail-on none .", repo.path()).status == 0);
  repo.Commit("base: the findings of the notebook recorded in the configured baseline");
  // The base's baseline hides the old notebook's findings on both sides.
  auto r = RunSagelint("diff --base HEAD --format json", repo.path());
  CHECK(r.status == 0);
  CHECK(Json(r.out)["new"].empty());
  // The change: a GPU notebook, recorded in a new file the configuration now names.
  std::string gpu = kNotebook;
  gpu.replace(gpu.find("Explore"), 7, "Gpu");
  gpu.replace(gpu.find("ml.t3.xlarge"), 12, "ml.g5.xlarge");
  repo.Write("infra/gpu.yaml", gpu);
  REQUIRE(RunSagelint("scan --write-baseline all.json --fail-on none .", repo.path()).status == 0);
  repo.Write(".sagelint.yaml", "baseline: all.json\n");
  r = RunSagelint("diff --base HEAD --format json", repo.path());
  CHECK(r.status == 1);
  auto j = Json(r.out);
  std::multiset<std::string> rules;
  for (const auto& f : j["new"]) rules.insert(f["rule"].get<std::string>());
  CHECK(rules == std::multiset<std::string>{"SM006", "SM103", "SM201"});
  for (const auto& f : j["new"]) {
    if (f["rule"] != "SM006") continue;
    CHECK(f["path"] == "all.json");
    CHECK(f["message"] ==
          "the change adds 2 entries to the baseline: the findings they record are hidden from the gate");
  }
  // Under its own configuration the change hides its notebook.
  CHECK(RunSagelint("diff --base HEAD --config-from head", repo.path()).status == 0);
  // A baseline outside the scan root is refused, naming the key.
  repo.Write(".sagelint.yaml", "baseline: ../elsewhere.json\n");
  r = RunSagelint("diff --base HEAD --config-from head", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("baseline: ../elsewhere.json is outside the scan root") != std::string::npos);
}

TEST_CASE("diff: the pull-request comment fits GitHub's limit, the spend table and the findings sharing it", "[diff]") {
  Repo repo;
  auto notebooks = [](int file, const std::string& type) {
    std::string t = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n";
    for (int i = 0; i < 100; ++i) {
      t += "  Notebook" + std::to_string(file) + "x" + std::to_string(i) +
           "WithAQuiteLongLogicalIdAsGeneratedTemplatesHave:\n    Type: AWS::SageMaker::NotebookInstance\n"
           "    Properties:\n      InstanceType: " +
           type + "\n";
    }
    return t;
  };
  for (int f = 0; f < 6; ++f) repo.Write("infra/nb" + std::to_string(f) + ".yaml", notebooks(f, "ml.t3.medium"));
  repo.Commit("base");
  for (int f = 0; f < 6; ++f) repo.Write("infra/nb" + std::to_string(f) + ".yaml", notebooks(f, "ml.p3.8xlarge"));
  auto r = RunSagelint("diff --base HEAD --format markdown", repo.path());
  CHECK(r.status == 1);
  size_t chars = 0;
  for (unsigned char c : r.out) chars += (c & 0xC0) != 0x80;
  // Before: 184k characters, which GitHub refuses.
  CHECK(chars <= 65536);
  CHECK(r.out.find("| Workload | Before | After | Monthly Δ |") != std::string::npos);
  CHECK(r.out.find(" more changed workloads, smaller changes: see the JSON or text output.") != std::string::npos);
  CHECK(r.out.find("**New findings**") != std::string::npos);
  CHECK(r.out.find(" more new findings: see the code scanning (SARIF) results.") != std::string::npos);
  CHECK(r.out.rfind("<sub>Against HEAD (") != std::string::npos);
}

namespace {

// A local module that declares one notebook instance of the caller's type.
constexpr const char* kNotebookModule = R"(variable "instance_type" {}

resource "aws_sagemaker_notebook_instance" "this" {
  name                  = "nb"
  role_arn              = "arn:aws:iam::123456789012:role/x"
  instance_type         = var.instance_type
  lifecycle_config_name = "autostop"
}
)";

std::string ModuleCall(const std::string& name, const std::string& instance_type) {
  return "module \"" + name + "\" {\n  source        = \"./modules/nb\"\n  instance_type = \"" + instance_type +
         "\"\n}\n";
}

}  // namespace

TEST_CASE("diff: a finding in a module the change reached through its caller is placed at the caller", "[diff]") {
  SECTION("the caller's argument, with the module's line in the message") {
    Repo repo;
    repo.Write("modules/nb/main.tf", kNotebookModule);
    repo.Write("main.tf", ModuleCall("nb", "ml.t3.medium"));
    repo.Commit("base");
    repo.Write("main.tf", ModuleCall("nb", "ml.p3.2xlarge"));
    repo.Commit("a GPU notebook");

    auto r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
    CHECK(r.status == 1);
    auto j = Json(r.out);
    REQUIRE(j["new"].size() == 1);
    const auto& f = j["new"][0];
    CHECK(f["rule"] == "SM103");
    CHECK(f["path"] == "main.tf");
    CHECK(f["line"] == 3);  // instance_type = "ml.p3.2xlarge"
    CHECK(f["column"] == 19);
    std::string message = f["message"];
    CHECK(message.ends_with(" (in modules/nb/main.tf:6)"));
    // The same finding as a scan reports it: same identity, at the module's line.
    auto scan = Json(RunSagelint("scan --format json .", repo.path()).out);
    REQUIRE(scan["findings"].size() == 1);
    CHECK(scan["findings"][0]["path"] == "modules/nb/main.tf");
    CHECK(scan["findings"][0]["line"] == 6);
    CHECK(scan["findings"][0]["fingerprint"] == f["fingerprint"]);
    CHECK(message.starts_with(scan["findings"][0]["message"].get<std::string>()));
    // Pre-commit on the caller blames the same line.
    auto staged = Json(RunSagelint("scan --format json main.tf", repo.path()).out);
    REQUIRE(staged["findings"].size() == 1);
    CHECK(staged["findings"][0]["path"] == "main.tf");
    CHECK(staged["findings"][0]["line"] == 3);

    r = RunSagelint("diff --base HEAD~1", repo.path());
    CHECK(r.out.rfind("main.tf:3:19: warning[SM103] notebook instance 'module.nb.", 0) == 0);
    CHECK(r.out.find("(in modules/nb/main.tf:6)\n") != std::string::npos);
    r = RunSagelint("diff --base HEAD~1 --format markdown", repo.path());
    CHECK(r.out.find("`main.tf`\n\n- 🟠 `SM103` L3 ") != std::string::npos);
    r = RunSagelint("diff --base HEAD~1 --format sarif", repo.path());
    auto sarif = Json(r.out);
    REQUIRE(sarif["runs"][0]["results"].size() == 1);
    const auto& loc = sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"];
    CHECK(loc["artifactLocation"]["uri"] == "main.tf");
    CHECK(loc["region"]["startLine"] == 3);
  }
  SECTION("a new module call: its findings at its block, or at the argument that set the value") {
    std::string module = kNotebookModule;
    module.erase(module.find("  lifecycle_config_name"), std::string::npos);
    module += "}\n";
    Repo repo;
    repo.Write("modules/nb/main.tf", module);
    repo.Commit("base");
    repo.Write("main.tf", ModuleCall("gpu", "ml.p3.2xlarge"));
    repo.Commit("call the module");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    REQUIRE(j["new"].size() == 2);
    CHECK(j["new"][0]["rule"] == "SM201");
    CHECK(j["new"][0]["path"] == "main.tf");
    CHECK(j["new"][0]["line"] == 1);  // module "gpu" {
    CHECK(j["new"][0]["message"].get<std::string>().ends_with(" (in modules/nb/main.tf:3)"));
    CHECK(j["new"][1]["rule"] == "SM103");
    CHECK(j["new"][1]["path"] == "main.tf");
    CHECK(j["new"][1]["line"] == 3);
  }
  SECTION("a value the root module's variable file sets, changed there") {
    Repo repo;
    repo.Write("modules/nb/main.tf", kNotebookModule);
    repo.Write("main.tf",
               "variable \"nb_type\" {}\n\nmodule \"nb\" {\n  source        = \"./modules/nb\"\n"
               "  instance_type = var.nb_type\n}\n");
    repo.Write("terraform.tfvars", "region  = \"us-east-1\"\nnb_type = \"ml.t3.medium\"\n");
    repo.Commit("base");
    repo.Write("terraform.tfvars", "region  = \"us-east-1\"\nnb_type = \"ml.p3.2xlarge\"\n");
    repo.Commit("a GPU notebook");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    REQUIRE(j["new"].size() == 1);
    CHECK(j["new"][0]["rule"] == "SM103");
    CHECK(j["new"][0]["path"] == "terraform.tfvars");
    CHECK(j["new"][0]["line"] == 2);
    CHECK(j["new"][0]["message"].get<std::string>().ends_with(" (in modules/nb/main.tf:6)"));
  }
  SECTION("a change to the module's own file keeps its findings there") {
    Repo repo;
    repo.Write("modules/nb/main.tf", kNotebookModule);
    repo.Write("main.tf", ModuleCall("nb", "ml.t3.medium"));
    repo.Commit("base");
    std::string module = kNotebookModule;
    module.replace(module.find("var.instance_type"), 17, "\"ml.p3.2xlarge\"");
    repo.Write("modules/nb/main.tf", module);
    repo.Commit("a GPU notebook");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    REQUIRE(j["new"].size() == 1);
    CHECK(j["new"][0]["path"] == "modules/nb/main.tf");
    CHECK(j["new"][0]["line"] == 6);
    CHECK(j["new"][0]["message"].get<std::string>().find("(in ") == std::string::npos);
  }
}

namespace {

// A notebook that deploys `count` × `type` with the SageMaker SDK, or the same with boto3.
std::string DeployNotebook(bool boto3, int count = 2, const std::string& type = "ml.g5.2xlarge") {
  std::string n = std::to_string(count);
  std::string source =
      boto3 ? R"nb("import boto3\n", "sm = boto3.client(\"sagemaker\")\n", )nb"
              R"nb("sm.create_endpoint_config(EndpointConfigName=\"demo\", ProductionVariants=[{\"VariantName\": )nb"
              R"nb(\"AllTraffic\", \"ModelName\": \"m\", \"InstanceType\": \")nb" +
                  type + R"nb(\", \"InitialInstanceCount\": )nb" + n +
                  R"nb(}])\n", "sm.create_endpoint(EndpointName=\"demo\", EndpointConfigName=\"demo\")")nb"
            : R"nb("from sagemaker.model import Model\n", "model = Model(image_uri=\"img:1\", role=\"r\")\n", )nb"
              R"nb("predictor = model.deploy(initial_instance_count=)nb" +
                  n + R"nb(, instance_type=\")nb" + type + R"nb(\")")nb";
  return R"nb({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": null, )nb"
         R"nb("source": [)nb" +
         source +
         R"nb(]}], "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, )nb"
         R"nb("nbformat": 4, "nbformat_minor": 5})nb";
}

}  // namespace

TEST_CASE("diff: a workload that moved within its file is one changed row", "[diff]") {
  SECTION("a notebook's endpoint deployed with boto3 instead of the SDK") {
    Repo repo;
    repo.Write("demo/deploy.ipynb", DeployNotebook(false));
    repo.Commit("base");
    repo.Write("demo/deploy.ipynb", DeployNotebook(true));
    repo.Commit("boto3");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    REQUIRE(j["spend_delta"]["workloads"].size() == 1);
    const auto& w = j["spend_delta"]["workloads"][0];
    CHECK(w["change"] == "changed");
    CHECK(w["resource"] ==
          "boto3 create_endpoint_config variant 'demo/AllTraffic' (was endpoint variant 'predictor/AllTraffic')");
    CHECK(w["path"] == "demo/deploy.ipynb");
    CHECK(w["before"]["instance_type"] == "ml.g5.2xlarge");
    CHECK(w["after"]["instance_type"] == "ml.g5.2xlarge");
    CHECK(w["before"]["instance_count"] == 2);
    CHECK(w["after"]["instance_count"] == 2);
    CHECK(w["monthly_usd_delta"] == 0);
    CHECK(j["spend_delta"]["total_monthly_usd"] == 0);

    auto r = RunSagelint("diff --base HEAD~1", repo.path());
    CHECK(r.out.find("  ~ boto3 create_endpoint_config variant 'demo/AllTraffic' (was endpoint variant "
                     "'predictor/AllTraffic') (demo/deploy.ipynb:") != std::string::npos);
    CHECK(r.out.find("2 × ml.g5.2xlarge → 2 × ml.g5.2xlarge, $0/month\n") != std::string::npos);
    CHECK(r.out.find("  - ") == std::string::npos);
    CHECK(r.out.find("  + ") == std::string::npos);
    r = RunSagelint("diff --base HEAD~1 --format markdown", repo.path());
    CHECK(r.out.find("−$") == std::string::npos);
  }
  SECTION("a different instance type or count is a removal and an addition") {
    for (auto [count, type] : {std::pair{1, "ml.g5.2xlarge"}, std::pair{2, "ml.g5.xlarge"}}) {
      Repo repo;
      repo.Write("demo/deploy.ipynb", DeployNotebook(false));
      repo.Commit("base");
      repo.Write("demo/deploy.ipynb", DeployNotebook(true, count, type));
      repo.Commit("boto3");
      auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
      std::multiset<std::string> changes;
      for (const auto& w : j["spend_delta"]["workloads"]) changes.insert(w["change"].get<std::string>());
      CHECK(changes == std::multiset<std::string>{"added", "removed"});
    }
  }
  SECTION("two candidates on a side are not paired") {
    Repo repo;
    repo.Write("a/deploy.ipynb", DeployNotebook(false));
    repo.Commit("base");
    // Two boto3 endpoints of the same shape in one notebook: which one the SDK endpoint became is not known.
    std::string two = DeployNotebook(true);
    std::string second = R"nb("sm.create_endpoint_config(EndpointConfigName=\"other\", ProductionVariants=[{)nb"
                         R"nb(\"VariantName\": \"AllTraffic\", \"ModelName\": \"m\", \"InstanceType\": )nb"
                         R"nb(\"ml.g5.2xlarge\", \"InitialInstanceCount\": 2}])\n", )nb";
    two.insert(two.find(R"nb("sm.create_endpoint()nb"), second);
    repo.Write("a/deploy.ipynb", two);
    repo.Commit("two");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    std::multiset<std::string> changes;
    for (const auto& w : j["spend_delta"]["workloads"]) changes.insert(w["change"].get<std::string>());
    CHECK(changes == std::multiset<std::string>{"added", "added", "removed"});
  }
  SECTION("across files, only git's rename detection pairs workloads") {
    Repo repo;
    repo.Write("a/deploy.ipynb", DeployNotebook(false));
    repo.Commit("base");
    repo.Git("rm -q a/deploy.ipynb");
    repo.Write("b/serve.ipynb", DeployNotebook(true));
    repo.Commit("another notebook");
    auto j = Json(RunSagelint("diff --base HEAD~1 --format json", repo.path()).out);
    std::multiset<std::string> changes;
    for (const auto& w : j["spend_delta"]["workloads"]) changes.insert(w["change"].get<std::string>());
    CHECK(changes == std::multiset<std::string>{"added", "removed"});
  }
}
