#include "parsers/common/node.h"

#include <yaml.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <map>
#include <optional>
#include <set>

namespace sagelint::cfn {

const Node* Node::Get(std::string_view key) const {
  if (kind != Kind::kMap) return nullptr;
  for (const auto& [k, v] : entries) {
    if (k == key) return &v;
  }
  return nullptr;
}

const Node* Node::Find(std::initializer_list<std::string_view> path) const {
  const Node* n = this;
  for (std::string_view k : path) {
    n = n ? n->Get(k) : nullptr;
  }
  return n;
}

SourcePos Node::KeyPos(std::string_view key) const {
  for (size_t i = 0; i < entries.size(); ++i) {
    if (entries[i].first == key) return key_pos[i];
  }
  return {};
}

namespace {

struct TooBig {};
struct TooManyNodes {};  // the document itself, before alias expansion, is that large
struct TooDeep {
  SourcePos pos;
};
struct SyntaxError {
  LoadError error;
};

// The character at `text[i]`: its length in bytes (1 for a byte that starts
// no valid UTF-8 sequence) and whether libyaml's reader accepts it (valid
// UTF-8, printable, a byte-order mark only at the start).
struct Char {
  size_t length;
  bool readable;
};
Char CharAt(std::string_view text, size_t i) {
  unsigned char c = static_cast<unsigned char>(text[i]);
  size_t len = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  uint32_t cp = len == 1 ? c : len == 2 ? (c & 0x1Fu) : len == 3 ? (c & 0x0Fu) : (c & 0x07u);
  bool valid = len > 0 && i + len <= text.size();
  for (size_t k = 1; valid && k < len; ++k) {
    unsigned char t = static_cast<unsigned char>(text[i + k]);
    valid = (t & 0xC0) == 0x80;
    cp = (cp << 6) | (t & 0x3Fu);
  }
  static constexpr uint32_t kShortest[] = {0, 0, 0x80, 0x800, 0x10000};  // no overlong forms
  valid = valid && cp >= kShortest[len] && !(cp >= 0xD800 && cp <= 0xDFFF) && cp <= 0x10FFFF;
  if (!valid) return {1, false};
  bool printable = cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0x7E) || cp == 0x85 ||
                   (cp >= 0xA0 && cp <= 0xD7FF) || (cp >= 0xE000 && cp <= 0xFFFD && (cp != 0xFEFF || i == 0)) ||
                   cp >= 0x10000;
  return {len, printable};
}

// What libyaml reads when it refused the text as written: every character
// its reader refuses replaced by U+FFFD (a stray byte in a comment or a name
// is no reason to lose a template), and in JSON a UTF-16 surrogate pair
// escape (`\ud83d\ude00`, as Python's json.dumps writes characters beyond
// U+FFFF) as the one escape YAML has for it (`\U0001f600`); NEL, LS and PS,
// which libyaml (YAML 1.1) reads as line breaks, as escapes of themselves in
// a JSON string and as U+FFFD elsewhere (YAML 1.2 and editors see no line
// break there). Each edit says
// where its replacement starts and how much longer the original was, so
// positions map back to the text as written. A run of bytes that are not
// characters (or are control characters) is one U+FFFD and one edit, so
// that neither the text nor the edits grow with such a run; past
// kMaxEdits edits the text is not read at all.
struct Edit {
  size_t at;
  std::ptrdiff_t longer;
};
constexpr size_t kMaxEdits = 1u << 20;
struct Rewritten {
  std::string text;
  std::vector<Edit> edits;
  std::optional<size_t> too_many;  // where in the original the edit past kMaxEdits fell
};

int HexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// The value of `\uXXXX` at text[i], or -1.
long Utf16Escape(std::string_view text, size_t i) {
  if (i + 6 > text.size() || text[i] != '\\' || text[i + 1] != 'u') return -1;
  long v = 0;
  for (size_t k = 2; k < 6; ++k) {
    int h = HexValue(text[i + k]);
    if (h < 0) return -1;
    v = v * 16 + h;
  }
  return v;
}

// NEL, LS and PS: line breaks to libyaml (YAML 1.1), characters to JSON.
bool IsYamlOnlyBreak(std::string_view seq) {
  return seq == "\xC2\x85" || seq == "\xE2\x80\xA8" || seq == "\xE2\x80\xA9";
}
bool HasYamlOnlyBreak(std::string_view text) {
  return text.find("\xC2\x85") != std::string_view::npos || text.find("\xE2\x80\xA8") != std::string_view::npos ||
         text.find("\xE2\x80\xA9") != std::string_view::npos;
}

bool LooksLikeJson(std::string_view text) {
  size_t i = text.find_first_not_of(" \t\r\n");
  return i != std::string_view::npos && (text[i] == '{' || text[i] == '[');
}

// libyaml takes a key of a flow mapping for a "simple key", which YAML limits
// to 1024 characters; JSON has no such limit. A key of at least this many
// bytes is made an explicit key (`? "…": v`, the same mapping to YAML).
constexpr size_t kLongKey = 1000;

// Where the JSON string starting at text[i] (a '"') ends: the index after its closing quote, or npos.
size_t JsonStringEnd(std::string_view text, size_t i) {
  for (size_t k = i + 1; k < text.size(); ++k) {
    if (text[k] == '\\') {
      ++k;
    } else if (text[k] == '"') {
      return k + 1;
    } else if (text[k] == '\n') {
      return std::string_view::npos;
    }
  }
  return std::string_view::npos;
}

// Whether the string at text[i] is an object key: a ':' follows it.
bool IsJsonKey(std::string_view text, size_t end) {
  size_t next = text.find_first_not_of(" \t\r\n", end);
  return next != std::string_view::npos && text[next] == ':';
}

bool HasLongJsonKey(std::string_view text) {
  if (!LooksLikeJson(text)) return false;
  for (size_t i = text.find('"'); i != std::string_view::npos; i = text.find('"', i)) {
    size_t end = JsonStringEnd(text, i);
    if (end == std::string_view::npos) return false;
    if (end - i >= kLongKey && IsJsonKey(text, end)) return true;
    i = end;
  }
  return false;
}

Rewritten Rewrite(std::string_view text) {
  Rewritten r;
  r.text.reserve(text.size() + 16);
  const bool json = LooksLikeJson(text);
  bool in_string = false;
  for (size_t i = 0; i < text.size();) {
    if (r.edits.size() > kMaxEdits) {
      r.too_many = i;
      return r;
    }
    char c = text[i];
    if (json && c == '"' && !in_string) {
      size_t end = JsonStringEnd(text, i);
      if (end != std::string_view::npos && end - i >= kLongKey && IsJsonKey(text, end)) {
        r.edits.push_back({r.text.size(), -2});
        r.text += "? ";
      }
    }
    if (json && c == '"') in_string = !in_string;
    if (json && in_string && c == '\\') {
      long high = Utf16Escape(text, i), low = Utf16Escape(text, i + 6);
      if (high >= 0xD800 && high <= 0xDBFF && low >= 0xDC00 && low <= 0xDFFF) {
        char escape[16];
        std::snprintf(escape, sizeof escape, "\\U%08lx", 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00));
        r.edits.push_back({r.text.size(), 12 - 10});
        r.text += escape;
        i += 12;
        continue;
      }
      r.text.append(text.substr(i, 2));  // an escape never ends the string
      i += 2;
      continue;
    }
    Char ch = CharAt(text, i);
    std::string_view seq = text.substr(i, ch.length);
    if (json && in_string && IsYamlOnlyBreak(seq)) {
      // A character of a JSON string that libyaml would read as a line break.
      r.edits.push_back({r.text.size(), static_cast<std::ptrdiff_t>(ch.length) - 6});
      r.text += seq == "\xC2\x85" ? "\\u0085" : seq == "\xE2\x80\xA8" ? "\\u2028" : "\\u2029";
    } else if (ch.readable && !IsYamlOnlyBreak(seq)) {
      r.text.append(text.substr(i, ch.length));
    } else {
      // One replacement for the whole run of single unreadable bytes.
      size_t length = ch.length;
      if (length == 1) {
        while (i + length < text.size()) {
          Char next = CharAt(text, i + length);
          if (next.length != 1 || next.readable) break;
          ++length;
        }
      }
      r.edits.push_back({r.text.size(), static_cast<std::ptrdiff_t>(length) - 3});
      r.text += "\xEF\xBF\xBD";
      i += length;
      continue;
    }
    i += ch.length;
  }
  return r;
}

