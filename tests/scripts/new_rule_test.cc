// scripts/new-rule.py (docs/maintaining.md "Adding a rule"), run into a scratch copy of the two
// files it edits: what it writes compiles beside the real tree, its fixtures are workloads the
// front ends read, its doc has the sections of the other rules' docs, and it refuses an ID or a
// name that exists without writing anything.
#include <sys/wait.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "linter/model/rule.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::ShellOut;
using sagelint::testing::SourcePath;
using sagelint::testing::TempDir;

namespace {

// A scratch tree with the scaffold's inputs: rules/registry.cc and rules/checks.h.
struct ScratchTree {
  TempDir dir;
  ScratchTree() {
    for (const char* f : {"rules/registry.cc", "rules/checks.h"}) dir.Write(f, ReadFileOrDie(SourcePath(f)));
  }
  std::string Read(const std::string& rel) const { return ReadFileOrDie(dir.path() + "/" + rel); }
  // Runs the scaffold with `args`; its exit status, its standard error in *err.
  int Scaffold(const std::string& args, std::string* err) const {
    std::string err_file = dir.path() + "/.stderr";
    int status = std::system(("python3 '" + SourcePath("scripts/new-rule.py") + "' " + args + " --root '" + dir.path() +
                              "' >/dev/null 2>'" + err_file + "'")
                                 .c_str());
    *err = ReadFileOrDie(err_file);
    fs::remove(err_file);
    return WEXITSTATUS(status);
  }
};

// The `## ` headings of a markdown text, in order.
std::vector<std::string> Headings(const std::string& doc) {
  std::vector<std::string> out;
  static const std::regex kHeading("^## (.*)$", std::regex::multiline);
  for (auto it = std::sregex_iterator(doc.begin(), doc.end(), kHeading); it != std::sregex_iterator(); ++it) {
    out.push_back((*it)[1].str());
  }
  return out;
}

// Every file under `dir`, relative to it, sorted.
std::vector<std::string> FilesUnder(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).generic_string());
  }
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("new-rule.py writes a rule that compiles, with its row in ID order, a doc and fixtures",
          "[scaffold][registry]") {
  ScratchTree t;
  std::string err;
  REQUIRE(t.Scaffold("SM404 spot-without-retry 'A Spot training job has no retry strategy.'", &err) == 0);
  INFO(err);
  CHECK(FilesUnder(t.dir.path()) == std::vector<std::string>{
                                        "fixtures/rules/SM404/clean/workload.py",
                                        "fixtures/rules/SM404/clean/workload.tf",
                                        "fixtures/rules/SM404/clean/workload.yaml",
                                        "fixtures/rules/SM404/expected.txt",
                                        "fixtures/rules/SM404/trigger/workload.py",
                                        "fixtures/rules/SM404/trigger/workload.tf",
                                        "fixtures/rules/SM404/trigger/workload.yaml",
                                        "rules/SM404.md",
                                        "rules/checks.h",
                                        "rules/registry.cc",
                                        "rules/sm404_spot_without_retry.cc",
                                    });

  // The row: between SM403's and SM501's, the rest of the table untouched.
  std::string registry = t.Read("rules/registry.cc");
  std::string row =
      "      {.id = \"SM404\",\n"
      "       .name = \"spot-without-retry\",\n"
      "       .severity = Severity::kWarning,\n"
      "       .summary = \"A Spot training job has no retry strategy.\",\n"
      "       .kinds = {K::kTrainingJob},\n"
      "       .iam = {.without_key = \"no condition key exists\"},\n"
      "       .check = rules::CheckSpotWithoutRetry},\n";
  size_t at = registry.find(row);
  REQUIRE(at != std::string::npos);
  CHECK(registry.erase(at, row.size()) == ReadFileOrDie(SourcePath("rules/registry.cc")));
  CHECK(at > t.Read("rules/registry.cc").find("{.id = \"SM403\","));
  CHECK(at < t.Read("rules/registry.cc").find("{.id = \"SM501\","));
  CHECK(t.Read("rules/checks.h")
            .find("void CheckSpotWithoutRetry(const Workload& w, const RuleContext& ctx, Sink& "
                  "sink);\n\n}  // namespace sagelint::rules") != std::string::npos);

  // Both the table and the new check compile against the real tree (the scratch copy's rules/ first).
  std::string compile = "${CXX:-c++} -std=c++20 -fsyntax-only -Wall -Wextra -Werror -I'" + t.dir.path() + "' -I'" +
                        SourcePath("") + "' '" + t.dir.path() + "/rules/registry.cc' '" + t.dir.path() +
                        "/rules/sm404_spot_without_retry.cc' 2>&1";
  CHECK_NOTHROW(ShellOut(compile));
  // In the project's layout, when clang-format is there to say (the clang_format test's tool).
  if (std::system("command -v clang-format >/dev/null 2>&1") == 0) {
    CHECK(ShellOut("clang-format --assume-filename='" + SourcePath("rules/sm404_spot_without_retry.cc") + "' < '" +
                   t.dir.path() + "/rules/sm404_spot_without_retry.cc'") +
              "\n" ==
          t.Read("rules/sm404_spot_without_retry.cc"));
  }

  // The doc: the sections of an existing rule's doc, in the same order, under the rule's title.
  std::string doc = t.Read("rules/SM404.md");
  CHECK(doc.starts_with("# SM404 spot-without-retry\n\n## What it does\nA Spot training job has no retry strategy.\n"));
  CHECK(Headings(doc) == Headings(std::string(RuleDoc("SM212"))));
  CHECK(doc.find("`# sagelint:ignore=SM404 reason`") != std::string::npos);

  // The fixtures: one training job per format, read without a parse error; trigger and clean the
  // same until the author changes them; no snapshot yet.
  CHECK(t.Read("fixtures/rules/SM404/expected.txt").empty());
  for (const char* sub : {"trigger", "clean"}) {
    std::string dir = t.dir.path() + "/fixtures/rules/SM404/" + sub;
    auto inv = testing::RunSagelint("inventory --format json --no-cache '" + dir + "'");
    INFO(inv.err);
    REQUIRE(inv.status == 0);
    nlohmann::json workloads = testing::ParseJson(inv.out).at("workloads");
    REQUIRE(workloads.size() == 3);
    for (const auto& w : workloads) {
      CHECK(w.at("kind") == "training_job");
      CHECK(w.at("instance_type") == "ml.g5.2xlarge");
    }
    auto scan = testing::RunSagelint("scan --format json --fail-on none --no-cache --select SM000 '" + dir + "'");
    CHECK(testing::ParseJson(scan.out).at("findings").empty());
  }
  for (const char* f : {"workload.yaml", "workload.tf", "workload.py"}) {
    CHECK(t.Read(std::string("fixtures/rules/SM404/trigger/") + f) ==
          t.Read(std::string("fixtures/rules/SM404/clean/") + f));
  }
}

