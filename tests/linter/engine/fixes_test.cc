// Fixes (README "Fixes"): the engine's edits, plans and diffs, and every rule's fix
// fixtures. fixtures/fixes/<ID>/before/ holds files with findings of the rule
// whose fix applies; after/ the exact bytes `sagelint scan --fix` (with
// --unsafe-fixes for an unsafe rule) leaves; nofix/ findings of the rule
// whose value is not the workload's own literal, so they carry no fix.
#include "linter/engine/fixes.h"

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "linter/engine/front_ends.h"
#include "linter/model/rule.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using namespace sagelint::testing;

namespace {

// Every regular file under `dir`, by its path relative to it, with its bytes.
std::map<std::string, std::string> Tree(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.is_regular_file()) files[fs::relative(e.path(), dir).generic_string()] = ReadFileOrDie(e.path().string());
  }
  return files;
}

void CopyTree(const fs::path& from, const std::string& to) {
  for (const auto& [rel, text] : Tree(from)) {
    fs::create_directories(fs::path(to) / fs::path(rel).parent_path());
    std::ofstream(fs::path(to) / rel, std::ios::binary) << text;
  }
}

std::vector<nlohmann::json> FindingsOf(const std::string& json_text, const std::string& rule) {
  std::vector<nlohmann::json> out;
  nlohmann::json doc = ParseJson(json_text);
  for (const nlohmann::json& f : doc["findings"]) {
    if (f["rule"] == rule) out.push_back(f);
  }
  return out;
}

Finding WithFix(const std::string& path, FixChange change, Applicability a = Applicability::kSafe) {
  Finding f;
  f.rule = "SM104";
  f.path = path;
  change.path = path;
  f.fix = Fix{a, "test", {std::move(change)}, {}};
  return f;
}

FixChange Replace(int line, int column, int end_column, std::string text, std::string value) {
  FixChange c;
  c.range = {{line, column}, {line, end_column}};
  c.text = std::move(text);
  c.value = std::move(value);
  return c;
}

const char kTemplate[] =
    "Resources:\n"
    "  Explore:\n"
    "    Type: AWS::SageMaker::NotebookInstance\n"
    "    Properties:\n"
    "      InstanceType: \"ml.m4.xlarge\"  # old\n"
    "      RoleArn: arn:aws:iam::111122223333:role/x\n";

}  // namespace

TEST_CASE("fixes: a literal's new text keeps its quotes and the rest of the file", "[fixes]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  std::string path = dir.path() + "/t.yaml";
  std::vector<Finding> findings = {WithFix(path, Replace(5, 21, 35, "ml.m4.xlarge", "ml.m5.xlarge"))};
  ResolveFixes(findings);
  REQUIRE(findings[0].fix);
  REQUIRE(findings[0].fix->edits.size() == 1);
  CHECK(findings[0].fix->edits[0].range.begin == SourcePos{5, 22});
  CHECK(findings[0].fix->edits[0].range.end == SourcePos{5, 34});
  FixPlan plan = PlanFixes(findings, false, FixRoots({dir.path()}));
  REQUIRE(plan.files.size() == 1);
  CHECK(plan.fixes == 1);
  std::string expected = kTemplate;
  expected.replace(expected.find("ml.m4"), 5, "ml.m5");
  CHECK(plan.files[0].after == expected);
}

TEST_CASE("fixes: a literal that no longer reads as the value gives no fix", "[fixes]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  std::string path = dir.path() + "/t.yaml";
  std::vector<Finding> findings = {WithFix(path, Replace(5, 21, 35, "ml.p3.2xlarge", "ml.m5.xlarge")),
                                   WithFix(path, Replace(40, 1, 5, "x", "y"))};
  ResolveFixes(findings);
  CHECK_FALSE(findings[0].fix);
  CHECK_FALSE(findings[1].fix);
}