std::string_view Str(const yaml_char_t* s) {
  return s ? std::string_view(reinterpret_cast<const char*>(s)) : std::string_view();
}

// Builds Nodes from libyaml's event stream (YAML 1.1 and JSON alike). The
// tree is ours: aliases, merge keys, duplicate keys and every bound are
// handled here as the events arrive, so nothing larger than the result is
// ever built.
class Builder {
 public:
  // libyaml reads `input`, which is `text` as Rewrite left it (with its
  // `edits`; none when it is `text` itself); positions are those of `text`.
  Builder(std::string_view text, std::string_view input, const std::vector<Edit>& edits, int line_offset,
          const LoadLimits& limits, std::vector<LoadError>* errors)
      : text_(text), input_(input), line_offset_(line_offset), limits_(limits), errors_(errors) {
    // libyaml's lines and columns are the file's when every character is one
    // byte and every line ends with "\n" (libyaml also breaks lines at a lone
    // "\r", NEL, LS and PS, where editors and sagelint's other readers do not).
    // (A UTF-16 text, which libyaml decodes, is not mapped to bytes either.)
    simple_ =
        (edits.empty() && std::none_of(input.begin(), input.end(),
                                       [](char c) { return static_cast<unsigned char>(c) >= 0x80 || c == '\r'; })) ||
        input.substr(0, 2) == "\xFF\xFE" || input.substr(0, 2) == "\xFE\xFF";
    std::ptrdiff_t longer = 0;
    for (const Edit& e : edits) edits_.push_back({e.at, longer += e.longer});
    yaml_parser_initialize(&parser_);
    yaml_parser_set_input_string(&parser_, reinterpret_cast<const unsigned char*>(input.data()), input.size());
  }
  ~Builder() {
    if (has_event_) yaml_event_delete(&event_);
    yaml_parser_delete(&parser_);
  }
  Builder(const Builder&) = delete;
  Builder& operator=(const Builder&) = delete;

