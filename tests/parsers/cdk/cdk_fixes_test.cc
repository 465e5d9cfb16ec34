// Fixes in CDK apps (docs/cdk.md "Fixes"): what the fixture loop of
// tests/linter/engine/fixes_test.cc does not check — the exact reasons of the apps that take
// no fix, that every fixed app source parses, and the editor's layout rules.
#include <filesystem>
#include <map>

#include "parsers/cdk/front_end.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using namespace sagelint::testing;

namespace {

// The fix_unavailable of the findings of `rule` in the CDK app `app` of
// fixtures/fixes/<rule>/nofix, by "path:line".
std::map<std::string, std::string> CdkRefusals(const std::string& rule, const std::string& app) {
  TempDir dir;
  fs::path from = SourcePath("fixtures/fixes/" + rule + "/nofix/" + app);
  for (const auto& e : fs::recursive_directory_iterator(from)) {
    if (e.is_regular_file()) dir.Write(fs::relative(e.path(), from).generic_string(), ReadFileOrDie(e.path().string()));
  }
  CommandResult scan = RunSagelint("scan --select " + rule + " --fail-on none --format json .", dir.path());
  std::map<std::string, std::string> out;
  nlohmann::json doc = ParseJson(scan.out);
  for (const nlohmann::json& f : doc["findings"]) {
    CHECK_FALSE(f.contains("fix"));
    out[f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>())] = f.value("fix_unavailable", "");
  }
  return out;
}

FixChange Insert(const std::string& path, SourcePos at, std::string field, std::string value) {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.path = path;
  c.range = {at, at};
  c.field = std::move(field);
  c.value = std::move(value);
  return c;
}

std::string Apply(std::string text, const TextEdit& e) { return text.replace(e.begin, e.end - e.begin, e.content); }

}  // namespace

TEST_CASE("CDK fixes: a value that is no literal at the construct's props says where it comes from", "[fixes][cdk]") {
  CHECK(CdkRefusals("SM101", "cdk_python") ==
        std::map<std::string, std::string>{
            {"app.py:24",
             "the value comes from `SERVING_TYPE` (line 24), not a literal at the construct's property: it may be set "
             "in several places or read by other code"}});
  CHECK(CdkRefusals("SM101", "cdk_typescript") ==
        std::map<std::string, std::string>{
            {"bin/app.ts:4",
             "the value is the literal at line 4, written outside the construct's props (a variable or constant other "
             "code may read too): a fix edits only a literal written at the construct's property"}});
  CHECK(
      CdkRefusals("SM103", "cdk_python") ==
      std::map<std::string, std::string>{
          {"app.py:12", "the value is chosen by a conditional expression (line 12): no one literal serves every case"},
          // A CfnParameter's default is never edited: a deployment may pass another value.
          {"app.py:18",
           "the value comes from parameter LabType default, which is not one literal of this workload alone (set "
           "outside the files, or read by something else too)"}});
  CHECK(CdkRefusals("SM103", "cdk_typescript") ==
        std::map<std::string, std::string>{
            {"bin/app.ts:7",
             "the value is computed by a call (line 7), not written as one literal at the construct's property"}});
  // Two notebooks made in a loop read one variable: one finding for both.
  CHECK(CdkRefusals("SM104", "cdk_python") ==
        std::map<std::string, std::string>{
            {"app.py:10",
             "the value comes from `notebook_type` (line 10), not a literal at the construct's property: it may be set "
             "in several places or read by other code"}});
  CHECK(CdkRefusals("SM104", "cdk_typescript") ==
        std::map<std::string, std::string>{
            {"bin/app.ts:7",
             "the value is the literal at line 7, written outside the construct's props (a variable or constant other "
             "code may read too): a fix edits only a literal written at the construct's property"}});
}

TEST_CASE("CDK fixes: a Step Functions training task takes no Spot, a spread request no insertion", "[fixes][cdk]") {
  // The task's default instance type is not written in the app.
  // An ec2 type built outside the task's props is not its literal.
  CHECK(CdkRefusals("SM104", "cdk_task") ==
        std::map<std::string, std::string>{
            {"app.py:6",
             "the value is computed by a call (line 6), not written as one literal at the construct's property"},
            {"app.py:12",
             "the value is not written in the task's props (line 12: the task's default, or a value from another "
             "file): the setting is added to them by hand"}});
  const std::string task =
      "aws-cdk-lib's SageMakerCreateTrainingJob task has no property for managed Spot training, a max wait or a "
      "checkpoint location: the state takes them only when written as the CreateTrainingJob request itself (a "
      "CustomState or a state machine definition), a change left to the author";
  CHECK(CdkRefusals("SM401", "cdk_python") == std::map<std::string, std::string>{{"app.py:10", task}});
  CHECK(CdkRefusals("SM401", "cdk_typescript") ==
        std::map<std::string, std::string>{
            {"bin/app.ts:16", task},
            {"bin/app.ts:29",
             "the job's call or request cannot take the setting as written (arguments passed as **kwargs, a request "
             "inside a string, a configuration object not written in the call, or a class the fix does not know)"}});
}

