// Reports a gate can rely on (README "Usage" colour, §5 numbers and summary, §7
// JUnit and standard output): the binary end to end.
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;

namespace {

using Scratch = sagelint::testing::TempDir;

// One warning (SM201: a notebook instance without lifecycle configuration)
// and one note (SM212: a scalable target whose minimum is its maximum).
constexpr const char* kNotebooks = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
  Fixed:
    Type: AWS::ApplicationAutoScaling::ScalableTarget
    Properties:
      ServiceNamespace: sagemaker
      ResourceId: endpoint/scoring/variant/AllTraffic
      ScalableDimension: sagemaker:variant:DesiredInstanceCount
      MinCapacity: 2
      MaxCapacity: 2
)";

// An environment variable set for the duration of a scope.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value) {
      ::setenv(name, value, 1);
    } else {
      ::unsetenv(name);
    }
  }
  ~ScopedEnv() {
    if (old_) {
      ::setenv(name_, old_->c_str(), 1);
    } else {
      ::unsetenv(name_);
    }
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

int Count(const std::string& text, const std::string& needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

}  // namespace

TEST_CASE("JUnit reports as failures only the findings at or above --fail-on", "[cli][reports]") {
  Scratch s;
  s.Write("nb.yaml", kNotebooks);
  auto r = RunSagelint("scan --format junit --fail-on error .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("failures=\"0\"") != std::string::npos);
  CHECK(r.out.find("<failure") == std::string::npos);
  CHECK(r.out.find("findings below --fail-on") != std::string::npos);
  r = RunSagelint("scan --format junit --fail-on warning .", s.path());
  CHECK(r.status == 1);
  CHECK(Count(r.out, "<failure ") == 1);
  CHECK(r.out.find("type=\"SM201\"") != std::string::npos);
  r = RunSagelint("scan --format junit --fail-on note .", s.path());
  CHECK(Count(r.out, "<failure ") >= 2);
  r = RunSagelint("scan --format junit --fail-on none .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("<failure") == std::string::npos);
  // The configuration's fail_on counts as well.
  s.Write(".sagelint.yaml", "fail_on: error\n");
  r = RunSagelint("scan --format junit .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("<failure") == std::string::npos);
}

TEST_CASE("two formats cannot both write to standard output", "[cli][reports]") {
  Scratch s;
  s.Write("nb.yaml", kNotebooks);
  auto r = RunSagelint("scan --format json --format sarif .", s.path());
  CHECK(r.status == 2);
  CHECK(r.out.empty());
  CHECK(r.err ==
        "sagelint: --format json and --format sarif would both write to standard output; send one to a file "
        "(--format sarif=FILE)\n");
  r = RunSagelint("scan --format json --format sarif=out.sarif --fail-on none .", s.path());
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["summary"]["findings"] == 2);
}

TEST_CASE("colours: --color, then NO_COLOR, then FORCE_COLOR, then the terminal", "[cli][reports]") {
  Scratch s;
  s.Write("nb.yaml", kNotebooks);
  const std::string kEscape = "\x1b[";
  ScopedEnv no("NO_COLOR", nullptr);
  ScopedEnv force("FORCE_COLOR", nullptr);
  // Not a terminal: no colours by default.
  CHECK(RunSagelint("scan --fail-on none .", s.path()).out.find(kEscape) == std::string::npos);
  CHECK(RunSagelint("scan --color always --fail-on none .", s.path()).out.find(kEscape) != std::string::npos);
  CHECK(RunSagelint("scan --color=always --fail-on none .", s.path()).out.find(kEscape) != std::string::npos);
  {
    ScopedEnv f("FORCE_COLOR", "1");
    CHECK(RunSagelint("scan --fail-on none .", s.path()).out.find(kEscape) != std::string::npos);
    // --color wins over the environment.
    CHECK(RunSagelint("scan --color never --fail-on none .", s.path()).out.find(kEscape) == std::string::npos);
    CHECK(RunSagelint("scan --no-color --fail-on none .", s.path()).out.find(kEscape) == std::string::npos);
    {
      // A non-empty NO_COLOR wins over FORCE_COLOR.
      ScopedEnv n("NO_COLOR", "1");
      CHECK(RunSagelint("scan --fail-on none .", s.path()).out.find(kEscape) == std::string::npos);
      CHECK(RunSagelint("scan --color always --fail-on none .", s.path()).out.find(kEscape) != std::string::npos);
    }
    {
      ScopedEnv n("NO_COLOR", "");  // empty: not set
      CHECK(RunSagelint("scan --fail-on none .", s.path()).out.find(kEscape) != std::string::npos);
    }
  }
  {
    ScopedEnv f("FORCE_COLOR", "0");
    CHECK(RunSagelint("scan --fail-on none .", s.path()).out.find(kEscape) == std::string::npos);
  }
  auto r = RunSagelint("scan --color sometimes .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --color expects auto, always or never, got 'sometimes'\n");
}

TEST_CASE("the JSON summary carries the avoidable spend the text prints", "[cli][reports]") {
  Scratch s;
  // An ml.p3.2xlarge endpoint variant (SM102 names a cheaper instance and its savings).
  s.Write("ep.yaml", R"(Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: m
          InstanceType: ml.p3.2xlarge
          InitialInstanceCount: 1
)");
  auto text = RunSagelint("scan --no-color --fail-on none .", s.path());
  auto json = nlohmann::json::parse(RunSagelint("scan --format json --fail-on none .", s.path()).out);
  const auto& summary = json["summary"];
  REQUIRE(summary.contains("avoidable_monthly_usd"));
  double savings = 0;
  for (const auto& f : json["findings"]) {
    if (!f["cost"].is_null() && f["cost"]["monthly_savings_usd"].is_number()) {
      savings += f["cost"]["monthly_savings_usd"].get<double>();
    }
  }
  CHECK(summary["avoidable_monthly_usd"].get<double>() == Approx(savings).margin(0.01));
  if (savings > 0) CHECK(text.out.find("est. avoidable spend") != std::string::npos);
}

TEST_CASE("inventory: a table that fits, a totals row, IAM statements apart, numeric CSV", "[cli][inventory]") {
  Scratch s;
  s.Write("infra/a-rather-long-directory-name/with-more-nesting/and-a-long-file-name-for-the-template.yaml",
          std::string(kNotebooks) + R"(  AVeryLongLogicalIdForAnEndpointConfigurationThatGoesOnAndOn:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: m
          InstanceType: ml.g5.xlarge
          InitialInstanceCount: 2
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument: {}
      Policies:
        - PolicyName: launch
          PolicyDocument:
            Statement:
              - Effect: Allow
                Action: sagemaker:CreateTrainingJob
                Resource: "*"
)");
  ScopedEnv columns("COLUMNS", "100");
  auto r = RunSagelint("inventory .", s.path());
  CHECK(r.status == 0);
  size_t longest = 0;
  size_t start = 0;
  while (start < r.out.size()) {
    size_t end = r.out.find('\n', start);
    std::string line = r.out.substr(start, end - start);
    size_t width = 0;
    for (char c : line) width += (c & 0xC0) != 0x80;
    // The prices line is prose, not part of the table.
    if (line.rfind("prices:", 0) != 0) longest = std::max(longest, width);
    start = end + 1;
  }
  CHECK(longest <= 100);
  CHECK(r.out.find("…") != std::string::npos);
  CHECK(r.out.find("\ntotal ") != std::string::npos);
  CHECK(r.out.find("IAM statements (1):") != std::string::npos);
  // The statement is not among the spend workloads.
  size_t iam = r.out.find("IAM statements");
  CHECK(r.out.find("iam_statement") == std::string::npos);
  CHECK(r.out.rfind("IAM policy", iam) == std::string::npos);
  CHECK(r.out.find("always on ≈ $") != std::string::npos);

  // --wide: every column, nothing abbreviated.
  r = RunSagelint("inventory --wide .", s.path());
  CHECK(r.out.find("AVeryLongLogicalIdForAnEndpointConfigurationThatGoesOnAndOn") != std::string::npos);
  CHECK(r.out.find("input_modes") != std::string::npos);

  // CSV: money as plain numbers with a currency column.
  r = RunSagelint("inventory --format csv .", s.path());
  CHECK(r.out.find(",hourly_usd,monthly_usd,currency\n") != std::string::npos);
  CHECK(r.out.find("$") == std::string::npos);
  CHECK(r.out.find(",ml.t3.xlarge,") != std::string::npos);
  CHECK(r.out.find(",USD\n") != std::string::npos);
}

TEST_CASE("custom policies read as written: numbers and the rules table", "[cli][policy]") {
  Scratch s;
  s.Write(".sagelint.yaml", R"(policies:
  - id: ORG001
    severity: error
    workload: training_job
    where:
      instance_count: { gt: 1 }
    message: "Multi-node training needs approval"
)");
  auto r = RunSagelint("explain ORG001", s.path());
  CHECK(r.out.find("when: instance_count gt 1\n") != std::string::npos);
  r = RunSagelint("rules", s.path());
  CHECK(r.out.find("ORG001 ORG001") == std::string::npos);
  CHECK(r.out.find("ORG001 (custom policy)") != std::string::npos);
}

TEST_CASE("baselines: written with exit 0, named in the config, stale entries counted and listed", "[cli][baseline]") {
  Scratch s;
  s.Write("nb.yaml", kNotebooks);
  auto r = RunSagelint("scan --write-baseline base.json .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.empty());
  CHECK(r.err == "sagelint: recorded 2 findings in base.json\n");
  auto recorded = nlohmann::json::parse(sagelint::testing::ReadFileOrDie(s.path() + "/base.json"));
  CHECK(recorded["findings"].size() == 2);

  // `baseline:` in the configuration works as --baseline does.
  s.Write(".sagelint.yaml", "baseline: base.json\n");
  r = RunSagelint("scan --fail-on note .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("2 in the baseline") != std::string::npos);

  // Fix one finding: its entry now matches nothing, and the summary says so.
  std::string fixed = kNotebooks;
  fixed.replace(fixed.find("MaxCapacity: 2"), 14, "MaxCapacity: 4");
  s.Write("nb.yaml", fixed);
  r = RunSagelint("scan --no-color --fail-on note .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find(
            "1 baseline entry matches no finding any more (fixed or changed); --report-stale-baseline lists it\n") !=
        std::string::npos);
  auto j = nlohmann::json::parse(RunSagelint("scan --format json --fail-on none .", s.path()).out);
  CHECK(j["summary"]["stale_baseline"] == 1);
  CHECK(!j.contains("stale_baseline"));
  j = nlohmann::json::parse(RunSagelint("scan --format json --report-stale-baseline --fail-on none .", s.path()).out);
  REQUIRE(j["stale_baseline"].size() == 1);
  CHECK(j["stale_baseline"][0]["rule"] == "SM212");
  CHECK(j["stale_baseline"][0]["path"] == "nb.yaml");
  r = RunSagelint("scan --no-color --report-stale-baseline --fail-on none .", s.path());
  CHECK(r.out.find("  nb.yaml: SM212 scalable target 'Fixed' (") != std::string::npos);

  // A config's baseline that cannot be read is an error naming the key.
  s.Write(".sagelint.yaml", "baseline: missing.json\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.rfind("sagelint: .sagelint.yaml: baseline: missing.json: cannot read the baseline", 0) == 0);
}

TEST_CASE("rules are named by ID or by name in the config, --select and explain", "[cli][config]") {
  Scratch s;
  s.Write("nb.yaml", kNotebooks);
  s.Write(".sagelint.yaml", "rules:\n  autoscaling-cannot-scale: off\n");
  auto r = RunSagelint("scan --format json --fail-on none .", s.path());
  CHECK(r.status == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["summary"]["findings"] == 1);
  CHECK(j["findings"][0]["rule"] == "SM201");
  s.Write(".sagelint.yaml", "rules:\n  autoscaling-cannot-scale: off\n  SM212: error\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: .sagelint.yaml:3: rules: SM212 is given twice (by its ID and its name)\n");
  s.Write(".sagelint.yaml", "rules:\n  previous-generation-instanse: off\n");
  r = RunSagelint("scan .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: .sagelint.yaml:2: rules: unknown rule 'previous-generation-instanse' (did you mean "
        "'previous-generation-instance'?)\n");
  s.Write(".sagelint.yaml", "");
  r = RunSagelint("scan --select notebook-without-lifecycle-config --format json --fail-on none .", s.path());
  j = nlohmann::json::parse(r.out);
  CHECK(j["summary"]["findings"] == 1);
  CHECK(RunSagelint("explain previous-generation-instance").out.rfind("SM104 previous-generation-instance", 0) == 0);
}

TEST_CASE("inventory: a long resource label is cut in the middle, so rows stay told apart", "[inventory][reports]") {
  Scratch s;
  std::string t = "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n";
  for (const char* suffix : {"Alpha", "Bravo"}) {
    t += std::string("  NotebookForTheDataScienceTeamWithAVeryLongLogicalIdentifierEndingIn") + suffix +
         ":\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: ml.t3.medium\n"
         "      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n";
  }
  s.Write("nb.yaml", t);
  ScopedEnv columns("COLUMNS", "100");
  auto r = RunSagelint("inventory .", s.path());
  CHECK(r.status == 0);
  // Both the start (the kind) and the end (what tells them apart) stay.
  CHECK(r.out.find("notebook  notebook instance") != std::string::npos);
  CHECK(r.out.find("…") != std::string::npos);
  CHECK(r.out.find("EndingInAlpha'") != std::string::npos);
  CHECK(r.out.find("EndingInBravo'") != std::string::npos);
}
