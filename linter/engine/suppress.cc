#include "linter/engine/suppress.h"

#include <cctype>

#include "linter/base/strings.h"
#include "linter/model/rule.h"
#include "parsers/python/notebook.h"

namespace sagelint {
namespace {

// Positions of line starts, for turning offsets into line and column.
class LineStarts {
 public:
  explicit LineStarts(std::string_view text) {
    starts_.push_back(0);
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] == '\n') starts_.push_back(i + 1);
    }
  }
  // 1-based line and column of byte `offset`.
  std::pair<int, int> At(size_t offset) const {
    size_t lo = 0, hi = starts_.size();
    while (hi - lo > 1) {
      size_t mid = (lo + hi) / 2;
      (starts_[mid] <= offset ? lo : hi) = mid;
    }
    return {static_cast<int>(lo) + 1, static_cast<int>(offset - starts_[lo]) + 1};
  }

 private:
  std::vector<size_t> starts_;
};

// A comment from `begin` to the end of its line.
void AddLineComment(std::string_view text, size_t begin, const LineStarts& lines, std::vector<Comment>* out) {
  size_t end = text.find('\n', begin);
  if (end == std::string_view::npos) end = text.size();
  auto [line, column] = lines.At(begin);
  out->push_back({line, column, std::string(text.substr(begin, end - begin))});
}

// YAML (and JSON, which is YAML's flow style): a `#` at a line's start or after
// a blank, outside quoted scalars and block scalars (`|`, `>`).
std::vector<Comment> YamlComments(std::string_view text) {
  std::vector<Comment> out;
  LineStarts lines(text);
  enum class State { kPlain, kDouble, kSingle } state = State::kPlain;
  bool in_block = false;
  int block_parent = 0, block_indent = -1;
  int flow = 0;  // depth of [ and { (in flow style a ':' may touch the value)
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    int indent = 0;
    while (indent < static_cast<int>(line.size()) && line[indent] == ' ') ++indent;
    bool blank = line.find_first_not_of(" \t") == std::string_view::npos;
    if (in_block) {
      // A block scalar holds every blank line and every line indented at least
      // as far as its first content line (which is deeper than its parent).
      if (blank) {
        start = end + 1;
        continue;
      }
      if (block_indent < 0 && indent > block_parent) block_indent = indent;
      if (block_indent >= 0 && indent >= block_indent) {
        start = end + 1;
        continue;
      }
      in_block = false;
    }
    bool value_start = state == State::kPlain;  // a quote here opens a quoted scalar
    bool after_quote = false;
    size_t comment_at = std::string_view::npos;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (state == State::kDouble) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          state = State::kPlain;
          value_start = false;
          after_quote = true;
        }
        continue;
      }
      if (state == State::kSingle) {
        if (c == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
          ++i;
        } else if (c == '\'') {
          state = State::kPlain;
          value_start = false;
          after_quote = true;
        }
        continue;
      }
      if (IsBlank(c)) continue;
      if (c == '#' && (i == 0 || IsBlank(line[i - 1]))) {
        comment_at = i;
        break;
      }
      bool closing_quote = after_quote;
      after_quote = false;
      if ((c == '"' || c == '\'') && value_start) {
        state = c == '"' ? State::kDouble : State::kSingle;
        continue;
      }
      bool spaced = i + 1 == line.size() || IsBlank(line[i + 1]);
      if (c == '[' || c == '{') {
        ++flow;
        value_start = true;
      } else if (c == ',') {
        value_start = true;
      } else if (c == ']' || c == '}') {
        if (flow > 0) --flow;
        value_start = false;
      } else if (c == ':' && (spaced || closing_quote || flow > 0)) {
        value_start = true;
      } else if ((c == '-' || c == '?') && spaced) {
        value_start = true;
      } else if ((c == '!' || c == '&') && value_start) {
        // A tag or an anchor before the value: the value still starts after it.
        while (i + 1 < line.size() && !IsBlank(line[i + 1])) ++i;
      } else {
        value_start = false;
      }
    }
    if (comment_at != std::string_view::npos) AddLineComment(text, start + comment_at, lines, &out);
    if (state == State::kPlain) {
      // A block scalar header: the line's last token is `|` or `>` with optional indicators.
      std::string_view content = line.substr(0, comment_at == std::string_view::npos ? line.size() : comment_at);
      while (!content.empty() && IsBlank(content.back())) content.remove_suffix(1);
      size_t sp = content.find_last_of(" \t");
      std::string_view token = sp == std::string_view::npos ? content : content.substr(sp + 1);
      bool header = !token.empty() && (token[0] == '|' || token[0] == '>');
      for (size_t k = 1; header && k < token.size(); ++k) {
        header = token[k] == '-' || token[k] == '+' || (token[k] >= '0' && token[k] <= '9');
      }
      if (header && flow == 0) {
        in_block = true;
        block_parent = indent;
        block_indent = -1;
      }
    }
    start = end + 1;
  }
  return out;
}

