// What the Terraform evaluator's files share (eval_shared.h): reading the
// HCL tree (blocks, labels, attributes), values built from plain JSON, and the
// form of an instance key.
#include "parsers/terraform/eval_shared.h"

#include <cstdlib>

#include "parsers/terraform/eval.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

namespace fs = std::filesystem;
using K = TfVal::Kind;

}  // namespace

TSNode Body(TSNode root) {
  if (Type(root) == "body") return root;
  uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(root, i)) == "body") return ts_node_named_child(root, i);
  }
  return TSNode{};
}

std::vector<std::string> Labels(TSNode block, const HclFile& f) {
  std::vector<std::string> labels;
  uint32_t n = ts_node_named_child_count(block);
  for (uint32_t i = 1; i < n; ++i) {
    TSNode c = ts_node_named_child(block, i);
    if (Type(c) == "string_lit") {
      std::string_view t = ts::Text(c, f.text);
      labels.emplace_back(t.size() >= 2 ? t.substr(1, t.size() - 2) : t);
    } else if (Type(c) == "identifier") {
      labels.emplace_back(ts::Text(c, f.text));
    }
  }
  return labels;
}

TSNode BlockBody(TSNode block) {
  uint32_t n = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(block, i)) == "body") return ts_node_named_child(block, i);
  }
  return TSNode{};
}

std::string BlockKind(TSNode block, const HclFile& f) {
  return std::string(ts::Text(ts_node_named_child(block, 0), f.text));
}

// The attribute `name` of a block body, or a null node.
TSNode AttributeExpr(TSNode body, const HclFile& f, std::string_view name) {
  if (ts_node_is_null(body)) return TSNode{};
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(body, i);
    if (Type(a) == "attribute" && ts::Text(ts_node_named_child(a, 0), f.text) == name) return ts_node_named_child(a, 1);
  }
  return TSNode{};
}
bool ReadLimited(const FileSource& files, const fs::path& p, size_t limit, std::string* out) {
  std::string error;  // a regular file of at most `limit` bytes, or nothing
  return files.Read(p.string(), limit, out, &error);
}

bool IsNumberText(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// How Terraform writes an instance key in an address: [0] or ["key"].
std::string InstanceSuffix(const TfVal& key) {
  if (key.kind == K::kNum) return "[" + key.text + "]";
  std::string out = "[\"";
  for (char c : key.text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"]";
}

TfVal MapOf(std::vector<std::pair<std::string, TfVal>> fields) {
  TfVal v;
  v.kind = K::kMap;
  for (auto& [k, x] : fields) v.fields.emplace_back(k, std::move(x));
  return v;
}

// Plain JSON (tfvars.json, jsondecode) as values: unquoted numbers, booleans and null keep their type.
TfVal JsonValue(const cfn::Node& n, SourceRange at, int depth) {
  TfVal v;
  v.range = n.pos.valid() ? SourceRange{n.pos, n.pos} : at;
  if (depth > kMaxDepth) return v;
  switch (n.kind) {
    case cfn::Node::Kind::kNull:
      v.kind = K::kNull;
      return v;
    case cfn::Node::Kind::kSeq:
      v.kind = K::kList;
      for (const cfn::Node& i : n.items) v.items.push_back(JsonValue(i, at, depth + 1));
      return v;
    case cfn::Node::Kind::kMap:
      v.kind = K::kMap;
      for (const auto& [k, x] : n.entries) v.fields.emplace_back(k, JsonValue(x, at, depth + 1));
      return v;
    default:
      if (!n.quoted && (n.text == "true" || n.text == "false")) return MakeKnown(K::kBool, n.text, v.range);
      if (!n.quoted && IsNumberText(n.text)) return MakeKnown(K::kNum, n.text, v.range);
      if (!n.quoted && n.text == "null") return MakeNull(v.range);
      return MakeKnown(K::kStr, n.text, v.range);
  }
}

}  // namespace sagelint::tf
