#include "parsers/python/notebook.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <set>

namespace sagelint::py {
namespace {

constexpr int kMaxJsonDepth = 256;

struct JsonError {
  std::string message;
  SourcePos pos;
};

struct StringToken {
  std::string value;
  SourcePos pos;  // of the opening quote
};

// The characters that end a run of plain characters inside a JSON string.
inline bool StringStop(char c) {
  static const auto kTable = [] {
    std::array<bool, 256> t{};
    t[static_cast<unsigned char>('"')] = t[static_cast<unsigned char>('\\')] = t[static_cast<unsigned char>('\n')] =
        true;
    return t;
  }();
  return kTable[static_cast<unsigned char>(c)];
}

// A small JSON reader that keeps positions and stores only what a notebook
// needs: cell types and source strings. Everything else is skipped.
class Reader {
 public:
  explicit Reader(std::string_view s) : s_(s) {}

  void SkipWs() {
    while (i_ < s_.size()) {
      char c = s_[i_];
      if (c == '\n') {
        ++line_;
        line_start_ = i_ + 1;
      } else if (c != ' ' && c != '\t' && c != '\r') {
        break;
      }
      ++i_;
    }
  }
  SourcePos Pos() const { return {line_, static_cast<int>(i_ - line_start_) + 1}; }
  [[noreturn]] void Fail(const std::string& what) const { throw JsonError{what, Pos()}; }
  char Peek() {
    SkipWs();
    if (i_ >= s_.size()) Fail("unexpected end of file");
    return s_[i_];
  }
  void Expect(char c) {
    if (Peek() != c) Fail(std::string("expected '") + c + "'");
    ++i_;
  }

  StringToken String() {
    StringToken t;
    if (Peek() != '"') Fail("expected a string");
    t.pos = Pos();
    ++i_;
    while (true) {
      // Plain characters in one piece.
      size_t run = i_;
      while (run < s_.size() && !StringStop(s_[run])) ++run;
      t.value.append(s_.data() + i_, run - i_);
      i_ = run;
      if (i_ >= s_.size()) Fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') break;
      if (c == '\n') Fail("newline inside a string");
      if (i_ >= s_.size()) Fail("unterminated string");
      char e = s_[i_++];
      switch (e) {
        case 'n':
          t.value += '\n';
          break;
        case 't':
          t.value += '\t';
          break;
        case 'r':
          t.value += '\r';
          break;
        case 'b':
          t.value += '\b';
          break;
        case 'f':
          t.value += '\f';
          break;
        case 'u': {
          uint32_t cp = Hex4();
          if (cp >= 0xD800 && cp < 0xDC00 && i_ + 1 < s_.size() && s_[i_] == '\\' && s_[i_ + 1] == 'u') {
            i_ += 2;
            uint32_t lo = Hex4();
            cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
          }
          AppendUtf8(cp, &t.value);
          break;
        }
        default:
          t.value += e;  // \" \\ \/
      }
    }
    return t;
  }

  // A string not kept (outputs can be megabytes of base64): only checked.
  void SkipString() {
    if (Peek() != '"') Fail("expected a string");
    ++i_;
    while (true) {
      while (i_ < s_.size() && !StringStop(s_[i_])) ++i_;
      if (i_ >= s_.size()) Fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') return;
      if (c == '\n') Fail("newline inside a string");
      if (i_ >= s_.size()) Fail("unterminated string");
      if (s_[i_++] == 'u') Hex4();
    }
  }

