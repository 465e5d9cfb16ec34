// The `sagelint-fix` pre-commit hook (docs/maintaining.md, §13): declared as the
// `sagelint` hook is, with `--fix`; what pre-commit runs fails while findings
// remain and passes a clean file. (tests/integration/pre_commit.sh runs it
// with the real pre-commit.)
#include <yaml-cpp/yaml.h>

#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;

namespace {

YAML::Node Hook(const YAML::Node& hooks, const std::string& id) {
  for (const auto& h : hooks) {
    if (h["id"].as<std::string>() == id) return h;
  }
  FAIL("no hook " << id << " in .pre-commit-hooks.yaml");
  return {};
}

}  // namespace

TEST_CASE("the sagelint-fix hook is the sagelint hook with --fix", "[precommit][fix]") {
  YAML::Node hooks = YAML::LoadFile(SourcePath(".pre-commit-hooks.yaml"));
  YAML::Node plain = Hook(hooks, "sagelint"), fix = Hook(hooks, "sagelint-fix");
  CHECK(fix["entry"].as<std::string>() == "sagelint scan --fix --");
  CHECK(fix["language"].as<std::string>() == "system");
  // The same files, and one process for all of them.
  for (const char* key : {"types", "files", "require_serial"}) {
    INFO(key);
    CHECK(YAML::Dump(fix[key]) == YAML::Dump(plain[key]));
  }
  CHECK(fix["name"].as<std::string>() == "sagelint --fix");
}

TEST_CASE("the sagelint-docker hook runs the container image on the sagelint hook's files", "[precommit]") {
  YAML::Node hooks = YAML::LoadFile(SourcePath(".pre-commit-hooks.yaml"));
  YAML::Node plain = Hook(hooks, "sagelint"), docker = Hook(hooks, "sagelint-docker");
  CHECK(docker["language"].as<std::string>() == "docker_image");
  // The first word is the image, the rest the image's command: `scan`, then the files after `--`.
  CHECK(docker["entry"].as<std::string>() == "sagelint scan --");
  for (const char* key : {"types", "files", "require_serial"}) {
    INFO(key);
    CHECK(YAML::Dump(docker[key]) == YAML::Dump(plain[key]));
  }
  // What the description tells users to set instead is the image the release workflow pushes.
  CHECK(docker["description"].as<std::string>().find("ghcr.io/OWNER/sagelint:vX.Y.Z scan --") != std::string::npos);
}

TEST_CASE("the sagelint-fix hook's command fails while findings remain and passes clean files", "[precommit][fix]") {
  YAML::Node hooks = YAML::LoadFile(SourcePath(".pre-commit-hooks.yaml"));
  std::string entry = Hook(hooks, "sagelint-fix")["entry"].as<std::string>();
  REQUIRE(entry.rfind("sagelint ", 0) == 0);
  std::string args = entry.substr(9);  // what pre-commit runs, the staged names appended
  sagelint::testing::GitRepo s;        // the scan root, as under pre-commit
  const std::string costly =
      sagelint::testing::NotebookTemplate("Explore") + "      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n";
  const std::string clean = costly + "      LifecycleConfigName: stop-idle\n";
  s.Write("infra/costly.yaml", costly);
  s.Write("infra/clean.yaml", clean);
  // A finding without a fix: nothing is written, the hook fails and shows it.
  auto r = RunSagelint("--no-color " + args + " infra/costly.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("infra/costly.yaml:3:3: warning[SM201] notebook instance 'Explore'") != std::string::npos);
  CHECK(r.err.find("sagelint: fixed 0 findings in 0 files\n") != std::string::npos);
  CHECK(ReadFileOrDie(s.path() + "/infra/costly.yaml") == costly);
  // Only the named files: the costly one beside it is neither reported nor touched.
  r = RunSagelint("--no-color " + args + " infra/clean.yaml", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("SM201") == std::string::npos);
  CHECK(ReadFileOrDie(s.path() + "/infra/clean.yaml") == clean);
  // The project's fail_on applies to what remains.
  s.Write(".sagelint.yaml", "fail_on: error\n");
  r = RunSagelint("--no-color " + args + " infra/costly.yaml", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("warning[SM201]") != std::string::npos);
}
