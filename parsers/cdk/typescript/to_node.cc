// Values of the CDK app evaluator handed over to the app model
// (evaluator.h): a value as a document node, with the token range of a
// literal kept only inside the construct call being converted.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/aws/request.h"
#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {

// Takes the token range off what does not lie inside the construct call whose props
// are being converted (or off everything, outside such a conversion).
void Evaluator::KeepLiteralsWithin(cfn::Node* n) const {
  if (n->end.valid() && (n->offset < literal_call_.first || n->end_offset > literal_call_.second)) {
    n->end = {};
    n->offset = n->end_offset = 0;
  }
  for (auto& e : n->entries) KeepLiteralsWithin(&e.second);
  for (auto& i : n->items) KeepLiteralsWithin(&i);
}

// `n` with the range of the literal token `v` is written as, when that lies
// inside the construct call whose props are being converted.
cfn::Node Evaluator::Literal(const Value& v, cfn::Node n) const {
  if (v.lit_end > v.lit_begin && v.file == frame_->file && v.lit_begin >= literal_call_.first &&
      v.lit_end <= literal_call_.second) {
    n.end = v.lit_end_pos;
    n.offset = v.lit_begin;
    n.end_offset = v.lit_end;
  }
  return n;
}

// The value as a document node; `at` is where it is used (for values
// written in another file).
cfn::Node Evaluator::ToNode(const Value& v, SourcePos at, int depth) {
  if (depth == 0) node_budget_ = kMaxNodes;
  SourcePos pos = v.file == frame_->file && v.pos.valid() ? v.pos : at;
  if (depth > kMaxNodeDepth || node_budget_-- <= 0)
    return cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false);
  switch (v.k) {
    case K::kStr:
      return Literal(v, cfn::MakeScalar(v.text, pos, true));
    case K::kNum:
    case K::kBool:
      return Literal(v, cfn::MakeScalar(v.text, pos, false));
    case K::kNull:
    case K::kUndefined: {
      cfn::Node n;
      n.pos = pos;
      return n;
    }
    case K::kConstruct: {
      cfn::Node n = cfn::MakeScalar(std::to_string(v.index), pos, false);
      n.tag = std::string(kConstructTag);
      return n;
    }
    case K::kAttr: {
      cfn::Node n;
      n.kind = cfn::Node::Kind::kMap;
      n.tag = std::string(kAttributeTag);
      n.pos = pos;
      n.entries.emplace_back("construct", cfn::MakeScalar(std::to_string(v.index), pos, false));
      n.key_pos.push_back(pos);
      n.entries.emplace_back("attribute", cfn::MakeScalar(v.text, pos, true));
      n.key_pos.push_back(pos);
      return n;
    }
    case K::kJoin: {
      cfn::Node list;
      list.kind = cfn::Node::Kind::kSeq;
      list.pos = pos;
      for (const auto& p : v.items) list.items.push_back(ToNode(p, pos, depth + 1));
      std::vector<cfn::Node> args;
      args.push_back(cfn::MakeScalar("", pos, true));
      args.push_back(std::move(list));
      return Intrinsic("Fn::Join", std::move(args), pos);
    }
    case K::kNode:
      if (v.node) {
        cfn::Node n = *v.node;
        if (v.file != frame_->file) cfn::Relocate(&n, at);
        KeepLiteralsWithin(&n);
        return n;
      }
      break;
    case K::kObject: {
      if (!v.obj || v.obj->cls || v.obj->is_app) break;
      cfn::Node n;
      n.pos = pos;
      if (v.obj->array) {
        n.kind = cfn::Node::Kind::kSeq;
        for (const auto& f : v.obj->fields) n.items.push_back(ToNode(f.second, pos, depth + 1));
        if (!v.obj->complete) n.items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false));
      } else {
        n.kind = cfn::Node::Kind::kMap;
        for (size_t i = 0; i < v.obj->fields.size(); ++i) {
          const auto& f = v.obj->fields[i];
          if (f.second.k == K::kUndefined || f.second.k == K::kFunction) continue;
          SourcePos kp = v.obj->file == frame_->file && v.obj->key_pos[i].valid() ? v.obj->key_pos[i] : pos;
          n.entries.emplace_back(f.first, ToNode(f.second, kp, depth + 1));
          n.key_pos.push_back(kp);
        }
      }
      return n;
    }
    default:
      break;
  }
  return cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false);
}

}  // namespace sagelint::cdk::typescript