TEST_CASE("fixes: overlapping fixes wait for the next run, unsafe ones for --unsafe-fixes", "[fixes]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  std::string path = dir.path() + "/t.yaml";
  std::vector<Finding> findings = {WithFix(path, Replace(5, 21, 35, "ml.m4.xlarge", "ml.m5.xlarge")),
                                   WithFix(path, Replace(5, 21, 35, "ml.m4.xlarge", "ml.c5.xlarge")),
                                   WithFix(path, Replace(5, 21, 35, "ml.m4.xlarge", "ml.m5.xlarge")),
                                   WithFix(path, Replace(6, 16, 48, "aws", "aws-cn"), Applicability::kUnsafe)};
  ResolveFixes(findings);
  FixPlan safe = PlanFixes(findings, false, FixRoots({dir.path()}));
  CHECK(safe.fixes == 2);  // the first, and the third: the same edit
  CHECK(safe.unsafe_skipped == 1);
  REQUIRE(safe.notes.size() == 1);
  CHECK(safe.notes[0].find("overlaps another fix") != std::string::npos);
  FixPlan all = PlanFixes(findings, true, FixRoots({dir.path()}));
  CHECK(all.fixes == 3);
  REQUIRE(all.files.size() == 1);
  CHECK(all.files[0].after.find("arn:aws-cn:iam") != std::string::npos);
}

TEST_CASE("fixes: a file that would no longer parse is left as it is", "[fixes]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  std::string path = dir.path() + "/t.yaml";
  // The edit leaves a quoted scalar unterminated.
  std::vector<Finding> findings = {WithFix(path, Replace(5, 21, 35, "\"ml.m4.xlarge\"", "\"ml.m5.xlarge"))};
  ResolveFixes(findings);
  FixPlan plan = PlanFixes(findings, false, FixRoots({dir.path()}));
  CHECK(plan.files.empty());
  CHECK(plan.fixes == 0);
  REQUIRE(plan.notes.size() == 1);
  CHECK(plan.notes[0].find("would no longer parse") != std::string::npos);
}

TEST_CASE("fixes: a unified diff of the changed lines with three lines of context", "[fixes]") {
  std::string before = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\n";
  std::string after = "a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\nl\nm\nn";
  CHECK(UnifiedDiff("x.yaml", before, after) ==
        "--- a/x.yaml\n+++ b/x.yaml\n"
        "@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n"
        "@@ -11,3 +11,4 @@\n k\n l\n m\n+n\n\\ No newline at end of file\n");
  CHECK(UnifiedDiff("x.yaml", before, before).empty());
  CHECK(UnifiedDiff("x", "", "new\n") == "--- a/x\n+++ b/x\n@@ -0,0 +1 @@\n+new\n");
}

TEST_CASE("fixes: --diff prints and writes nothing, --fix writes and reports what remains", "[fixes][cli]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  dir.Write("prices.json", ReadFileOrDie(SourcePath("fixtures/rules/SM104/prices.json")));
  std::string args = "scan --select SM104 --prices prices.json --fail-on note ";
  CommandResult diff = RunSagelint(args + "--diff t.yaml", dir.path());
  CHECK(diff.status == 1);
  CHECK(diff.out.find("-      InstanceType: \"ml.m4.xlarge\"  # old\n+      InstanceType: \"ml.m5.xlarge\"  # old\n") !=
        std::string::npos);
  CHECK(ReadFileOrDie(dir.path() + "/t.yaml") == kTemplate);
  CommandResult json = RunSagelint(args + "--format json t.yaml", dir.path());
  INFO(json.out + json.err);
  std::vector<nlohmann::json> found = FindingsOf(json.out, "SM104");
  REQUIRE(found.size() == 1);
  CHECK(found[0]["fix"]["applicability"] == "safe");
  CHECK(found[0]["fix"]["edits"][0]["content"] == "ml.m5.xlarge");
  CHECK(found[0]["fix"]["edits"][0]["line"] == 5);
  CommandResult text = RunSagelint(args + "t.yaml", dir.path());
  CHECK(text.out.find("[fix]") != std::string::npos);
  CHECK(text.out.find("fix: replace ml.m4.xlarge with ml.m5.xlarge (sagelint --fix)") != std::string::npos);
  CommandResult fixed = RunSagelint(args + "--fix t.yaml", dir.path());
  CHECK(fixed.status == 0);
  CHECK(fixed.err.find("fixed 1 finding in 1 file") != std::string::npos);
  CHECK(ReadFileOrDie(dir.path() + "/t.yaml").find("\"ml.m5.xlarge\"  # old") != std::string::npos);
  CommandResult again = RunSagelint(args + "--diff t.yaml", dir.path());
  CHECK(again.status == 0);
  CHECK(again.out.empty());
  CHECK(RunSagelint("inventory --fix t.yaml", dir.path()).status == 2);
  CHECK(RunSagelint("scan --unsafe-fixes t.yaml", dir.path()).status == 2);
}

