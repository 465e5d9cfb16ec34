// The engine's handling of files that failed to parse: a CloudFormation or
// Terraform file with SM000 yields nothing else (what was extracted from it
// may be partial); Python keeps the findings outside the broken statement.
#include <unistd.h>

#include "tests/catch.h"
#include <filesystem>
#include <map>

#include "linter/cli/scan_options.h"

namespace fs = std::filesystem;
using namespace sagelint;

namespace {

std::map<std::string, std::multiset<std::string>> RulesByFile(const std::string& dir) {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = {dir};
  opts.jobs = 1;
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
