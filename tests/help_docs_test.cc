// The help text is the one list of commands and options that completion and the
// man page are generated from: everything the command line accepts is in it,
// and the generators read all of it.
#include "linter/cli/help_docs.h"

#include <regex>
#include <set>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;

TEST_CASE("every option the command line accepts is in --help", "[cli][docs]") {
  std::string source = sagelint::testing::ReadFileOrDie(sagelint::testing::SourcePath("linter/cli/cli.cc"));
  std::string help = RunSagelint("--help").out;
  sagelint::HelpText parsed = sagelint::ParseHelp(help);
  std::set<std::string> documented;
  for (const auto& o : parsed.options) documented.insert(o.name);
  std::regex accepted(R"re(a == "(--[a-z0-9-]+)")re");
  int seen = 0;
  for (auto it = std::sregex_iterator(source.begin(), source.end(), accepted); it != std::sregex_iterator(); ++it) {
    std::string option = (*it)[1];
    ++seen;
    // Developer aids and the two meta options, which the generators add themselves.
    if (option == "--timing" || option == "--help" || option == "--version") continue;
    INFO(option);
    CHECK(documented.count(option) == 1);
  }
  CHECK(seen > 15);
}

TEST_CASE("the help text parses into commands, options and notes", "[cli][docs]") {
  sagelint::HelpText h = sagelint::ParseHelp(RunSagelint("--help").out);
  std::vector<std::string> names;
  for (const auto& c : h.commands) names.push_back(c.name);
  CHECK(std::find(names.begin(), names.end(), "scan") != names.end());
  CHECK(std::find(names.begin(), names.end(), "completion") != names.end());
  CHECK(std::find(names.begin(), names.end(), "explain") != names.end());
  auto format = std::find_if(h.options.begin(), h.options.end(), [](const auto& o) { return o.name == "--format"; });
  REQUIRE(format != h.options.end());
  CHECK(format->value == "F[=FILE]");
  // Continuation lines join the option's help.
  CHECK(format->help.find("repeatable, each to stdout or FILE") != std::string::npos);
  REQUIRE(!h.notes.empty());
  CHECK(h.notes.back().rfind("Exit status:", 0) == 0);
}

TEST_CASE("sagelint completion prints a script per shell and rejects others", "[cli][docs]") {
  auto r = RunSagelint("completion bash");
  CHECK(r.status == 0);
  CHECK(r.out.find("complete -o default -F _sagelint sagelint") != std::string::npos);
  r = RunSagelint("completion zsh");
  CHECK(r.status == 0);
  CHECK(r.out.rfind("#compdef sagelint\n", 0) == 0);
  r = RunSagelint("completion fish");
  CHECK(r.status == 0);
  CHECK(r.out.find("complete -c sagelint -l fail-on -x -a 'error warning note none'") != std::string::npos);
  r = RunSagelint("completion");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: completion expects one shell: sagelint completion bash|zsh|fish\n");
  r = RunSagelint("completion powershell");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: completion: unknown shell 'powershell' (bash|zsh|fish)\n");
}

TEST_CASE("the man page is roff with the version, options and rules", "[cli][docs]") {
  auto r = RunSagelint("manpage");
  REQUIRE(r.status == 0);
  CHECK(r.out.find(".TH SAGELINT 1 \"\" \"sagelint 0.1.0\" \"User Commands\"\n") != std::string::npos);
  CHECK(r.out.find(".BR \\-\\-fail\\-on \" LEVEL\"\n") != std::string::npos);
  CHECK(r.out.find(".B SM401 training\\-without\\-spot\n(warning) ") != std::string::npos);
  CHECK(r.out.find(".SH EXIT STATUS\n") != std::string::npos);
  // No line of text may start with a roff control character.
  for (const std::string& line : {std::string("\n."), std::string("\n'")}) {
    size_t at = 0;
    while ((at = r.out.find(line, at)) != std::string::npos) {
      ++at;
      std::string rest = r.out.substr(at, r.out.find('\n', at) - at);
      INFO(rest);
      CHECK(std::regex_search(rest, std::regex(R"(^\.(TH|SH|TP|PP|B|BR|br|\\") ?)")));
    }
  }
}
