// What a scan does not read is said, never skipped in silence (rules/SM008.md):
// in a git work tree the files are the ones git lists, so a .gitignore cannot
// hide a tracked file; a link inside the scanned paths is read at its target
// when that is in the repository, and is an SM008 when it leaves it; a
// directory too deep is an SM008 in every format, and `diff` fails on it.
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::GitRepo;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

const std::string kNotebook = sagelint::testing::NotebookTemplate("Nb", "ml.p3.2xlarge");

nlohmann::json Json(const std::string& out) { return sagelint::testing::ParseJson(out); }

// The paths of the findings of a JSON report.
std::set<std::string> Paths(const std::string& out) {
  nlohmann::json j = Json(out);
  std::set<std::string> paths;
  for (const auto& f : j["findings"]) paths.insert(f["path"].get<std::string>());
  return paths;
}

// "path:line rule" of each finding of a JSON list.
std::multiset<std::string> Where(const nlohmann::json& findings) {
  std::multiset<std::string> out;
  for (const auto& f : findings) {
    out.insert(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + " " +
               f["rule"].get<std::string>());
  }
  return out;
}

// The SM008 findings of a JSON list, as "path: message".
std::multiset<std::string> NotScanned(const nlohmann::json& findings) {
  std::multiset<std::string> out;
  for (const auto& f : findings) {
    if (f["rule"] == "SM008") out.insert(f["path"].get<std::string>() + ": " + f["message"].get<std::string>());
  }
  return out;
}

const std::string kLinkOut = "sagelint did not read this file: it is a symbolic link to a path outside the repository";

}  // namespace

TEST_CASE("git work tree: a .gitignore never hides a tracked file from scan or diff", "[discover][git][SM008]") {
  GitRepo repo;
  repo.Write("infra/e.yaml", "x: 1\n");
  repo.Commit("base");
  // The change adds a notebook and a .gitignore naming it, force-added.
  repo.Write("infra/nb.yaml", kNotebook);
  repo.Write("infra/.gitignore", "nb.yaml\nignored.yaml\n");
  repo.Git("add -f infra/nb.yaml infra/.gitignore");
  repo.Git("commit -q -m change");
  // Untracked: one git ignores (not scanned), one it does not (scanned, as git would add it).
  repo.Write("infra/ignored.yaml", sagelint::testing::NotebookTemplate("Ignored"));
  repo.Write("infra/untracked.yaml", sagelint::testing::NotebookTemplate("Untracked"));

  auto r = RunSagelint("scan --format json --fail-on none .", repo.path());
  INFO(r.err);
  CHECK(r.status == 0);
  CHECK(Paths(r.out) == std::set<std::string>{"infra/nb.yaml", "infra/untracked.yaml"});
  // Named below the top: the same list.
  r = RunSagelint("scan --format json --fail-on none infra", repo.path());
  CHECK(Paths(r.out) == std::set<std::string>{"infra/nb.yaml", "infra/untracked.yaml"});

  // The gate: the tracked notebook is new.
  repo.Write("infra/untracked.yaml", "x: 1\n");
  r = RunSagelint("diff --base HEAD~1 --format json", repo.path());
  CHECK(r.status == 1);
  CHECK(Where(Json(r.out)["new"]) == std::multiset<std::string>{"infra/nb.yaml:3 SM201", "infra/nb.yaml:6 SM103"});
  // Outside git (a copy of the tree without .git), .gitignore still applies.
  TempDir plain;
  fs::copy(repo.path() + "/infra", plain.path() + "/infra", fs::copy_options::recursive);
  r = RunSagelint("scan --format json --fail-on none .", plain.path());
  CHECK(Paths(r.out).empty());
}

