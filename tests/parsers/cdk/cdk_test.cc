// CDK apps end to end: every fixture app under fixtures/cdk/<language>/<app>/
// scanned gives exactly its expected.txt (findings, then the inventory's
// workloads with their values), and the same app written in Python and in
// TypeScript gives the same findings.
#include <algorithm>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "linter/cli/scan_options.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;

namespace {

// The app's findings and workloads, with paths relative to the app (`dir`:
// relative to the source tree, where the tests run).
std::string Describe(const std::string& dir, std::vector<std::string>* rules_and_labels) {
  ScanOptions opts;
  opts.paths = {dir};
  opts.jobs = 1;
  opts.keep_workloads = true;
  ScanResult r = Scan(opts);
  std::ostringstream s;
  auto rel = [&](const std::string& p) { return fs::path(p).lexically_relative(dir).generic_string(); };
  for (const Finding& f : r.findings) {
    s << rel(f.path) << ":" << f.range.begin.line << ":" << f.range.begin.column << ": [" << f.rule << "] " << f.message
      << "\n";
    rules_and_labels->push_back(f.rule + " " + f.message);
  }
  std::vector<std::string> workloads;
  for (const Workload& w : r.workloads) {
    std::ostringstream l;
    l << "workload " << rel(w.path) << ":" << w.range.begin.line << " " << FormatName(w.format) << " " << w.label;
    if (w.instance_type.present()) l << " instance_type=" << w.instance_type.text;
    if (w.instance_count.present()) l << " count=" << w.instance_count.text;
    if (w.volume_gb.present()) l << " volume_gb=" << w.volume_gb.text;
    workloads.push_back(l.str());
  }
  std::sort(workloads.begin(), workloads.end());
  for (const std::string& w : workloads) s << w << "\n";
  for (const std::string& e : r.skipped) s << "skipped " << e << "\n";
  return s.str();
}

}  // namespace

TEST_CASE("CDK fixture apps give their expected findings and workloads", "[cdk][e2e]") {
  for (const char* language : {"python", "typescript"}) {
    fs::path base = fs::path("fixtures/cdk") / language;
    if (!fs::exists(base)) continue;
    std::vector<fs::path> apps;
    for (const auto& e : fs::directory_iterator(base)) {
      if (e.is_directory()) apps.push_back(e.path());
    }
    std::sort(apps.begin(), apps.end());
    for (const fs::path& app : apps) {
      std::string name = app.filename().string();
      DYNAMIC_SECTION(language << "/" << name) {
        std::vector<std::string> findings;
        std::string dir = "fixtures/cdk/" + std::string(language) + "/" + name;
        CHECK(testing::CompareGolden(dir + "/expected.txt", Describe(dir, &findings)) == "");
      }
    }
  }
}

TEST_CASE("a CDK app written in Python and in TypeScript gives the same findings", "[cdk][e2e][parity]") {
  fs::path python = fs::path("fixtures/cdk") / "python";
  fs::path typescript = fs::path("fixtures/cdk") / "typescript";
  if (!fs::exists(python) || !fs::exists(typescript)) return;
  int compared = 0;
  for (const auto& e : fs::directory_iterator(python)) {
    fs::path twin = typescript / e.path().filename();
    if (!e.is_directory() || !fs::exists(twin)) continue;
    INFO(e.path().filename().string());
    std::vector<std::string> py, ts;
    Describe(e.path().string(), &py);
    Describe(twin.string(), &ts);
    std::sort(py.begin(), py.end());
    std::sort(ts.begin(), ts.end());
    CHECK(py == ts);
    ++compared;
  }
  CHECK(compared > 0);
}

TEST_CASE("a file of a CDK app named alone is evaluated from its app's entry", "[cdk][e2e][pre-commit]") {
  auto scan = [](std::vector<std::string> paths) {
    ScanOptions opts;
    opts.paths = std::move(paths);
    opts.jobs = 1;
    std::vector<std::string> out;
    for (const Finding& f : Scan(opts).findings) out.push_back(f.path + " " + f.rule);
    return out;
  };
  // The stack file holds the constructs; the values come from app.py, a JSON
  // file and cdk.json, none of them named.
  CHECK(scan({"fixtures/cdk/python/notebook/stacks/notebook_stack.py"}) ==
        std::vector<std::string>{"fixtures/cdk/python/notebook/stacks/notebook_stack.py SM103",
                                 "fixtures/cdk/python/notebook/stacks/notebook_stack.py SM202"});
  CHECK(scan({"fixtures/cdk/typescript/notebook/lib/notebook-stack.ts"}) ==
        std::vector<std::string>{"fixtures/cdk/typescript/notebook/lib/notebook-stack.ts SM103",
                                 "fixtures/cdk/typescript/notebook/lib/notebook-stack.ts SM202"});
  // Named and inside a scanned app directory: the app is evaluated once.
  CHECK(scan({"fixtures/cdk/python/notebook/stacks/notebook_stack.py", "fixtures/cdk/python/notebook"}).size() == 2);
  // The entry alone: its app is evaluated, the findings are the stack file's.
  CHECK(scan({"fixtures/cdk/python/notebook/app.py"}).empty());
  CHECK(scan({"fixtures/cdk/typescript/notebook/bin/app.ts"}).empty());
}

TEST_CASE("CDK inputs: --param over a CfnParameter's default, --context over cdk.json over cdk.context.json",
          "[cdk][e2e][inputs]") {
  for (const char* language : {"python", "typescript"}) {
    DYNAMIC_SECTION(language) {
      // Copied out of the source tree (whose .sagelint.yaml excludes the fixtures).
      testing::TempDir scratch;
      fs::path from = fs::absolute(fs::path("fixtures/cdk") / language / "inputs");
      REQUIRE(fs::exists(from / "cdk.context.json"));
      for (const auto& e : fs::recursive_directory_iterator(from)) {
        if (e.is_regular_file()) {
          scratch.Write(fs::relative(e.path(), from).generic_string(), testing::ReadFileOrDie(e.path().string()));
        }
      }
      auto scan = [&](const std::string& flags) {
        auto r = testing::RunSagelint("scan --format json --fail-on none " + flags + " .", scratch.path());
        INFO(r.err);
        REQUIRE(r.status == 0);
        std::vector<std::string> out;
        nlohmann::json doc = nlohmann::json::parse(r.out);
        for (const auto& f : doc["findings"]) {
          out.push_back(f["rule"].get<std::string>() + " " + f["cost"]["instance_type"].get<std::string>());
        }
        return out;
      };
      // The files alone: the parameter's GPU default, cdk.json's T3 over cdk.context.json's P3,
      // the serving settings only cdk.context.json holds.
      CHECK(scan("") == std::vector<std::string>{"SM103 ml.g4dn.xlarge", "SM211 ml.g5.12xlarge"});
      CHECK(scan("--param LabInstanceType=ml.t3.large --context explore_type=ml.g5.xlarge") ==
            std::vector<std::string>{"SM103 ml.g5.xlarge", "SM211 ml.g5.12xlarge"});
    }
  }
}
