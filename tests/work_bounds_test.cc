// A hostile pull request, round 2 (items of the Terraform budget, the
// notebook reader, the parse budget and `--fix` / `--diff`): each check
// failed before its fix.
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "linter/engine/fixes.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::AddressSpaceLimit;
using sagelint::testing::ParseJson;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;
using sagelint::testing::TempDir;

namespace {

// "PATH:LINE:COLUMN RULE message" of every finding of the given rules.
std::string Findings(const std::string& json, std::initializer_list<std::string> rules) {
  std::string out;
  nlohmann::json doc = ParseJson(json);
  for (const auto& f : doc["findings"]) {
    for (const std::string& r : rules) {
      if (f["rule"] == r) {
        out += f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
               std::to_string(f["column"].get<int>()) + " " + r + " " + f["message"].get<std::string>() + "\n";
      }
    }
  }
  return out;
}

// Forty locals each built from the next twice, then a notebook instance
// whose type is the first of them and one whose type is written literally.
std::string Doubling(const std::string& kind) {
  std::string out = "locals {\n";
  for (int i = 0; i < 40; ++i) {
    std::string n = "local.l" + std::to_string(i + 1), e;
    if (kind == "string") e = "\"${" + n + "}${" + n + "}\"";
    if (kind == "concat") e = "concat(" + n + ", " + n + ")";
    if (kind == "tuple") e = "[" + n + ", " + n + "]";
    if (kind == "format") e = "format(\"%s%s\", " + n + ", " + n + ")";
    if (kind == "replace") e = "replace(" + n + ", \"a\", " + n + ")";
    if (kind == "for") e = "[for x in " + n + " : " + n + "]";
    out += "  l" + std::to_string(i) + " = " + e + "\n";
  }
  bool text = kind == "string" || kind == "format" || kind == "replace";
  out += std::string("  l40 = ") + (text ? "\"ab\"" : "[\"a\", \"b\"]") + "\n}\n";
  out +=
      "resource \"aws_sagemaker_notebook_instance\" \"a\" {\n  name          = \"a\"\n  role_arn      = \"r\"\n"
      "  instance_type = jsonencode(local.l0)\n}\n"
      "resource \"aws_sagemaker_notebook_instance\" \"b\" {\n  name          = \"b\"\n  role_arn      = \"r\"\n"
      "  instance_type = \"ml.p4d.24xlarge\"\n}\n";
  return out;
}

}  // namespace

TEST_CASE("Terraform: a value that doubles is cut at one value's limit, with SM007, and the rest of the file is read",
          "[issue45][terraform][budget]") {
  const std::string kTooLarge =
      "SM007 sagelint stopped evaluating a value here: it is larger than one value may be (25,000 values or 4 MiB of "
      "text), so it and what is computed from it are unknown\n";
  const std::string kLiteral =
      "main.tf:52:19 SM103 notebook instance 'aws_sagemaker_notebook_instance.b' uses ml.p4d.24xlarge for interactive "
      "work: an accelerated instance bills its full price while it sits idle\n";
  for (const auto& [kind, at] : std::vector<std::pair<std::string, std::string>>{{"string", "main.tf:22:9 "},
                                                                                 {"concat", "main.tf:28:9 "},
                                                                                 {"tuple", "main.tf:28:10 "},
                                                                                 {"format", "main.tf:20:9 "},
                                                                                 {"replace", "main.tf:20:9 "},
                                                                                 {"for", "main.tf:28:19 "}}) {
    INFO(kind);
    TempDir d;
    d.Write("main.tf", Doubling(kind));
    // Before: minutes and gigabytes (killed here at 60 s or 2 GB).
    auto r = RunSagelint("scan --format json --fail-on none --select SM007,SM103 .", d.path(),
                         AddressSpaceLimit(2000000) + "timeout 60");
    REQUIRE(r.status == 0);
    std::string found = Findings(r.out, {"SM007", "SM103"});
    CHECK(found.find(kLiteral) != std::string::npos);
    CHECK(found.find(kTooLarge) != std::string::npos);
    CHECK(found.rfind(at, 0) == 0);
  }
}

TEST_CASE("Terraform: past the evaluation's budget an SM007 says where, and literal values are still read",
          "[issue45][terraform][budget]") {
  TempDir d;
  d.Write("main.tf",
          "locals {\n  big  = [for a in range(1024) : [for b in range(1024) : [a, b]]]\n}\n"
          "resource \"aws_s3_bucket\" \"a\" {\n  bucket = jsonencode(local.big)\n}\n"
          "resource \"aws_sagemaker_notebook_instance\" \"y\" {\n  name          = \"y\"\n  role_arn      = \"r\"\n"
          "  instance_type = \"ml.p4d.24xlarge\"\n}\n");
  auto r = RunSagelint("scan --format json --fail-on none --select SM007,SM103 .", d.path(),
                       AddressSpaceLimit(2000000) + "timeout 60");
  REQUIRE(r.status == 0);
  std::string found = Findings(r.out, {"SM007", "SM103"});
  CHECK(found.find("main.tf:2:58 SM007 sagelint stopped evaluating this module here: the values it builds exceed the "
                   "budget (250,000 values or 64 MiB of text); every value after this point that is not written "
                   "literally (a reference to a variable, local, resource, module output or iterator) is unknown\n") !=
        std::string::npos);
  CHECK(found.find("main.tf:10:19 SM103 notebook instance 'aws_sagemaker_notebook_instance.y' uses ml.p4d.24xlarge") !=
        std::string::npos);
}