TEST_CASE("fixes: every fixture pair of every fixable rule", "[fixes][fixtures]") {
  fs::path root = SourcePath("fixtures/fixes");
  std::set<std::string> rules_seen;
  for (const auto& rule_dir : fs::directory_iterator(root)) {
    if (!rule_dir.is_directory()) continue;
    std::string rule = rule_dir.path().filename().string();
    std::optional<Applicability> applicability = RuleFix(rule);
    INFO(rule);
    REQUIRE(applicability);
    rules_seen.insert(rule);
    std::string flags = " --select " + rule + " --fail-on none --format json --fix";
    if (applicability == Applicability::kUnsafe) flags += " --unsafe-fixes";
    if (fs::exists(rule_dir.path() / "before")) {
      REQUIRE(fs::exists(rule_dir.path() / "after"));
      TempDir dir;
      CopyTree(rule_dir.path() / "before", dir.path());
      // The findings of the rule before: each file of before/ that after/ changes has one with a fix.
      CommandResult scan = RunSagelint("scan --select " + rule + " --fail-on none --format json .", dir.path());
      std::vector<nlohmann::json> before = FindingsOf(scan.out, rule);
      CHECK_FALSE(before.empty());
      for (const nlohmann::json& f : before) {
        INFO(f.dump());
        CHECK(f.contains("fix"));
      }
      if (applicability == Applicability::kUnsafe) {
        // Without --unsafe-fixes nothing changes.
        RunSagelint("scan --select " + rule + " --fail-on none --fix .", dir.path());
        CHECK(Tree(dir.path()) == Tree(rule_dir.path() / "before"));
      }
      CommandResult fixed = RunSagelint("scan" + flags + " .", dir.path());
      INFO(fixed.err);
      std::map<std::string, std::string> after = Tree(dir.path());
      std::map<std::string, std::string> expected = Tree(rule_dir.path() / "after");
      CHECK(after.size() == expected.size());
      for (const auto& [rel, text] : expected) {
        INFO(rel);
        CHECK(after[rel] == text);
      }
      // What remains: no finding of the rule, and every file still parses.
      CHECK(FindingsOf(fixed.out, rule).empty());
      CHECK(FindingsOf(fixed.out, "SM000").empty());
      // A second run changes nothing.
      RunSagelint("scan" + flags + " .", dir.path());
      CHECK(Tree(dir.path()) == expected);
    }
    if (fs::exists(rule_dir.path() / "nofix")) {
      // Scanned from a copy: its .sagelint.yaml applies only at the scan root.
      TempDir dir;
      CopyTree(rule_dir.path() / "nofix", dir.path());
      CommandResult scan = RunSagelint("scan --select " + rule + " --fail-on none --format json .", dir.path());
      std::vector<nlohmann::json> found = FindingsOf(scan.out, rule);
      CHECK_FALSE(found.empty());
      for (const nlohmann::json& f : found) {
        INFO(f.dump());
        CHECK_FALSE(f.contains("fix"));
        // Each says why it has none.
        REQUIRE(f.contains("fix_unavailable"));
        CHECK_FALSE(f["fix_unavailable"].get<std::string>().empty());
      }
    }
  }
  // Every rule that has a fix has its fixtures.
  for (const RuleInfo& r : AllRules()) {
    if (RuleFix(r.id)) CHECK(rules_seen.count(std::string(r.id)) == 1);
  }
}

