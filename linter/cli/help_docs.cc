#include "linter/cli/help_docs.h"

#include <algorithm>
#include <sstream>

#include "linter/base/strings.h"
#include "linter/model/rule.h"

namespace sagelint {
namespace {

size_t Indent(std::string_view line) {
  size_t n = 0;
  while (n < line.size() && line[n] == ' ') ++n;
  return n;
}

// Splits "left  right" at the first run of two or more spaces.
std::pair<std::string, std::string> SplitColumns(std::string_view text) {
  size_t gap = text.find("  ");
  if (gap == std::string_view::npos) return {std::string(text), ""};
  std::string_view right = text.substr(gap);
  return {std::string(text.substr(0, gap)), std::string(right.substr(Indent(right)))};
}

void Append(std::string* to, std::string_view more) {
  if (!to->empty()) *to += " ";
  *to += more;
}

// What completes the value of an option, read from its placeholder.
enum class ValueKind { kFlag, kFile, kFormat, kLevel, kRuleIds, kText };

ValueKind KindOf(const HelpOption& o) {
  if (o.value.empty()) return ValueKind::kFlag;
  if (o.name == "--format") return ValueKind::kFormat;
  if (o.value == "LEVEL") return ValueKind::kLevel;
  if (o.value.rfind("ID,", 0) == 0) return ValueKind::kRuleIds;
  if (o.value.size() >= 4 && o.value.compare(o.value.size() - 4, 4, "FILE") == 0) return ValueKind::kFile;
  return ValueKind::kText;
}

// The --fail-on levels (linter/cli/config.cc FailOnFromName).
const std::vector<std::string> kLevels = {"error", "warning", "note", "none"};

std::vector<std::string> RuleIdList() {
  std::vector<std::string> ids;
  for (const RuleInfo& r : AllRules()) ids.emplace_back(r.id);
  return ids;
}

std::string Words(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) Append(&out, w);
  return out;
}

// Single-quoted for sh, bash and zsh.
std::string ShQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

// Single-quoted for fish (which also treats \ specially inside quotes).
std::string FishQuote(std::string_view s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'' || c == '\\') out += '\\';
    out += c;
  }
  return out + "'";
}

// A short description: the help up to its first ';' or '(' clause, on one line.
std::string Short(std::string_view help) {
  std::string s(help);
  size_t cut = s.find("; ");
  if (cut != std::string::npos) s.resize(cut);
  // A clause cut inside parentheses loses the parenthesis too.
  if (std::count(s.begin(), s.end(), '(') > std::count(s.begin(), s.end(), ')')) {
    s.resize(s.rfind('('));
    while (!s.empty() && s.back() == ' ') s.pop_back();
  }
  if (s.size() > 70) {
    size_t space = s.rfind(' ', 67);
    s = s.substr(0, space == std::string::npos ? 67 : space) + "...";
  }
  return s;
}

// The commands, each once: `prices` and `prices import` are one command
// with a subcommand (the first of its lines describes it).
std::vector<HelpCommand> UniqueCommands(const HelpText& h) {
  std::vector<HelpCommand> out;
  for (const HelpCommand& c : h.commands) {
    auto same = [&](const HelpCommand& o) { return o.name == c.name; };
    if (std::none_of(out.begin(), out.end(), same)) out.push_back(c);
  }
  return out;
}

// Commands with their own formats, and the scan formats for the rest.
struct FormatTable {
  std::vector<std::pair<std::string, std::vector<std::string>>> by_command;
  std::vector<std::string> fallback;
};

FormatTable Formats(const HelpText& h, const FormatLister& formats_of) {
  FormatTable t;
  t.fallback = formats_of("scan");
  for (const HelpCommand& c : UniqueCommands(h)) {
    std::vector<std::string> f = formats_of(c.name);
    if (!f.empty() && f != t.fallback) t.by_command.emplace_back(c.name, f);
  }
  return t;
}

// The options that take a value (the next word).
std::vector<std::string> ValuedOptions(const HelpText& h) {
  std::vector<std::string> names;
  for (const HelpOption& o : h.options) {
    if (KindOf(o) != ValueKind::kFlag) names.push_back(o.name);
  }
  return names;
}

// A case pattern: "a|b|c".
std::string Alternatives(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& w : words) out += (out.empty() ? "" : "|") + w;
  return out;
}

std::string CommandNames(const HelpText& h) {
  std::vector<std::string> names;
  for (const HelpCommand& c : UniqueCommands(h)) names.push_back(c.name);
  return Words(names);
}