TEST_CASE("notebooks: a key written twice is SM000 at the second one", "[issue45][notebook]") {
  TempDir d;
  d.Write("train.ipynb",
          "{\"cells\": [{\"cell_type\": \"code\", \"execution_count\": null, \"metadata\": {}, \"outputs\": [],\n"
          " \"source\": [\"_ = \\\"\\\"\\\"\"],\n"
          " \"source\": [\"from sagemaker.estimator import Estimator\\n\", \"est = Estimator(image_uri='x', "
          "role='r', instance_type='ml.p4d.24xlarge', instance_count=8)\\n\", \"# \\\"\\\"\\\"\"]}],\n"
          " \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}\n");
  auto r = RunSagelint("scan --format json --fail-on none train.ipynb", d.path());
  CHECK(Findings(r.out, {"SM000"}) == "train.ipynb:3:2 SM000 notebook is not valid JSON: duplicate key 'source'\n");
  // In an object the reader skips (a cell's metadata) as well.
  d.Write("meta.ipynb",
          "{\"cells\": [{\"cell_type\": \"code\", \"metadata\": {\"a\": 1, \"a\": 2}, \"source\": [\"import "
          "sagemaker\"]}], \"nbformat\": 4}\n");
  r = RunSagelint("scan --format json --fail-on none meta.ipynb", d.path());
  CHECK(Findings(r.out, {"SM000"}) == "meta.ipynb:1:55 SM000 notebook is not valid JSON: duplicate key 'a'\n");
}

TEST_CASE("a parse is bounded by its work, not by the clock: a stopped run parses as a free one", "[issue45][budget]") {
  TempDir d;
  // Python 2 lines keep tree-sitter in error recovery: about a second of work here.
  std::string text = "import sagemaker\n";
  for (int i = 0; i < 50000; ++i) text += "print x y z\n";
  d.Write("old.py", text);
  auto free_run = RunSagelint("scan --format json --fail-on none old.py", d.path());
  // The same run stopped for five seconds while it parses (a loaded machine):
  // before, "parsing took too long; file skipped" (a 3 s wall-clock deadline).
  std::string bin = sagelint::testing::Binary();
  std::string stopped = sagelint::testing::ShellOut(
      "cd " + d.path() + " && { " + bin +
      " scan --format json --fail-on none old.py > stopped.json & p=$!; sleep 0.3; kill -STOP $p; sleep 5; "
      "kill -CONT $p; wait $p; } >/dev/null 2>&1; cat stopped.json");
  CHECK(Findings(free_run.out, {"SM000"}) == "old.py:2:7 SM000 syntax error near 'x y'\n");
  CHECK(Findings(stopped, {"SM000"}) == Findings(free_run.out, {"SM000"}));
}

TEST_CASE("fixes: --fix never reads or writes through a link out of the scan root", "[issue45][fixes]") {
  TempDir d;
  std::string victim = ReadFileOrDie(SourcePath("fixtures/fixes/SM103/before/template.yaml"));
  d.Write("outside/victim.yaml", victim);
  d.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  fs::create_directories(d.path() + "/repo/infra");
  fs::create_symlink("../../outside", d.path() + "/repo/infra/shared");
  auto r = RunSagelint("scan --fix --unsafe-fixes infra/shared", d.path() + "/repo");
  CHECK(ReadFileOrDie(d.path() + "/outside/victim.yaml") == victim);
  CHECK(r.err.find("left unchanged: its real path " + fs::canonical(d.path()).string() +
                   "/outside/victim.yaml is outside the scan root") != std::string::npos);
  // A link inside the root still leads to a file a fix may change.
  d.Write("repo/common/nb.yaml", victim);
  fs::create_symlink("../common", d.path() + "/repo/infra/common");
  RunSagelint("scan --fix --unsafe-fixes infra/common", d.path() + "/repo");
  CHECK(ReadFileOrDie(d.path() + "/repo/common/nb.yaml") != victim);
}

