// Where the machine formats say a finding is (README "Output formats"): paths
// relative to the repository root whatever the current directory, so CI
// places annotations and code-scanning alerts; text and concise stay relative
// to the current directory. Also --format concise and --statistics.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "linter/report/emit.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::GitRepo;
using sagelint::testing::NotebookTemplate;
using sagelint::testing::ParseJson;
using sagelint::testing::RunSagelint;

namespace {

// An accelerated notebook: SM103 (with a fix) and SM201.
const std::string kOldNotebook = NotebookTemplate("Explore", "ml.g4dn.xlarge");

std::string Canonical(const std::string& dir) { return fs::weakly_canonical(dir).generic_string(); }

}  // namespace

TEST_CASE("machine formats name files from the repository root, text from the current directory", "[cli][paths]") {
  GitRepo repo;
  repo.Write("infra/nb.yaml", kOldNotebook);
  repo.Write("training/other.yaml", NotebookTemplate("Other", "ml.t3.medium"));
  std::string infra = repo.path() + "/infra";

  auto r = RunSagelint("scan --no-color --fail-on none . ../training", infra);
  REQUIRE(r.status == 0);
  CHECK(r.out.find("\nnb.yaml:6:21: warning[SM103]") != std::string::npos);
  CHECK(r.out.find("../training/other.yaml:") != std::string::npos);

  r = RunSagelint("scan --format github --fail-on none . ../training", infra);
  CHECK(r.out.find("::warning file=infra/nb.yaml,line=6,col=21,") != std::string::npos);
  CHECK(r.out.find("file=training/other.yaml,") != std::string::npos);
  CHECK(r.out.find("..") == std::string::npos);

  auto json = ParseJson(RunSagelint("scan --format json --fail-on none .", infra).out);
  REQUIRE(json["findings"].size() == 2);
  for (const auto& f : json["findings"]) CHECK(f["path"] == "infra/nb.yaml");
  const auto& sm103 = json["findings"][1];
  REQUIRE(sm103["rule"] == "SM103");
  REQUIRE(sm103.contains("fix"));
  CHECK(sm103["fix"]["edits"][0]["path"] == "infra/nb.yaml");
  // The identity does not depend on where sagelint ran.
  auto from_top = ParseJson(RunSagelint("scan --format json --fail-on none infra", repo.path()).out);
  CHECK(from_top["findings"][0]["fingerprint"] == json["findings"][0]["fingerprint"]);
  CHECK(from_top["findings"][0]["path"] == "infra/nb.yaml");

  auto sarif = ParseJson(RunSagelint("scan --format sarif --fail-on none .", infra).out);
  const auto& run = sarif["runs"][0];
  CHECK(run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == "file://" + Canonical(repo.path()) + "/");
  CHECK(run["originalUriBaseIds"].size() == 1);
  const auto& location = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"];
  CHECK(location["uri"] == "infra/nb.yaml");
  CHECK(location["uriBaseId"] == "%SRCROOT%");
  for (const auto& result : run["results"]) {
    if (!result.contains("fixes")) continue;
    CHECK(result["fixes"][0]["artifactChanges"][0]["artifactLocation"]["uri"] == "infra/nb.yaml");
  }

  auto gitlab = ParseJson(RunSagelint("scan --format gitlab --fail-on none .", infra).out);
  CHECK(gitlab[0]["location"]["path"] == "infra/nb.yaml");
  r = RunSagelint("scan --format junit .", infra);
  CHECK(r.out.find("file=\"infra/nb.yaml\"") != std::string::npos);
  CHECK(r.out.find("(infra/nb.yaml:3:3)") != std::string::npos);

  // From outside the repository, naming a directory in it.
  r = RunSagelint("scan --format github --fail-on none " + fs::path(repo.path()).filename().string() + "/infra",
                  fs::path(repo.path()).parent_path().string());
  CHECK(r.out.find("file=infra/nb.yaml,") != std::string::npos);

  // Inventory JSON and CSV name the file as the findings do; its table as text does.
  auto inventory = ParseJson(RunSagelint("inventory --format json .", infra).out);
  CHECK(inventory["workloads"][0]["path"] == "infra/nb.yaml");
  r = RunSagelint("inventory --format csv .", infra);
  CHECK(r.out.find(",infra/nb.yaml:3,") != std::string::npos);
  r = RunSagelint("inventory --wide .", infra);
  CHECK(r.out.find("  nb.yaml:3 ") != std::string::npos);
}

