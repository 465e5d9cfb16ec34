// Terraform and Python/notebook front ends: golden dumps of the workloads a
// scan extracts (linker included), and their parse errors.
#include <filesystem>

#include "linter/cli/scan_options.h"
#include "linter/report/model_dump.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::CompareGolden;

namespace {

std::string ScanDump(std::vector<std::string> paths) {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = std::move(paths);
  opts.jobs = 1;
  ScanResult r = Scan(opts);
  std::string out;
  for (const Workload& w : r.workloads) out += w.path + ": " + DumpWorkload(w);
  for (const Finding& f : r.findings) {
    if (f.rule == "SM000") {
      out += "SM000 " + f.path + ":" + std::to_string(f.range.begin.line) + ":" + std::to_string(f.range.begin.column) +
             " " + f.message + "\n";
    }
  }
  return out;
}

}  // namespace

TEST_CASE("Terraform module: variables, tfvars, locals, child modules, IAM, Step Functions, tuning, .tf.json",
          "[terraform]") {
  CHECK(CompareGolden("tests/golden/terraform/module.model", ScanDump({"fixtures/parsers/terraform/module"})) == "");
}

TEST_CASE("Terraform plan JSON and a broken file beside a good one", "[terraform]") {
  CHECK(CompareGolden("tests/golden/terraform/plan.model", ScanDump({"fixtures/parsers/terraform/plan"})) == "");
  CHECK(CompareGolden("tests/golden/terraform/broken.model", ScanDump({"fixtures/parsers/terraform/broken"})) == "");
}

TEST_CASE("a module declaring one resource address twice is an SM000 at the second declaration", "[terraform]") {
  CHECK(CompareGolden("tests/golden/terraform/duplicate.model", ScanDump({"fixtures/parsers/terraform/duplicate"})) ==
        "");
}

TEST_CASE("a file named alone is evaluated with its module and reports only itself", "[terraform]") {
  std::string whole = ScanDump({"fixtures/parsers/terraform/module"});
  std::string named = ScanDump({"fixtures/parsers/terraform/module/main.tf"});
  // Every workload of main.tf, with the values the siblings give it, and nothing else.
  std::string expected;
  size_t pos = 0;
  while (pos < whole.size()) {
    size_t next = whole.find("\nfixtures/", pos);
    std::string block = whole.substr(pos, next == std::string::npos ? std::string::npos : next + 1 - pos);
    if (block.rfind("fixtures/parsers/terraform/module/main.tf:", 0) == 0) expected += block;
    if (next == std::string::npos) break;
    pos = next + 1;
  }
  REQUIRE(!expected.empty());
  CHECK(named == expected);
}

TEST_CASE("Python SDK, boto3 and ModelTrainer extraction", "[python]") {
  CHECK(CompareGolden("tests/golden/python/sdk.model",
                      ScanDump({"fixtures/parsers/python/sdk.py", "fixtures/parsers/python/trainer.py",
                                "fixtures/parsers/python/syntax.py"})) == "");
}

TEST_CASE("notebooks: cells in order, magics, outputs skipped, positions in the file", "[python][notebook]") {
  CHECK(CompareGolden("tests/golden/python/notebooks.model", ScanDump({"fixtures/parsers/python/magics.ipynb",
                                                                       "fixtures/parsers/python/broken.ipynb"})) == "");
}
