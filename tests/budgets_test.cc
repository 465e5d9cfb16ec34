// Budgets on what a hostile input can make sagelint do: each ends in a
// finding or an error that names the limit, never in silence, a hang or an
// exhausted machine (issue: a hostile pull request cannot fill or hang the gate).
#include <sys/stat.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "linter/base/files.h"
#include "linter/engine/baseline.h"
#include "linter/engine/git.h"
#include "linter/policy/policy.h"
#include "linter/report/emit.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

// Nested Fn::ForEach loops, `levels` deep over `width` values each, around
// one notebook instance whose logical ID names every loop's value (or, with
// `same_id`, none of them: every iteration declares the same resource).
std::string NestedLoops(int levels, int width, bool same_id = false) {
  std::string values = "[";
  for (int i = 0; i < width; ++i) values += std::string(i ? ", " : "") + "v" + std::to_string(i);
  values += "]";
  std::string out = "AWSTemplateFormatVersion: \"2010-09-09\"\nTransform: AWS::LanguageExtensions\nResources:\n";
  std::string indent = "  ", id = "Nb";
  for (int l = 0; l < levels; ++l) {
    std::string var = "L" + std::to_string(l);
    out += indent + "Fn::ForEach::" + var + ":\n" + indent + "  - " + var + "\n" + indent + "  - " + values + "\n" +
           indent + "  -\n";
    indent += "    ";
    id += "${" + var + "}";
  }
  out += indent + (same_id ? std::string("Nb") : id) + ":\n" + indent + "  Type: AWS::SageMaker::NotebookInstance\n" +
         indent + "  Properties:\n" + indent + "    InstanceType: ml.t3.medium\n";
  return out;
}

std::string Sm000Message(const std::string& json_out) {
  auto j = sagelint::testing::ParseJson(json_out);
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "SM000") return f["message"];
  }
  return "";
}

}  // namespace

TEST_CASE("Fn::ForEach stops at CloudFormation's 500 resources per template, with SM000",
          "[adversarial][cloudformation]") {
  TempDir d;
  // 10^8 resources in under a kilobyte: before, it ran until killed.
  std::string huge = NestedLoops(8, 10);
  CHECK(huge.size() < 1500);
  d.Write("huge.yaml", huge);
  auto r = RunSagelint("scan --format json --fail-on none huge.yaml", d.path());
  CHECK(r.status == 0);
  CHECK(Sm000Message(r.out) ==
        "Fn::ForEach expands the template to more than 500 resources, CloudFormation's limit for one template; it is "
        "not checked");
  // 600 resources: one too many loops for CloudFormation as well.
  d.Write("600.yaml", NestedLoops(1, 600));
  r = RunSagelint("scan --format json --fail-on none 600.yaml", d.path());
  CHECK(Sm000Message(r.out).find("more than 500 resources") != std::string::npos);
  // 400 are fine: every one is checked, and as one construct they give one finding (README "Usage") costing all 400.
  d.Write("400.yaml", NestedLoops(2, 20));
  r = RunSagelint("scan --format json --fail-on none --select SM201 400.yaml", d.path());
  CHECK(Sm000Message(r.out).empty());
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["resource"].get<std::string>().find(" and 391 more)") != std::string::npos);
  CHECK(j["findings"][0]["cost"]["count"] == 400);
  // Loops that declare the same resource again and again are bounded by the work they take.
  d.Write("same.yaml", NestedLoops(8, 10, true));
  r = RunSagelint("scan --format json --fail-on none same.yaml", d.path());
  CHECK(Sm000Message(r.out) == "Fn::ForEach expands to more than 2000000 nodes; the template is not checked");
}

TEST_CASE("custom policies' regular expressions share one budget", "[adversarial][policy]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  auto policies = [](int n, const std::string& pattern, int first = 0) {
    std::string out;
    for (int i = first; i < first + n; ++i) {
      out += "  - id: ORG" + std::to_string(i) +
             "\n    workload: notebook_instance\n    where:\n      name: { matches: '" + pattern +
             "' }\n    message: m\n";
    }
    return out;
  };
  // A thousand patterns that each compile to half a million instructions (before: 140 s, 3.8 GB).
  d.Write(".sagelint.yaml", "policies:\n" + policies(1000, "\\pL{400}"));
  auto r = RunSagelint("scan nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: .sagelint.yaml:5: policy ORG0: name: bad regular expression '\\pL{400}': pattern too large - "
        "compile failed (larger than 1 MiB compiled)\n");
  // Patterns small enough alone, too many together.
  d.Write(".sagelint.yaml", "policies:\n" + policies(200, "[a-z]{1000}"));
  r = RunSagelint("scan nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("policy ORG99: name: the custom policies' regular expressions together compile to more than "
                   "100000 RE2 instructions ('[a-z]{1000}' brings them to 100400); simplify them") !=
        std::string::npos);
  // The budget is shared with the policy files.
  d.Write("more.yaml", "policies:\n" + policies(60, "[a-z]{1000}", 100));
  d.Write(".sagelint.yaml", "policy_files: [more.yaml]\npolicies:\n" + policies(60, "[a-z]{1000}"));
  r = RunSagelint("scan nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("sagelint: more.yaml:") == 0);
  CHECK(r.err.find("policy ORG139: name: the custom policies' regular expressions together") != std::string::npos);
  // Ordinary patterns are far below it.
  d.Write(".sagelint.yaml", "policies:\n" + policies(500, "^ml\\.(t3|m5)\\."));
  r = RunSagelint("scan --fail-on none nb.yaml", d.path());
  CHECK(r.status == 0);
}

