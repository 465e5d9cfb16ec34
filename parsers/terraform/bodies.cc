// Block bodies and templates of the Terraform evaluator (eval.h): a body's
// attributes and nested blocks, dynamic blocks, the JSON syntax (.tf.json)
// with its ${...} interpolations, and string templates and heredocs.
#include <algorithm>
#include <sstream>

#include "parsers/common/escapes.h"
#include "parsers/terraform/eval.h"
#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

using K = TfVal::Kind;

TSNode InterpolationExpr(TSNode interpolation) {
  uint32_t n = ts_node_named_child_count(interpolation);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(interpolation, i)) == "expression") return ts_node_named_child(interpolation, i);
  }
  return TSNode{};
}

std::string Dedent(const std::string& s) {
  size_t common = std::string::npos;
  std::istringstream in(s);
  std::string line;
  while (std::getline(in, line)) {
    size_t ind = line.find_first_not_of(" \t");
    if (ind == std::string::npos) continue;
    common = std::min(common, ind);
  }
  if (common == std::string::npos || common == 0) return s;
  std::string out;
  std::istringstream again(s);
  while (std::getline(again, line)) {
    out += line.size() >= common ? line.substr(common) : std::string();
    out += '\n';
  }
  if (!s.empty() && s.back() != '\n' && !out.empty()) out.pop_back();
  return out;
}

// A quoted template's literal text: its escapes decoded, and an escaped
// interpolation or directive ($${, %%{) the literal ${ or %{ it stands for.
std::string TemplateLiteral(std::string_view written) {
  std::string out = DecodeEscapes(written);
  for (const char* esc : {"$${", "%%{"}) {
    for (size_t p = out.find(esc); p != std::string::npos; p = out.find(esc, p + 2)) out.erase(p, 1);
  }
  return out;
}

}  // namespace

TfVal Module::BodyValue(TSNode body, const HclFile& f, int depth, bool resource) {
  TfVal m;
  m.kind = K::kMap;
  if (ts_node_is_null(body) || depth > kMaxDepth) return m;
  m.range = {ts::Start(body), ts::Start(body)};
  m.src_path = f.path;
  m.src = m.range;
  static const std::set<std::string_view> kMetaAttrs = {"count", "for_each", "depends_on", "provider"};
  static const std::set<std::string_view> kMetaBlocks = {"lifecycle", "provisioner", "connection"};
  auto append = [&](const std::string& key, TfVal child) {
    auto it = std::find_if(m.fields.begin(), m.fields.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == m.fields.end()) {
      TfVal list;
      list.kind = K::kList;
      list.range = child.range;
      list.items.push_back(std::move(child));
      m.fields.emplace_back(key, std::move(list));
    } else {
      it->second.items.push_back(std::move(child));
    }
  };
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) == "attribute") {
      std::string key(ts::Text(ts_node_named_child(c, 0), f.text));
      if (resource && kMetaAttrs.count(key)) continue;
      m.fields.emplace_back(key, Eval(ts_node_named_child(c, 1), f, depth + 1));
    } else if (Type(c) == "block") {
      std::string key = BlockKind(c, f);
      if (resource && kMetaBlocks.count(key)) continue;
      if (key == "dynamic") {
        TfVal blocks;
        DynamicBlock(c, f, depth, &blocks);
        m.AddDynamic(blocks);
        for (auto& [name, list] : blocks.fields) {
          for (TfVal& item : list.items) append(name, std::move(item));
        }
        continue;
      }
      TfVal child = BodyValue(BlockBody(c), f, depth + 1, false);
      child.range = {ts::Start(c), ts::Start(c)};
      child.block = Range(c);
      append(key, std::move(child));
    }
  }
  return m;
}