TEST_CASE("outside a git work tree machine formats name files from the current directory", "[cli][paths]") {
  sagelint::testing::TempDir dir;
  dir.Write("infra/nb.yaml", kOldNotebook);
  auto r = RunSagelint("scan --format github --fail-on none infra", dir.path());
  CHECK(r.out.find("file=infra/nb.yaml,") != std::string::npos);
  auto sarif = ParseJson(RunSagelint("scan --format sarif --fail-on none .", dir.path() + "/infra").out);
  CHECK(sarif["runs"][0]["originalUriBaseIds"]["%SRCROOT%"]["uri"] ==
        "file://" + Canonical(dir.path() + "/infra") + "/");
  CHECK(sarif["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "nb.yaml");
}

TEST_CASE("diff rows name files from the repository root", "[cli][paths][diff]") {
  GitRepo repo;
  repo.Write("infra/keep.yaml", "# nothing of SageMaker\n");
  repo.Commit("base");
  repo.Write("infra/nb.yaml", kOldNotebook);
  auto json = ParseJson(RunSagelint("diff --base HEAD --format json --fail-on none .", repo.path() + "/infra").out);
  REQUIRE(json["new"].size() == 2);
  CHECK(json["new"][0]["path"] == "infra/nb.yaml");
  REQUIRE(json["spend_delta"]["workloads"].size() == 1);
  CHECK(json["spend_delta"]["workloads"][0]["path"] == "infra/nb.yaml");
  auto r = RunSagelint("diff --base HEAD --format github --fail-on none .", repo.path() + "/infra");
  CHECK(r.out.find("file=infra/nb.yaml,") != std::string::npos);
}

TEST_CASE("github annotations carry no terminal escape from a file's name or content", "[cli][github][hostile]") {
  GitRepo repo;
  repo.Write("infra/\x1b[2Jnb\x07.yaml", NotebookTemplate("Explore", "ml.p2.xlarge"));
  auto r = RunSagelint("scan --format github --fail-on none .", repo.path());
  REQUIRE(r.out.find("::warning file=infra/\\x1b[2Jnb\\x07.yaml,line=6") != std::string::npos);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\x07') == std::string::npos);
}

TEST_CASE("concise format: one line per finding, each rule's help once, then the summary", "[cli][concise]") {
  GitRepo repo;
  repo.Write("a.yaml", NotebookTemplate("A", "ml.t3.medium"));
  repo.Write("b.yaml", NotebookTemplate("B", "ml.t3.medium"));
  auto r = RunSagelint("scan --format concise --no-color .", repo.path());
  CHECK(r.status == 1);
  CHECK(r.out ==
        "a.yaml:3:3: warning[SM201] notebook instance 'A' has no lifecycle configuration: it never stops when idle\n"
        "b.yaml:3:3: warning[SM201] notebook instance 'B' has no lifecycle configuration: it never stops when idle\n"
        "\n"
        "help[SM201]: attach a lifecycle configuration whose on-start script stops the instance after IDLE_TIME "
        "(sagelint explain SM201)\n"
        "\n"
        "2 findings (0 errors, 2 warnings, 0 notes) in 2 files\n");
  r = RunSagelint("scan --format concise --quiet --no-color .", repo.path());
  CHECK(r.out ==
        "a.yaml:3:3: warning[SM201] notebook instance 'A' has no lifecycle configuration: it never stops when idle\n"
        "b.yaml:3:3: warning[SM201] notebook instance 'B' has no lifecycle configuration: it never stops when idle\n");
}

TEST_CASE("statistics credit each workload's largest saving to its rule", "[cli][statistics]") {
  using sagelint::Finding;
  auto finding = [](const std::string& rule, const std::string& resource, std::optional<double> saving, bool fix) {
    Finding f;
    f.rule = rule;
    f.name = rule == "SM101" ? "gpu-for-scikit-learn" : "training-instance-for-inference";
    f.path = f.root_path = "infra/endpoint.yaml";
    f.resource = resource;
    if (saving) {
      f.cost = sagelint::CostEstimate{};
      f.cost->monthly_savings_usd = saving;
    }
    if (fix) f.fix = sagelint::Fix{};
    return f;
  };
  // One endpoint, two ways to save the same money: only the larger counts, for SM102.
  std::vector<Finding> findings = {
      finding("SM101", "endpoint 'A'", 100, false), finding("SM102", "endpoint 'A'", 300, true),
      finding("SM102", "endpoint 'B'", std::nullopt, false), finding("SM101", "endpoint 'C'", 50, false),
      finding("SM101", "endpoint 'D'", std::nullopt, true)};
  std::vector<sagelint::RuleStatistics> rows = sagelint::Statistics(findings);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].rule == "SM101");
  CHECK(rows[0].count == 3);
  CHECK(rows[0].fixable == 1);
  CHECK(rows[0].avoidable_monthly_usd == 50);
  CHECK(rows[1].rule == "SM102");
  CHECK(rows[1].count == 2);
  CHECK(rows[1].fixable == 1);
  CHECK(rows[1].avoidable_monthly_usd == 300);

  GitRepo repo;
  repo.Write("a.yaml", NotebookTemplate("A", "ml.g4dn.xlarge"));
  auto r = RunSagelint("scan --statistics --quiet --no-color .", repo.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("\ncount   fixable  avoidable $/month  rule\n"
                   "    1  1 (100%)               $501  SM103 accelerated-notebook\n"
                   "    1         -                  -  SM201 notebook-without-lifecycle-config\n"
                   "\nwithout a fix, by reason:\n"
                   "  SM201  1  an idle-stop lifecycle configuration is a new resource with its own script; sagelint "
                   "does not create one\n") != std::string::npos);
  // With a machine format on standard output, the table goes to standard error.
  r = RunSagelint("scan --statistics --format json .", repo.path());
  CHECK(ParseJson(r.out)["findings"].size() == 2);
  CHECK(r.err.find("SM201 notebook-without-lifecycle-config") != std::string::npos);
  r = RunSagelint("inventory --statistics .", repo.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --statistics is an option of scan\n");
}