TEST_CASE("CDK fixes: every fixed app source of the fixtures parses", "[fixes][cdk]") {
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(SourcePath("fixtures/fixes"))) {
    std::string p = e.path().generic_string();
    if (!e.is_regular_file() || p.find("/after/cdk_") == std::string::npos) continue;
    if (!p.ends_with(".py") && !p.ends_with(".ts")) continue;
    INFO(p);
    CHECK(CdkSyntaxErrors(p, ReadFileOrDie(p)) == std::optional<size_t>(0));
    ++files;
  }
  CHECK(files == 24);  // nine rules, a Python and a TypeScript app each; SM104, SM203 and SM401 two more
}

TEST_CASE("CDK fixes: an inserted member follows the literal's layout, quotes and comments", "[fixes][cdk]") {
  // TypeScript, bare keys, one line, no trailing comma.
  const std::string ts =
      "const m = { Type: 'Task', Resource: 'arn:aws:states:::sagemaker:createTrainingJob.sync',\n"
      "  Parameters: { RoleArn: \"r\" } };\n";
  auto e = EditCdk(ts, Insert("a.ts", {1, 11}, "spot", "true"));
  REQUIRE(e);
  CHECK(Apply(ts, *e).find("Parameters: { RoleArn: \"r\", EnableManagedSpotTraining: true }") != std::string::npos);
  // A new level is written inline, strings in the literal's quotes.
  e = EditCdk(ts, Insert("a.ts", {1, 11}, "checkpoint", "\"s3://b/c\""));
  REQUIRE(e);
  CHECK(Apply(ts, *e).find("RoleArn: \"r\", CheckpointConfig: { S3Uri: \"s3://b/c\" } }") != std::string::npos);
  // Python, several lines, the last member without a trailing comma and with a comment.
  const std::string py =
      "state = {\n"
      "    'Type': 'Training',\n"
      "    'Arguments': {\n"
      "        'RoleArn': 'r'  # the role\n"
      "    },\n"
      "}\n";
  e = EditCdk(py, Insert("a.py", {1, 9}, "max_wait_seconds", "7200"));
  REQUIRE(e);
  CHECK(Apply(py, *e) ==
        "state = {\n"
        "    'Type': 'Training',\n"
        "    'Arguments': {\n"
        "        'RoleArn': 'r',  # the role\n"
        "        'StoppingCondition': {'MaxWaitTimeInSeconds': 7200}\n"
        "    },\n"
        "}\n");
  // A setting that is there already, or set from the state's input, is not inserted.
  const std::string set = "s = {'Type': 'Training', 'Arguments': {'EnableManagedSpotTraining.$': '$.spot'}}\n";
  CHECK_FALSE(EditCdk(set, Insert("a.py", {1, 5}, "spot", "true")));
  // Not a training job's state or step: nothing.
  const std::string other = "s = {'Type': 'Processing', 'Arguments': {'RoleArn': 'r'}}\n";
  CHECK_FALSE(EditCdk(other, Insert("a.py", {1, 5}, "spot", "true")));
}

TEST_CASE("CDK fixes: a change at any position of any source gives an edit or none, never a crash",
          "[fixes][cdk][adversarial]") {
  const std::string sources[] = {
      // Python: a struct call, a dict, a list, a half-written call.
      "x = sagemaker.CfnDomain.JupyterLabAppSettingsProperty(a=1, **k)\n"
      "s = {'Type': 'Training', 'Arguments': {'StoppingCondition': 3, 'RoleArn': f'{r}'}}\n"
      "n = f(accelerator_types=['ml.eia2.medium', x], acceleratorType=)\n",
      // TypeScript: computed keys, spreads, shorthand, a template, an unclosed object.
      "const s = { [k]: 1, ...o, Type, Resource: `arn:${p}`, Parameters: { 'a.$': 1 },\n"
      "  jupyterLabAppSettings: { appLifecycleManagement: 3 }, acceleratorTypes: [] };\n"
      "new tasks.SageMakerCreateTrainingJob(this, 'T', { x: {\n",
  };
  std::vector<FixChange> changes;
  for (const char* field : {"spot", "max_wait_seconds", "checkpoint", "input_mode", "idle_settings", "other"}) {
    changes.push_back(Insert("", {1, 1}, field,
                             std::string(field) == "idle_settings"
                                 ? R"({"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60})"
                                 : "true"));
  }
  for (const char* field : {"accelerator_type", "max_wait_seconds"}) {
    FixChange c;
    c.op = FixChange::Op::kRemove;
    c.field = field;
    changes.push_back(c);
  }
  int edits = 0;
  for (size_t s = 0; s < 2; ++s) {
    std::string path = s == 0 ? "a.py" : "a.ts";
    const std::string& text = sources[s];
    for (int line = 0; line <= 5; ++line) {
      for (int column = 0; column <= 130; ++column) {
        for (FixChange c : changes) {
          c.path = path;
          c.range = {{line, column}, {line, column}};
          std::optional<TextEdit> e = EditCdk(text, c);
          if (!e) continue;
          REQUIRE(e->begin <= e->end);
          REQUIRE(e->end <= text.size());
          ++edits;
        }
        CdkValueReason(path, text, {line, column});
        CdkTaskSpotReason(path, text, {line, column});
      }
    }
  }
  CHECK(edits > 0);  // some positions do hold members a change can edit
  CHECK(CdkSyntaxErrors("a.ts", sources[1]) == std::optional<size_t>(1));
}