TEST_CASE("baselines: 64 levels of nesting, 64 MiB, no key twice", "[adversarial][baseline]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  // 16 MiB of '[' (before: the tree was built, many times its size).
  d.Write("deep.json", std::string(16u << 20, '['));
  auto r = RunSagelint("scan --baseline deep.json nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: --baseline: deep.json: nested deeper than 64 levels at [0][0][0][0][0][0][0][0][0][0][0]"
        "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]"
        "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]\n");
  // A key given twice would silently keep one of its values.
  d.Write("dup.json",
          "{\"schema_version\": 2, \"findings\": [{\"fingerprint\": \"a\", \"fingerprint\": \"b\"}], "
          "\"findings\": []}");
  r = RunSagelint("scan --baseline dup.json nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --baseline: dup.json: duplicate key \"fingerprint\" in findings[0]\n");
  d.Write("dup2.json", "{\"schema_version\": 2, \"findings\": [], \"findings\": [{\"fingerprint\": \"a\"}]}");
  r = RunSagelint("scan --baseline dup2.json nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --baseline: dup2.json: duplicate key \"findings\"\n");
  // Larger than 64 MiB: refused before it is read.
  d.Write("big.json", "x");
  fs::resize_file(fs::path(d.path()) / "big.json", (64u << 20) + 1);
  r = RunSagelint("scan --baseline big.json nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("larger than 64 MiB") != std::string::npos);
}

TEST_CASE("a FIFO with a scanned file's name inside a scanned directory is told, never opened", "[adversarial][cli]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  ::mkfifo((d.path() + "/terraform.tfvars").c_str(), 0600);
  ::mkfifo((d.path() + "/x.yaml").c_str(), 0600);
  ::mkfifo((d.path() + "/notes.txt").c_str(), 0600);  // not a kind sagelint reads: not mentioned
  auto r = RunSagelint("scan --fail-on none .", d.path(), "timeout 60");
  CHECK(r.status == 0);
  // Told as SM008 (rules/SM008.md), so that the gate can fail on it.
  CHECK(r.err.empty());
  CHECK(r.out.find("terraform.tfvars:1:1: warning[SM008] sagelint did not read this file: it is not a regular file") !=
        std::string::npos);
  CHECK(r.out.find("x.yaml:1:1: warning[SM008] sagelint did not read this file: it is not a regular file") !=
        std::string::npos);
  CHECK(r.out.find("notebook instance 'Nb'") != std::string::npos);
}

TEST_CASE("var files (--var-file) are read through the cap", "[adversarial][terraform][cli]") {
  TempDir d;
  d.Write("main.tf", "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  instance_type = \"ml.t3.medium\"\n}\n");
  d.Write("vars/.keep", "");
  ::mkfifo((d.path() + "/fifo").c_str(), 0600);
  d.Write("big.tfvars", "x");
  fs::resize_file(fs::path(d.path()) / "big.tfvars", 5u << 20);
  struct Case {
    std::string file, err;
  };
  for (const Case& c : std::vector<Case>{
           {"/dev/zero", "sagelint: --var-file: /dev/zero: not a regular file\n"},
           {"fifo", "sagelint: --var-file: fifo: not a regular file\n"},
           {"vars", "sagelint: --var-file: vars: is a directory\n"},
           {"big.tfvars", "sagelint: --var-file: big.tfvars: larger than 4 MiB\n"},
       }) {
    DYNAMIC_SECTION(c.file) {
      // Before: /dev/zero read 4.2 GB, then bad_alloc; a FIFO hung; a directory was accepted.
      auto r = RunSagelint("scan --var-file " + c.file + " .", d.path(), "timeout 60");
      CHECK(r.status == 2);
      CHECK(r.err == c.err);
    }
  }
}

TEST_CASE("docs/security.md states the limits the code applies", "[adversarial][docs]") {
  std::string doc = sagelint::testing::ReadFileOrDie(sagelint::testing::SourcePath("docs/security.md"));
  auto with_commas = [](long n) {
    std::string digits = std::to_string(n), out;
    for (size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
      out += digits[i];
    }
    return out;
  };
  sagelint::GitTreeLimits git;
  for (const std::string& s : {
           with_commas(sagelint::kPolicyRegexBudget) + " program instructions",
           std::to_string(sagelint::kPolicyRegexMaxMem >> 20) + " MiB",
           std::to_string(sagelint::kMaxBaselineDepth) + " levels of nesting",
           std::to_string(git.max_bytes >> 30) + " GiB of git objects",
           with_commas(static_cast<long>(git.max_entries)) + " tree entries",
           with_commas(static_cast<long>(sagelint::kCommentLimit)) + " characters",
           std::string("500 resources per template"),
           std::to_string(sagelint::kMaxTerraformFileBytes >> 20) + " MiB",
       }) {
    INFO(s);
    CHECK(doc.find(s) != std::string::npos);
  }
}