// Python: `#` outside string literals (single, double, triple-quoted, any prefix).
std::vector<Comment> PythonComments(std::string_view text) {
  std::vector<Comment> out;
  LineStarts lines(text);
  char quote = 0;
  bool triple = false;
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (quote) {
      if (c == '\\') {
        ++i;
      } else if (triple && c == quote && text.compare(i, 3, std::string(3, quote)) == 0) {
        quote = 0;
        i += 2;
      } else if (!triple && c == quote) {
        quote = 0;
      } else if (!triple && c == '\n') {
        quote = 0;  // an unterminated string ends with its line
      }
      continue;
    }
    if (c == '#') {
      AddLineComment(text, i, lines, &out);
      size_t nl = text.find('\n', i);
      if (nl == std::string_view::npos) break;
      i = nl;
    } else if (c == '"' || c == '\'') {
      quote = c;
      triple = text.compare(i, 3, std::string(3, c)) == 0;
      if (triple) i += 2;
    }
  }
  return out;
}

// A `/* */` comment starting at text[i], one comment per line of the block
// so a directive keeps its own line; returns where it ends.
size_t AddBlockComment(std::string_view text, size_t i, const LineStarts& lines, std::vector<Comment>* out) {
  size_t close = text.find("*/", i + 2);
  size_t end = close == std::string_view::npos ? text.size() : close + 2;
  for (size_t b = i; b < end;) {
    size_t nl = text.find('\n', b);
    size_t e = nl == std::string_view::npos || nl > end ? end : nl;
    auto [line, column] = lines.At(b);
    out->push_back({line, column, std::string(text.substr(b, e - b))});
    b = e + 1;
  }
  return end;
}

// HCL: `#` and `//` to the end of the line, `/* */`; not inside strings (whose
// `${ }` interpolations hold code again) or heredocs.
std::vector<Comment> HclComments(std::string_view text) {
  std::vector<Comment> out;
  LineStarts lines(text);
  struct Frame {
    bool string;
    int braces;  // code: open { inside this interpolation
  };
  std::vector<Frame> stack{{false, 0}};
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    Frame& top = stack.back();
    if (top.string) {
      if (c == '\\') {
        ++i;
      } else if (c == '"' || c == '\n') {
        stack.pop_back();  // a string ends at its quote (or, unterminated, at its line)
      } else if ((c == '$' || c == '%') && text.compare(i + 1, 2, std::string{c, '{'}) == 0) {
        i += 2;  // "$${" and "%%{" are literal text
      } else if ((c == '$' || c == '%') && i + 1 < text.size() && text[i + 1] == '{') {
        stack.push_back({false, 0});
        ++i;
      }
      continue;
    }
    if (c == '#' || (c == '/' && i + 1 < text.size() && text[i + 1] == '/')) {
      AddLineComment(text, i, lines, &out);
      size_t nl = text.find('\n', i);
      if (nl == std::string_view::npos) break;
      i = nl;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = AddBlockComment(text, i, lines, &out) - 1;
    } else if (c == '"') {
      stack.push_back({true, 0});
    } else if (c == '<' && text.compare(i, 2, "<<") == 0) {
      // Heredoc: <<ID or <<-ID, then lines up to one that is ID alone.
      size_t k = i + 2;
      if (k < text.size() && text[k] == '-') ++k;
      size_t id_start = k;
      while (k < text.size() && (std::isalnum(static_cast<unsigned char>(text[k])) || text[k] == '_')) ++k;
      std::string_view id = text.substr(id_start, k - id_start);
      size_t nl = text.find('\n', k);
      if (id.empty() || nl == std::string_view::npos) continue;
      std::string_view rest = text.substr(k, nl - k);
      if (rest.find_first_not_of(" \t\r") != std::string_view::npos) continue;
      size_t pos = nl + 1;
      while (pos < text.size()) {
        size_t e = text.find('\n', pos);
        if (e == std::string_view::npos) e = text.size();
        std::string_view l = text.substr(pos, e - pos);
        size_t a = l.find_first_not_of(" \t");
        size_t z = l.find_last_not_of(" \t\r");
        pos = e + 1;
        if (a != std::string_view::npos && l.substr(a, z - a + 1) == id) break;
      }
      i = (pos > text.size() ? text.size() : pos) - 1;
    } else if (c == '{') {
      ++top.braces;
    } else if (c == '}') {
      if (top.braces > 0) {
        --top.braces;
      } else if (stack.size() > 1) {
        stack.pop_back();  // the end of an interpolation: back in its string
      }
    }
  }
  return out;
}