  void SkipValue(int depth) {
    if (depth > kMaxJsonDepth) Fail("nesting deeper than 256 levels");
    char c = Peek();
    if (c == '"') {
      SkipString();
    } else if (c == '{') {
      ++i_;
      if (Peek() == '}') {
        ++i_;
        return;
      }
      std::set<std::string> keys;
      while (true) {
        Key(&keys);
        Expect(':');
        SkipValue(depth + 1);
        if (Peek() == ',') {
          ++i_;
          continue;
        }
        Expect('}');
        return;
      }
    } else if (c == '[') {
      ++i_;
      if (Peek() == ']') {
        ++i_;
        return;
      }
      while (true) {
        SkipValue(depth + 1);
        if (Peek() == ',') {
          ++i_;
          continue;
        }
        Expect(']');
        return;
      }
    } else {
      size_t start = i_;
      while (i_ < s_.size() &&
             (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' || s_[i_] == '+' || s_[i_] == '.')) {
        ++i_;
      }
      if (i_ == start) Fail(std::string("unexpected character '") + c + "'");
    }
  }

  // Calls `on_key(key)` for each key of an object; the callback consumes the value.
  template <typename Fn>
  void Object(Fn&& on_key) {
    Expect('{');
    if (Peek() == '}') {
      ++i_;
      return;
    }
    std::set<std::string> keys;
    while (true) {
      std::string key = Key(&keys);
      Expect(':');
      on_key(key);
      if (Peek() == ',') {
        ++i_;
        continue;
      }
      Expect('}');
      return;
    }
  }

  template <typename Fn>
  void Array(Fn&& on_item) {
    Expect('[');
    if (Peek() == ']') {
      ++i_;
      return;
    }
    while (true) {
      on_item();
      if (Peek() == ',') {
        ++i_;
        continue;
      }
      Expect(']');
      return;
    }
  }

  // A key of an object, once: Jupyter's JSON reader keeps the last of two
  // equal keys where ours would read both, so a notebook that repeats one is
  // refused (SM000), as a CloudFormation JSON template is.
  std::string Key(std::set<std::string>* seen) {
    StringToken key = String();
    if (!seen->insert(key.value).second) throw JsonError{"duplicate key '" + key.value + "'", key.pos};
    return std::move(key.value);
  }

  void End() {
    SkipWs();
    if (i_ != s_.size()) Fail("unexpected text after the notebook");
  }

 private:
  uint32_t Hex4() {
    if (i_ + 4 > s_.size()) Fail("bad \\u escape");
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      char h = s_[i_++];
      v <<= 4;
      if (h >= '0' && h <= '9')
        v |= h - '0';
      else if (h >= 'a' && h <= 'f')
        v |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F')
        v |= h - 'A' + 10;
      else
        Fail("bad \\u escape");
    }
    return v;
  }
  static void AppendUtf8(uint32_t cp, std::string* out) {
    if (cp < 0x80) {
      *out += static_cast<char>(cp);
    } else if (cp < 0x800) {
      *out += static_cast<char>(0xC0 | (cp >> 6));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
      *out += static_cast<char>(0xE0 | (cp >> 12));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    } else {
      *out += static_cast<char>(0xF0 | (cp >> 18));
      *out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
      *out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
      *out += static_cast<char>(0x80 | (cp & 0x3F));
    }
  }

