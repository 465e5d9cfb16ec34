// What is generated from the help text: shell completion scripts
// (`sagelint completion bash|zsh|fish`) and the man page (built at build time
// from the hidden `sagelint manpage`). The help text is the one list of commands
// and options, so a new option appears in all three without another edit.
#ifndef SAGELINT_LINTER_CLI_HELP_DOCS_H_
#define SAGELINT_LINTER_CLI_HELP_DOCS_H_

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

struct HelpCommand {
  std::string name;      // "scan"
  std::string synopsis;  // "[scan] [OPTIONS] [PATH ...]"
  std::string help;
};

struct HelpOption {
  std::string name;   // "--format"
  std::string value;  // "F[=FILE]"; empty for a flag
  std::string help;
};

struct HelpText {
  std::string summary;  // the paragraph before "Usage:"
  std::vector<HelpCommand> commands;
  std::vector<HelpOption> options;
  std::vector<std::string> notes;  // the paragraphs after the options
};

// Reads the help text's layout: "Usage:" lines `  sagelint NAME ...  help`,
// option lines `  --name VALUE  help`, continuation lines indented further.
HelpText ParseHelp(std::string_view usage);

// The --format values a command accepts (empty: none).
using FormatLister = std::function<std::vector<std::string>(const std::string& command)>;

// The completion script for `shell` (bash, zsh or fish); nullopt for another shell.
std::optional<std::string> CompletionScript(std::string_view shell, std::string_view usage,
                                            const FormatLister& formats);
// The shells CompletionScript knows.
const std::vector<std::string>& CompletionShells();

// sagelint(1) in roff: the help text, then every rule with its summary.
std::string ManPage(std::string_view usage, std::string_view version);

// A rule's Markdown documentation as a terminal shows it (`sagelint
// explain`): headings as plain (bold with `color`) lines, no emphasis marks or
// backticks, code blocks indented by four spaces without their fences, links
// as "text (url)". Tables and other text are kept as written.
std::string MarkdownForTerminal(std::string_view markdown, bool color);

// A flag of the command line, as the parser (linter/cli/options.cc) reads it.
struct CliFlag {
  std::string_view name;        // "--format"
  std::string_view short_name;  // "-f"; empty when none
  bool takes_value = false;     // the next word (or "=VALUE") is its value
  bool hidden = false;          // a developer aid, left out of --help and the docs
};
// Every flag the parser accepts: the parser asks this table whether a word is a
// flag and whether it takes a value, and --help, the man page and the README's
// option table list the same flags (tests/linter/cli/help_docs_test.cc compares them).
const std::vector<CliFlag>& CliFlags();
// The flag `arg` names (long or short); nullptr for an unknown one.
const CliFlag* FindCliFlag(std::string_view arg);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_HELP_DOCS_H_