  // True when Rewrite may make the text readable: libyaml's reader refused
  // it, or it holds an escape libyaml does not know.
  bool rewrite_may_help() const {
    return parser_.error == YAML_READER_ERROR ||
           (parser_.problem && std::string_view(parser_.problem) == "found invalid Unicode character escape code") ||
           HasLongJsonKey(text_);
  }

  // The documents of the stream (with `all`), or its first one; a stream of
  // no document is one empty document then.
  void Run(bool all, std::vector<Node>* out) {
    Next();  // stream start
    for (Next(); event_.type == YAML_DOCUMENT_START_EVENT; Next()) {
      anchors_.clear();  // anchors belong to their document
      Next();
      out->emplace_back();
      Build(&out->back(), 0);
      Next();  // document end
      if (!all) return;
    }
    if (!all && out->empty()) out->emplace_back();
  }

 private:
  // The next event, or a SyntaxError with libyaml's reason and position.
  void Next() {
    if (has_event_) yaml_event_delete(&event_);
    has_event_ = yaml_parser_parse(&parser_, &event_) != 0;
    if (has_event_) return;
    throw SyntaxError{ParserError()};
  }

  LoadError ParserError() const {
    std::string problem = parser_.problem ? parser_.problem : "not readable as YAML";
    if (parser_.error == YAML_READER_ERROR) {
      // The reader reports a byte offset rather than a mark.
      size_t offset = std::min(Original(parser_.problem_offset), text_.size());
      size_t line_start = text_.rfind('\n', offset == 0 ? 0 : offset - 1);
      line_start = line_start == std::string_view::npos || offset == 0 ? 0 : line_start + 1;
      int line = 1 + line_offset_ + static_cast<int>(std::count(text_.begin(), text_.begin() + line_start, '\n'));
      return {problem, {line, static_cast<int>(offset - line_start) + 1}};
    }
    std::string message = problem;
    SourcePos pos = Pos(parser_.problem_mark);
    if (parser_.context) {
      // "did not find expected key (while parsing a block mapping at line 6, column 7)"
      SourcePos at = Pos(parser_.context_mark);
      message += " (" + std::string(parser_.context);
      if (at.line != pos.line || at.column != pos.column) {
        message += " at line " + std::to_string(at.line) + ", column " + std::to_string(at.column);
      }
      message += ")";
    }
    return {message, pos};
  }