// A command's subcommands: the second word of its usage lines when it is a
// plain word (`prices import OFFER` → import), each once.
std::vector<std::string> Subcommands(const HelpText& h, const std::string& command) {
  std::vector<std::string> out;
  for (const HelpCommand& c : h.commands) {
    if (c.name != command) continue;
    std::vector<std::string> words = SplitList(c.synopsis, ' ');
    if (words.size() < 2 || words[1].empty()) continue;
    bool plain = std::all_of(words[1].begin(), words[1].end(), [](char ch) { return ch >= 'a' && ch <= 'z'; });
    if (plain && std::find(out.begin(), out.end(), words[1]) == out.end()) out.push_back(words[1]);
  }
  return out;
}

std::string Bash(const HelpText& h, const FormatLister& formats_of) {
  std::ostringstream s;
  std::vector<std::string> opts, files, texts;
  for (const HelpOption& o : h.options) {
    opts.push_back(o.name);
    if (KindOf(o) == ValueKind::kFile) files.push_back(o.name);
    if (KindOf(o) == ValueKind::kText) texts.push_back(o.name);
  }
  FormatTable ft = Formats(h, formats_of);
  s << "# bash completion for sagelint (generated by `sagelint completion bash`).\n"
    << "# Load it with: source <(sagelint completion bash)\n"
    << "_sagelint() {\n"
    << "  local cur=\"${COMP_WORDS[COMP_CWORD]}\" prev=\"\" cmd=\"\" i w\n"
    << "  [ \"$COMP_CWORD\" -gt 0 ] && prev=\"${COMP_WORDS[COMP_CWORD-1]}\"\n"
    << "  COMPREPLY=()\n"
    << "  # The command is the first word that is neither an option nor an option's value.\n"
    << "  for ((i = 1; i < COMP_CWORD; i++)); do\n"
    << "    w=\"${COMP_WORDS[i]}\"\n"
    << "    case \"$w\" in\n"
    << "      --) break ;;\n";
  s << "      " << Alternatives(ValuedOptions(h)) << ") i=$((i + 1)) ;;\n";
  s << "      -*) ;;\n"
    << "      *) cmd=\"$w\"; break ;;\n"
    << "    esac\n"
    << "  done\n"
    << "  case \"$prev\" in\n"
    << "    --format)\n"
    << "      case \"$cmd\" in\n";
  for (const auto& [command, list] : ft.by_command) {
    s << "        " << command << ") COMPREPLY=($(compgen -W " << ShQuote(Words(list)) << " -- \"$cur\")) ;;\n";
  }
  s << "        *) COMPREPLY=($(compgen -W " << ShQuote(Words(ft.fallback)) << " -- \"$cur\")) ;;\n"
    << "      esac\n"
    << "      return ;;\n"
    << "    --fail-on) COMPREPLY=($(compgen -W " << ShQuote(Words(kLevels)) << " -- \"$cur\")); return ;;\n"
    << "    --select|--ignore) COMPREPLY=($(compgen -W " << ShQuote(Words(RuleIdList()))
    << " -- \"$cur\")); return ;;\n";
  // File values: nothing here, so readline completes file names (complete -o default).
  if (!files.empty()) s << "    " << Alternatives(files) << ") return ;;\n";
  if (!texts.empty()) s << "    " << Alternatives(texts) << ") return ;;\n";
  s << "  esac\n"
    << "  if [[ \"$cur\" == -* ]]; then\n"
    << "    COMPREPLY=($(compgen -W " << ShQuote(Words(opts) + " --version --help") << " -- \"$cur\"))\n"
    << "    return\n"
    << "  fi\n"
    << "  case \"$cmd\" in\n"
    << "    \"\") COMPREPLY=($(compgen -W " << ShQuote(CommandNames(h)) << " -- \"$cur\")) ;;\n"
    << "    explain) COMPREPLY=($(compgen -W " << ShQuote(Words(RuleIdList())) << " -- \"$cur\")) ;;\n"
    << "    completion) COMPREPLY=($(compgen -W " << ShQuote(Words(CompletionShells())) << " -- \"$cur\")) ;;\n";
  // A subcommand right after its command (`sagelint prices im<TAB>`).
  for (const HelpCommand& c : UniqueCommands(h)) {
    std::vector<std::string> subs = Subcommands(h, c.name);
    if (subs.empty()) continue;
    s << "    " << c.name << ") [ \"$i\" -eq $((COMP_CWORD - 1)) ] && COMPREPLY=($(compgen -W " << ShQuote(Words(subs))
      << " -- \"$cur\")) ;;\n";
  }
  s << "  esac\n"
    << "}\n"
    << "complete -o default -F _sagelint sagelint\n";
  return s.str();
}

