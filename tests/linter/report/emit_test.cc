// Output formats and baselines, on the scan of the example repository.
#include "linter/report/emit.h"

#include <unistd.h>  // getpid

#include <cmath>
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

// The scan JSON writes its findings straight to text: byte for byte what
// nlohmann lays out for the same tree (escapes, text that is not UTF-8,
// numbers, empty lists, nesting), at the list's indentation.
TEST_CASE("the scan JSON's findings, written as text, are nlohmann's layout of their tree", "[emit][json]") {
  using json = nlohmann::ordered_json;
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanResult r;
  Finding bare;
  bare.rule = "SM001";
  bare.name = "bare";
  bare.severity = Severity::kNote;
  bare.path = "a/b.yaml";
  bare.range.begin = {3, 7};
  bare.message = "tab\there, quote \" backslash \\ bell \x07 del \x7f caf\xc3\xa9 bad \xff\xfe end";
  bare.fix_unavailable = "no fix: \x01";
  bare.fingerprint = "f0";
  Finding full = bare;
  full.rule = "SM401";
  full.severity = Severity::kError;
  full.range = {{10, 2}, {12, 9}, 4, 2};
  full.condition = "when condition UseGpu is true";
  full.iam = IamHint{"sagemaker:InstanceTypes", {"sagemaker:CreateTrainingJob", "sagemaker:CreateEndpointConfig"}};
  full.cost =
      CostEstimate{"ml.p3.2xlarge", 2, 7.6543219, 5587.6543, std::nullopt, "730 h \u00d7 price", "", "2026-07-03"};
  full.fix = Fix{Applicability::kUnsafe, "replace \"x\"", {}, {}};
  full.fix->edits.push_back({"a/b.yaml", {{10, 2}, {10, 9}}, "line\nnext\r\n\xe2\x82\xac \xc3"});
  full.fix->edits.push_back({"c.py", {{1, 1}, {1, 1}}, ""});
  Finding empty = bare;
  empty.iam = IamHint{"sagemaker:VolumeKmsKey", {}};
  empty.cost = CostEstimate{"ml.m5.large", 1, std::nullopt, std::nullopt, std::nullopt, "no price", "", ""};
  empty.fix = Fix{Applicability::kSafe, "", {}, {}};
  r.findings = {bare, full, empty};

  std::ostringstream out;
  EmitJson(out, r, EmitOptions{});
  const std::string text = out.str();
  json doc = json::parse(text);
  auto range = [](const Finding& f, json& j) {
    j["line"] = f.range.begin.line;
    j["column"] = f.range.begin.column;
    j["end_line"] = f.range.end.valid() ? f.range.end.line : f.range.begin.line;
    j["end_column"] = f.range.end.valid() ? f.range.end.column : f.range.begin.column;
    j["cell"] = f.range.cell > 0 ? json(f.range.cell) : json(nullptr);
    j["cell_line"] = f.range.cell > 0 ? json(f.range.cell_line) : json(nullptr);
  };
  json expected = json::array();
  for (size_t i = 0; i < r.findings.size(); ++i) {
    const Finding& f = r.findings[i];
    json j = {{"rule", f.rule}, {"name", f.name}, {"severity", SeverityName(f.severity)}, {"path", f.path}};
    range(f, j);
    j["resource"] = f.resource;
    j["message"] = f.message;
    j["suggestion"] = f.suggestion;
    j["condition"] = f.condition.empty() ? json(nullptr) : json(f.condition);
    j["iam"] = nullptr;
    if (f.iam) {
      // The statement is the guardrail tests' subject; here only its place and layout.
      j["iam"] = {{"condition_key", f.iam->condition_key},
                  {"actions", f.iam->actions},
                  {"statement", doc["findings"][i]["iam"]["statement"]}};
      CHECK(j["iam"]["statement"].is_object());
    }
    j["cost"] = nullptr;
    if (f.cost) {
      auto money = [](const std::optional<double>& v, double scale) {
        return v ? json(std::round(*v * scale) / scale) : json(nullptr);
      };
      j["cost"] = {{"instance_type", f.cost->instance_type},
                   {"count", f.cost->count},
                   {"hourly_usd", money(f.cost->hourly_usd, 1e4)},
                   {"monthly_usd", money(f.cost->monthly_usd, 1e2)},
                   {"monthly_savings_usd", money(f.cost->monthly_savings_usd, 1e2)},
                   {"basis", f.cost->basis},
                   {"price_source", f.cost->price_source.empty() ? json(nullptr) : json(f.cost->price_source)},
                   {"price_date", f.cost->price_date.empty() ? json(nullptr) : json(f.cost->price_date)}};
    }
    if (f.fix) {
      json edits = json::array();
      for (const FixEdit& e : f.fix->edits) {
        edits.push_back({{"path", e.path},
                         {"line", e.range.begin.line},
                         {"column", e.range.begin.column},
                         {"end_line", e.range.end.line},
                         {"end_column", e.range.end.column},
                         {"content", e.content}});
      }
      j["fix"] = {
          {"applicability", ApplicabilityName(f.fix->applicability)}, {"message", f.fix->message}, {"edits", edits}};
    } else {
      j["fix_unavailable"] = f.fix_unavailable;
    }
    j["fingerprint"] = f.fingerprint;
    expected.push_back(j);
  }
  CHECK(doc["findings"][1]["cost"]["hourly_usd"] == 7.6543);
  CHECK(doc["findings"][0]["message"].get<std::string>().find("\xef\xbf\xbd") != std::string::npos);
  doc["findings"] = expected;
  CHECK(text == DumpJson(doc));
  // SARIF and diff take the same finding as a tree.
  CHECK(DumpJson(FindingJson(full, MachinePaths({}))) == DumpJson(expected[1]));
}