TEST_CASE("a link in the scanned path is read once at its target in the repository, and one leaving it is SM008",
          "[discover][links][SM008]") {
  TempDir outside;
  outside.Write("out.yaml", kNotebook);
  GitRepo repo;
  repo.Write("infra/e.yaml", "x: 1\n");
  repo.Commit("base");
  repo.Write("other/stack.yaml", kNotebook);
  repo.Write("shared/more/nb.yaml", sagelint::testing::NotebookTemplate("More", "ml.p3.2xlarge"));
  fs::create_symlink("../other/stack.yaml", repo.path() + "/infra/stack.yaml");
  fs::create_symlink("../other/stack.yaml", repo.path() + "/infra/again.yaml");  // the same file twice
  fs::create_symlink("../shared", repo.path() + "/infra/shared");                // a directory
  fs::create_symlink(outside.path() + "/out.yaml", repo.path() + "/infra/out.yaml");
  fs::create_symlink("../../nowhere/gone.yaml", repo.path() + "/infra/gone.yaml");  // dangling, above the top
  repo.Git("add -A");
  repo.Git("commit -q -m links");

  // `paths: infra` (the Action's scoped gate): the linked files are read at their own paths, once.
  auto r = RunSagelint("scan --format json --fail-on none infra", repo.path());
  INFO(r.err);
  auto j = Json(r.out);
  CHECK(Where(j["findings"]) == std::multiset<std::string>{"infra/gone.yaml:1 SM008", "infra/out.yaml:1 SM008",
                                                           "other/stack.yaml:6 SM103", "other/stack.yaml:3 SM201",
                                                           "shared/more/nb.yaml:6 SM103",
                                                           "shared/more/nb.yaml:3 SM201"});
  CHECK(NotScanned(j["findings"]) ==
        std::multiset<std::string>{"infra/gone.yaml: " + kLinkOut, "infra/out.yaml: " + kLinkOut});
  for (const auto& f : j["findings"]) {
    if (f["rule"] == "SM008") CHECK(f["severity"] == "warning");
  }

  // The gate fails on the change, and names each file in the PR comment.
  r = RunSagelint("diff --base HEAD~1 --format json infra", repo.path());
  CHECK(r.status == 1);
  CHECK(Where(Json(r.out)["new"]) == Where(j["findings"]));
  TempDir out;
  r = RunSagelint("diff --base HEAD~1 --format markdown=" + out.path() + "/c.md infra", repo.path());
  CHECK(r.status == 1);
  std::string comment = sagelint::testing::ReadFileOrDie(out.path() + "/c.md");
  CHECK(comment.find("SM008") != std::string::npos);
  CHECK(comment.find("infra/out.yaml") != std::string::npos);
  CHECK(comment.find("other/stack.yaml") != std::string::npos);

  // A link unchanged since the base is the same finding on both sides: nothing new.
  r = RunSagelint("diff --base HEAD --format json infra", repo.path());
  CHECK(r.status == 0);
  CHECK(Json(r.out)["new"].empty());
  CHECK(Json(r.out)["resolved"].empty());
}

TEST_CASE("a path named on the command line that is a link out of the repository is SM008 and not read",
          "[discover][links][SM008]") {
  TempDir outside;
  outside.Write("victim/nb.yaml", kNotebook);
  outside.Write("out.yaml", kNotebook);
  GitRepo repo;
  repo.Write("infra/e.yaml", "x: 1\n");
  repo.Write("shared/nb.yaml", kNotebook);
  fs::create_symlink(outside.path() + "/victim", repo.path() + "/infra/outside");  // a directory
  fs::create_symlink(outside.path() + "/out.yaml", repo.path() + "/infra/out.yaml");
  fs::create_symlink("../shared", repo.path() + "/infra/shared");  // inside the repository: read
  repo.Git("add -A");
  repo.Git("commit -q -m links");

  auto r = RunSagelint("scan --format json --fail-on none infra/outside infra/out.yaml infra/shared", repo.path());
  INFO(r.err);
  auto j = Json(r.out);
  CHECK(Where(j["findings"]) == std::multiset<std::string>{"infra/out.yaml:1 SM008", "infra/outside:1 SM008",
                                                           "shared/nb.yaml:6 SM103", "shared/nb.yaml:3 SM201"});
  CHECK(NotScanned(j["findings"]) ==
        std::multiset<std::string>{"infra/out.yaml: " + kLinkOut,
                                   "infra/outside: sagelint did not read this directory: it is a symbolic link to a "
                                   "path outside the repository"});
  // The gate fails on it.
  CHECK(RunSagelint("scan infra/outside", repo.path()).status == 1);
  // Named where it lives (in no repository), the directory is read: the user named it.
  r = RunSagelint("scan --format json --fail-on none victim", outside.path());
  CHECK(Where(Json(r.out)["findings"]) ==
        std::multiset<std::string>{"victim/nb.yaml:6 SM103", "victim/nb.yaml:3 SM201"});
}

TEST_CASE("a directory nested too deep is SM008 in every format, and diff fails on it", "[discover][SM008]") {
  GitRepo repo;
  repo.Write("e.yaml", "x: 1\n");
  repo.Commit("base");
  std::string deep = "deep";
  for (int i = 0; i < 257; ++i) deep += "/d";
  repo.Write(deep + "/t.yaml", kNotebook);
  repo.Commit("deep");
  std::string dir = deep.substr(0, deep.size() - 2);  // 257 levels below the scanned directory: past the limit
  std::string message =
      "sagelint did not read this directory: it is nested deeper than 256 levels, so no file below it was scanned";

  auto r = RunSagelint("scan --no-color --quiet .", repo.path());
  CHECK(r.status == 1);
  CHECK(r.out == dir + ":1:1: warning[SM008] " + message + "\n");
  CHECK(r.err.empty());
  r = RunSagelint("scan --format json .", repo.path());
  CHECK(NotScanned(Json(r.out)["findings"]) == std::multiset<std::string>{dir + ": " + message});
  for (const char* format : {"sarif", "junit", "github", "gitlab", "markdown"}) {
    INFO(format);
    r = RunSagelint(std::string("scan --format ") + format + " .", repo.path());
    CHECK(r.status == 1);
    CHECK(r.out.find("SM008") != std::string::npos);
  }

  // diff: the gate fails, and the PR comment says why.
  TempDir out;
  r = RunSagelint("diff --base HEAD~1 --format markdown=" + out.path() + "/c.md --format json", repo.path());
  CHECK(r.status == 1);
  CHECK(NotScanned(Json(r.out)["new"]) == std::multiset<std::string>{dir + ": " + message});
  std::string comment = sagelint::testing::ReadFileOrDie(out.path() + "/c.md");
  CHECK(comment.find("SM008") != std::string::npos);
  CHECK(comment.find("no new findings") == std::string::npos);
}

