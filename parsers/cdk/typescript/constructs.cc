// CDK constructs in the CDK app evaluator (evaluator.h): `new` of a class
// of the CDK library, recorded in the app (apps, stacks, nested stacks and
// constructs with their props), and the stack a scope argument belongs to.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {

bool Evaluator::IsStackClass(const Value& c, int depth) {
  if (depth > 64) return false;
  if (c.k == K::kCdk)
    return c.text == "core" && c.path.size() == 1 && (c.path[0] == "Stack" || c.path[0] == "NestedStack");
  if (c.k == K::kClass && c.cls) return IsStackClass(c.cls->base, depth + 1);
  return false;
}

// The stack a scope argument belongs to.
int Evaluator::StackOf(const Value& scope) const {
  if (scope.k == K::kObject && scope.obj) return scope.obj->stack;
  if (scope.k == K::kConstruct && scope.index >= 0) return app_.constructs[scope.index].stack;
  return current_stack_;
}

bool Evaluator::ScopeLike(const Value& v) {
  return (v.k == K::kObject && v.obj && (v.obj->cls || v.obj->is_app || v.obj->stack >= 0 || v.obj->is_stack)) ||
         v.k == K::kConstruct || v.k == K::kUnknown;
}

Value Evaluator::NewCdk(const Value& callee, const Args& args, TSNode n) {
  SourcePos at = ts::Start(n);
  const std::string& module = callee.text;
  const std::string& cls = callee.path.back();
  if (module == "core" && callee.path.size() == 1 && (cls == "App" || cls == "Stack" || cls == "NestedStack")) {
    if (cls == "App") {
      Value v;
      v.k = K::kObject;
      v.obj = NewObj();
      v.obj->is_app = true;
      v.obj->complete = false;
      return v;
    }
    if (cls == "Stack" || cls == "NestedStack") {
      Value v;
      v.k = K::kObject;
      v.obj = NewObj();
      v.obj->is_stack = true;
      v.obj->complete = false;
      v.obj->stack = RecordStack(args, n);
      return v;
    }
  }
  std::vector<cfn::Node> nodes;
  for (const auto& a : args.values) nodes.push_back(ToNode(a, at, 0));
  if (callee.path.size() == 1) {
    if (auto node = CallValue(module, cls, "", nodes, at)) {
      // `new ec2.InstanceType('m4.xlarge')`: the type is its one literal (a fix edits it
      // where the call stands inside a construct's props; docs/cdk.md "Fixes").
      const Value* arg = args.values.size() == 1 ? &args.values[0] : nullptr;
      if (module == "ec2" && cls == "InstanceType" && node->is_scalar() && arg && arg->k == K::kStr &&
          arg->lit_end > arg->lit_begin && arg->file == frame_->file) {
        node->end = arg->lit_end_pos;
        node->offset = arg->lit_begin;
        node->end_offset = arg->lit_end;
      }
      return NodeValue(std::move(*node), callee, at);
    }
  }
  if (module == "core" && cls != "CfnParameter") return Unknown(at, frame_->file);
  Construct c;
  c.module = module;
  c.cls = cls;
  c.conditions = branch_conds_;
  c.file = frame_->file;
  c.call = Range(n);
  // `new X(scope, id, props)`: an id is a string (not `new SfnStateMachine(machine, {…})`).
  bool scoped = args.values.size() >= 2 && ScopeLike(args.values[0]) &&
                (args.values[1].k == K::kStr || args.values[1].k == K::kUnknown || args.values[1].k == K::kJoin);
  if (scoped) {
    c.stack = StackOf(args.values[0]);
    if (args.values[1].k == K::kStr) c.id = args.values[1].text;
    // A scalar written as one literal token inside the call keeps the token's
    // range: a fix may edit it there (docs/cdk.md "Fixes").
    literal_call_ = {ts_node_start_byte(n), ts_node_end_byte(n)};
    if (args.values.size() >= 3) c.props = ToNode(args.values[2], at, 0);
    literal_call_ = {0, 0};
  } else if (module == "iam" && (cls == "PolicyStatement" || cls == "PolicyDocument")) {
    c.stack = current_stack_;
    if (!args.values.empty()) c.props = ToNode(args.values[0], at, 0);
  } else {
    return Unknown(at, frame_->file);
  }
  Value v;
  v.k = K::kConstruct;
  v.index = static_cast<int>(app_.constructs.size());
  v.pos = at;
  v.file = frame_->file;
  app_.constructs.push_back(std::move(c));
  return v;
}

Value Evaluator::NodeValue(cfn::Node node, const Value& from, SourcePos at) {
  Value v;
  v.k = K::kNode;
  v.node = std::make_shared<cfn::Node>(std::move(node));
  v.text = from.text;
  v.path = from.path;
  v.pos = at;
  v.file = frame_->file;
  return v;
}

int Evaluator::RecordStack(const Args& args, TSNode n) {
  Stack s;
  if (args.values.size() >= 2 && args.values[1].k == K::kStr) s.id = args.values[1].text;
  s.file = frame_->file;
  s.call = Range(n);
  app_.stacks.push_back(std::move(s));
  return static_cast<int>(app_.stacks.size()) - 1;
}

}  // namespace sagelint::cdk::typescript