// An _arguments option spec: '--name[help]:message:action'.
std::string ZshOption(const HelpOption& o) {
  std::string help;
  for (char c : Short(o.help)) {
    if (c == '[' || c == ']' || c == ':' || c == '\\') help += '\\';
    help += c;
  }
  std::string spec = o.name;
  switch (KindOf(o)) {
    case ValueKind::kFlag:
      return ShQuote(spec + "[" + help + "]");
    case ValueKind::kFile:
      return ShQuote("*" + spec + "[" + help + "]:file:_files");
    case ValueKind::kFormat:
      return ShQuote("*" + spec + "[" + help + "]:format:_sagelint_formats");
    case ValueKind::kLevel:
      return ShQuote(spec + "[" + help + "]:level:(" + Words(kLevels) + ")");
    case ValueKind::kRuleIds:
      return ShQuote("*" + spec + "[" + help + "]:rule IDs:_sequence compadd - " + Words(RuleIdList()));
    case ValueKind::kText:
      break;
  }
  return ShQuote("*" + spec + "[" + help + "]:" + o.value + ": ");
}

std::string Zsh(const HelpText& h, const FormatLister& formats_of) {
  std::ostringstream s;
  FormatTable ft = Formats(h, formats_of);
  s << "#compdef sagelint\n"
    << "# zsh completion for sagelint (generated by `sagelint completion zsh`).\n"
    << "# Install it as _sagelint in a directory of $fpath.\n"
    << "\n"
    << "# The command: the first word after `sagelint` that is neither an option nor its value.\n"
    << "_sagelint_command() {\n"
    << "  local i w\n"
    << "  for ((i = 2; i < CURRENT; i++)); do\n"
    << "    w=${words[i]}\n"
    << "    case $w in\n"
    << "      --) return ;;\n"
    << "      " << Alternatives(ValuedOptions(h)) << ") ((i++)) ;;\n"
    << "      -*) ;;\n"
    << "      *) print -r -- $w; return ;;\n"
    << "    esac\n"
    << "  done\n"
    << "}\n"
    << "\n"
    << "_sagelint_formats() {\n"
    << "  case $(_sagelint_command) in\n";
  for (const auto& [command, list] : ft.by_command) s << "    " << command << ") compadd - " << Words(list) << " ;;\n";
  s << "    *) compadd - " << Words(ft.fallback) << " ;;\n"
    << "  esac\n"
    << "}\n"
    << "\n"
    << "_sagelint_args() {\n"
    << "  local cmd=$(_sagelint_command)\n"
    << "  case $cmd in\n"
    << "    '')\n"
    << "      local -a commands\n"
    << "      commands=(\n";
  for (const HelpCommand& c : UniqueCommands(h)) {
    std::string entry = c.name + ":";
    for (char ch : Short(c.help)) {
      if (ch == ':') entry += '\\';
      entry += ch;
    }
    s << "        " << ShQuote(entry) << "\n";
  }
  s << "      )\n"
    << "      _describe -t commands 'sagelint command' commands\n"
    << "      _files\n"
    << "      ;;\n"
    << "    explain) compadd - " << Words(RuleIdList()) << " ;;\n"
    << "    completion) compadd - " << Words(CompletionShells()) << " ;;\n"
    << "    rules|help) ;;\n"
    << "    *) _files ;;\n"
    << "  esac\n"
    << "}\n"
    << "\n"
    << "_sagelint() {\n"
    << "  _arguments -s -S \\\n"
    << "    '(- *)--version[print the version]' \\\n"
    << "    '(- *)--help[print the help]' \\\n";
  for (const HelpOption& o : h.options) s << "    " << ZshOption(o) << " \\\n";
  s << "    '*: :_sagelint_args'\n"
    << "}\n"
    << "\n"
    << "if [ \"$funcstack[1]\" = _sagelint ]; then\n"
    << "  _sagelint \"$@\"\n"
    << "else\n"
    << "  compdef _sagelint sagelint\n"
    << "fi\n";
  return s.str();
}

