// Fix edits for notebooks (README "Fixes"): see parsers/frontend.h.
//
// An argument inserted or removed in a code cell is edited as Python (edit.h)
// in the notebook's joined code, then written back into the JSON strings of
// the cell's source as stored: the edited bytes re-encoded with the notebook's
// escaping, a new line a new array element with the same indentation. The
// SM213 clean-up cell is appended after the last cell in the layout of the
// notebook's own code cells. Every other byte stays as it is.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

#include "parsers/frontend.h"
#include "parsers/python/edit.h"
#include "parsers/python/notebook.h"

namespace sagelint {
namespace {

// A string as nbformat writes it (json.dumps, ensure_ascii off): quotes,
// backslashes and control characters escaped, everything else as is.
std::string JsonEscape(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\n':
        out += "\\n";
        break;
      case '\t':
        out += "\\t";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\b':
        out += "\\b";
        break;
      case '\f':
        out += "\\f";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

bool Ws(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Python source with the line endings a cell's strings use: a notebook saved
// on Windows may end its source lines with \r\n (stored as the escapes
// `\r\n`), and an edit keeps them.
std::string WithLineEndings(std::string_view source, bool crlf) {
  std::string out;
  for (size_t i = 0; i < source.size(); ++i) {
    if (crlf && source[i] == '\n' && (i == 0 || source[i - 1] != '\r')) out += '\r';
    out += source[i];
  }
  return out;
}

// Whether the JSON text `raw` (a cell's source strings as stored) ends its lines with \r\n.
bool CrlfLines(std::string_view raw) {
  size_t nl = raw.find("\\n");
  return nl != std::string_view::npos && nl >= 2 && raw.substr(nl - 2, 2) == "\\r";
}

// The offset just past the closing quote of the JSON string opening at `q`.
std::optional<size_t> StringEnd(std::string_view json, size_t q) {
  for (size_t i = q + 1; i < json.size(); ++i) {
    if (json[i] == '\\') {
      ++i;
    } else if (json[i] == '"') {
      return i + 1;
    } else if (json[i] == '\n') {
      return std::nullopt;
    }
  }
  return std::nullopt;
}

// The Python position of a notebook position as the front end maps it (the
// line whose mapping places it, in `cell` when given).
std::optional<SourcePos> ToPython(const py::NotebookSource& nb, SourcePos p, int cell) {
  int best = -1;
  for (size_t i = 0; i < nb.lines.size(); ++i) {
    const py::LineOrigin& o = nb.lines[i];
    if (o.file_line != p.line || (cell > 0 && o.cell != cell) || o.file_column > p.column) continue;
    if (best < 0 || o.file_column > nb.lines[best].file_column) best = static_cast<int>(i);
  }
  if (best < 0) return std::nullopt;
  return SourcePos{best + 1, p.column - nb.lines[best].file_column + 1};
}

std::optional<TextEdit> EditCell(std::string_view json, const FixChange& change) {
  py::NotebookSource nb;
  ParseError error;
  if (!py::ExtractNotebook(json, &nb, &error) || !nb.python_kernel) return std::nullopt;
  auto b = ToPython(nb, change.range.begin, change.range.cell);
  auto e = ToPython(nb, change.range.end, change.range.cell);
  if (!b || !e) return std::nullopt;
  FixChange c = change;
  c.range = SourceRange{*b, *e};
  std::optional<TextEdit> edit = py::EditSource(nb.python, c);
  if (!edit) return std::nullopt;
  // Back to the bytes as stored.
  SourcePos pb = PositionOf(nb.python, edit->begin), pe = PositionOf(nb.python, edit->end);
  if (pb.line < 1 || pe.line < 1 || pb.line > static_cast<int>(nb.lines.size()) ||
      pe.line > static_cast<int>(nb.lines.size())) {
    return std::nullopt;
  }
  const py::LineOrigin& ob = nb.lines[pb.line - 1];
  const py::LineOrigin& oe = nb.lines[pe.line - 1];
  if (ob.cell != oe.cell || ob.rewritten || oe.rewritten) return std::nullopt;
  auto rb = py::ExactPosition(nb, json, pb), re = py::ExactPosition(nb, json, pe);
  if (!rb || !re) return std::nullopt;
  auto raw_b = OffsetOf(json, *rb), raw_e = OffsetOf(json, *re);
  auto quote = OffsetOf(json, ob.token);
  if (!raw_b || !raw_e || !quote || *raw_e < *raw_b) return std::nullopt;
  // A source array of strings: a new line starts a new element.
  size_t before = *quote;
  while (before > 0 && Ws(json[before - 1])) --before;
  bool array = before > 0 && (json[before - 1] == ',' || json[before - 1] == '[');
  std::string separator;
  if (array) {
    auto end = StringEnd(json, *quote);
    if (!end) return std::nullopt;
    size_t k = *end;
    while (k < json.size() && Ws(json[k])) ++k;
    if (k < json.size() && json[k] == ',') {
      size_t w = k + 1;
      while (w < json.size() && Ws(json[w])) ++w;
      separator = std::string(json.substr(k + 1, w - k - 1));
    } else {
      separator = std::string(json.substr(before, *quote - before));
    }
  }
  // The cell's own line endings, read from its strings as stored.
  bool crlf = false;
  for (const py::LineOrigin& o : nb.lines) {
    auto q = o.cell == ob.cell ? OffsetOf(json, o.token) : std::nullopt;
    auto end = q ? StringEnd(json, *q) : std::nullopt;
    if (end && json.substr(*q, *end - *q).find("\\n") != std::string_view::npos) {
      crlf = CrlfLines(json.substr(*q, *end - *q));
      break;
    }
  }
  std::string edited = WithLineEndings(edit->content, crlf);
  std::string content;
  size_t from = 0;
  for (size_t nl = edited.find('\n'); nl != std::string::npos; nl = edited.find('\n', from)) {
    content += JsonEscape(std::string_view(edited).substr(from, nl + 1 - from));
    if (array) content += "\"," + separator + "\"";
    from = nl + 1;
  }
  content += JsonEscape(std::string_view(edited).substr(from));
  return TextEdit{*raw_b, *raw_e, content};
}

// ---- the clean-up cell -----------------------------------------------------------

// A JSON value with the byte range it spans; strings decoded (those a
// notebook's structure needs), numbers and literals as written.
struct JValue {
  char kind = 0;  // '{', '[', '"', 'n' (number, true, false, null)
  size_t begin = 0, end = 0;
  std::string text;
  // An object's members: keys[i] names values[i] (two vectors, not pairs:
  // a pair cannot hold the type being defined).
  std::vector<std::string> keys;
  std::vector<JValue> values;
  std::vector<JValue> items;
  std::vector<size_t> key_begin;  // offset of each member's key
  const JValue* Get(std::string_view key) const {
    for (size_t i = 0; i < keys.size(); ++i) {
      if (keys[i] == key) return &values[i];
    }
    return nullptr;
  }
};

class JsonReader {
 public:
  explicit JsonReader(std::string_view s) : s_(s) {}
  bool Read(JValue* out) {
    if (!Value(out, 0)) return false;
    Skip();
    return i_ == s_.size();
  }

 private:
  void Skip() {
    while (i_ < s_.size() && Ws(s_[i_])) ++i_;
  }
  bool String(std::string* out) {
    if (i_ >= s_.size() || s_[i_] != '"') return false;
    ++i_;
    while (i_ < s_.size() && s_[i_] != '"') {
      if (s_[i_] == '\\') {
        if (i_ + 1 >= s_.size()) return false;
        char e = s_[i_ + 1];
        if (out->size() < 4096) *out += e == 'n' ? '\n' : e == 't' ? '\t' : e;
        i_ += e == 'u' ? 6 : 2;
        continue;
      }
      if (out->size() < 4096) *out += s_[i_];
      ++i_;
    }
    if (i_ >= s_.size()) return false;
    ++i_;
    return true;
  }
  bool Value(JValue* v, int depth) {
    if (depth > 256) return false;
    Skip();
    if (i_ >= s_.size()) return false;
    v->begin = i_;
    char c = s_[i_];
    if (c == '{' || c == '[') {
      v->kind = c;
      ++i_;
      Skip();
      char close = c == '{' ? '}' : ']';
      if (i_ < s_.size() && s_[i_] == close) {
        v->end = ++i_;
        return true;
      }
      while (true) {
        Skip();
        if (c == '{') {
          size_t key_at = i_;
          std::string key;
          if (!String(&key)) return false;
          Skip();
          if (i_ >= s_.size() || s_[i_] != ':') return false;
          ++i_;
          JValue member;
          if (!Value(&member, depth + 1)) return false;
          v->keys.push_back(std::move(key));
          v->values.push_back(std::move(member));
          v->key_begin.push_back(key_at);
        } else {
          JValue item;
          if (!Value(&item, depth + 1)) return false;
          v->items.push_back(std::move(item));
        }
        Skip();
        if (i_ >= s_.size()) return false;
        if (s_[i_] == ',') {
          ++i_;
          continue;
        }
        if (s_[i_] != close) return false;
        v->end = ++i_;
        return true;
      }
    }
    if (c == '"') {
      v->kind = '"';
      if (!String(&v->text)) return false;
      v->end = i_;
      return true;
    }
    v->kind = 'n';
    while (i_ < s_.size() && !Ws(s_[i_]) && s_[i_] != ',' && s_[i_] != '}' && s_[i_] != ']') ++i_;
    if (i_ == v->begin) return false;
    v->text = std::string(s_.substr(v->begin, i_ - v->begin));
    v->end = i_;
    return true;
  }

  std::string_view s_;
  size_t i_ = 0;
};

// The whitespace before offset `at` on its line, when only whitespace precedes it there.
std::optional<std::string> IndentBefore(std::string_view s, size_t at) {
  size_t k = at;
  while (k > 0 && (s[k - 1] == ' ' || s[k - 1] == '\t')) --k;
  if (k > 0 && s[k - 1] != '\n') return std::nullopt;
  return std::string(s.substr(k, at - k));
}

std::optional<TextEdit> AppendCell(std::string_view json, const FixChange& change) {
  JValue root;
  if (!JsonReader(json).Read(&root) || root.kind != '{') return std::nullopt;
  const JValue* cells = root.Get("cells");
  if (!cells || cells->kind != '[' || cells->items.empty()) return std::nullopt;
  const JValue* minor = root.Get("nbformat_minor");
  bool with_id = minor && minor->kind == 'n' && std::atoi(minor->text.c_str()) >= 5;
  // The layout of the notebook's last code cell (else its last cell).
  const JValue* model = &cells->items.back();
  for (const JValue& c : cells->items) {
    const JValue* type = c.Get("cell_type");
    if (c.kind == '{' && type && type->text == "code") model = &c;
  }
  if (model->kind != '{' || model->values.empty()) return std::nullopt;
  std::string_view nl = json.find("\r\n") != std::string_view::npos ? "\r\n" : "\n";
  bool compact = json.substr(model->begin, model->end - model->begin).find('\n') == std::string_view::npos;
  // The colon with its spacing, the member separator, the indentations.
  std::optional<size_t> key_end_at = StringEnd(json, model->key_begin[0]);
  if (!key_end_at) return std::nullopt;
  size_t key_end = *key_end_at;
  std::string colon(json.substr(key_end, model->values[0].begin - key_end));
  std::string member_sep = ", ", key_indent, close_indent, item_indent;
  if (model->values.size() > 1) {
    size_t end0 = model->values[0].end;
    member_sep = std::string(json.substr(end0, model->key_begin[1] - end0));
  }
  if (!compact) {
    auto k = IndentBefore(json, model->key_begin[0]);
    auto c = IndentBefore(json, model->end - 1);
    if (!k || !c) return std::nullopt;
    key_indent = *k, close_indent = *c;
    std::string unit = key_indent.size() > close_indent.size() ? key_indent.substr(close_indent.size()) : " ";
    item_indent = key_indent + unit;
    if (const JValue* src = model->Get("source"); src && src->kind == '[' && !src->items.empty()) {
      if (auto i = IndentBefore(json, src->items[0].begin)) item_indent = *i;
    }
  }
  // A cell id no other cell has.
  std::string id = "sagelint-cleanup";
  for (int n = 2;; ++n) {
    bool taken = std::any_of(cells->items.begin(), cells->items.end(), [&](const JValue& c) {
      const JValue* i = c.Get("id");
      return i && i->text == id;
    });
    if (!taken) break;
    id = "sagelint-cleanup-" + std::to_string(n);
  }
  // The source as lines, each a string, ending as the notebook's cells end theirs.
  bool crlf = false;
  for (const JValue& c : cells->items) {
    const JValue* src = c.Get("source");
    std::string_view raw = src ? json.substr(src->begin, src->end - src->begin) : std::string_view();
    if (raw.find("\\n") != std::string_view::npos) {
      crlf = CrlfLines(raw);
      break;
    }
  }
  std::string value = WithLineEndings(change.value, crlf);
  std::vector<std::string> lines;
  for (size_t from = 0; from < value.size();) {
    size_t e = value.find('\n', from);
    e = e == std::string::npos ? value.size() : e + 1;
    lines.push_back("\"" + JsonEscape(std::string_view(value).substr(from, e - from)) + "\"");
    from = e;
  }
  for (std::string_view ending : {"\\r\\n\"", "\\n\""}) {
    if (!lines.empty() && lines.back().ends_with(ending)) {
      lines.back().erase(lines.back().size() - ending.size(), ending.size() - 1);
      break;
    }
  }
  std::string source;
  if (lines.empty()) {
    source = "[]";
  } else if (compact) {
    source = "[";
    for (size_t i = 0; i < lines.size(); ++i) source += (i ? ", " : "") + lines[i];
    source += "]";
  } else {
    source = "[";
    for (size_t i = 0; i < lines.size(); ++i)
      source += std::string(i ? "," : "") + std::string(nl) + item_indent + lines[i];
    source += std::string(nl) + key_indent + "]";
  }
  std::map<std::string, std::string> values = {{"cell_type", "\"code\""},
                                               {"execution_count", "null"},
                                               {"metadata", "{}"},
                                               {"outputs", "[]"},
                                               {"source", source}};
  if (with_id) values["id"] = "\"" + JsonEscape(id) + "\"";
  // The model's key order, the keys it lacks in nbformat's (sorted) place.
  std::vector<std::string> order;
  for (const std::string& k : model->keys) {
    if (values.count(k)) order.push_back(k);
  }
  for (const auto& entry : values) {
    const std::string& k = entry.first;
    if (std::find(order.begin(), order.end(), k) != order.end()) continue;
    auto at = std::find_if(order.begin(), order.end(), [&](const std::string& o) { return o > k; });
    order.insert(at, k);
  }
  std::string cell = "{";
  if (!compact) cell += std::string(nl) + key_indent;
  for (size_t i = 0; i < order.size(); ++i) {
    if (i) cell += member_sep;
    cell += "\"" + order[i] + "\"" + colon + values[order[i]];
  }
  cell += compact ? "}" : std::string(nl) + close_indent + "}";
  // After the last cell, separated as the cells are.
  const JValue& last = cells->items.back();
  std::string between;
  if (cells->items.size() > 1) {
    const JValue& previous = cells->items[cells->items.size() - 2];
    between = std::string(json.substr(previous.end, last.begin - previous.end));
  } else {
    between = "," + std::string(json.substr(cells->begin + 1, last.begin - cells->begin - 1));
    if (compact && between == ",") between = member_sep;  // `[{…}]`: items apart as members are
  }
  return TextEdit{last.end, last.end, between + cell};
}

}  // namespace

std::optional<TextEdit> EditNotebook(std::string_view text, const FixChange& change) {
  size_t bom = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  std::string_view json = text.substr(bom);
  FixChange c = change;
  if (bom && c.range.begin.line == 1) c.range.begin.column -= 3;
  if (bom && c.range.end.line == 1) c.range.end.column -= 3;
  std::optional<TextEdit> e;
  switch (c.op) {
    case FixChange::Op::kAppendCell:
      e = AppendCell(json, c);
      break;
    case FixChange::Op::kInsert:
    case FixChange::Op::kRemove:
      e = EditCell(json, c);
      break;
    default:
      break;
  }
  if (e) e->begin += bom, e->end += bom;
  return e;
}

}  // namespace sagelint