  // The offset in `text_` of an offset in `input_`.
  size_t Original(size_t at) const {
    auto it = std::upper_bound(edits_.begin(), edits_.end(), at, [](size_t o, const Edit& e) { return o <= e.at; });
    return it == edits_.begin() ? at : static_cast<size_t>(static_cast<std::ptrdiff_t>(at) + std::prev(it)->longer);
  }

  // The length of the line break at input_[i] as libyaml reads one, or 0.
  size_t BreakAt(size_t i) const {
    std::string_view rest = input_.substr(i);
    if (rest.empty()) return 0;
    if (rest[0] == '\n') return 1;
    if (rest[0] == '\r') return rest.size() > 1 && rest[1] == '\n' ? 2 : 1;
    if (rest.substr(0, 2) == "\xC2\x85") return 2;
    if (rest.substr(0, 3) == "\xE2\x80\xA8" || rest.substr(0, 3) == "\xE2\x80\xA9") return 3;
    return 0;
  }

  // libyaml counts lines and columns in characters of what it read; sagelint
  // counts lines by "\n" and columns in bytes of the file.
  SourcePos Pos(const yaml_mark_t& m) const {
    if (simple_) return {static_cast<int>(m.line) + 1 + line_offset_, static_cast<int>(m.column) + 1};
    size_t offset = Offset(m);
    // The file's line: the number of "\n" before the offset.
    size_t line =
        static_cast<size_t>(std::upper_bound(text_lines_.begin(), text_lines_.end(), offset) - text_lines_.begin());
    size_t line_start = line == 0 ? 0 : text_lines_[line - 1];
    if (line == 0 && text_.substr(0, 3) == "\xEF\xBB\xBF") line_start = std::min<size_t>(3, offset);
    return {static_cast<int>(line) + 1 + line_offset_, static_cast<int>(offset - line_start) + 1};
  }

  // The byte offset in `text_` of a mark.
  size_t Offset(const yaml_mark_t& m) const {
    if (simple_) return std::min(m.index, text_.size());
    if (line_starts_.empty()) {
      line_starts_.push_back(0);
      for (size_t i = 0; i < input_.size();) {
        size_t n = BreakAt(i);
        i += n ? n : 1;
        if (n) line_starts_.push_back(i);
      }
      for (size_t i = 0; i < text_.size(); ++i) {
        if (text_[i] == '\n') text_lines_.push_back(i + 1);
      }
    }
    size_t at = input_.size();  // where the mark is in input_
    if (m.line < line_starts_.size()) {
      size_t start = line_starts_[m.line];
      // The reader skips a byte-order mark, and so do columns.
      if (start == 0 && input_.substr(0, 3) == "\xEF\xBB\xBF") start = 3;
      // Marks come in order, mostly on the same line: go on from the last one
      // rather than from the line's start (a one-line JSON file would cost the
      // square of its length otherwise).
      if (walk_.line != m.line || walk_.chars > m.column) walk_ = {m.line, 0, start};
      while (walk_.chars < m.column && walk_.at < input_.size() && !BreakAt(walk_.at)) {
        ++walk_.at;
        while (walk_.at < input_.size() && (static_cast<unsigned char>(input_[walk_.at]) & 0xC0) == 0x80) ++walk_.at;
        ++walk_.chars;
      }
      at = walk_.at;
    }
    return std::min(Original(at), text_.size());
  }