std::string Fish(const HelpText& h, const FormatLister& formats_of) {
  std::ostringstream s;
  FormatTable ft = Formats(h, formats_of);
  s << "# fish completion for sagelint (generated by `sagelint completion fish`).\n"
    << "# Install it as sagelint.fish in ~/.config/fish/completions/.\n"
    << "\n"
    << "# The command: the first word after `sagelint` that is neither an option nor its value.\n"
    << "function __sagelint_command\n"
    << "    set -l skip 0\n"
    << "    for w in (commandline -opc)[2..-1]\n"
    << "        if test $skip = 1\n"
    << "            set skip 0\n"
    << "            continue\n"
    << "        end\n"
    << "        switch $w\n"
    << "            case --\n"
    << "                return\n"
    << "            case " << Words(ValuedOptions(h)) << "\n"
    << "                set skip 1\n"
    << "            case '-*'\n"
    << "            case '*'\n"
    << "                echo $w\n"
    << "                return\n"
    << "        end\n"
    << "    end\n"
    << "end\n"
    << "\n"
    << "# Whether the command is one of the arguments (none given: whether there is none yet).\n"
    << "function __sagelint_command_is\n"
    << "    set -l c (__sagelint_command)\n"
    << "    if test (count $argv) -eq 0\n"
    << "        test -z \"$c\"\n"
    << "    else\n"
    << "        test -n \"$c\"; and contains -- $c $argv\n"
    << "    end\n"
    << "end\n"
    << "\n"
    << "function __sagelint_formats\n"
    << "    switch (__sagelint_command)\n";
  for (const auto& [command, list] : ft.by_command) {
    s << "        case " << command << "\n"
      << "            printf '%s\\n' " << Words(list) << "\n";
  }
  s << "        case '*'\n"
    << "            printf '%s\\n' " << Words(ft.fallback) << "\n"
    << "    end\n"
    << "end\n"
    << "\n";
  for (const HelpCommand& c : UniqueCommands(h)) {
    s << "complete -c sagelint -n __sagelint_command_is -a " << c.name << " -d " << FishQuote(Short(c.help)) << "\n";
  }
  s << "complete -c sagelint -n '__sagelint_command_is explain' -f -a " << FishQuote(Words(RuleIdList())) << "\n"
    << "complete -c sagelint -n '__sagelint_command_is completion' -f -a " << FishQuote(Words(CompletionShells()))
    << "\n"
    << "complete -c sagelint -n '__sagelint_command_is rules help' -f\n"
    << "complete -c sagelint -l version -d 'print the version'\n"
    << "complete -c sagelint -l help -d 'print the help'\n";
  for (const HelpOption& o : h.options) {
    if (o.name.rfind("--", 0) != 0) continue;
    s << "complete -c sagelint -l " << o.name.substr(2);
    switch (KindOf(o)) {
      case ValueKind::kFlag:
        break;
      case ValueKind::kFile:
        s << " -r -F";
        break;
      case ValueKind::kFormat:
        s << " -x -a '(__sagelint_formats)'";
        break;
      case ValueKind::kLevel:
        s << " -x -a " << FishQuote(Words(kLevels));
        break;
      case ValueKind::kRuleIds:
        s << " -x -a " << FishQuote(Words(RuleIdList()));
        break;
      case ValueKind::kText:
        s << " -x";
        break;
    }
    s << " -d " << FishQuote(Short(o.help)) << "\n";
  }
  return s.str();
}

// Text for roff: backslashes and hyphens escaped, no line starting with a control character.
std::string Roff(std::string_view text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      out += "\\e";
    } else if (c == '-') {
      out += "\\-";
    } else if (text.substr(i, 3) == "\xE2\x80\x94") {  // em dash
      out += "\\(em";
      i += 2;
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

// `text` split at '\n', empty lines kept (a trailing newline ends the last line).
std::vector<std::string> SplitLines(std::string_view text) {
  std::vector<std::string> lines;
  size_t start = 0;
  while (start < text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  return lines;
}

// One line of Markdown prose for a terminal: **bold** and `code` lose their
// marks (bold stays bold with colour), [text](url) becomes "text (url)".
std::string InlineForTerminal(std::string_view line, bool color) {
  std::string out;
  bool bold = false;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '`') {
      size_t run = line.find_first_not_of('`', i) == std::string_view::npos ? line.size() - i
                                                                            : line.find_first_not_of('`', i) - i;
      std::string fence(run, '`');
      size_t close = line.find(fence, i + run);
      if (close == std::string_view::npos) {
        out += line.substr(i, run);
        i += run - 1;
        continue;
      }
      out += line.substr(i + run, close - i - run);  // a code span: as written
      i = close + run - 1;
    } else if (line.compare(i, 2, "**") == 0) {
      bold = !bold;
      if (color) out += bold ? "\x1b[1m" : "\x1b[0m";
      ++i;
    } else if (c == '[') {
      size_t close = line.find("](", i);
      size_t end = close == std::string_view::npos ? close : line.find(')', close);
      if (end == std::string_view::npos || line.substr(i + 1, close - i - 1).find('[') != std::string_view::npos) {
        out += c;
        continue;
      }
      out += InlineForTerminal(line.substr(i + 1, close - i - 1), color) + " (" +
             std::string(line.substr(close + 2, end - close - 2)) + ")";
      i = end;
    } else {
      out += c;
    }
  }
  if (bold && color) out += "\x1b[0m";
  return out;
}

}  // namespace

