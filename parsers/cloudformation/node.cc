#include "parsers/cloudformation/node.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <map>
#include <set>
#include <sstream>

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
struct TooManyNodes {};  // found before building: the document itself is that large
struct TooDeep {
  SourcePos pos;
};

class Converter {
 public:
  Converter(int line_offset, const LoadLimits& limits, std::vector<LoadError>* errors)
      : line_offset_(line_offset), limits_(limits), errors_(errors) {}

  SourcePos Pos(const YAML::Mark& m) const {
    if (m.line < 0) return {};
    return {m.line + 1 + line_offset_, m.column + 1};
  }

  // Counts `n` more bytes of the tree being built; throws past the budget.
  void Charge(size_t n) {
    bytes_ += n;
    if (bytes_ > limits_.max_bytes) throw TooBig{};
  }

  void Convert(const YAML::Node& y, Node* out, int depth) {
    if (++count_ > limits_.max_nodes) throw TooBig{};
    out->pos = Pos(y.Mark());
    if (depth > limits_.max_depth) throw TooDeep{out->pos};
    const std::string& tag = y.Tag();
    Charge(sizeof(Node) + tag.size());
    if (!tag.empty() && tag != "?" && tag != "!") out->tag = tag;
    switch (y.Type()) {
      case YAML::NodeType::Scalar:
        out->kind = Node::Kind::kScalar;
        // Charged before the copy: an alias of a large string costs its size at every use.
        Charge(y.Scalar().size());
        out->text = y.Scalar();
        out->quoted = tag == "!";
        break;
      case YAML::NodeType::Sequence:
        out->kind = Node::Kind::kSeq;
        out->items.reserve(y.size());
        for (const auto& item : y) {
          out->items.emplace_back();
          Convert(item, &out->items.back(), depth + 1);
        }
        break;
      case YAML::NodeType::Map: {
        out->kind = Node::Kind::kMap;
        std::set<std::string> seen;
        std::vector<Node> merged;  // the maps of `<<` merge keys, in order
        for (const auto& kv : y) {
          if (kv.first.IsScalar()) Charge(kv.first.Scalar().size() + sizeof(Node::Entry) + sizeof(SourcePos));
          std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
          SourcePos kpos = Pos(kv.first.Mark());
          if (!seen.insert(key).second) {
            errors_->push_back({"duplicate key '" + key + "'", kpos});
            continue;
          }
          if (key == "<<" && kv.first.Tag() != "!" && (kv.second.IsMap() || kv.second.IsSequence())) {
            Node m;
            Convert(kv.second, &m, depth + 1);
            if (m.is_map()) merged.push_back(std::move(m));
            for (Node& item : m.items) {
              if (item.is_map()) merged.push_back(std::move(item));
            }
            continue;
          }
          out->entries.emplace_back(key, Node{});
          out->key_pos.push_back(kpos);
          Convert(kv.second, &out->entries.back().second, depth + 1);
        }
        Merge(out, merged);
        break;
      }
      default:
        out->kind = Node::Kind::kNull;
        // A tag with no value (`Key: !Ref`) still counts as a scalar of that tag.
        if (!out->tag.empty()) out->kind = Node::Kind::kScalar;
        break;
    }
  }

 private:
  // YAML merge keys (`<<: *base`, `<<: [*a, *b]`): keys written in the map win,
  // then the earlier merged map. Merged copies count towards the node limit.
  void Merge(Node* out, std::vector<Node>& merged) {
    for (Node& m : merged) {
      for (size_t i = 0; i < m.entries.size(); ++i) {
        if (out->Get(m.entries[i].first)) continue;
        count_ += Size(m.entries[i].second, 0);
        if (count_ > limits_.max_nodes) throw TooBig{};
        out->entries.push_back(std::move(m.entries[i]));
        out->key_pos.push_back(m.key_pos[i]);
      }
    }
  }
  size_t Size(const Node& n, int depth) const {
    size_t s = 1;
    if (depth > limits_.max_depth) return s;
    for (const Node& i : n.items) s += Size(i, depth + 1);
    for (const auto& e : n.entries) s += Size(e.second, depth + 1);
    return s;
  }

  int line_offset_;
  LoadLimits limits_;
  std::vector<LoadError>* errors_;
  size_t count_ = 0;
  size_t bytes_ = 0;
};

