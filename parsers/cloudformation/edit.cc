// Fix edits of CloudFormation templates (README "Fixes"): a member removed from a
// mapping, or members inserted into one, in the template as stored — YAML in
// block or flow style, or JSON — with the file's indentation, quoting and line
// breaks, and every other byte as it was.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "linter/base/strings.h"
#include "parsers/aws/resources.h"
#include "parsers/common/node.h"
#include "parsers/frontend.h"

namespace sagelint {
namespace {

using cfn::Node;

constexpr size_t kNone = std::string::npos;

std::string JsonString(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (static_cast<unsigned char>(c) < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned>(static_cast<unsigned char>(c)));
      out += buf;
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// A string YAML reads back as the same string when written plain, in block
// and flow context alike.
bool PlainSafe(std::string_view s) {
  if (s.empty() || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z'))) return false;
  for (char c : s) {
    bool ok = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-' ||
              c == '.' || c == '/';
    if (!ok) return false;
  }
  std::string lower = AsciiLower(s);
  for (const char* word : {"true", "false", "yes", "no", "on", "off", "y", "n", "null"}) {
    if (lower == word) return false;
  }
  return true;
}

// The members to write: a key and its value, a scalar (`value`) or a mapping (`members`).
struct Member {
  explicit Member(std::string k) : key(std::move(k)) {}
  std::string key;
  const Node* value = nullptr;  // a scalar of the change's JSON value
  std::vector<Member> members;  // when no `value`
};

// The changes' JSON values as members to write.
std::vector<Member> MembersOf(const Node& map) {
  std::vector<Member> out;
  for (const auto& [k, v] : map.entries) {
    Member m(k);
    if (v.is_map()) {
      m.members = MembersOf(v);
    } else {
      m.value = &v;
    }
    out.push_back(std::move(m));
  }
  return out;
}

// The keys a removed field may be written as.
bool RemovableKey(std::string_view field, std::string_view key) {
  std::vector<std::string_view> keys = aws::RemovableKeys(field);
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

class Editor {
 public:
  explicit Editor(std::string_view file) {
    // The front end reads a template without its byte-order mark: so do its positions.
    if (file.substr(0, 3) == "\xEF\xBB\xBF") base_ = 3;
    text_ = file.substr(base_);
    size_t first = text_.find_first_not_of(" \t\r\n");
    json_ = first != kNone && (text_[first] == '{' || text_[first] == '[');
    size_t nl = text_.find('\n');
    crlf_ = nl != kNone && nl > 0 && text_[nl - 1] == '\r';
  }

  bool Load() {
    std::vector<cfn::LoadError> errors;
    return cfn::LoadDocuments(text_, cfn::LoadLimits{}, &docs_, &errors) && errors.empty();
  }

  std::optional<TextEdit> Remove(const FixChange& c) {
    // The member whose value stands at the position (for a notebook's
    // AcceleratorTypes, its first item).
    std::vector<std::pair<const Node*, size_t>> hits;
    ForEachMap([&](const Node& m, const std::string&) {
      for (size_t i = 0; i < m.entries.size(); ++i) {
        const Node& v = m.entries[i].second;
        bool at = v.pos == c.range.begin;
        for (const Node& item : v.items)
          at = at || (m.entries[i].first == "AcceleratorTypes" && item.pos == c.range.begin);
        if (at) hits.emplace_back(&m, i);
      }
    });
    if (hits.size() != 1) return std::nullopt;
    const auto [map, index] = hits.front();
    const auto& [key, value] = map->entries[index];
    if (!RemovableKey(c.field, key) || map->shared || value.shared || !Editable(*map)) return std::nullopt;
    auto range = MemberRange(*map, index);
    if (!range) return std::nullopt;
    TextEdit edit{range->first, range->second, ""};
    // The file still reads, with one member of that name fewer.
    int before = CountKey(docs_, key);
    auto after = Reload(edit);
    if (!after || CountKey(*after, key) != before - 1) return std::nullopt;
    return Shifted(edit);
  }

  std::optional<TextEdit> Insert(const FixChange& c) {
    std::vector<cfn::LoadError> errors;
    Node value;
    if (!cfn::LoadDocument(c.value, 0, cfn::LoadLimits{}, &value, &errors) || !errors.empty() ||
        !(value.is_map() || value.is_scalar())) {
      return std::nullopt;
    }
    std::vector<std::string> path;
    if (c.field == "idle_settings") {
      if (!value.is_map()) return std::nullopt;
      path = {"AppLifecycleManagement", "IdleSettings"};
    } else if (auto p = aws::TrainingRequestPath(c.field)) {
      if (!value.is_scalar()) return std::nullopt;
      path = *p;
    } else {
      return std::nullopt;
    }
    const Node* container = Container(c);
    if (!container) return std::nullopt;
    // Down the levels that exist; never through a computed one or one Step Functions sets from its input.
    const Node* at = container;
    size_t depth = 0;
    for (; depth < path.size(); ++depth) {
      if (at->Get(path[depth] + ".$")) return std::nullopt;
      const Node* next = at->Get(path[depth]);
      if (!next) break;
      if (!next->is_map() || next->shared) return std::nullopt;
      at = next;
    }
    std::vector<Member> members;
    if (depth == path.size()) {
      // Every level is there: only the value's members that are missing, none overwritten.
      if (!value.is_map()) return std::nullopt;
      for (Member& m : MembersOf(value)) {
        if (!at->Get(m.key) && !at->Get(m.key + ".$")) members.push_back(std::move(m));
      }
      if (members.empty()) return std::nullopt;
    } else {
      Member leaf(path.back());
      if (value.is_map()) {
        leaf.members = MembersOf(value);
      } else {
        leaf.value = &value;
      }
      // The missing levels around it.
      for (size_t k = path.size() - 1; k > depth; --k) {
        Member outer(path[k - 1]);
        outer.members.push_back(std::move(leaf));
        leaf = std::move(outer);
      }
      members.push_back(std::move(leaf));
    }
    if (at->shared || !Editable(*at)) return std::nullopt;
    auto edit = InsertMembers(*at, members);
    if (!edit) return std::nullopt;
    // The file still reads, and the container now holds the whole path.
    auto after = Reload(*edit);
    if (!after) return std::nullopt;
    Editor edited(*this);
    edited.docs_ = std::move(*after);
    const Node* n = edited.Container(c);
    for (const std::string& k : path) n = n ? n->Get(k) : nullptr;
    if (!n) return std::nullopt;
    return Shifted(*edit);
  }

 private:
  template <typename Fn>
  void ForEachMap(Fn&& fn) const {
    for (const Node& d : docs_) Walk(d, "", fn, 0);
  }
  template <typename Fn>
  static void Walk(const Node& n, const std::string& key, Fn& fn, int depth) {
    if (depth > 400) return;
    if (n.is_map()) fn(n, key);
    for (const Node& i : n.items) Walk(i, "", fn, depth + 1);
    for (const auto& [k, v] : n.entries) Walk(v, k, fn, depth + 1);
  }

  // The mapping at `pos` (the mapping itself, or its key) whose key `accept` takes.
  template <typename Accept>
  const Node* MapAt(SourcePos pos, Accept&& accept) const {
    std::vector<const Node*> hits;
    ForEachMap([&](const Node& m, const std::string& key) {
      if (m.pos == pos && accept(key, m)) hits.push_back(&m);
      for (size_t i = 0; i < m.entries.size(); ++i) {
        const Node& v = m.entries[i].second;
        if (m.key_pos[i] == pos && v.is_map() && accept(m.entries[i].first, v)) hits.push_back(&v);
      }
    });
    if (hits.size() != 1 || hits.front()->shared) return nullptr;
    return hits.front();
  }

  // Where a change inserts: a Studio app's settings block (at its key or its
  // mapping), or a training job's request. Positions before the inserted
  // bytes stay, so it is found again in the edited text.
  const Node* Container(const FixChange& c) const {
    if (c.field == "idle_settings") {
      return MapAt(c.range.begin, [](const std::string& key, const Node&) {
        return key == "JupyterLabAppSettings" || key == "CodeEditorAppSettings";
      });
    }
    return TrainingRequest(c.range.begin);
  }

  // The request of the training (or single-definition tuning) job at `pos`: a
  // SageMaker Pipelines step (`Type`, `Arguments`), or a Step Functions task
  // state (`Resource`, `Parameters`/`Arguments`), written as mappings.
  const Node* TrainingRequest(SourcePos pos) const {
    auto kind = [](const Node& m) -> std::string {
      const Node* type = m.Get("Type");
      const Node* resource = m.Get("Resource");
      if (type && type->is_scalar() && type->tag.empty() && m.Get("Arguments")) {
        if (type->text == "Training") return "training";
        if (type->text == "Tuning") return "tuning";
      }
      if (resource && resource->is_scalar() && resource->tag.empty() &&
          resource->text.find(":sagemaker:") != std::string::npos) {
        if (resource->text.find("createTrainingJob") != std::string::npos) return "training";
        if (resource->text.find("createHyperParameterTuningJob") != std::string::npos) return "tuning";
      }
      return "";
    };
    const Node* job = MapAt(pos, [&](const std::string&, const Node& m) { return !kind(m).empty(); });
    if (!job) return nullptr;
    const Node* req = job->Get("Arguments");
    if (!req && job->Get("Resource")) req = job->Get("Parameters");
    if (!req || !req->is_map() || req->shared) return nullptr;
    if (kind(*job) == "tuning") {
      const Node* one = req->Get("TrainingJobDefinition");
      const Node* many = req->Get("TrainingJobDefinitions");
      if (one && many) return nullptr;
      if (many) one = many->is_seq() && many->items.size() == 1 ? &many->items[0] : nullptr;
      req = one;
      if (!req || !req->is_map() || req->shared) return nullptr;
    }
    return req;
  }

  static int CountKey(const std::vector<Node>& docs, const std::string& key) {
    int count = 0;
    auto fn = [&](const Node& m, const std::string&) {
      for (const auto& e : m.entries) count += e.first == key;
    };
    for (const Node& d : docs) Walk(d, "", fn, 0);
    return count;
  }

  // The documents of the text with `edit` applied; nullopt if it does not read.
  std::optional<std::vector<Node>> Reload(const TextEdit& edit) const {
    std::string after(text_.substr(0, edit.begin));
    after += edit.content;
    after += text_.substr(edit.end);
    std::vector<Node> docs;
    std::vector<cfn::LoadError> errors;
    if (!cfn::LoadDocuments(after, cfn::LoadLimits{}, &docs, &errors) || !errors.empty()) return std::nullopt;
    return docs;
  }

  TextEdit Shifted(TextEdit e) const {
    e.begin += base_;
    e.end += base_;
    return e;
  }

  size_t Off(SourcePos p) const { return OffsetOf(text_, p).value_or(kNone); }
  size_t LineStart(size_t at) const { return LineStartOf(text_, at); }
  // Just past the line break of the line holding `at` (the text's end on its last line).
  size_t LineEnd(size_t at) const {
    size_t nl = text_.find('\n', at);
    return nl == kNone ? text_.size() : nl + 1;
  }
  std::string Newline() const { return crlf_ ? "\r\n" : "\n"; }

  // The first character of a collection past any anchor or tag: `{` or `[`
  // for flow style (JSON's objects and arrays), else block style.
  char Opening(const Node& m) const {
    size_t i = m.offset;
    while (i < text_.size()) {
      char c = text_[i];
      if (IsBlank(c) || c == '\r' || c == '\n') {
        ++i;
      } else if (c == '&' || c == '!') {
        while (i < text_.size() && !IsBlank(text_[i]) && text_[i] != '\n') ++i;
      } else {
        return c;
      }
    }
    return 0;
  }
  bool IsFlow(const Node& m) const { return Opening(m) == '{'; }

  // A mapping whose members are written where they stand: no merge key
  // (`<<`) brings members from elsewhere, every key lies in its text.
  bool Editable(const Node& m) const {
    if (m.end_offset <= m.offset && !m.entries.empty()) return false;
    if (!json_ && text_.substr(m.offset, m.end_offset - m.offset).find("<<") != std::string_view::npos) return false;
    size_t last = 0;
    for (const SourcePos& k : m.key_pos) {
      size_t at = Off(k);
      if (at == kNone || at < last || at < m.offset || at > m.end_offset) return false;
      last = at;
    }
    return true;
  }

  // The offset of the last byte of a value written in block style (a
  // collection's last member's), or kNone. `key` is where its key stands.
  size_t LastByte(const Node& v, size_t key) const {
    if (v.is_null()) return key;  // `Key:` alone: its own line
    if (v.is_scalar() || Opening(v) == '{' || Opening(v) == '[') {
      return v.end_offset > v.offset ? v.end_offset - 1 : kNone;
    }
    if (v.is_map() && !v.entries.empty()) return LastByte(v.entries.back().second, Off(v.key_pos.back()));
    if (v.is_seq() && !v.items.empty()) {
      const Node& last = v.items.back();
      return last.is_null() ? kNone : LastByte(last, kNone);
    }
    return kNone;
  }

  // The bytes that remove member `i` of `m` and leave the rest as it reads.
  std::optional<std::pair<size_t, size_t>> MemberRange(const Node& m, size_t i) const {
    size_t n = m.entries.size();
    if (n < 2) return std::nullopt;  // never an empty mapping
    size_t key = Off(m.key_pos[i]);
    if (key == kNone) return std::nullopt;
    if (IsFlow(m)) {
      // Up to the next member's key; the last one from the end of the one before.
      if (i + 1 < n) {
        size_t next = Off(m.key_pos[i + 1]);
        return next == kNone ? std::nullopt : std::optional(std::pair{key, next});
      }
      const Node& prev = m.entries[i - 1].second;
      const Node& self = m.entries[i].second;
      if (prev.is_null() || self.is_null()) return std::nullopt;
      return std::pair{static_cast<size_t>(prev.end_offset), static_cast<size_t>(self.end_offset)};
    }
    size_t start = LineStart(key);
    bool alone = std::all_of(text_.begin() + start, text_.begin() + key, IsBlank);
    if (alone) {
      size_t last = LastByte(m.entries[i].second, key);
      if (last == kNone) return std::nullopt;
      return std::pair{start, LineEnd(last)};
    }
    // The first member after `- `: the next member's key takes its place.
    if (i + 1 < n) {
      size_t next = Off(m.key_pos[i + 1]);
      return next == kNone ? std::nullopt : std::optional(std::pair{key, next});
    }
    return std::nullopt;
  }

  // How the mapping's keys and string values are quoted: '"', '\'' or 0 (plain).
  char KeyQuote(const Node& m) const {
    if (json_) return '"';
    for (const SourcePos& k : m.key_pos) {
      size_t at = Off(k);
      if (at != kNone && (text_[at] == '"' || text_[at] == '\'')) return text_[at];
    }
    return 0;
  }
  char ValueQuote(const Node& m) const {
    if (json_) return '"';
    for (const auto& [k, v] : m.entries) {
      if (v.is_scalar() && v.quoted && v.tag.empty() && v.end_offset > v.offset) {
        char c = text_[v.offset];
        if (c == '"' || c == '\'') return c;
      }
    }
    return 0;
  }

  std::string Key(const std::string& k, char quote) const {
    if (quote == '"' || (!quote && !PlainSafe(k))) return JsonString(k);
    if (quote == '\'') return "'" + k + "'";
    return k;
  }
  std::string Scalar(const Node& v, char quote) const {
    if (!v.quoted) return v.text;  // a number or a boolean
    if (quote == '\'' && v.text.find('\'') == std::string::npos && v.text.find('\n') == std::string::npos) {
      return "'" + v.text + "'";
    }
    if (!quote && PlainSafe(v.text)) return v.text;
    return JsonString(v.text);
  }

  // `k: {k: v, …}` on one line; `colon` and `comma` spaced as the file's are.
  std::string Flow(const Member& m, char kq, char vq, const std::string& colon, const std::string& comma) const {
    std::string out = Key(m.key, kq) + colon;
    if (m.value) return out + Scalar(*m.value, vq);
    out += "{";
    for (size_t i = 0; i < m.members.size(); ++i) {
      out += (i ? comma : "") + Flow(m.members[i], kq, vq, colon, comma);
    }
    return out + "}";
  }
  // A member over several lines of a flow mapping (pretty JSON) at `indent`.
  std::string FlowLines(const Member& m, const std::string& indent, const std::string& step, char kq, char vq) const {
    std::string out = Key(m.key, kq) + ": ";
    if (m.value) return out + Scalar(*m.value, vq);
    out += "{";
    for (size_t i = 0; i < m.members.size(); ++i) {
      out += (i ? "," : "") + Newline() + indent + step + FlowLines(m.members[i], indent + step, step, kq, vq);
    }
    return out + Newline() + indent + "}";
  }
  // A member in block style at `indent`, with its line breaks.
  std::string Block(const Member& m, const std::string& indent, const std::string& step, char kq, char vq) const {
    std::string out = indent + Key(m.key, kq) + ":";
    if (m.value) return out + " " + Scalar(*m.value, vq) + Newline();
    out += Newline();
    for (const Member& c : m.members) out += Block(c, indent + step, step, kq, vq);
    return out;
  }

  // The indentation a nested block mapping adds in this file (2 if none shows it).
  std::string BlockStep() const {
    std::optional<int> step;
    ForEachMap([&](const Node& m, const std::string&) {
      if (step || IsFlow(m)) return;
      for (size_t i = 0; i < m.entries.size() && !step; ++i) {
        const Node& v = m.entries[i].second;
        if (v.is_map() && !v.entries.empty() && !IsFlow(v) && v.key_pos[0].line > m.key_pos[i].line &&
            v.key_pos[0].column > m.key_pos[i].column) {
          step = v.key_pos[0].column - m.key_pos[i].column;
        }
      }
    });
    return std::string(step.value_or(2), ' ');
  }

  std::optional<TextEdit> InsertMembers(const Node& m, const std::vector<Member>& members) const {
    char kq = KeyQuote(m), vq = ValueQuote(m);
    if (IsFlow(m)) {
      if (m.end_offset == 0 || text_[m.end_offset - 1] != '}') return std::nullopt;
      if (m.entries.empty()) {
        std::string content;
        for (size_t i = 0; i < members.size(); ++i) content += (i ? ", " : "") + Flow(members[i], kq, vq, ": ", ", ");
        return TextEdit{m.end_offset - 1u, m.end_offset - 1u, content};
      }
      const Node& last = m.entries.back().second;
      if (last.is_null() || last.end_offset <= last.offset) return std::nullopt;
      size_t at = last.end_offset;
      size_t key = Off(m.key_pos.back());
      size_t start = LineStart(key);
      bool lines =
          m.key_pos.back().line > m.pos.line && std::all_of(text_.begin() + start, text_.begin() + key, IsBlank);
      std::string content;
      if (lines) {
        // One member a line, at the last member's indentation; nested levels by the file's own step.
        std::string indent(text_.substr(start, key - start));
        size_t open = LineStart(m.offset);
        size_t open_end = open;
        while (open_end < text_.size() && IsBlank(text_[open_end])) ++open_end;
        std::string outer(text_.substr(open, open_end - open));
        std::string step =
            indent.size() > outer.size() && indent.starts_with(outer) ? indent.substr(outer.size()) : "  ";
        for (const Member& mem : members) content += "," + Newline() + indent + FlowLines(mem, indent, step, kq, vq);
      } else {
        // One line: the spacing of the last member (`"a":1` or `a: 1`).
        std::string_view gap = text_.substr(key, last.offset - key);
        std::string colon = json_ && !gap.empty() && gap.find(": ") == std::string_view::npos ? ":" : ": ";
        std::string comma = colon == ":" ? "," : ", ";
        for (const Member& mem : members) content += comma + Flow(mem, kq, vq, colon, comma);
      }
      return TextEdit{at, at, content};
    }
    if (m.entries.empty()) return std::nullopt;
    // Block style: new lines after the last member's, at the members' column.
    size_t last = LastByte(m.entries.back().second, Off(m.key_pos.back()));
    if (last == kNone) return std::nullopt;
    size_t at = LineEnd(last);
    std::string indent(m.key_pos[0].column - 1, ' ');
    std::string content = at == text_.size() && (text_.empty() || text_.back() != '\n') ? Newline() : "";
    std::string step = BlockStep();
    for (const Member& mem : members) content += Block(mem, indent, step, kq, vq);
    return TextEdit{at, at, content};
  }

  std::string_view text_;
  size_t base_ = 0;
  bool json_ = false;
  bool crlf_ = false;
  std::vector<Node> docs_;
};

}  // namespace

std::optional<TextEdit> EditCloudFormation(std::string_view text, const FixChange& change) {
  if (change.op != FixChange::Op::kRemove && change.op != FixChange::Op::kInsert) return std::nullopt;
  if (text.find('\0') != std::string_view::npos) return std::nullopt;
  Editor editor(text);
  if (!editor.Load()) return std::nullopt;
  return change.op == FixChange::Op::kRemove ? editor.Remove(change) : editor.Insert(change);
}

}  // namespace sagelint
