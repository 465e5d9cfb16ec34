#include "parsers/python/notebook.h"

#include <cstdint>

namespace sagelint::py {
namespace {

constexpr int kMaxDepth = 256;

struct JsonError {
  std::string message;
  SourcePos pos;
};

struct StringToken {
  std::string value;
  SourcePos pos;  // of the opening quote
};

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
      if (i_ >= s_.size()) Fail("unterminated string");
      char c = s_[i_++];
      if (c == '"') break;
      if (c == '\n') Fail("newline inside a string");
      if (c != '\\') {
        t.value += c;
        continue;
      }
      if (i_ >= s_.size()) Fail("unterminated string");
      char e = s_[i_++];
      switch (e) {
        case 'n': t.value += '\n'; break;
        case 't': t.value += '\t'; break;
        case 'r': t.value += '\r'; break;
        case 'b': t.value += '\b'; break;
        case 'f': t.value += '\f'; break;
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
        default: t.value += e;  // \" \\ \/
      }
    }
    return t;
  }

  void SkipValue(int depth) {
    if (depth > kMaxDepth) Fail("nesting deeper than 256 levels");
    char c = Peek();
    if (c == '"') {
      String();
    } else if (c == '{') {
      ++i_;
      if (Peek() == '}') {
        ++i_;
        return;
      }
      while (true) {
        String();
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
      while (i_ < s_.size() && (std::isalnum(static_cast<unsigned char>(s_[i_])) || s_[i_] == '-' ||
                                s_[i_] == '+' || s_[i_] == '.')) {
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
    while (true) {
      StringToken key = String();
      Expect(':');
      on_key(key.value);
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
      if (h >= '0' && h <= '9') v |= h - '0';
      else if (h >= 'a' && h <= 'f') v |= h - 'a' + 10;
      else if (h >= 'A' && h <= 'F') v |= h - 'A' + 10;
      else Fail("bad \\u escape");
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

}  // namespace

std::vector<std::string> NeutraliseMagics(const std::vector<std::string>& lines) {
  std::vector<std::string> out = lines;
  if (!out.empty()) {
    std::string_view first = LStrip(out[0]);
    if (first.rfind("%%", 0) == 0) {
      std::string_view magic = first.substr(2, first.find_first_of(" \t") - 2);
      // Cell magics whose body is still Python.
      bool python = magic == "time" || magic == "timeit" || magic == "capture" || magic == "prun";
      for (size_t i = 0; i < out.size(); ++i) {
        if (i == 0 || !python) out[i].clear();
      }
      return out;
    }
  }
  for (std::string& l : out) {
    std::string_view t = LStrip(l);
    size_t indent = l.size() - t.size();
    bool magic = !t.empty() && (t[0] == '%' || t[0] == '!');
    // `files = !ls` and `x = %sql ...`: an assignment from a magic.
    size_t eq = t.find('=');
    if (!magic && eq != std::string_view::npos && eq + 1 < t.size()) {
      std::string_view rhs = LStrip(t.substr(eq + 1));
      magic = !rhs.empty() && (rhs[0] == '!' || rhs[0] == '%') && t.substr(0, eq).find_first_of("([{'\"") == std::string_view::npos &&
              (eq == 0 || (t[eq - 1] != '!' && t[eq - 1] != '<' && t[eq - 1] != '>' && t[eq - 1] != '='));
    }
    if (magic) l = std::string(indent, ' ') + "pass";
  }
  return out;
}

bool ExtractNotebook(std::string_view json, NotebookSource* out, ParseError* error) {
  std::vector<Cell> cells;
  bool saw_cells = false;
  try {
    Reader r(json);
    r.Object([&](const std::string& key) {
      if (key != "cells") {
        r.SkipValue(1);
        return;
      }
      saw_cells = true;
      r.Array([&] {
        Cell cell;
        r.Object([&](const std::string& k) {
          if (k == "cell_type") {
            cell.type = r.String().value;
          } else if (k == "source") {
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
    });
    r.End();
  } catch (const JsonError& e) {
    *error = ParseError{"notebook is not valid JSON: " + e.message, e.pos};
    return false;
  }
  if (!saw_cells) {
    *error = ParseError{"notebook has no \"cells\" list (not nbformat 4)", {1, 1}};
    return false;
  }
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
        if (open) {
          lines.back() += piece;
        } else {
          lines.push_back(piece);
          origins.push_back({t.pos.line, t.pos.column + 1 + static_cast<int>(start), static_cast<int>(c) + 1,
                             static_cast<int>(lines.size())});
        }
        open = nl == std::string::npos;
        start = end + 1;
      }
    }
    lines = NeutraliseMagics(lines);
    for (size_t i = 0; i < lines.size(); ++i) {
      out->python += lines[i];
      out->python += '\n';
      out->lines.push_back(origins[i]);
    }
    // A blank line between cells keeps each cell's last statement closed.
    out->python += '\n';
    out->lines.push_back(origins.empty() ? LineOrigin{1, 1, static_cast<int>(c) + 1, 1} : origins.back());
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

}  // namespace sagelint::py