// `dynamic "name" { for_each = …, iterator = it, content { … } }`: one block per
// element of a known collection; an unknown collection leaves the body incomplete.
void Module::DynamicBlock(TSNode block, const HclFile& f, int depth, TfVal* into) {
  into->kind = K::kMap;
  std::vector<std::string> labels = Labels(block, f);
  TSNode body = BlockBody(block);
  if (labels.empty() || ts_node_is_null(body)) {
    into->dynamic = true;
    return;
  }
  const std::string& name = labels[0];
  TSNode content{};
  for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) == "block" && BlockKind(c, f) == "content") content = c;
  }
  std::string iterator = name;
  TSNode it = AttributeExpr(body, f, "iterator");
  if (!ts_node_is_null(it)) iterator = std::string(ts::Text(it, f.text));
  TfVal collection = Eval(AttributeExpr(body, f, "for_each"), f, depth + 1);
  auto els = collection.error ? std::nullopt : Elements(collection);
  if (!els || ts_node_is_null(content)) {
    into->dynamic = true;
    into->dynamic_blocks = {name};  // only blocks of its name
    return;
  }
  TfVal list;
  list.kind = K::kList;
  for (auto& [k, v] : *els) {
    if (unit_.literal()) {  // past the budget: what the blocks would add is unknown
      into->dynamic = true;
      into->dynamic_blocks = {name};
      return;
    }
    TfVal key = collection.kind == K::kList && v.known() ? v : k;
    scope_.emplace_back(iterator, MapOf({{"key", key}, {"value", v}}));
    TfVal child = BodyValue(BlockBody(content), f, depth + 1, false);
    child.range = {ts::Start(block), ts::Start(block)};
    scope_.pop_back();
    list.items.push_back(std::move(child));
  }
  into->fields.emplace_back(name, std::move(list));
}

TfVal Module::FromJson(const cfn::Node& n, const HclFile& f, int depth, bool interpolate) {
  TfVal v;
  v.range = {n.pos, n.pos};
  if (depth > kMaxDepth) return v;
  switch (n.kind) {
    case cfn::Node::Kind::kNull:
      v.kind = K::kNull;
      break;
    case cfn::Node::Kind::kSeq:
      v.kind = K::kList;
      for (const cfn::Node& i : n.items) v.items.push_back(FromJson(i, f, depth + 1, interpolate));
      break;
    case cfn::Node::Kind::kMap:
      v.kind = K::kMap;
      for (const auto& [k, x] : n.entries) {
        if (k == "dynamic") {
          // `"dynamic": {"name": {…}}` adds only blocks of the names it lists.
          TfVal blocks;
          blocks.dynamic = true;
          if (x.is_map()) {
            for (const auto& entry : x.entries) blocks.dynamic_blocks.push_back(entry.first);
          }
          v.AddDynamic(blocks);
          continue;
        }
        v.fields.emplace_back(k, FromJson(x, f, depth + 1, interpolate));
      }
      break;
    default:
      if (interpolate && n.text.find("${") != std::string::npos) {
        v = Interpolated(n.text, v.range, depth, f);
      } else if (!n.quoted && (n.text == "true" || n.text == "false")) {
        v = MakeKnown(K::kBool, n.text, v.range);
      } else if (!n.quoted && IsNumberText(n.text)) {
        v = MakeKnown(K::kNum, n.text, v.range);
      } else {
        v = MakeKnown(K::kStr, n.text, v.range);
      }
  }
  v.src_path = f.path;
  v.src = v.range;
  return v;
}

// A JSON string with ${…} interpolations, evaluated as an HCL template.
TfVal Module::Interpolated(const std::string& text, SourceRange at, int depth, const HclFile& from) {
  auto f = std::make_unique<HclFile>();
  f->path = from.path;
  f->abs = from.abs;
  f->root_path = from.root_path;
  std::string escaped;
  for (char c : text) {
    if (c == '"' || c == '\\') escaped += '\\';
    if (c == '\n') {
      escaped += "\\n";
      continue;
    }
    escaped += c;
  }
  f->text = "v = \"" + escaped + "\"\n";
  f->snippet = true;
  unit_.At(&from, at.begin);
  f->tree = ts::Parse(tree_sitter_hcl(), f->text);
  TfVal v = Unknown(at);
  if (!f->tree) return v;
  TSNode body = Body(ts_tree_root_node(f->tree.get()));
  if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return v;
  TSNode attr = ts_node_named_child(body, 0);
  v = Rehome(Eval(ts_node_named_child(attr, 1), *f, depth + 1), at);
  v.src = at;
  ClearLiteral(v);  // *.tf.json is not edited
  owned_.push_back(std::move(f));
  return v;
}

