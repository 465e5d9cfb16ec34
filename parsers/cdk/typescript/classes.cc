// Classes of the CDK app evaluator (evaluator.h): a class declaration or
// expression and its base, `new` of an app class with its constructor run
// (field initializers, `super(...)`) on the caller's arguments.
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {

Value Evaluator::MakeClass(TSNode n, const std::shared_ptr<Scope>& scope) {
  Value v;
  v.k = K::kClass;
  v.cls = std::make_shared<Class>();
  v.cls->body = ts::Field(n, "body");
  v.cls->file = frame_->file;
  v.cls->scope = scope;
  v.cls->base.k = K::kUndefined;
  TSNode name = ts::Field(n, "name");
  if (!ts_node_is_null(name)) v.cls->name = std::string(T(name));
  for (TSNode c : NamedChildren(n)) {
    if (ts::Type(c) == "class_heritage") {
      for (TSNode e : NamedChildren(c)) {
        if (ts::Type(e) == "extends_clause") v.cls->base = Eval(ts::Field(e, "value"), scope);
      }
    } else if (ts::Type(c) == "extends_clause") {  // JavaScript form
      v.cls->base = Eval(ts::Field(c, "value"), scope);
    }
  }
  v.pos = ts::Start(n);
  v.file = frame_->file;
  return v;
}

Value Evaluator::New(TSNode n, const std::shared_ptr<Scope>& scope) {
  SourcePos at = ts::Start(n);
  Value callee = Eval(ts::Field(n, "constructor"), scope);
  Args args = EvalArgs(ts::Field(n, "arguments"), scope);
  if (Spent()) return Unknown(at, frame_->file);
  if (callee.k == K::kClass) return Instantiate(callee, args, n);
  if (callee.k == K::kCdk && !callee.path.empty()) return NewCdk(callee, args, n);
  if (callee.k == K::kExternal && callee.text == "constructs" && callee.path == std::vector<std::string>{"Construct"}) {
    Value v;
    v.k = K::kObject;
    v.obj = NewObj();
    v.obj->complete = false;
    v.obj->stack = args.values.empty() ? current_stack_ : StackOf(args.values[0]);
    return v;
  }
  return Unknown(at, frame_->file);
}

Value Evaluator::Instantiate(const Value& callee, const Args& args, TSNode n) {
  Value self;
  self.k = K::kObject;
  self.obj = NewObj();
  self.obj->cls = callee.cls;
  self.obj->complete = false;
  self.pos = ts::Start(n);
  self.file = frame_->file;
  int saved_stack = current_stack_;
  // Two stacks of one id in one scope are refused by the CDK, so both
  // branches of an unknown condition that create it stand for one stack.
  std::pair<const void*, std::string> key;
  bool stack = IsStackClass(callee);
  if (stack && args.values.size() >= 2 && args.values[1].k == K::kStr) {
    key = {args.values[0].obj.get(), args.values[1].text};
    auto it = stack_instances_.find(key);
    if (it != stack_instances_.end()) return it->second;
  }
  if (stack) {
    self.obj->is_stack = true;
    self.obj->stack = RecordStack(args, n);
  } else {
    self.obj->stack = args.values.empty() ? current_stack_ : StackOf(args.values[0]);
  }
  current_stack_ = self.obj->stack;
  if (!key.second.empty()) stack_instances_[key] = self;
  RunConstructor(callee.cls, self, args, ts::Start(n), 0);
  current_stack_ = saved_stack;
  return self;
}

void Evaluator::RunConstructor(const std::shared_ptr<Class>& cls, const Value& self, const Args& args, SourcePos at,
                               int depth) {
  if (!cls || depth > 32 || Spent()) return;
  if (call_depth_ >= kMaxCallDepth) {
    Stop(frame_->file, at, "CDK app calls nest deeper than " + std::to_string(kMaxCallDepth) + " levels");
    return;
  }
  ++call_depth_;
  Frame fr;
  fr.file = cls->file;
  fr.self = self;
  fr.home = cls;
  Frame* saved = frame_;
  frame_ = &fr;
  auto scope = NewScope();
  scope->parent = cls->scope;
  // Field initializers, then the constructor (the base's first when there is none).
  std::optional<TSNode> ctor;
  for (TSNode m : NamedChildren(cls->body)) {
    std::string_view t = ts::Type(m);
    if (t == "public_field_definition" || t == "field_definition") {
      TSNode name = ts::Field(m, "name");
      if (ts_node_is_null(name)) name = ts::Field(m, "property");
      TSNode value = ts::Field(m, "value");
      if (ts_node_is_null(name) || ts_node_is_null(value) || T(m).starts_with("static")) continue;
      self.obj->Set(std::string(T(name)), Eval(value, scope), ts::Start(m));
    } else if (t == "method_definition") {
      TSNode name = ts::Field(m, "name");
      if (!ts_node_is_null(name) && T(name) == "constructor") ctor = m;
    }
  }
  if (ctor) {
    BindParams(ts::Field(*ctor, "parameters"), args, scope, self);
    TSNode body = ts::Field(*ctor, "body");
    if (!ts_node_is_null(body)) {
      Hoist(body, scope);
      ExecStatements(body, scope);
    }
  } else if (cls->base.k == K::kClass) {
    frame_ = saved;
    RunConstructor(cls->base.cls, self, args, at, depth + 1);
  }
  frame_ = saved;
  --call_depth_;
}

}  // namespace sagelint::cdk::typescript
