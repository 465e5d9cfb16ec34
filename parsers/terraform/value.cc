#include "parsers/terraform/value.h"

#include <algorithm>
#include <cctype>

#include "parsers/aws/request.h"

namespace sagelint::tf {

const TfVal* TfVal::Get(std::string_view key) const {
  if (kind != Kind::kMap) return nullptr;
  for (const auto& [k, v] : fields) {
    if (k == key) return &v;
  }
  return nullptr;
}

bool TfVal::FullyKnown() const {
  switch (kind) {
    case Kind::kStr:
    case Kind::kNum:
    case Kind::kBool:
    case Kind::kNull:
      return true;
    case Kind::kList:
      for (const TfVal& i : items) {
        if (!i.FullyKnown()) return false;
      }
      return true;
    case Kind::kMap:
      if (dynamic) return false;
      for (const auto& f : fields) {
        if (!f.second.FullyKnown()) return false;
      }
      return true;
    default:
      return false;
  }
}

const TfVal* TfVal::Block(std::string_view key) const {
  const TfVal* v = Get(key);
  if (v && v->kind == Kind::kList) return v->items.empty() ? nullptr : &v->items[0];
  return v && v->kind == Kind::kMap ? v : nullptr;
}

bool TfVal::MayAddBlock(std::string_view key) const {
  if (!dynamic) return false;
  return dynamic_blocks.empty() || std::find(dynamic_blocks.begin(), dynamic_blocks.end(), key) != dynamic_blocks.end();
}

void TfVal::AddDynamic(const TfVal& other) {
  if (!other.dynamic) return;
  if (!dynamic) {
    dynamic_blocks = other.dynamic_blocks;
  } else if (dynamic_blocks.empty() || other.dynamic_blocks.empty()) {
    dynamic_blocks.clear();
  } else {
    dynamic_blocks.insert(dynamic_blocks.end(), other.dynamic_blocks.begin(), other.dynamic_blocks.end());
  }
  dynamic = true;
}

std::vector<const TfVal*> TfVal::Blocks(std::string_view key) const {
  std::vector<const TfVal*> out;
  const TfVal* v = Get(key);
  if (!v) return out;
  if (v->kind == Kind::kMap) out.push_back(v);
  if (v->kind == Kind::kList) {
    for (const TfVal& i : v->items) {
      if (i.kind == Kind::kMap) out.push_back(&i);
    }
  }
  return out;
}

Val ToVal(const TfVal* v, std::string_view home) {
  if (!v || v->kind == TfVal::Kind::kNull) return v ? Val::Absent(v->range) : Val::Absent();
  if (v->known()) {
    Val out = Val::Known(v->text, v->range, v->origin);
    if (v->literal && v->src.valid() && !v->src_path.empty()) {
      out.literal = v->src;
      if (v->src_path != home) out.literal_path = v->src_path;
    }
    return out;
  }
  if (v->kind == TfVal::Kind::kCond && v->items.size() == 2) {
    // An alternative is never a fix's literal: the other one may apply.
    Val yes = ToVal(&v->items[0], home);
    Val no = ToVal(&v->items[1], home);
    for (Val* alt : {&yes, &no}) {
      alt->literal = {};
      alt->literal_path.clear();
    }
    yes.condition = "when " + v->condition + " is true";
    no.condition = "when " + v->condition + " is false";
    if (!yes.range.valid()) yes.range = v->range;
    if (!no.range.valid()) no.range = v->range;
    return Val::OneOf({yes, no}, v->range);
  }
  return Val::Unknown(v->range, v->origin);
}

void ClearLiteral(TfVal& v) {
  std::vector<TfVal*> todo{&v};
  while (!todo.empty()) {
    TfVal* x = todo.back();
    todo.pop_back();
    x->literal = false;
    for (TfVal& i : x->items) todo.push_back(&i);
    for (auto& f : x->fields) todo.push_back(&f.second);
  }
}

std::string PascalCase(std::string_view snake) {
  std::string out;
  bool up = true;
  for (size_t i = 0; i < snake.size(); ++i) {
    char c = snake[i];
    if (c == '_') {
      up = true;
      continue;
    }
    // The API spells gigabytes "GB" ("VolumeSizeInGB").
    if (up && snake.substr(i, 2) == "gb" && (i + 2 == snake.size() || snake[i + 2] == '_')) {
      out += "GB";
      ++i;
      up = false;
      continue;
    }
    out += up ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    up = false;
  }
  return out;
}

cfn::Node ToNode(const TfVal& v, bool pascal, bool* complete) {
  cfn::Node n;
  n.pos = v.range.begin;
  switch (v.kind) {
    case TfVal::Kind::kMap:
      n.kind = cfn::Node::Kind::kMap;
      if (v.dynamic) *complete = false;
      for (const auto& [k, x] : v.fields) {
        n.entries.emplace_back(pascal ? PascalCase(k) : k, ToNode(x, pascal, complete));
        n.key_pos.push_back(x.range.begin);
      }
      return n;
    case TfVal::Kind::kList:
      n.kind = cfn::Node::Kind::kSeq;
      for (const TfVal& x : v.items) n.items.push_back(ToNode(x, pascal, complete));
      return n;
    case TfVal::Kind::kNull:
      n.kind = cfn::Node::Kind::kNull;
      return n;
    default:
      n.kind = cfn::Node::Kind::kScalar;
      if (v.known()) {
        n.text = v.text;
        n.tag = v.origin;
      } else {
        n.text = std::string(aws::kUnknownMarker);
      }
      return n;
  }
}

}  // namespace sagelint::tf
