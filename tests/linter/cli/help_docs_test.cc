// The help text is the one list of commands and options that completion and the
// man page are generated from: everything the command line accepts is in it,
// and the generators read all of it.
#include "linter/cli/help_docs.h"

#include <map>
#include <regex>
#include <set>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;

// The parser's flag table against what users read: --help, the man page and
// the README's option table list exactly its flags (hidden developer aids and
// the meta flags --help/--version aside), and the parser accepts each of them.
TEST_CASE("the help, the man page and the README list the parser's flags", "[cli][docs]") {
  std::string help = RunSagelint("--help").out;
  std::set<std::string> in_help;
  for (const auto& o : sagelint::ParseHelp(help).options) in_help.insert(o.name);
  std::string man = RunSagelint("manpage").out;
  std::string readme = sagelint::testing::ReadFileOrDie(sagelint::testing::SourcePath("README.md"));
  // The README's option table: the first column of the rows after "| option | meaning |".
  std::set<std::string> in_readme;
  size_t table = readme.find("| option | meaning |");
  REQUIRE(table != std::string::npos);
  for (size_t at = readme.find('\n', table) + 1; at < readme.size() && readme[at] == '|';) {
    size_t eol = readme.find('\n', at);
    size_t end = at + 1;  // the first cell ends at a '|' that is not escaped
    while (end < eol && (readme[end] != '|' || readme[end - 1] == '\\')) ++end;
    std::string first = readme.substr(at, end - at);
    std::regex flag(R"re(`(--[a-z0-9-]+))re");
    for (auto it = std::sregex_iterator(first.begin(), first.end(), flag); it != std::sregex_iterator(); ++it) {
      in_readme.insert((*it)[1]);
    }
    at = eol + 1;
  }
  std::set<std::string> table_flags;
  for (const sagelint::CliFlag& f : sagelint::CliFlags()) {
    std::string name(f.name);
    INFO(name);
    if (f.hidden || name == "--help" || name == "--version") {
      CHECK(in_help.count(name) == 0);
      continue;
    }
    table_flags.insert(name);
    CHECK(in_help.count(name) == 1);
    CHECK(in_readme.count(name) == 1);
    std::string roff;
    for (char c : name) roff += c == '-' ? std::string("\\-") : std::string(1, c);
    bool in_man =
        man.find(".BR " + roff + "\n") != std::string::npos || man.find(".BR " + roff + " ") != std::string::npos;
    CHECK(in_man);
  }
  for (const std::string& name : in_help) {
    INFO(name);
    CHECK(table_flags.count(name) == 1);
  }
  for (const std::string& name : in_readme) {
    INFO(name);
    CHECK(table_flags.count(name) == 1);
  }
  CHECK(table_flags.size() > 25);
}

TEST_CASE("the parser accepts every flag of its table", "[cli][docs]") {
  // A value each flag takes without complaint; --help then ends the run before anything is read.
  std::map<std::string, std::string> sample = {{"--format", "json"},  {"--fail-on", "none"},     {"--select", "SM401"},
                                               {"--ignore", "SM401"}, {"--param", "K=V"},        {"--var", "K=V"},
                                               {"--context", "K=V"},  {"--config-from", "base"}, {"--jobs", "2"},
                                               {"--color", "never"},  {"--region", "us-east-1"}};
  for (const sagelint::CliFlag& f : sagelint::CliFlags()) {
    for (std::string_view name : {f.name, f.short_name}) {
      if (name.empty()) continue;
      std::string args(name);
      if (f.takes_value) args += " " + (sample.count(std::string(f.name)) ? sample[std::string(f.name)] : "x");
      auto r = RunSagelint(args + " --help");
      INFO(args << ": " << r.err);
      CHECK(r.status == 0);
    }
  }
}

TEST_CASE("the help says where the configuration is read", "[cli][docs]") {
  std::string help = RunSagelint("--help").out;
  CHECK(help.find("up to the git root") == std::string::npos);
  CHECK(help.find("the .sagelint.yaml at the scan root") != std::string::npos);
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