std::string MarkdownForTerminal(std::string_view markdown, bool color) {
  std::string out;
  bool in_code = false;
  for (const std::string& raw : SplitLines(markdown)) {
    std::string_view line = raw;
    if (line.rfind("```", 0) == 0) {
      in_code = !in_code;  // the fence itself is not shown
      continue;
    }
    if (in_code) {
      out += (line.empty() ? "" : "    " + std::string(line)) + "\n";
      continue;
    }
    size_t level = line.find_first_not_of('#');
    if (level != std::string_view::npos && level > 0 && level <= 6 && line[level] == ' ') {
      std::string title = InlineForTerminal(line.substr(level + 1), false);
      out += color ? "\x1b[1m" + title + "\x1b[0m\n" : title + "\n";
      continue;
    }
    out += InlineForTerminal(line, color) + "\n";
  }
  return out;
}

HelpText ParseHelp(std::string_view usage) {
  HelpText h;
  enum { kSummary, kUsage, kOptions, kNotes } part = kSummary;
  std::string* last = nullptr;  // what a continuation line extends
  std::string paragraph;
  auto end_paragraph = [&]() {
    if (!paragraph.empty()) h.notes.push_back(paragraph);
    paragraph.clear();
  };
  for (const std::string& raw : SplitList(std::string(usage), '\n')) {
    std::string_view line = raw;
    size_t indent = Indent(line);
    std::string_view text = line.substr(indent);
    if (text.empty()) {
      if (part == kNotes) end_paragraph();
      last = nullptr;
      continue;
    }
    if (indent == 0 && text == "Usage:") {
      part = kUsage;
      continue;
    }
    if (indent == 0 && text.rfind("Options", 0) == 0 && text.back() == ':') {
      part = kOptions;
      continue;
    }
    if (part == kSummary) {
      Append(&h.summary, text);
    } else if (part == kUsage && indent == 2 && text.rfind("sagelint ", 0) == 0) {
      auto [synopsis, help] = SplitColumns(text.substr(9));
      if (synopsis.rfind("--", 0) == 0) {
        // "--version | --help | help": the meta line.
        for (const std::string& w : SplitList(synopsis, '|')) {
          std::string word = Trim(w);
          if (!word.empty() && word[0] != '-') h.commands.push_back({word, word, "print the help"});
        }
        last = nullptr;
        continue;
      }
      std::string name = synopsis.substr(0, synopsis.find(' '));
      if (name.size() > 2 && name.front() == '[' && name.back() == ']') name = name.substr(1, name.size() - 2);
      h.commands.push_back({name, synopsis, help});
      last = &h.commands.back().help;
    } else if (part == kOptions && indent == 2 && text[0] == '-') {
      auto [left, help] = SplitColumns(text);
      size_t space = left.find(' ');
      HelpOption o{left.substr(0, space), space == std::string::npos ? "" : left.substr(space + 1), help};
      h.options.push_back(o);
      last = &h.options.back().help;
    } else if ((part == kUsage || part == kOptions) && indent > 2 && last) {
      Append(last, text);
    } else {
      part = kNotes;
      if (text.rfind("Exit status:", 0) == 0) end_paragraph();
      Append(&paragraph, text);
    }
  }
  end_paragraph();
  return h;
}

