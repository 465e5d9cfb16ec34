// One configuration per scan root (README "Usage" `--config`): the `.sagelint.yaml`
// at the scan root applies wherever sagelint is started from; one below the
// root is not read, and says so; `exclude:` applies to named files too.
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::NotebookTemplate;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

TEST_CASE("the configuration at the scan root applies whatever the current directory", "[cli][config]") {
  TempDir d;
  d.Write("repo/.git/HEAD", "");
  d.Write("repo/infra/nb.yaml", NotebookTemplate("Gpu", "ml.g5.xlarge"));  // SM201 and SM103
  d.Write("repo/.sagelint.yaml", "rules:\n  SM103: off\n");
  // Before: started outside the repository, the configuration was not found (2 findings); inside, it was (1).
  for (const auto& [cwd, path] :
       std::vector<std::pair<std::string, std::string>>{{d.path(), "repo/infra"},
                                                        {d.path() + "/repo", "infra"},
                                                        {d.path() + "/repo/infra", "."},
                                                        {d.path() + "/repo/infra", "nb.yaml"},
                                                        {"/", d.path() + "/repo/infra/nb.yaml"}}) {
    // Section names must not change from run to run (the scratch path does).
    DYNAMIC_SECTION((path[0] == '/' ? "absolute path" : path) << " from " << (cwd == "/" ? "/" : "scratch")) {
      auto r = RunSagelint("scan --format json " + path, cwd);
      CHECK(r.status == 1);
      auto j = sagelint::testing::ParseJson(r.out);
      REQUIRE(j["findings"].size() == 1);
      CHECK(j["findings"][0]["rule"] == "SM201");
    }
  }
}

TEST_CASE("a configuration below the scan root is not read, with a warning", "[cli][config]") {
  TempDir d;
  d.Write("repo/.git/HEAD", "");
  d.Write("repo/infra/nb.yaml", NotebookTemplate("Gpu", "ml.g5.xlarge"));
  d.Write("repo/infra/.sagelint.yaml", "fail_on: none\n");
  auto r = RunSagelint("scan infra", d.path() + "/repo");
  CHECK(r.status == 1);  // fail_on: none was not applied
  CHECK(r.err ==
        "sagelint: warning: infra/.sagelint.yaml is not read: sagelint reads only the configuration at the scan "
        "root (.) or --config\n");
  // Outside a git work tree the named directory is the scan root, and its configuration applies.
  TempDir plain;
  plain.Write("infra/nb.yaml", NotebookTemplate("Gpu", "ml.g5.xlarge"));
  plain.Write("infra/.sagelint.yaml", "fail_on: none\n");
  r = RunSagelint("scan infra", plain.path());
  CHECK(r.status == 0);
  CHECK(r.err.empty());
}

TEST_CASE("the configuration's exclude: applies to files named on the command line", "[cli][config]") {
  TempDir d;
  d.Write(".git/HEAD", "");
  d.Write(".sagelint.yaml", "exclude: [\"legacy/**\"]\n");
  d.Write("legacy/nb.yaml", NotebookTemplate("Old", "ml.g5.xlarge"));
  d.Write("infra/nb.yaml", NotebookTemplate("New", "ml.t3.medium"));
  // As pre-commit runs it: both files named.
  auto r = RunSagelint("scan --format json legacy/nb.yaml infra/nb.yaml", d.path());
  auto j = sagelint::testing::ParseJson(r.out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["path"] == "infra/nb.yaml");
}

TEST_CASE("paths under scan roots with different configurations are refused together", "[cli][config]") {
  TempDir d;
  d.Write("a/.git/HEAD", "");
  d.Write("a/.sagelint.yaml", "fail_on: none\n");
  d.Write("a/nb.yaml", NotebookTemplate("A", "ml.t3.medium"));
  d.Write("b/.git/HEAD", "");
  d.Write("b/nb.yaml", NotebookTemplate("B", "ml.t3.medium"));
  auto r = RunSagelint("scan a b", d.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: b and a lie under scan roots with different configurations (none, a/.sagelint.yaml): scan them "
        "separately, or name one with --config\n");
  // Named with --config, one configuration applies to both.
  r = RunSagelint("scan --config a/.sagelint.yaml a b", d.path());
  CHECK(r.status == 0);
}
