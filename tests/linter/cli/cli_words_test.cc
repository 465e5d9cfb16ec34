// The command line a user types: a mistyped flag, command or format gets the
// closest valid one; rule names work wherever rule IDs do; explain reads well
// on a terminal; --version names the commit.
#include <filesystem>
#include <regex>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::NotebookTemplate;
using sagelint::testing::RunSagelint;

TEST_CASE("an unknown flag, command or format gets a did-you-mean and exit 2", "[cli][words]") {
  auto r = RunSagelint("scan --fial-on none .");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: unknown flag '--fial-on' (did you mean '--fail-on'?) (see sagelint --help)\n");
  r = RunSagelint("--formt json .");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: unknown flag '--formt' (did you mean '--format'?) (see sagelint --help)\n");
  r = RunSagelint("scan --format jsn .");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: unknown format 'jsn' (did you mean 'json'?)\n");
  r = RunSagelint("scan --quiet=yes .");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --quiet takes no value\n");
}

TEST_CASE("a first word that is neither a command nor a path is named as such", "[cli][words]") {
  sagelint::testing::TempDir dir;
  dir.Write("nb.yaml", NotebookTemplate());
  auto r = RunSagelint("scna .", dir.path());
  CHECK(r.status == 2);
  CHECK(r.err ==
        "sagelint: 'scna' is neither a command nor an existing path (did you mean 'scan'?) (see sagelint --help)\n");
  r = RunSagelint("inventroy", dir.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("(did you mean 'inventory'?)") != std::string::npos);
  // A path that looks like one is a missing path; an existing directory is scanned.
  r = RunSagelint("missing.yaml", dir.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: missing.yaml: no such file or directory\n");
  dir.Write("infra/nb.yaml", NotebookTemplate());
  r = RunSagelint("infra --fail-on none", dir.path());
  CHECK(r.status == 0);
  // After `scan`, a word is a path.
  r = RunSagelint("scan scna", dir.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: scna: no such file or directory\n");
}

TEST_CASE("an inline sagelint:ignore= accepts rule names as the configuration does", "[cli][suppress][words]") {
  sagelint::testing::TempDir dir;
  std::string nb = NotebookTemplate();
  nb.replace(nb.find("  Explore:"), 0,
             "  # sagelint:ignore=notebook-without-lifecycle-config stopped by a scheduler\n");
  dir.Write("nb.yaml", nb);
  auto r = RunSagelint("scan --no-color --report-unused-ignores .", dir.path());
  CHECK(r.status == 0);
  CHECK(r.out == "No findings in 1 file, 1 suppressed\n");
}

TEST_CASE("bash completion offers each command once and prices' subcommands after it", "[cli][docs][words]") {
  auto r = RunSagelint("completion bash");
  REQUIRE(r.status == 0);
  std::smatch m;
  REQUIRE(std::regex_search(r.out, m, std::regex(R"(\"\"\) COMPREPLY=\(\$\(compgen -W '([^']*)')")));
  std::string commands = " " + m[1].str() + " ";
  CHECK(commands.find(" prices ") != std::string::npos);
  CHECK(commands.find(" prices ") == commands.rfind(" prices "));
  CHECK(r.out.find("    prices) [ \"$i\" -eq $((COMP_CWORD - 1)) ] && COMPREPLY=($(compgen -W 'update import'") !=
        std::string::npos);
  // The script is valid bash, and completes `sagelint prices im` to import.
  sagelint::testing::TempDir dir;
  dir.Write("c.sh", r.out);
  std::string out = sagelint::testing::ShellOut(
      "bash -c 'source " + dir.path() +
      "/c.sh; COMP_WORDS=(sagelint prices im); COMP_CWORD=2; _sagelint; echo \"${COMPREPLY[*]}\"'");
  CHECK(out == "import");
  out = sagelint::testing::ShellOut(
      "bash -c 'source " + dir.path() +
      "/c.sh; COMP_WORDS=(sagelint pri); COMP_CWORD=1; _sagelint; echo \"${COMPREPLY[*]}\"'");
  CHECK(out == "prices");
}

TEST_CASE("explain renders for a terminal, and --format markdown keeps the Markdown", "[cli][explain][words]") {
  auto r = RunSagelint("explain SM401 --no-color");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("```") == std::string::npos);
  CHECK(r.out.find("## ") == std::string::npos);
  CHECK(r.out.find('`') == std::string::npos);
  CHECK(r.out.find("\nWhat it does\nReports a training or tuning job that does not enable managed Spot training "
                   "(use_spot_instances,\n") != std::string::npos);
  CHECK(r.out.find("\n    PyTorch(..., use_spot_instances=True,") != std::string::npos);
  r = RunSagelint("explain SM401 --color always");
  CHECK(r.out.find("\x1b[1mWhat it does\x1b[0m\n") != std::string::npos);
  r = RunSagelint("explain SM401 --format markdown");
  REQUIRE(r.status == 0);
  CHECK(r.out.find("## What it does\n") != std::string::npos);
  CHECK(r.out.find("```python\n") != std::string::npos);
  r = RunSagelint("explain SM401 --format json");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: explain formats are text and markdown, not 'json'\n");
}

TEST_CASE("the version names the commit it was built from", "[cli][words]") {
  auto r = RunSagelint("--version");
  CHECK(r.status == 0);
  bool checkout = std::filesystem::exists(sagelint::testing::SourcePath(".git"));
  INFO(r.out);
  if (checkout) {
    CHECK(std::regex_match(r.out, std::regex(R"(sagelint 0\.1\.0 \(commit [0-9a-f]{12}(-dirty)?\)\n)")));
  } else {
    CHECK(r.out == "sagelint 0.1.0\n");
  }
}