const std::vector<CliFlag>& CliFlags() {
  static const std::vector<CliFlag> flags = {
      {"--help", "-h"},
      {"--version", "-V"},
      {"--format", "-f", true},
      {"--fail-on", "", true},
      {"--config", "-c", true},
      {"--select", "", true},
      {"--ignore", "", true},
      {"--param", "", true},
      {"--var", "", true},
      {"--context", "", true},
      {"--var-file", "", true},
      {"--param-file", "", true},
      {"--dataset-size", "", true},
      {"--s3-listing", "", true},
      {"--prices", "", true},
      {"--region", "", true},
      {"--output", "-o", true},
      {"--baseline", "", true},
      {"--write-baseline", "", true},
      {"--report-stale-baseline", ""},
      {"--base", "", true},
      {"--config-from", "", true},
      {"--lifecycle-arn", "", true},
      {"--jobs", "-j", true},
      {"--timing", "", false, true},
      {"--color", "", true},
      {"--no-color", ""},
      {"--wide", ""},
      {"--fix", ""},
      {"--unsafe-fixes", ""},
      {"--diff", ""},
      {"--quiet", "-q"},
      {"--no-ignore", ""},
      {"--report-unused-ignores", ""},
      {"--statistics", ""},
      {"--report-name", "", true},
      {"--repos", "", true},
      {"--all-regions", ""},
      {"--cache-dir", "", true},
      {"--no-cache", ""},
  };
  return flags;
}

const CliFlag* FindCliFlag(std::string_view arg) {
  for (const CliFlag& f : CliFlags()) {
    if (arg == f.name || (!f.short_name.empty() && arg == f.short_name)) return &f;
  }
  return nullptr;
}

const std::vector<std::string>& CompletionShells() {
  static const std::vector<std::string> shells = {"bash", "zsh", "fish"};
  return shells;
}

std::optional<std::string> CompletionScript(std::string_view shell, std::string_view usage,
                                            const FormatLister& formats) {
  HelpText h = ParseHelp(usage);
  if (shell == "bash") return Bash(h, formats);
  if (shell == "zsh") return Zsh(h, formats);
  if (shell == "fish") return Fish(h, formats);
  return std::nullopt;
}

std::string ManPage(std::string_view usage, std::string_view version) {
  HelpText h = ParseHelp(usage);
  // NAME: the summary after "sagelint — ".
  std::string what = h.summary;
  size_t dash = what.find("\xE2\x80\x94 ");
  if (dash != std::string::npos) what = what.substr(dash + 4);
  std::ostringstream s;
  s << ".\\\" sagelint(1), generated from `sagelint --help` and the rule table by `sagelint manpage`.\n"
    << ".TH SAGELINT 1 \"\" \"sagelint " << Roff(version) << "\" \"User Commands\"\n"
    << ".SH NAME\n"
    << "sagelint \\- " << Roff(what) << "\n"
    << ".SH SYNOPSIS\n";
  for (const HelpCommand& c : h.commands) {
    s << ".B sagelint\n" << Roff(c.synopsis) << "\n.br\n";
  }
  s << ".B sagelint\n\\-\\-version | \\-\\-help\n"
    << ".SH DESCRIPTION\n"
    << Roff(h.summary) << "\n";
  std::string exit_status;
  for (const std::string& note : h.notes) {
    if (note.rfind("Exit status:", 0) == 0) {
      exit_status = note.substr(13);
    } else {
      s << ".PP\n" << Roff(note) << "\n";
    }
  }
  s << ".SH COMMANDS\n";
  for (const HelpCommand& c : h.commands) {
    s << ".TP\n.B sagelint " << Roff(c.synopsis) << "\n" << Roff(c.help) << "\n";
  }
  s << ".SH OPTIONS\n";
  for (const HelpOption& o : h.options) {
    s << ".TP\n.BR " << Roff(o.name);
    if (!o.value.empty()) s << " \" " << Roff(o.value) << "\"";
    s << "\n" << Roff(o.help) << "\n";
  }
  s << ".TP\n.B \\-\\-version\nprint the version\n"
    << ".TP\n.B \\-\\-help\nprint the help\n";
  if (!exit_status.empty()) s << ".SH EXIT STATUS\n" << Roff(exit_status) << "\n";
  s << ".SH RULES\n"
    << "Each rule's rationale, examples, fix and IAM guard: \\fBsagelint explain\\fR \\fIID\\fR.\n";
  for (const RuleInfo& r : AllRules()) {
    s << ".TP\n.B " << Roff(r.id) << " " << Roff(r.name) << "\n(" << SeverityName(r.severity) << ") " << Roff(r.summary)
      << "\n";
    if (!r.iam.condition_key.empty()) s << "IAM guard: " << Roff(std::string(r.iam.condition_key)) << ".\n";
  }
  s << ".SH SEE ALSO\n"
    << "\\fBsagelint explain\\fR \\fIID\\fR, \\fBsagelint rules\\fR, \\fBsagelint completion\\fR \\fIshell\\fR\n";
  return s.str();
}

}  // namespace sagelint