std::string_view StripIndent(std::string_view s) {
  size_t i = s.find_first_not_of(" \t");
  return i == std::string_view::npos ? std::string_view() : s.substr(i);
}

// "!Sub |", "!Sub >-", "!Base64 |+": a tag followed only by a block indicator.
bool IsLoneTaggedBlock(std::string_view line) {
  std::string_view s = StripIndent(line);
  if (s.size() < 3 || s[0] != '!') return false;
  size_t sp = s.find(' ');
  if (sp == std::string_view::npos) return false;
  std::string_view rest = StripIndent(s.substr(sp));
  while (!rest.empty() && (rest.back() == ' ' || rest.back() == '\r')) rest.remove_suffix(1);
  if (rest.empty() || (rest[0] != '|' && rest[0] != '>')) return false;
  for (char c : rest.substr(1)) {
    if (c != '-' && c != '+' && !(c >= '1' && c <= '9')) return false;
  }
  return true;
}

// Flow collections nested deeper than the limit, found by a cheap scan before
// yaml-cpp (which gives up on deep input with a message that says nothing).
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

// Counts the nodes of the documents in a text with yaml-cpp's event parser,
// which builds nothing: a document too large to convert is refused before
// yaml-cpp's own tree (several hundred bytes per node) is built.
class NodeCounter : public YAML::EventHandler {
 public:
  size_t count = 0;
  void OnDocumentStart(const YAML::Mark&) override {}
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override { ++count; }
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override { ++count; }
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override { ++count; }
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++count;
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    ++count;
  }
  void OnMapEnd() override {}
};

// Texts below this size cannot build a tree big enough to matter; larger ones are counted first.
constexpr size_t kCountAbove = 1u << 20;

bool MoreNodesThan(const std::string& text, size_t max_nodes) {
  std::istringstream in(text);
  YAML::Parser parser(in);
  NodeCounter counter;
  try {
    while (parser.HandleNextDocument(counter)) {
      if (counter.count > max_nodes) return true;
    }
  } catch (const YAML::Exception&) {
    // Loading reports the error with its position.
  }
  return counter.count > max_nodes;
}

}  // namespace

std::string FixTaggedBlockScalars(std::string_view text) {
  if (text.find('!') == std::string_view::npos) return std::string(text);
  std::vector<std::string> lines;
  size_t start = 0;
  while (start <= text.size()) {
    size_t nl = text.find('\n', start);
    if (nl == std::string_view::npos) nl = text.size();
    lines.emplace_back(text.substr(start, nl - start));
    start = nl + 1;
  }
  bool changed = false;
  for (size_t i = 1; i < lines.size(); ++i) {
    if (!IsLoneTaggedBlock(lines[i])) continue;
    // The previous non-blank line must be a key with no value: "Key:".
    size_t j = i;
    while (j > 0 && StripIndent(lines[j - 1]).empty()) --j;
    if (j == 0) continue;
    std::string& prev = lines[j - 1];
    std::string_view p = prev;
    while (!p.empty() && (p.back() == ' ' || p.back() == '\r')) p.remove_suffix(1);
    if (p.empty() || p.back() != ':') continue;
    bool cr = !prev.empty() && prev.back() == '\r';
    prev = std::string(p) + " " + std::string(StripIndent(lines[i]));
    while (!prev.empty() && (prev.back() == ' ' || prev.back() == '\r')) prev.pop_back();
    if (cr) prev += '\r';
    lines[i].clear();
    changed = true;
  }
  if (!changed) return std::string(text);
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) out += '\n';
    out += lines[i];
  }
  return out;
}

namespace {

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
  std::string fixed = FixTaggedBlockScalars(text);
  try {
    if (fixed.size() > kCountAbove && MoreNodesThan(fixed, limits.max_nodes)) throw TooManyNodes{};
    std::vector<YAML::Node> docs = all ? YAML::LoadAll(fixed) : std::vector<YAML::Node>{YAML::Load(fixed)};
    Converter c(line_offset, limits, errors);
    for (const YAML::Node& d : docs) {
      out->emplace_back();
      c.Convert(d, &out->back(), 0);
    }
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
  } catch (const YAML::Exception& e) {
    SourcePos pos{e.mark.line >= 0 ? e.mark.line + 1 + line_offset : 1 + line_offset,
                  e.mark.column >= 0 ? e.mark.column + 1 : 1};
    errors->push_back({e.msg, pos});
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

}  // namespace sagelint::cfn