  // Where a node starts (its first event) and ends (its last).
  void Start(Node* out) const {
    out->pos = Pos(event_.start_mark);
    out->offset = static_cast<uint32_t>(Offset(event_.start_mark));
  }
  void Finish(Node* out) const {
    out->end = Pos(event_.end_mark);
    out->end_offset = static_cast<uint32_t>(Offset(event_.end_mark));
  }

  // Counts `n` more bytes of the tree being built; throws past the budget.
  void Charge(size_t n) {
    bytes_ += n;
    if (bytes_ > limits_.max_bytes) throw TooBig{};
  }

  // The node whose first event is the current one; on return the current
  // event is its last.
  void Build(Node* out, int depth) {
    if (event_.type == YAML_ALIAS_EVENT) {
      Alias(out);
      return;
    }
    if (++written_ > limits_.max_nodes) throw TooManyNodes{};
    if (++count_ > limits_.max_nodes) throw TooBig{};
    Start(out);
    if (depth > limits_.max_depth) throw TooDeep{out->pos};
    std::string anchor;  // a copy: the children's events replace this one
    switch (event_.type) {
      case YAML_SCALAR_EVENT:
        anchor = Str(event_.data.scalar.anchor);
        Scalar(out);
        break;
      case YAML_SEQUENCE_START_EVENT:
        anchor = Str(event_.data.sequence_start.anchor);
        Tag(out, Str(event_.data.sequence_start.tag));
        out->kind = Node::Kind::kSeq;
        for (Next(); event_.type != YAML_SEQUENCE_END_EVENT; Next()) {
          out->items.emplace_back();
          Build(&out->items.back(), depth + 1);
        }
        break;
      case YAML_MAPPING_START_EVENT:
        anchor = Str(event_.data.mapping_start.anchor);
        Tag(out, Str(event_.data.mapping_start.tag));
        Mapping(out, depth);
        break;
      default:  // libyaml starts a node with no other event
        throw SyntaxError{{"unexpected YAML event", out->pos}};
    }
    Finish(out);
    if (!anchor.empty()) Remember(std::move(anchor), *out);
  }

  // A collection's tag; "!" (non-specific) is no tag.
  void Tag(Node* out, std::string_view tag) {
    Charge(sizeof(Node) + tag.size());
    if (!tag.empty() && tag != "!") out->tag = tag;
  }

  void Scalar(Node* out) {
    const auto& s = event_.data.scalar;
    std::string_view tag = Str(s.tag);
    std::string_view text(reinterpret_cast<const char*>(s.value), s.length);
    bool plain = s.style == YAML_PLAIN_SCALAR_STYLE;
    Charge(sizeof(Node) + tag.size() + text.size());
    if (tag.empty() && plain && (text.empty() || text == "~" || text == "null" || text == "Null" || text == "NULL")) {
      out->kind = Node::Kind::kNull;
      return;
    }
    // A tag with no value (`Key: !Ref`) is a scalar of that tag.
    out->kind = Node::Kind::kScalar;
    out->text = text;
    if (tag == "!") {
      out->quoted = true;  // the non-specific tag: a string, as if quoted
    } else if (!tag.empty()) {
      out->tag = tag;
    } else {
      out->quoted = !plain;
    }
  }

  void Mapping(Node* out, int depth) {
    out->kind = Node::Kind::kMap;
    std::set<std::string> seen;
    std::vector<Node> merged;  // the maps of `<<` merge keys, in order
    for (Next(); event_.type != YAML_MAPPING_END_EVENT; Next()) {
      bool merge_key = event_.type == YAML_SCALAR_EVENT && event_.data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
                       !event_.data.scalar.tag && Str(event_.data.scalar.value) == "<<";
      Node key;
      Build(&key, depth + 1);
      if (key.is_scalar()) Charge(key.text.size() + sizeof(Node::Entry) + sizeof(SourcePos));
      std::string name = key.is_scalar() ? std::move(key.text) : std::string();
      Next();
      Node value;
      Build(&value, depth + 1);
      if (!seen.insert(name).second) {
        errors_->push_back({"duplicate key '" + name + "'", key.pos});
        continue;
      }
      if (merge_key && (value.is_map() || value.is_seq())) {
        if (value.is_map()) {
          merged.push_back(std::move(value));
        } else {
          for (Node& item : value.items) {
            if (item.is_map()) merged.push_back(std::move(item));
          }
        }
        continue;
      }
      out->entries.emplace_back(std::move(name), std::move(value));
      out->key_pos.push_back(key.pos);
    }
    Merge(out, merged);
  }

