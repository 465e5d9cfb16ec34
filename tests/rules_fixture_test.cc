// Every rule's fixtures: fixtures/rules/<ID>/{trigger,clean}/ hold one file
// per input format. A scan of the rule's folder with only that rule selected
// must give exactly fixtures/rules/<ID>/expected.txt; every trigger file must
// produce a finding and no clean file may. The files named `workload.*`
// describe the same workload in each format, so they must agree (parity).
#include <unistd.h>

#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "linter/cli/scan_options.h"
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

ScanResult ScanRuleDir(const std::string& id) {
  ScanOptions opts;
  opts.paths = {"fixtures/rules/" + id};
  opts.select = {id};
  opts.jobs = 1;
  return Scan(opts);
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
    DYNAMIC_SECTION(id) {
      ScanResult r = ScanRuleDir(id);
      std::string snapshot;
      std::map<std::string, int> per_file;
      for (const Finding& f : r.findings) {
        snapshot += SnapshotLine(f) + "\n";
        ++per_file[f.path];
      }
      INFO(snapshot);
      CHECK(testing::CompareGolden("fixtures/rules/" + id + "/expected.txt", snapshot) == "");
      for (const auto& entry : fs::recursive_directory_iterator("fixtures/rules/" + id)) {
        if (!entry.is_regular_file() || entry.path().filename() == "expected.txt") continue;
        std::string p = entry.path().generic_string();
        bool trigger = p.find("/trigger/") != std::string::npos;
        // Terraform variable files only give values to the module beside them.
        if (p.ends_with(".tfvars")) continue;
        INFO(p);
        if (trigger) {
          CHECK(per_file[p] > 0);
        } else {
          CHECK(per_file[p] == 0);
        }
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
