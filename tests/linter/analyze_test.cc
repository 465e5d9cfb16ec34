// The engine's analysis: a CloudFormation or Terraform file with SM000 yields
// nothing else (what was extracted from it may be partial); Python keeps the
// findings outside the broken statement; links across files hold although
// each file is analysed as soon as it is parsed.
#include <unistd.h>

#include <filesystem>
#include <map>

#include "linter/cli/scan_options.h"
#include "tests/catch.h"

namespace fs = std::filesystem;
using namespace sagelint;

namespace {

std::map<std::string, std::multiset<std::string>> RulesByFile(const std::string& dir, int jobs = 1) {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = {dir};
  opts.jobs = jobs;
  ScanResult r = Scan(opts);
  std::map<std::string, std::multiset<std::string>> out;
  for (const Finding& f : r.findings) out[fs::path(f.path).filename().string()].insert(f.rule);
  return out;
}

}  // namespace

TEST_CASE("a template or HCL file with SM000 gives no other finding", "[engine][sm000]") {
  auto by_file = RulesByFile("fixtures/engine/parse_error");
  // The duplicate key hides an SM501 statement and an SM103/SM201 notebook.
  CHECK(by_file["duplicate_key.yaml"] == std::multiset<std::string>{"SM000"});
  // The broken resource hides a valid accelerated notebook beside it.
  CHECK(by_file["broken.tf"] == std::multiset<std::string>{"SM000"});
}

TEST_CASE("Python keeps the findings outside the broken statement", "[engine][sm000]") {
  auto by_file = RulesByFile("fixtures/engine/parse_error");
  CHECK(by_file["broken.py"].count("SM000") == 1);
  CHECK(by_file["broken.py"].count("SM401") == 1);
}

// Files are analysed as soon as they are parsed; what depends on other files
// is decided once the whole scan is read.
TEST_CASE("links and SM004 reach across files analysed on their own", "[engine][link]") {
  for (int jobs : {1, 2}) {
    auto by_file = RulesByFile("fixtures/engine/cross_file", jobs);
    // scaling.yaml's target names the churn endpoint of endpoints.yaml: only fraud is unscaled.
    CHECK(by_file["endpoints.yaml"] == std::multiset<std::string>{"SM211"});
    CHECK(by_file.count("scaling.yaml") == 0);
    // lifecycle.yaml's idle-stop script covers Research; Sandbox's script has no idle stop.
    CHECK(by_file["notebooks.yaml"] == std::multiset<std::string>{"SM202"});
    // The unknown type is reported once, at its first use in scan order.
    CHECK(by_file["a_train.py"] == std::multiset<std::string>{"SM004", "SM401"});
    CHECK(by_file["b_train.py"] == std::multiset<std::string>{"SM401"});
  }
}