namespace {

// The fix_unavailable of the findings of `rule` in `file` (a fixture of
// fixtures/fixes/<rule>/nofix), by line.
std::map<int, std::string> Refusals(const std::string& rule, const std::string& file) {
  TempDir dir;
  CopyTree(SourcePath("fixtures/fixes/" + rule + "/nofix"), dir.path());
  CommandResult scan = RunSagelint("scan --select " + rule + " --fail-on none --format json " + file, dir.path());
  std::map<int, std::string> out;
  for (const nlohmann::json& f : FindingsOf(scan.out, rule)) {
    CHECK_FALSE(f.contains("fix"));
    out[f["line"].get<int>()] = f.value("fix_unavailable", "");
  }
  return out;
}

}  // namespace

TEST_CASE("fixes: an instance change is refused where the model is compiled for its family", "[fixes][refusals]") {
  CHECK(Refusals("SM102", "neo_compiled.py") ==
        std::map<int, std::string>{
            {28,
             "the model is compiled with Neo for ml_p3 (line 22): the compiled artifact runs only on ml_p3 instances, "
             "so ml.p3.2xlarge is changed by hand, with a new compilation"}});
  CHECK(Refusals("SM102", "neo_image.yaml") ==
        std::map<int, std::string>{
            {17,
             "the model's image (785573368785.dkr.ecr.us-east-1.amazonaws.com/sagemaker-neo-pytorch:1.8-gpu-py3) "
             "serves models compiled for one instance family: a new instance type needs a new compilation and image, "
             "so it is changed by hand"}});
}

TEST_CASE("fixes: Pipe stays where the reader needs a stream", "[fixes][refusals]") {
  CHECK(Refusals("SM302", "pipe_dataset/estimator.py") ==
        std::map<int, std::string>{
            {14,
             "the entry point pipe_dataset/src/train.py reads PipeModeDataset (line 2), which reads only Pipe-mode "
             "channels: the input mode stays Pipe until the script reads files"}});
  CHECK(Refusals("SM302", "algorithm.py") ==
        std::map<int, std::string>{
            {12,
             "an AlgorithmEstimator's algorithm declares the input modes it supports, which the code does not show: "
             "switching to FastFile can make the job fail to start"}});
  CHECK(Refusals("SM302", "byo_estimator.py") ==
        std::map<int, std::string>{
            {12,
             "the estimator runs its image's own program (it has no entry point), which reads the channel as a Pipe "
             "stream today; whether it also reads files is not in the code, so the switch to FastFile is left to the "
             "author"}});
  CHECK(Refusals("SM302", "byo_image.yaml") ==
        std::map<int, std::string>{
            {17,
             "the job runs its image's own program, which reads the channel as a Pipe stream today; whether it also "
             "reads files is not in the code, so the switch to FastFile is left to the author"}});
}

TEST_CASE("fixes: a tuning job's Spot goes where its estimator is made, or says why not", "[fixes][refusals]") {
  CHECK(Refusals("SM401", "tuner_helper.py") ==
        std::map<int, std::string>{
            {18,
             "a tuning job's Spot setting is its estimator's, and the estimator this tuner runs is not made by one "
             "call written in this file (a helper, another module or a parameter makes it): set Spot where it is "
             "made"}});
  // Where it is made in the file: the edit is the estimator's, and the tuner's finding says so.
  TempDir dir;
  CopyTree(SourcePath("fixtures/fixes/SM401/before"), dir.path());
  CommandResult scan = RunSagelint("scan --select SM401 --fail-on none --format json tuner.py", dir.path());
  std::vector<nlohmann::json> found = FindingsOf(scan.out, "SM401");
  REQUIRE(found.size() == 3);
  CHECK(found[1]["resource"] == "HyperparameterTuner 'tuner'");
  CHECK(found[1]["line"] == 24);
  CHECK(found[1]["fix"]["message"] ==
        "enable managed Spot training on the estimator the tuner runs, with a max wait and checkpoints");
  // The same edits as the estimator's own job, fitted alone.
  CHECK(found[1]["fix"]["edits"] == found[0]["fix"]["edits"]);
  CHECK(found[1]["fix"]["edits"][0]["line"] == 19);
}

