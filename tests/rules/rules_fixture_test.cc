// Every rule's fixtures: fixtures/rules/<ID>/{trigger,clean}/ hold one file
// per input format; a subfolder with its own expected.txt (and trigger/ or
// clean/) is a variant, scanned with its own .sagelint.yaml. A scan of the rule's folder with only
// that rule selected must give exactly fixtures/rules/<ID>/expected.txt; every trigger file must produce a finding and
// no clean file may. The files named `workload.*` describe the same workload in each format, so they must agree
// (parity).
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "linter/cli/config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/prices.h"
#include "linter/model/rule.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;

namespace {

std::string SnapshotLine(const Finding& f) {
  std::ostringstream s;
  s << f.path << ":" << f.range.begin.line << ":" << f.range.begin.column << ": " << SeverityName(f.severity) << "["
    << f.rule << "] " << f.message;
  if (!f.condition.empty()) s << " [when " << f.condition << "]";
  if (f.range.cell > 0) s << " [cell " << f.range.cell << " line " << f.range.cell_line << "]";
  return s.str();
}

std::string FormatOf(const std::string& path) {
  if (path.ends_with(".tf") || path.ends_with(".tf.json") || path.ends_with(".tfvars")) return "terraform";
  if (path.ends_with(".py")) return "python";
  if (path.ends_with(".ipynb")) return "notebook";
  return "cloudformation";
}

// The rule's trigger and clean folders under `dir`, scanned with that rule
// alone and `dir`/.sagelint.yaml when there is one (rule options, `prices:`
// — a fixture price table where the built-in one cannot source a price).
ScanResult ScanRuleDir(const std::string& id, const std::string& dir) {
  ScanOptions opts;
  for (const char* sub : {"/trigger", "/clean"}) {
    if (fs::exists(dir + sub)) opts.paths.push_back(dir + sub);
  }
  std::optional<PriceTable> prices;
  if (fs::exists(dir + "/.sagelint.yaml")) {
    ConfigError error;
    auto config = LoadConfig(dir + "/.sagelint.yaml", &error);
    INFO(error.message);
    REQUIRE(config);
    opts.config = *config;
    if (!config->prices.empty()) {
      std::string why;
      prices = PriceTable::Load(dir + "/" + config->prices, config->region, &why);
      INFO(why);
      REQUIRE(prices);
    }
  }
  opts.select = {id};
  opts.jobs = 1;
  opts.prices = prices ? &*prices : nullptr;
  return Scan(opts);
}

ScanResult ScanRuleDir(const std::string& id) { return ScanRuleDir(id, "fixtures/rules/" + id); }

// The rule's fixture folder and its variants: subfolders with their own expected.txt.
std::vector<std::string> FixtureDirs(const std::string& id) {
  std::vector<std::string> dirs = {"fixtures/rules/" + id};
  for (const auto& entry : fs::directory_iterator(dirs[0])) {
    if (entry.is_directory() && fs::exists(entry.path() / "expected.txt"))
      dirs.push_back(entry.path().generic_string());
  }
  std::sort(dirs.begin() + 1, dirs.end());
  return dirs;
}

// The findings of `r` as a snapshot, checked against `dir`/expected.txt, and
// each file under `dir`: a trigger file has a finding, a clean one none.
void CheckFixtureDir(const std::string& dir, const ScanResult& r) {
  std::string snapshot;
  std::map<std::string, int> per_file;
  for (const Finding& f : r.findings) {
    snapshot += SnapshotLine(f) + "\n";
    ++per_file[f.path];
  }
  INFO(snapshot);
  CHECK(testing::CompareGolden(dir + "/expected.txt", snapshot) == "");
  for (const char* sub : {"/trigger", "/clean"}) {
    if (!fs::exists(dir + sub)) continue;
    for (const auto& entry : fs::recursive_directory_iterator(dir + sub)) {
      if (!entry.is_regular_file()) continue;
      std::string p = entry.path().generic_string();
      // Terraform variable files only give values to the module beside them.
      if (p.ends_with(".tfvars")) continue;
      // A CDK app's cdk.json only leads to its source files, which hold the findings.
      if (p.ends_with("/cdk.json")) continue;
      INFO(p);
      if (std::string(sub) == "/trigger") {
        CHECK(per_file[p] > 0);
      } else {
        CHECK(per_file[p] == 0);
      }
    }
  }
}

struct InSourceDir {
  InSourceDir() { fs::current_path(SAGELINT_SOURCE_DIR); }
};

}  // namespace

TEST_CASE("rule fixtures give exactly the expected findings", "[rules][fixtures]") {
  InSourceDir here;
  for (const RuleInfo& rule : AllRules()) {
    std::string id(rule.id);
    // Every rule with a check has a folder (the registry test requires it); a
    // finding the engine makes itself (SM007) may have one too.
    if (!fs::exists("fixtures/rules/" + id)) continue;
    // A rule only `diff` reports (SM006) has base/ and head/ trees; diff_test checks them.
    if (fs::exists("fixtures/rules/" + id + "/trigger/base")) continue;
    DYNAMIC_SECTION(id) {
      for (const std::string& dir : FixtureDirs(id)) {
        INFO(dir);
        CheckFixtureDir(dir, ScanRuleDir(id, dir));
      }
    }
  }
}

TEST_CASE("one rule, one workload, every format: the same findings", "[rules][parity]") {
  InSourceDir here;
  for (const RuleInfo& rule : AllRules()) {
    if (!rule.check) continue;
    std::string id(rule.id);
    if (!fs::exists("fixtures/rules/" + id)) continue;
    // A rule only `diff` reports (SM006) has base/ and head/ trees; diff_test checks them.
    if (fs::exists("fixtures/rules/" + id + "/trigger/base")) continue;
    DYNAMIC_SECTION(id) {
      ScanResult r = ScanRuleDir(id);
      std::map<std::string, std::multiset<std::string>> by_format;
      for (const auto& entry : fs::directory_iterator("fixtures/rules/" + id + "/trigger")) {
        std::string p = entry.path().generic_string();
        if (entry.path().stem() == "workload") by_format[FormatOf(p)];
      }
      for (const Finding& f : r.findings) {
        if (fs::path(f.path).stem() != "workload" || f.path.find("/trigger/") == std::string::npos) continue;
        // What must agree across formats: the rule, the severity, and the instance priced.
        by_format[FormatOf(f.path)].insert(f.rule + " " + std::string(SeverityName(f.severity)) + " " +
                                           (f.cost ? f.cost->instance_type : "-"));
      }
      INFO(id);
      const std::multiset<std::string>* first = nullptr;
      std::string first_format;
      for (const auto& [format, set] : by_format) {
        INFO(format << " vs " << first_format);
        if (!first) {
          first = &set;
          first_format = format;
          continue;
        }
        CHECK(set == *first);
      }
    }
  }
}

TEST_CASE("every rule has a doc and fixtures that trigger and stay clean", "[registry]") {
  InSourceDir here;
  for (const RuleInfo& rule : AllRules()) {
    if (!rule.check) continue;
    std::string dir = "fixtures/rules/" + std::string(rule.id);
    INFO(dir);
    CHECK(!RuleDoc(rule.id).empty());
    CHECK(fs::is_directory(dir + "/trigger"));
    CHECK(fs::is_directory(dir + "/clean"));
    CHECK(fs::exists(dir + "/expected.txt"));
  }
}