  // YAML merge keys (`<<: *base`, `<<: [*a, *b]`): keys written in the map win,
  // then the earlier merged map. Merged copies count towards the node limit.
  void Merge(Node* out, std::vector<Node>& merged) {
    for (Node& m : merged) {
      for (size_t i = 0; i < m.entries.size(); ++i) {
        if (out->Get(m.entries[i].first)) continue;
        count_ += Measure(m.entries[i].second, 0).nodes;
        if (count_ > limits_.max_nodes) throw TooBig{};
        out->entries.push_back(std::move(m.entries[i]));
        out->key_pos.push_back(m.key_pos[i]);
      }
    }
  }

  struct Cost {
    size_t nodes = 0;
    size_t bytes = 0;
  };
  Cost Measure(const Node& n, int depth) const {
    Cost c{1, sizeof(Node) + n.tag.size() + n.text.size()};
    if (depth > limits_.max_depth) return c;
    auto add = [&](const Node& child) {
      Cost k = Measure(child, depth + 1);
      c.nodes += k.nodes;
      c.bytes += k.bytes;
    };
    for (const Node& i : n.items) add(i);
    for (const auto& e : n.entries) {
      c.bytes += e.first.size() + sizeof(Node::Entry) + sizeof(SourcePos);
      add(e.second);
    }
    return c;
  }

  // The tree's depth is bounded (limits_.max_depth) as it is built.
  static void MarkShared(Node* n) {
    n->shared = true;
    for (Node& i : n->items) MarkShared(&i);
    for (auto& e : n->entries) MarkShared(&e.second);
  }

  // `&name`: kept with its cost, which every `*name` pays in full. The node
  // and every copy of it are shared.
  void Remember(std::string name, Node& node) {
    MarkShared(&node);
    Anchored& a = anchors_[std::move(name)];
    a.node = node;
    a.cost = Measure(node, 0);
  }
  void Alias(Node* out) {
    auto it = anchors_.find(std::string(Str(event_.data.alias.anchor)));
    if (it == anchors_.end()) {
      throw SyntaxError{
          {"found undefined alias '" + std::string(Str(event_.data.alias.anchor)) + "'", Pos(event_.start_mark)}};
    }
    count_ += it->second.cost.nodes;
    if (count_ > limits_.max_nodes) throw TooBig{};
    Charge(it->second.cost.bytes);
    *out = it->second.node;
  }

  struct Anchored {
    Node node;
    Cost cost;
  };

  std::string_view text_;
  std::string_view input_;
  std::vector<Edit> edits_;  // `longer` summed over this edit and those before it
  int line_offset_;
  LoadLimits limits_;
  std::vector<LoadError>* errors_;
  yaml_parser_t parser_{};
  yaml_event_t event_{};
  bool has_event_ = false;
  bool simple_ = true;                       // columns in characters are columns in bytes
  mutable std::vector<size_t> line_starts_;  // of input_, as libyaml breaks lines
  mutable std::vector<size_t> text_lines_;   // where each line of text_ but the first starts
  struct Walk {
    size_t line = SIZE_MAX, chars = 0, at = 0;
  };
  mutable Walk walk_;  // where Pos last stopped
  std::map<std::string, Anchored> anchors_;
  size_t written_ = 0;  // nodes written in the text
  size_t count_ = 0;    // nodes built, aliases expanded
  size_t bytes_ = 0;
};

// Flow collections nested deeper than the limit, found by a cheap scan before
// parsing.
bool TooDeeplyNested(std::string_view text, int max_depth, SourcePos* where) {
  int depth = 0, line = 1, col = 0;
  char quote = 0;
  for (char c : text) {
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
      if (quote == '"') continue;
      quote = 0;
      continue;
    }
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) {
        *where = {line, col};
        return true;
      }
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    } else if (c == '#' && depth == 0) {
      quote = '\n';  // a comment runs to the end of the line
    }
  }
  return false;
}

