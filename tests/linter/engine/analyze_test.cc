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

std::map<std::string, std::multiset<std::string>> RulesByFile(const std::string& dir, int jobs = 1,
                                                              bool keep_workloads = true) {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = {dir};
  opts.jobs = jobs;
  opts.keep_workloads = keep_workloads;
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

// A notebook's endpoint may be deleted by another notebook of its directory
// (its workflow), and a notebook's unresolvable scalable target keeps SM211
// silent across the workflow: the same whether files wait whole (inventory,
// diff) or are analysed as soon as parsed (scan), with any number of workers.
TEST_CASE("workflow links reach across the notebooks of a directory", "[engine][link]") {
  for (bool keep : {true, false}) {
    for (int jobs : {1, 2}) {
      INFO("keep_workloads " << keep << ", jobs " << jobs);
      auto clean = RulesByFile("fixtures/rules/SM213/clean", jobs, keep);
      CHECK(clean.count("03_deploy.ipynb") == 0);  // 99_cleanup.ipynb deletes it by name
      CHECK(clean.count("01_deploy.ipynb") == 0);  // by the name %store shares
      CHECK(clean.count("deploy.ipynb") == 0);     // every endpoint list_endpoints() lists; a name in config.json
      auto flows = RulesByFile("fixtures/parsers/python/workflows", jobs, keep);
      // A sibling's run-time name and another name do not count; nor does a notebook of another directory.
      CHECK(flows["03_deploy.ipynb"] == std::multiset<std::string>{"SM213", "SM213"});
      CHECK(flows["deploy.ipynb"] == std::multiset<std::string>{"SM213"});
      CHECK(flows.count("99_cleanup.ipynb") == 0);
      auto scaling = RulesByFile("fixtures/rules/SM211/clean/runtime_name_target", jobs, keep);
      CHECK(scaling["01_deploy.ipynb"].count("SM211") == 0);
    }
  }
}