  std::string_view s_;
  size_t i_ = 0;
  int line_ = 1;
  size_t line_start_ = 0;
};

struct Cell {
  std::string type;
  std::vector<StringToken> source;
};

std::string_view LStrip(std::string_view s) {
  size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

bool Blank(std::string_view s) { return s.find_first_not_of(" \t\r\f\v") == std::string_view::npos; }

bool IdentStart(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }
bool WordChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || (c & 0x80); }

// Where a physical line leaves Python's tokenizer: open brackets, an open
// triple-quoted string, a backslash continuation.
struct TokState {
  int depth = 0;
  char triple = 0;  // the quote character of an open triple-quoted string
  bool cont = false;
  bool starts_logical() const { return depth == 0 && triple == 0 && !cont; }
};

// Characters that change the tokenizer state; every other byte is plain code.
inline bool Special(char c) {
  static const auto kTable = [] {
    std::array<bool, 256> t{};
    for (char x : std::string_view("([{)]}'\"#\\ \t\r")) t[static_cast<unsigned char>(x)] = true;
    return t;
  }();
  return kTable[static_cast<unsigned char>(c)];
}

// Scans one line; returns the position of the last code character (or npos).
size_t Scan(std::string_view line, TokState* st) {
  size_t i = 0, last = std::string_view::npos;
  st->cont = false;
  while (i < line.size()) {
    if (!st->triple && !Special(line[i])) {  // a run of plain code
      while (i < line.size() && !Special(line[i])) ++i;
      last = i - 1;
      continue;
    }
    char c = line[i];
    if (st->triple) {
      if (c == '\\') {
        i += 2;
        continue;
      }
      if (c == st->triple && line.substr(i, 3) == std::string(3, st->triple)) {
        st->triple = 0;
        last = i + 2;
        i += 3;
        continue;
      }
      ++i;
      continue;
    }
    if (c == '#') break;
    if (c == '\'' || c == '"') {
      if (line.substr(i, 3) == std::string(3, c)) {
        st->triple = c;
        i += 3;
        continue;
      }
      size_t j = i + 1;
      while (j < line.size() && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      last = std::min(j, line.size() - 1);
      i = j + 1;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++st->depth;
    if ((c == ')' || c == ']' || c == '}') && st->depth > 0) --st->depth;
    if (c != ' ' && c != '\t' && c != '\r') last = i;
    ++i;
  }
  if (!st->triple && last != std::string_view::npos && line[last] == '\\') st->cont = true;
  return last;
}

// The first `=` at bracket depth 0 that is an assignment (not ==, <=, +=, :=…).
size_t FindAssign(std::string_view line) {
  int depth = 0;
  for (size_t i = 0; i < line.size(); ++i) {
    char c = line[i];
    if (c == '#') return std::string_view::npos;
    if (c == '\'' || c == '"') {
      size_t j = i + 1;
      while (j < line.size() && line[j] != c) j += line[j] == '\\' ? 2 : 1;
      i = j;
      continue;
    }
    if (c == '(' || c == '[' || c == '{') ++depth;
    if (c == ')' || c == ']' || c == '}') --depth;
    if (c != '=' || depth != 0) continue;
    if (i + 1 < line.size() && line[i + 1] == '=') {
      ++i;
      continue;
    }
    if (i > 0 && std::string_view("=!<>+-*/%&|^@:~").find(line[i - 1]) != std::string_view::npos) continue;
    return i;
  }
  return std::string_view::npos;
}

// IPython line magics and default aliases that automagic accepts without `%`.
bool IsAutomagic(std::string_view word) {
  static const char* const kMagics[] = {"alias",        "alias_magic",
                                        "autoawait",    "autocall",
                                        "automagic",    "autoreload",
                                        "aimport",      "autosave",
                                        "bookmark",     "cat",
                                        "cd",           "clear",
                                        "colors",       "conda",
                                        "config",       "connect_info",
                                        "cp",           "debug",
                                        "dhist",        "dirs",
                                        "doctest_mode", "ed",
                                        "edit",         "env",
                                        "gui",          "hist",
                                        "history",      "killbgscripts",
                                        "ldir",         "less",
                                        "lf",           "lk",
                                        "ll",           "load",
                                        "load_ext",     "loadpy",
                                        "logoff",       "logon",
                                        "logstart",     "logstate",
                                        "logstop",      "ls",
                                        "lsmagic",      "lx",
                                        "macro",        "magic",
                                        "man",          "mamba",
                                        "matplotlib",   "micromamba",
                                        "mkdir",        "more",
                                        "mv",           "notebook",
                                        "page",         "pastebin",
                                        "pdb",          "pdef",
                                        "pdoc",         "pfile",
                                        "pinfo",        "pinfo2",
                                        "pip",          "popd",
                                        "pprint",       "precision",
                                        "prun",         "psearch",
                                        "psource",      "pushd",
                                        "pwd",          "pycat",
                                        "pylab",        "qtconsole",
                                        "quickref",     "recall",
                                        "rehashx",      "reload_ext",
                                        "rep",          "rerun",
                                        "reset",        "reset_selective",
                                        "rm",           "rmdir",
                                        "run",          "save",
                                        "sc",           "set_env",
                                        "store",        "sx",
                                        "system",       "tb",
                                        "time",         "timeit",
                                        "unalias",      "unload_ext",
                                        "uv",           "who",
                                        "who_ls",       "whos",
                                        "xdel",         "xmode"};
  for (const char* m : kMagics) {
    if (word == m) return true;
  }
  return false;
}

// A pasted prompt at the start of a line: classic `>>> ` / `... `, or
// IPython's `In [12]: ` / `   ...: `. Sets `len` to the prompt's length.
bool PromptLine(std::string_view l, bool classic, size_t* len) {
  if (classic) {
    for (std::string_view p : {std::string_view(">>>"), std::string_view("...")}) {
      if (l.substr(0, 3) == p && (l.size() == 3 || l[3] == ' ')) {
        *len = l.size() == 3 ? 3 : 4;
        return true;
      }
    }
    return false;
  }
  if (l.substr(0, 4) == "In [") {
    size_t close = l.find("]: ");
    if (close == std::string_view::npos || close <= 4) return false;
    for (size_t i = 4; i < close; ++i) {
      if (!std::isdigit(static_cast<unsigned char>(l[i]))) return false;
    }
    *len = close + 3;
    return true;
  }
  size_t i = l.find_first_not_of(" \t");
  if (i == std::string_view::npos) return false;
  size_t dots = 0;
  while (i + dots < l.size() && l[i + dots] == '.') ++dots;
  if (dots < 3 || i + dots >= l.size() || l[i + dots] != ':') return false;
  *len = i + dots + 1 + (i + dots + 1 < l.size() && l[i + dots + 1] == ' ' ? 1 : 0);
  return true;
}

bool EndsWithBackslash(std::string_view l) {
  size_t e = l.find_last_not_of(" \t\r");
  return e != std::string_view::npos && l[e] == '\\';
}

}  // namespace

CellLines NeutraliseCell(const std::vector<std::string>& lines) {
  CellLines out;
  out.text = lines;
  out.shift.assign(lines.size(), 0);
  out.rewritten.assign(lines.size(), false);
  size_t first = 0;
  while (first < lines.size() && Blank(lines[first])) ++first;
  if (first == lines.size()) return out;
  auto strip = [&](size_t i, size_t n) {
    out.text[i] = out.text[i].substr(n);
    out.shift[i] += static_cast<int>(n);
  };
  // Leading indentation of the first line is removed from every line that has it.
  std::string_view f = out.text[first];
  size_t indent = f.find_first_not_of(" \t");
  if (indent > 0 && indent != std::string_view::npos) {
    std::string prefix(f.substr(0, indent));
    for (size_t i = first; i < out.text.size(); ++i) {
      if (out.text[i].rfind(prefix, 0) == 0) strip(i, prefix.size());
    }
  }
  // Pasted `>>> ` / `In [1]: ` prompts (when the first or second line has one).
  for (bool classic : {true, false}) {
    size_t len = 0;
    bool initial = classic ? (out.text[first].substr(0, 3) == ">>>" && PromptLine(out.text[first], true, &len))
                           : PromptLine(out.text[first], false, &len);
    bool second = first + 1 < out.text.size() && PromptLine(out.text[first + 1], classic, &len);
    if (!initial && !second) continue;
    for (size_t i = first; i < out.text.size(); ++i) {
      if (PromptLine(out.text[i], classic, &len)) strip(i, len);
    }
  }
  auto rewrite = [&](size_t i, size_t at_indent) {
    out.text[i] = std::string(at_indent, ' ') + "pass";
    out.rewritten[i] = true;
  };
  // Cell magics: %%time and kin run the rest of the cell as Python; the
  // others (%%bash, %%writefile, %%sql, …) run no Python at all.
  std::string_view head = out.text[first];
  if (head.substr(0, 2) == "%%") {
    size_t end = head.find_first_of(" \t", 2);
    std::string_view magic = head.substr(2, end == std::string_view::npos ? std::string_view::npos : end - 2);
    bool python = magic == "time" || magic == "timeit" || magic == "capture" || magic == "prun";
    out.text[first].clear();
    out.rewritten[first] = true;
    if (!python) {
      for (size_t i = first + 1; i < out.text.size(); ++i) {
        out.text[i].clear();
        out.rewritten[i] = true;
      }
      return out;
    }
    // The body is transformed as a cell of its own (`%%time` over `%%bash` works).
    std::vector<std::string> body(out.text.begin() + static_cast<long>(first) + 1, out.text.end());
    CellLines inner = NeutraliseCell(body);
    for (size_t i = 0; i < body.size(); ++i) {
      size_t k = first + 1 + i;
      out.text[k] = std::move(inner.text[i]);
      out.shift[k] += inner.shift[i];
      out.rewritten[k] = inner.rewritten[i];
    }
    return out;
  }
  // Escaped commands at the start of a logical line, with their backslash
  // continuations. A `!=` or `%` that continues an open bracket is Python.
  TokState st;
  size_t code_lines = 0, last_code = 0;
  for (size_t i = first; i < out.text.size(); ++i) {
    std::string_view l = out.text[i];
    if (!Blank(l)) {
      ++code_lines;
      last_code = i;
    }
    if (st.starts_logical()) {
      std::string_view t = LStrip(l);
      size_t ind = l.size() - t.size();
      bool magic = !t.empty() && (t[0] == '!' || t[0] == '%' || t[0] == '?');
      if (!magic && t.find_first_of("!%") != std::string_view::npos) {
        size_t eq = FindAssign(t);  // x = !cmd, x = %magic
        if (eq != std::string_view::npos) {
          std::string_view rhs = LStrip(t.substr(eq + 1));
          magic = !rhs.empty() && (rhs[0] == '!' || (rhs[0] == '%' && rhs.size() > 1 && IdentStart(rhs[1])));
        }
      }
      if (!magic && l.find('?') != std::string_view::npos) {
        // `obj?` / `obj??`: help on a one-line statement.
        TokState probe;
        size_t last = Scan(l, &probe);
        magic = probe.starts_logical() && last != std::string_view::npos && l[last] == '?';
      }
      if (magic) {
        bool continued = EndsWithBackslash(l);
        rewrite(i, ind);
        while (continued && i + 1 < out.text.size()) {
          ++i;
          continued = EndsWithBackslash(out.text[i]);
          if (!Blank(out.text[i])) {
            ++code_lines;
            last_code = i;
          }
          rewrite(i, ind);
        }
        st = TokState{};
        continue;
      }
    }
    Scan(l, &st);
  }
  // Automagic: IPython runs a one-line cell whose first word is a magic
  // (`pip install x`, `cd ..`) as that magic, unless it reads as Python.
  if (code_lines == 1 && !out.rewritten[last_code]) {
    std::string_view l = out.text[last_code];
    std::string_view t = LStrip(l);
    size_t n = 0;
    while (n < t.size() && WordChar(t[n])) ++n;
    std::string_view word = t.substr(0, n);
    std::string_view rest = LStrip(t.substr(n));
    bool python = !rest.empty() && ((rest[0] == '=' && (rest.size() == 1 || rest[1] != '=')) || rest[0] == '(' ||
                                    rest[0] == '[' || (rest[0] == '.' && rest.size() > 1 && IdentStart(rest[1])));
    if (n > 0 && IdentStart(t[0]) && IsAutomagic(word) && (word == "cd" || !python)) {
      rewrite(last_code, l.size() - t.size());
    }
  }
  return out;
}

bool ExtractNotebook(std::string_view json, NotebookSource* out, ParseError* error) {
  std::vector<Cell> cells;
  bool saw_cells = false;
  std::string kernel_language, info_language;
  try {
    Reader r(json);
    auto read_cells = [&](const char* source_key) {
      saw_cells = true;
      r.Array([&] {
        Cell cell;
        r.Object([&](const std::string& k) {
          if (k == "cell_type") {
            cell.type = r.String().value;
          } else if (k == source_key) {
            if (r.Peek() == '"') {
              cell.source.push_back(r.String());
            } else {
              r.Array([&] { cell.source.push_back(r.String()); });
            }
          } else {
            r.SkipValue(2);
          }
        });
        cells.push_back(std::move(cell));
      });
    };
    r.Object([&](const std::string& key) {
      if (key == "cells") {
        read_cells("source");
      } else if (key == "worksheets") {  // nbformat 3
        r.Array([&] {
          r.Object([&](const std::string& k) {
            if (k == "cells")
              read_cells("input");
            else
              r.SkipValue(2);
          });
        });
      } else if (key == "metadata") {
        r.Object([&](const std::string& k) {
          if (k != "kernelspec" && k != "language_info") {
            r.SkipValue(2);
            return;
          }
          if (r.Peek() != '{') {
            r.SkipValue(2);
            return;
          }
          r.Object([&](const std::string& field) {
            bool wanted = (k == "kernelspec" && field == "language") || (k == "language_info" && field == "name");
            if (wanted && r.Peek() == '"') {
              (k == "kernelspec" ? kernel_language : info_language) = r.String().value;
            } else {
              r.SkipValue(3);
            }
          });
        });
      } else {
        r.SkipValue(1);
      }
    });
    r.End();
  } catch (const JsonError& e) {
    *error = ParseError{"notebook is not valid JSON: " + e.message, e.pos};
    return false;
  }
  if (!saw_cells) {
    *error = ParseError{"notebook has no \"cells\" list (not nbformat 3 or 4)", {1, 1}};
    return false;
  }
  out->language = !kernel_language.empty() ? kernel_language : info_language;
  std::string lang;
  for (char ch : out->language) lang += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  out->python_kernel = lang.empty() || lang.find("python") != std::string::npos || lang == "pyspark";
  if (!out->python_kernel) return true;
  for (size_t c = 0; c < cells.size(); ++c) {
    if (cells[c].type != "code") continue;
    // Split the source strings into lines, remembering where each starts. The
    // strings concatenate to the cell's text; a line may span two strings.
    std::vector<std::string> lines;
    std::vector<LineOrigin> origins;
    bool open = false;  // the last line continues into the next string
    for (const StringToken& t : cells[c].source) {
      size_t start = 0;
      while (start < t.value.size()) {
        size_t nl = t.value.find('\n', start);
        size_t end = nl == std::string::npos ? t.value.size() : nl;
        std::string piece = t.value.substr(start, end - start);
        if (!piece.empty() && piece.back() == '\r') piece.pop_back();
        if (open) {
          lines.back() += piece;
        } else {
          lines.push_back(piece);
          LineOrigin o;
          o.file_line = t.pos.line;
          o.file_column = t.pos.column + 1 + static_cast<int>(start);
          o.cell = static_cast<int>(c) + 1;
          o.cell_line = static_cast<int>(lines.size());
          o.token = t.pos;
          o.decoded = static_cast<int>(start);
          origins.push_back(o);
        }
        open = nl == std::string::npos;
        start = end + 1;
      }
    }
    CellLines neutral = NeutraliseCell(lines);
    for (size_t i = 0; i < lines.size(); ++i) {
      out->python += neutral.text[i];
      out->python += '\n';
      LineOrigin o = origins[i];
      o.file_column += neutral.shift[i];
      o.shift = neutral.shift[i];
      o.rewritten = neutral.rewritten[i];
      out->lines.push_back(o);
      out->original.push_back(std::move(lines[i]));
    }
    // A blank line between cells keeps each cell's last statement closed.
    out->python += '\n';
    LineOrigin blank;
    blank.file_line = blank.file_column = blank.cell_line = 1;
    blank.cell = static_cast<int>(c) + 1;
    out->lines.push_back(origins.empty() ? blank : origins.back());
    out->original.emplace_back();
  }
  return true;
}

SourceRange MapRange(const NotebookSource& nb, SourceRange r) {
  auto map = [&](SourcePos p) -> std::pair<SourcePos, const LineOrigin*> {
    if (p.line < 1 || p.line > static_cast<int>(nb.lines.size())) return {p, nullptr};
    const LineOrigin& o = nb.lines[p.line - 1];
    return {{o.file_line, o.file_column + p.column - 1}, &o};
  };
  auto [b, origin] = map(r.begin);
  SourceRange out;
  out.begin = b;
  out.end = map(r.end).first;
  if (origin) {
    out.cell = origin->cell;
    out.cell_line = origin->cell_line;
  }
  return out;
}

std::optional<SourcePos> ExactPosition(const NotebookSource& nb, std::string_view json, SourcePos p) {
  if (p.line < 1 || p.line > static_cast<int>(nb.lines.size()) || p.column < 1) return std::nullopt;
  const LineOrigin& o = nb.lines[p.line - 1];
  if (!o.token.valid()) return std::nullopt;
  // The opening quote of the string the line starts in.
  size_t i = 0;
  for (int line = 1; line < o.token.line; ++line) {
    i = json.find('\n', i);
    if (i == std::string_view::npos) return std::nullopt;
    ++i;
  }
  i += static_cast<size_t>(o.token.column - 1);
  if (i >= json.size() || json[i] != '"') return std::nullopt;
  const size_t quote = i++;
  // Walk the stored bytes until the value's byte `target` starts.
  const long target = static_cast<long>(o.decoded) + o.shift + p.column - 1;
  long decoded = 0;
  while (decoded < target) {
    if (i >= json.size() || json[i] == '"' || json[i] == '\n') return std::nullopt;
    if (json[i] != '\\') {
      ++i, ++decoded;
      continue;
    }
    if (i + 1 >= json.size()) return std::nullopt;
    size_t raw = 2;
    long bytes = 1;
    if (json[i + 1] == 'u') {
      auto hex = [&](size_t at) -> long {
        if (at + 4 > json.size()) return -1;
        long v = 0;
        for (size_t k = at; k < at + 4; ++k) {
          char c = json[k];
          int d = c >= '0' && c <= '9'   ? c - '0'
                  : c >= 'a' && c <= 'f' ? c - 'a' + 10
                  : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                         : -1;
          if (d < 0) return -1;
          v = v * 16 + d;
        }
        return v;
      };
      long cp = hex(i + 2);
      if (cp < 0) return std::nullopt;
      raw = 6;
      if (cp >= 0xD800 && cp < 0xDC00 && i + 7 < json.size() && json[i + 6] == '\\' && json[i + 7] == 'u') {
        raw = 12;
        cp = 0x10000;
      }
      bytes = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    }
    if (decoded + bytes > target) return std::nullopt;  // inside an escape
    decoded += bytes;
    i += raw;
  }
  return SourcePos{o.token.line, o.token.column + static_cast<int>(i - quote)};
}

SourceRange CellOf(const NotebookSource& nb, int file_line) {
  SourceRange out;
  auto it = std::lower_bound(nb.lines.begin(), nb.lines.end(), file_line,
                             [](const LineOrigin& o, int line) { return o.file_line < line; });
  if (it != nb.lines.end() && it->file_line == file_line) {
    out.cell = it->cell;
    out.cell_line = it->cell_line;
  }
  return out;
}

}  // namespace sagelint::py