TEST_CASE("new-rule.py refuses an ID or a name that exists and writes nothing", "[scaffold][registry]") {
  ScratchTree t;
  std::string err;
  CHECK(t.Scaffold("SM401 spot-anyway 'A rule.'", &err) == 1);
  CHECK(err == "new-rule.py: SM401 exists in rules/registry.cc; nothing written\n");
  CHECK(t.Scaffold("SM499 training-without-spot 'A rule.'", &err) == 1);
  CHECK(err == "new-rule.py: the name training-without-spot is taken in rules/registry.cc; nothing written\n");
  CHECK(t.Scaffold("SM4000 four-digits 'A rule.'", &err) == 1);
  CHECK(err == "new-rule.py: SM4000: a rule ID is SM followed by three digits; nothing written\n");
  CHECK(t.Scaffold("SM499 hosting-rule 'A rule.' --kind scalable_target", &err) == 1);
  CHECK(err.starts_with("new-rule.py: no minimal example for scalable_target"));
  CHECK(FilesUnder(t.dir.path()) == std::vector<std::string>{"rules/checks.h", "rules/registry.cc"});
  CHECK(t.Read("rules/registry.cc") == ReadFileOrDie(SourcePath("rules/registry.cc")));

  // A second run with the ID it has just added.
  REQUIRE(t.Scaffold("SM499 notebook-rule 'A rule.' --kind notebook_instance", &err) == 0);
  std::string registry = t.Read("rules/registry.cc");
  CHECK(t.Scaffold("SM499 notebook-rule 'A rule.' --kind notebook_instance", &err) == 1);
  CHECK(err == "new-rule.py: SM499 exists in rules/registry.cc; nothing written\n");
  CHECK(t.Read("rules/registry.cc") == registry);
}