TEST_CASE("fixes: --fix leaves a file that changed since the plan, a read-only one and another user's",
          "[issue45][fixes]") {
  TempDir d;
  std::string victim = ReadFileOrDie(SourcePath("fixtures/fixes/SM103/before/template.yaml"));
  d.Write("t.yaml", victim);
  std::string path = d.path() + "/t.yaml";
  FileFix planned{path, victim, victim + "# fixed\n", 1, {}};
  std::string text, why;
  // The plan's reading of the file.
  Finding f;
  f.rule = "SM103";
  f.path = path;
  FixChange c;
  c.path = path;
  c.range = {{6, 21}, {6, 34}};
  c.text = "ml.p3.2xlarge";
  c.value = "ml.t3.medium";
  f.fix = Fix{Applicability::kSafe, "test", {c}, {}};
  std::vector<Finding> findings{f};
  ResolveFixes(findings);
  FixPlan plan = PlanFixes(findings, false, FixRoots({d.path()}));
  REQUIRE(plan.files.size() == 1);
  // A change saved after the plan is kept.
  d.Write("t.yaml", victim + "# IMPORTANT USER EDIT\n");
  CHECK(WriteFix(plan.files[0], &why) == WriteOutcome::kLeft);
  CHECK(why == "left unchanged: it changed after the fixes were planned; run again");
  CHECK(ReadFileOrDie(path) == victim + "# IMPORTANT USER EDIT\n");
  // Read-only: its mode is never changed.
  d.Write("t.yaml", victim);
  plan = PlanFixes(findings, false, FixRoots({d.path()}));
  REQUIRE(plan.files.size() == 1);
  ::chmod(path.c_str(), 0444);
  CHECK(WriteFix(plan.files[0], &why) == WriteOutcome::kLeft);
  CHECK(why == "left unchanged: it is read-only");
  struct stat st {};
  ::stat(path.c_str(), &st);
  CHECK((st.st_mode & 0777) == 0444);
  ::chmod(path.c_str(), 0644);
  // Another user's (only a privileged run can make one).
  if (::geteuid() == 0) {
    REQUIRE(::chown(path.c_str(), 4242, static_cast<gid_t>(-1)) == 0);
    plan = PlanFixes(findings, false, FixRoots({d.path()}));
    REQUIRE(plan.files.size() == 1);
    CHECK(WriteFix(plan.files[0], &why) == WriteOutcome::kLeft);
    CHECK(why == "left unchanged: it belongs to another user, and a fix never changes a file's owner");
    ::stat(path.c_str(), &st);
    CHECK(st.st_uid == 4242u);
    CHECK(ReadFileOrDie(path) == victim);
    REQUIRE(::chown(path.c_str(), 0, static_cast<gid_t>(-1)) == 0);
  }
  // Unchanged: written, with its mode.
  ::chmod(path.c_str(), 0640);
  plan = PlanFixes(findings, false, FixRoots({d.path()}));
  REQUIRE(plan.files.size() == 1);
  CHECK(WriteFix(plan.files[0], &why) == WriteOutcome::kWritten);
  ::stat(path.c_str(), &st);
  CHECK((st.st_mode & 0777) == 0640);
  CHECK(ReadFileOrDie(path).find("InstanceType: ml.t3.medium") != std::string::npos);
}

TEST_CASE("fixes: --diff shows control characters of names and lines as escapes", "[issue45][fixes]") {
  std::string diff = UnifiedDiff("a\x1b]0;x\x07.yaml", "k: \x1b[2Jold\r\n\tx\n", "k: \x1b[2Jnew\r\n\tx\n");
  CHECK(diff ==
        "--- a/a\\x1b]0;x\\x07.yaml\n+++ b/a\\x1b]0;x\\x07.yaml\n@@ -1,2 +1,2 @@\n-k: \\x1b[2Jold\r\n+k: "
        "\\x1b[2Jnew\r\n \tx\n");
}

TEST_CASE("Terraform fix: an escaped interpolation stays escaped once", "[issue45][fixes][terraform]") {
  TempDir d;
  std::string tf = ReadFileOrDie(SourcePath("fixtures/fixes/SM401/before/training.tf"));
  tf.replace(tf.find("s3://ml-artifacts/output/"), 25, "s3://ml-artifacts/$${local.env}/output/");
  d.Write("training.tf", tf);
  auto r = RunSagelint("scan --select SM401 --unsafe-fixes --diff training.tf", d.path());
  CHECK(r.out.find("+    s3_uri = \"s3://ml-artifacts/$${local.env}/output/checkpoints\"\n") != std::string::npos);
  CHECK(r.err.find("no longer parse") == std::string::npos);
}

TEST_CASE("notebook fixes keep the line endings of the cells' source", "[issue45][fixes][notebook]") {
  TempDir d;
  for (const char* name : {"SM401/before/on_demand_training.ipynb", "SM213/before/deploy_demo.ipynb"}) {
    std::string nb = ReadFileOrDie(SourcePath(std::string("fixtures/fixes/") + name));
    for (size_t at = nb.find("\\n\""); at != std::string::npos; at = nb.find("\\n\"", at + 4)) nb.insert(at, "\\r");
    d.Write(fs::path(name).filename().string(), nb);
  }
  auto r = RunSagelint("scan --select SM401,SM213 --unsafe-fixes --diff .", d.path());
  INFO(r.out);
  CHECK(r.out.find("+    \"    use_spot_instances=True,\\r\\n\",\n") != std::string::npos);
  CHECK(r.out.find("+    \"predictor.delete_endpoint()\\r\\n\",\n") != std::string::npos);
  CHECK(r.out.find("True,\\n\"") == std::string::npos);
  CHECK(r.out.find("()\\n\"") == std::string::npos);
}