// Loads the first document of `text` (or, with `all`, every document) within
// the limits; every refusal is a LoadError with its position.
bool Load(std::string_view text, int line_offset, const LoadLimits& limits, bool all, std::vector<Node>* out,
          std::vector<LoadError>* errors) {
  SourcePos deep;
  if (TooDeeplyNested(text, limits.max_depth, &deep)) {
    errors->push_back({"nesting deeper than " + std::to_string(limits.max_depth) + " levels; not parsed",
                       {deep.line + line_offset, deep.column}});
    return false;
  }
  Rewritten rewritten;  // what libyaml reads after refusing the text as written
  const size_t errors_before = errors->size();
  // A text with NEL, LS or PS is rewritten before the first attempt.
  int first = HasYamlOnlyBreak(text) ? 1 : 0;
  if (first) rewritten = Rewrite(text);
  // Where the text holds more stretches YAML cannot read than the edits may record: not parsed.
  auto too_many = [&](size_t at) {
    size_t line_start = text.rfind('\n', at == 0 ? 0 : at - 1);
    line_start = line_start == std::string_view::npos || at == 0 ? 0 : line_start + 1;
    int line = 1 + line_offset + static_cast<int>(std::count(text.begin(), text.begin() + line_start, '\n'));
    errors->push_back({"more than " + std::to_string(kMaxEdits) +
                           " characters or runs of bytes that YAML cannot read (not UTF-8, or control characters); "
                           "not parsed",
                       {line, static_cast<int>(at - line_start) + 1}});
    out->clear();
    return false;
  };
  if (rewritten.too_many) return too_many(*rewritten.too_many);
  for (int attempt = first; attempt < 2; ++attempt) {
    Builder b(text, attempt == 0 ? text : std::string_view(rewritten.text), rewritten.edits, line_offset, limits,
              errors);
    try {
      b.Run(all, out);
      return true;
    } catch (const TooBig&) {
      errors->push_back({"the document expands to more than " + std::to_string(limits.max_nodes) + " nodes or " +
                             std::to_string(limits.max_bytes >> 20) + " MiB (YAML aliases?); not parsed",
                         {1 + line_offset, 1}});
    } catch (const TooManyNodes&) {
      errors->push_back({"the document has more than " + std::to_string(limits.max_nodes) + " nodes; not parsed",
                         {1 + line_offset, 1}});
    } catch (const TooDeep& e) {
      errors->push_back({"nesting deeper than " + std::to_string(limits.max_depth) + " levels; not parsed", e.pos});
    } catch (const SyntaxError& e) {
      if (attempt == 0 && b.rewrite_may_help()) {
        errors->resize(errors_before);
        out->clear();
        rewritten = Rewrite(text);
        if (rewritten.too_many) return too_many(*rewritten.too_many);
        continue;
      }
      errors->push_back(e.error);
    }
    break;
  }
  out->clear();
  return false;
}

}  // namespace

bool LoadDocuments(std::string_view text, const LoadLimits& limits, std::vector<Node>* out,
                   std::vector<LoadError>* errors) {
  return Load(text, 0, limits, true, out, errors);
}

bool LoadDocument(std::string_view text, int line_offset, const LoadLimits& limits, Node* out,
                  std::vector<LoadError>* errors) {
  std::vector<Node> docs;
  if (!Load(text, line_offset, limits, false, &docs, errors)) return false;
  *out = std::move(docs.front());
  return true;
}

void Relocate(Node* n, SourcePos at) {
  n->pos = at;
  n->end = {};
  n->offset = n->end_offset = 0;
  for (SourcePos& p : n->key_pos) p = at;
  for (auto& e : n->entries) Relocate(&e.second, at);
  for (auto& i : n->items) Relocate(&i, at);
}

Node MakeScalar(std::string text, SourcePos at, bool quoted) {
  Node n;
  n.kind = Node::Kind::kScalar;
  n.text = std::move(text);
  n.quoted = quoted;
  n.pos = at;
  return n;
}

}  // namespace sagelint::cfn
