// Output formats and baselines, on the scan of the example repository.
#include "linter/report/emit.h"

#include <unistd.h>  // getpid

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linter/cli/scan_options.h"
#include "linter/engine/baseline.h"
#include "linter/model/rule.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::CompareGolden;

namespace {

ScanResult ScanExamples() {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = {"examples"};
  opts.jobs = 1;
  return Scan(opts);
}

std::string Render(const char* format, const ScanResult& r) {
  std::ostringstream out;
  FindEmitter(format)->emit(out, r, EmitOptions{});
  return out.str();
}

}  // namespace

TEST_CASE("every output format renders the example scan as pinned", "[emit]") {
  ScanResult r = ScanExamples();
  REQUIRE(!r.findings.empty());
  for (const char* format : {"junit", "github", "gitlab", "markdown"}) {
    DYNAMIC_SECTION(format) {
      CHECK(CompareGolden(std::string("tests/golden/emit/examples.") + format, Render(format, r)) == "");
    }
  }
}

TEST_CASE("SARIF carries the rule table and one located result per finding", "[emit][sarif]") {
  ScanResult r = ScanExamples();
  auto doc = nlohmann::json::parse(Render("sarif", r));
  CHECK(doc["version"] == "2.1.0");
  const auto& run = doc["runs"][0];
  CHECK(run["tool"]["driver"]["name"] == "sagelint");
  CHECK(run["tool"]["driver"]["rules"].size() == AllRules().size());
  REQUIRE(run["results"].size() == r.findings.size());
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const auto& res = run["results"][i];
    const Finding& f = r.findings[i];
    CHECK(res["ruleId"] == f.rule);
    CHECK(run["tool"]["driver"]["rules"][res["ruleIndex"].get<int>()]["id"] == f.rule);
    const auto& loc = res["locations"][0]["physicalLocation"];
    CHECK(loc["artifactLocation"]["uri"] == f.path);
    CHECK(loc["region"]["startLine"] == f.range.begin.line);
    CHECK(res["partialFingerprints"]["sagelint/v2"] == f.fingerprint);
  }
  nlohmann::json results = run["results"];
  for (auto& res : results) res.erase("properties");
  CHECK(CompareGolden("tests/golden/emit/examples.sarif-results", results.dump(2) + "\n") == "");
}

TEST_CASE("a baseline hides recorded findings, survives moved lines, and lets changes through", "[baseline]") {
  fs::path dir = fs::temp_directory_path() / ("sagelint-baseline-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::string nb =
      "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  Explore:\n"
      "    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: ml.p3.2xlarge\n";
  auto write = [&](const std::string& text) { std::ofstream(dir / "nb.yaml") << text; };
  auto scan = [&] {
    ScanOptions opts;
    opts.paths = {(dir / "nb.yaml").string()};
    return Scan(opts);
  };
  write(nb);
  ScanResult before = scan();
  REQUIRE(before.findings.size() == 2);  // SM103, SM201
  std::string error;
  REQUIRE(WriteBaseline((dir / "baseline.json").string(), before.findings, &error));
  Baseline baseline;
  REQUIRE(LoadBaseline((dir / "baseline.json").string(), &baseline, &error));

  // Moved down by comments and blank lines, re-indented keys: still the same findings.
  write("# notebooks of the team\n\n" + nb);
  ScanResult moved = scan();
  ApplyBaseline(baseline, &moved);
  CHECK(moved.findings.empty());
  CHECK(moved.baselined == 2);

  // Another instance type is a new finding for SM103; SM201 stays hidden.
  std::string changed = nb;
  changed.replace(changed.find("ml.p3.2xlarge"), 13, "ml.g5.xlarge");
  write(changed);
  ScanResult after = scan();
  ApplyBaseline(baseline, &after);
  REQUIRE(after.findings.size() == 1);
  CHECK(after.findings[0].rule == "SM103");
  CHECK(after.baselined == 1);
  fs::remove_all(dir);
}

// Long lists are written one element at a time: the text must be exactly
// the whole document's.
TEST_CASE("a list written element by element reads as the whole document", "[emit][json]") {
  using json = nlohmann::ordered_json;
  std::vector<json> elements = {
      json{{"rule", "SM401"}, {"message", "line one\nline two \"quoted\""}, {"iam", {{"actions", {"a", "b"}}}}},
      json{{"empty", json::array()}, {"nested", {{"deeper", {1, 2, {{"x", nullptr}}}}}}},
      json("caf\xc3\xa9 \xff"),  // not UTF-8 at the end: replaced as DumpJson replaces it
  };
  auto streamed = [&](const json& doc, size_t count) {
    std::ostringstream out;
    WriteJsonWithList(out, doc, count, [&](size_t i) { return elements[i]; });
    return out.str();
  };
  for (size_t count : {size_t{0}, size_t{1}, elements.size()}) {
    json whole = json::array();
    for (size_t i = 0; i < count; ++i) whole.push_back(elements[i]);
    json top = {{"schema_version", 1}, {"findings", kJsonListHere}, {"summary", {{"findings", count}}}};
    json top_whole = {{"schema_version", 1}, {"findings", whole}, {"summary", {{"findings", count}}}};
    CHECK(streamed(top, count) == DumpJson(top_whole));
    json deep = {{"runs", json::array({{{"tool", "t"}, {"results", kJsonListHere}}})}};
    json deep_whole = {{"runs", json::array({{{"tool", "t"}, {"results", whole}}})}};
    CHECK(streamed(deep, count) == DumpJson(deep_whole));
    CHECK(streamed(json(kJsonListHere), count) == DumpJson(whole));
  }
}