TfVal Module::Template(TSNode n, const HclFile& f, int depth, bool heredoc) {
  TfVal v = Unknown(Range(n));
  std::string text, link, shape;
  bool known = true, linkable = true, failed = false, plain = true;
  // A string past one value's limit stops growing: it is unknown.
  auto fits = [&](const std::string& a, const std::string& b, const std::string& c) {
    if (a.size() <= kMaxValueBytes && b.size() <= kMaxValueBytes && c.size() <= kMaxValueBytes) return true;
    unit_.TooLarge(v.range);
    return false;
  };
  auto append = [&](const TfVal& part) {
    if (part.error) failed = true;
    if (part.known()) {
      text += part.text;
      link += part.text;
      shape += part.text;
    } else {
      known = false;
      if (part.link.empty()) linkable = false;
      link += part.link;
      shape += part.shape.empty() ? std::string(1, kHole) : part.shape;
    }
  };
  uint32_t count = ts_node_named_child_count(n);
  if (!heredoc) {
    // "${x}" alone is x itself, of whatever type.
    std::vector<TSNode> parts;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      std::string_view t = Type(c);
      if (t == "template_literal" || t == "template_interpolation" || t == "template_directive") parts.push_back(c);
    }
    if (parts.size() == 1 && Type(parts[0]) == "template_interpolation") {
      TfVal x = Eval(InterpolationExpr(parts[0]), f, depth + 1);
      if (!x.range.valid()) x.range = v.range;
      ClearLiteral(x);
      return x;
    }
    for (TSNode c : parts) {
      std::string_view t = Type(c);
      if (t != "template_literal") plain = false;
      if (t == "template_literal") {
        std::string lit = TemplateLiteral(ts::Text(c, f.text));
        text += lit;
        link += lit;
        shape += lit;
      } else if (t == "template_interpolation") {
        append(Eval(InterpolationExpr(c), f, depth + 1));
      } else {
        known = linkable = false;
        shape += kHole;
      }
      if (!fits(text, link, shape)) return v;
    }
  } else {
    // The raw text between the two identifiers, with interpolations spliced in.
    TSNode open{}, close{};
    bool indent = ts::Text(n, f.text).substr(0, 3) == "<<-";
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) == "heredoc_identifier") (ts_node_is_null(open) ? open : close) = c;
    }
    if (ts_node_is_null(open) || ts_node_is_null(close)) return v;
    uint32_t pos = ts_node_end_byte(open);
    size_t nl = f.text.find('\n', pos);
    if (nl == std::string::npos) return v;
    pos = static_cast<uint32_t>(nl + 1);
    uint32_t end = ts_node_start_byte(close);
    std::string raw, raw_shape;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) == "template_interpolation" || Type(c) == "template_directive") {
        if (ts_node_start_byte(c) < pos) continue;
        raw.append(f.text, pos, ts_node_start_byte(c) - pos);
        raw_shape.append(f.text, pos, ts_node_start_byte(c) - pos);
        if (Type(c) == "template_directive") {
          known = linkable = false;
          raw_shape += kHole;
        } else {
          TfVal part = Eval(InterpolationExpr(c), f, depth + 1);
          if (part.error) failed = true;
          if (part.known()) {
            raw += part.text;
            raw_shape += part.text;
          } else {
            known = false;
            raw += part.link;
            raw_shape += kHole;
          }
          plain = false;
        }
        pos = ts_node_end_byte(c);
        if (!fits(raw, {}, raw_shape)) return v;
      }
    }
    if (end > pos) {
      raw.append(f.text, pos, end - pos);
      raw_shape.append(f.text, pos, end - pos);
    }
    // Drop the closing identifier's indentation line.
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.pop_back();
    if (indent) raw = Dedent(raw);
    // An escaped interpolation ($${x}, %%{x}) is literal text.
    for (std::string* s : {&raw, &raw_shape}) {
      for (const char* esc : {"$${", "%%{"}) {
        for (size_t p = s->find(esc); p != std::string::npos; p = s->find(esc, p + 2)) s->erase(p, 1);
      }
    }
    text = link = raw;
    shape = raw_shape;
  }
  if (failed) return MakeError(v.range, "a template part failed");
  // A string built from interpolations is new text (a literal one is the file's).
  if (!plain && !unit_.Charge({0, text.size() + link.size() + shape.size()}, v.range)) return v;
  TfVal out = v;
  if (known) {
    out = MakeKnown(K::kStr, text, v.range);
    out.literal = !heredoc && plain;
  } else {
    if (linkable) out.link = link;
    out.shape = shape;
  }
  if (heredoc) {
    // Its text begins on the line after the opening marker: documents parsed from it keep their lines.
    out.src_path = f.path;
    out.src = {{v.range.begin.line + 1, 1}, v.range.end};
  }
  return out;
}

}  // namespace sagelint::tf