TEST_CASE("a FIFO or an unreadable directory inside the scanned path is SM008", "[discover][SM008]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  ::mkfifo((d.path() + "/x.yaml").c_str(), 0600);
  auto r = RunSagelint("scan --format json --fail-on none .", d.path(), "timeout 60");
  CHECK(r.status == 0);
  CHECK(r.err.empty());
  CHECK(NotScanned(Json(r.out)["findings"]) ==
        std::multiset<std::string>{"x.yaml: sagelint did not read this file: it is not a regular file"});
  // `rules: {SM008: off}` turns it off, as any rule.
  d.Write(".sagelint.yaml", "rules:\n  SM008: off\n");
  r = RunSagelint("scan --format json --fail-on none .", d.path(), "timeout 60");
  CHECK(NotScanned(Json(r.out)["findings"]).empty());
}

TEST_CASE("CDK: a stack module loaded by a computed name is SM008 at the importing line", "[cdk][SM008]") {
  TempDir d;
  d.Write("app/cdk.json", "{\"app\": \"npx ts-node bin/app.ts\"}");
  d.Write("app/lib/nb-stack.ts",
          "import { Stack } from 'aws-cdk-lib';\nimport * as sagemaker from 'aws-cdk-lib/aws-sagemaker';\n"
          "export class NbStack extends Stack {\n  constructor(scope: any, id: string) {\n    super(scope, id);\n"
          "    new sagemaker.CfnNotebookInstance(this, 'Gpu', { instanceType: 'ml.p4d.24xlarge', roleArn: 'arn' });\n"
          "  }\n}\n");
  d.Write("app/bin/app.ts",
          "import * as cdk from 'aws-cdk-lib';\nconst app = new cdk.App();\n"
          "const mod = require('../lib/' + ['nb', 'stack'].join('-'));\nnew mod.NbStack(app, 'Nb');\napp.synth();\n");
  auto r = RunSagelint("scan --no-color --quiet .", d.path());
  CHECK(r.status == 1);
  CHECK(r.out ==
        "app/bin/app.ts:3:13: warning[SM008] sagelint did not read the module this line loads: require('../lib/' + "
        "['nb', 'stack'].join('-')) names it only at run time, so the stacks it defines were not checked\n");

  // Python: importlib.import_module of a computed name is said; of a literal name, read.
  d.Write("py/cdk.json", "{\"app\": \"python3 app.py\"}");
  d.Write("py/stacks/__init__.py", "");
  d.Write("py/stacks/notebook.py",
          "from aws_cdk import Stack\nfrom aws_cdk import aws_sagemaker as sagemaker\n\n\n"
          "class NotebookStack(Stack):\n    def __init__(self, scope, construct_id):\n"
          "        super().__init__(scope, construct_id)\n"
          "        sagemaker.CfnNotebookInstance(self, \"Gpu\", instance_type=\"ml.p3.2xlarge\", role_arn=\"r\")\n");
  d.Write("py/app.py",
          "import importlib\nimport os\n\nimport aws_cdk as cdk\n\napp = cdk.App()\n"
          "stacks = importlib.import_module(\"stacks.notebook\")\nstacks.NotebookStack(app, \"Notebook\")\n"
          "extra = importlib.import_module(\"stacks.\" + os.environ[\"EXTRA\"])\napp.synth()\n");
  r = RunSagelint("scan --format json --fail-on none py", d.path());
  INFO(r.out);
  auto j = Json(r.out);
  CHECK(Where(j["findings"]) == std::multiset<std::string>{"py/app.py:9 SM008", "py/stacks/notebook.py:8 SM103",
                                                           "py/stacks/notebook.py:8 SM201"});
  CHECK(NotScanned(j["findings"]) ==
        std::multiset<std::string>{"py/app.py: sagelint did not read the module this line loads: "
                                   "importlib.import_module(\"stacks.\" + os.environ[\"EXTRA\"]) names it only at "
                                   "run time, so the stacks it defines were not checked"});
}