TEST_CASE("fixes: a clean-up cell deletes every endpoint a loop made, through the list it fills", "[fixes][refusals]") {
  CHECK(Refusals("SM213", "loop_unkept.ipynb") ==
        std::map<int, std::string>{
            {30,
             "no statement at the end of the notebook can name this endpoint: its predictor is made inside a "
             "function, loop, branch or helper (or by a statement that binds no name of its own), and the "
             "endpoint's name is not a literal"}});
  TempDir dir;
  CopyTree(SourcePath("fixtures/fixes/SM213/before"), dir.path());
  CommandResult scan = RunSagelint("scan --select SM213 --fail-on none --format json loop.ipynb", dir.path());
  std::vector<nlohmann::json> found = FindingsOf(scan.out, "SM213");
  REQUIRE(found.size() == 1);
  CHECK(found[0]["fix"]["message"] ==
        "append a clean-up cell: for predictor in predictors:\n    predictor.delete_endpoint()");
}

TEST_CASE("fixes: a hostile literal of 300,000 characters where a refusal looks is read without exhausting the stack",
          "[fixes][refusals][adversarial]") {
  TempDir d;
  const std::string job =
      "from sagemaker.estimator import Estimator\n"
      "est = Estimator(image_uri=\"x\", role=\"r\", instance_count=1, instance_type=\"ml.m4.xlarge\",\n"
      "                use_spot_instances=True, max_run=3600, max_wait=7200, checkpoint_s3_uri=\"s3://b/c\")\n"
      "est.fit(\"s3://b/d\")\n";
  // Where the Neo refusal reads the compiled family, and where the Pipe refusal reads a named entry point.
  d.Write("neo.py", job + "cfg = {\"TargetDevice\": \"" + std::string(300000, 'a') + "\"}\n");
  d.Write("pipe.py",
          "from sagemaker.tensorflow import TensorFlow\nscript = \"" + std::string(300000, 'b') +
              "\"\nest = TensorFlow(entry_point=script, role=\"r\", instance_count=1, instance_type=\"ml.c5.xlarge\",\n"
              "                 input_mode=\"Pipe\", framework_version=\"2.11\", py_version=\"py39\")\n"
              "est.fit(\"s3://b/d\")\n");
  auto r = RunSagelint("scan --no-cache --format json --fail-on none --select SM104,SM302 .", d.path());
  REQUIRE(r.status == 0);
  auto doc = ParseJson(r.out);
  std::set<std::string> rules;
  for (const auto& f : doc["findings"]) rules.insert(f["path"].get<std::string>() + " " + f["rule"].get<std::string>());
  CHECK(rules.count("neo.py SM104") == 1);
  CHECK(rules.count("pipe.py SM302") == 1);
}

TEST_CASE("fixes: Terraform is edited only in .tf files, and a finding in its JSON has no fix but says why",
          "[fixes][terraform]") {
  const FrontEnd& terraform = FrontEndOf(Format::kTerraform);
  CHECK(terraform.Edits("main.tf"));
  CHECK_FALSE(terraform.Edits("main.tf.json"));
  CHECK_FALSE(terraform.Edits("prod.tfvars"));
  CHECK(FrontEndOf(Format::kCloudFormation).Edits("t.json"));
  TempDir dir;
  const char* kJob = R"({"resource": {"aws_sagemaker_notebook_instance": {"nb": {
    "name": "nb", "role_arn": "arn:aws:iam::123456789012:role/r", "instance_type": "ml.p3.2xlarge"}}}})";
  dir.Write("main.tf.json", kJob);
  CommandResult json = RunSagelint("scan --select SM103 --fail-on none --format json main.tf.json", dir.path());
  INFO(json.out + json.err);
  std::vector<nlohmann::json> found = FindingsOf(json.out, "SM103");
  REQUIRE(found.size() == 1);
  CHECK_FALSE(found[0].contains("fix"));
  CHECK(found[0].contains("fix_unavailable"));
}