// TypeScript / JavaScript: `//` to the end of the line and `/* */`, not inside
// '…', "…" or template literals (whose `${ }` hold code again).
std::vector<Comment> ScriptComments(std::string_view text) {
  std::vector<Comment> out;
  LineStarts lines(text);
  struct Frame {
    char quote;  // 0: code
    int braces;  // code: open { inside this interpolation
  };
  std::vector<Frame> stack{{0, 0}};
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    Frame& top = stack.back();
    if (top.quote) {
      if (c == '\\') {
        ++i;
      } else if (c == top.quote || (c == '\n' && top.quote != '`')) {
        stack.pop_back();  // a '…' or "…" string also ends, unterminated, at its line
      } else if (top.quote == '`' && c == '$' && i + 1 < text.size() && text[i + 1] == '{') {
        stack.push_back({0, 0});
        ++i;
      }
      continue;
    }
    if (c == '/' && i + 1 < text.size() && text[i + 1] == '/') {
      AddLineComment(text, i, lines, &out);
      size_t nl = text.find('\n', i);
      if (nl == std::string_view::npos) break;
      i = nl;
    } else if (c == '/' && i + 1 < text.size() && text[i + 1] == '*') {
      i = AddBlockComment(text, i, lines, &out) - 1;
    } else if (c == '"' || c == '\'' || c == '`') {
      stack.push_back({c, 0});
    } else if (c == '{') {
      ++top.braces;
    } else if (c == '}') {
      if (top.braces > 0) {
        --top.braces;
      } else if (stack.size() > 1) {
        stack.pop_back();  // the end of an interpolation: back in its template literal
      }
    }
  }
  return out;
}

// A notebook's comments are Python comments in its code cells, at their lines in the .ipynb file.
std::vector<Comment> NotebookComments(std::string_view text) {
  py::NotebookSource nb;
  ParseError error;
  if (!py::ExtractNotebook(text, &nb, &error)) return {};
  std::vector<Comment> out;
  for (Comment& c : PythonComments(nb.python)) {
    if (c.line < 1 || c.line > static_cast<int>(nb.lines.size())) continue;
    const py::LineOrigin& o = nb.lines[c.line - 1];
    c.column = o.file_column + c.column - 1;
    c.line = o.file_line;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

std::vector<Comment> FindComments(std::string_view text, CommentSyntax syntax) {
  switch (syntax) {
    case CommentSyntax::kYaml:
      return YamlComments(text);
    case CommentSyntax::kHcl:
      return HclComments(text);
    case CommentSyntax::kPython:
      return PythonComments(text);
    case CommentSyntax::kNotebook:
      return NotebookComments(text);
    case CommentSyntax::kScript:
      return ScriptComments(text);
    case CommentSyntax::kNone:
      break;
  }
  return {};
}

std::vector<Comment> SagelintComments(std::string_view text, CommentSyntax syntax) {
  std::vector<Comment> out;
  if (text.find("sagelint:") == std::string_view::npos) return out;
  for (Comment& c : FindComments(text, syntax)) {
    if (c.text.find("sagelint:") != std::string::npos) out.push_back(std::move(c));
  }
  return out;
}

std::vector<IgnoreDirective> FindIgnoreDirectives(std::string_view text, CommentSyntax syntax) {
  return FindIgnoreDirectives(SagelintComments(text, syntax));
}

std::vector<IgnoreDirective> FindIgnoreDirectives(const std::vector<Comment>& comments) {
  static constexpr std::string_view kMarker = "sagelint:ignore=";
  std::vector<IgnoreDirective> out;
  for (const Comment& c : comments) {
    for (size_t pos = c.text.find(kMarker); pos != std::string::npos; pos = c.text.find(kMarker, pos)) {
      IgnoreDirective d;
      d.line = c.line;
      d.column = c.column + static_cast<int>(pos);
      pos += kMarker.size();
      std::string id;
      auto flush = [&] {
        // A rule's name works as well as its ID, as in the configuration (rules/SMxxx.md "Suppress").
        if (const RuleInfo* named = id.empty() ? nullptr : FindRuleByName(id)) id = std::string(named->id);
        if (!id.empty()) d.ids.push_back(id);
        id.clear();
      };
      for (; pos < c.text.size(); ++pos) {
        char ch = c.text[pos];
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-') {
          id += ch;
        } else if (ch == ',') {
          flush();
        } else {
          break;
        }
      }
      flush();
      d.used.assign(d.ids.size(), false);
      if (!d.ids.empty()) out.push_back(std::move(d));
    }
  }
  return out;
}

SuppressionIndex::SuppressionIndex(std::vector<IgnoreDirective> directives) : directives_(std::move(directives)) {
  for (size_t i = 0; i < directives_.size(); ++i) by_line_[directives_[i].line] = i;
}

bool SuppressionIndex::Covers(int line, const std::string& rule) {
  auto it = by_line_.find(line);
  if (it == by_line_.end()) return false;
  IgnoreDirective& d = directives_[it->second];
  for (size_t i = 0; i < d.ids.size(); ++i) {
    if (d.ids[i] == rule) {
      d.used[i] = true;
      return true;
    }
  }
  return false;
}

bool SuppressionIndex::Suppresses(const Finding& f) {
  if (directives_.empty()) return false;
  int l = f.range.begin.line;
  int r = f.resource_range.begin.line;
  bool hit = Covers(l, f.rule) || Covers(l - 1, f.rule);
  if (r > 0) hit = Covers(r, f.rule) || Covers(r - 1, f.rule) || hit;
  return hit;
}

}  // namespace sagelint
