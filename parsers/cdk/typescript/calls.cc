// Functions and calls in the CDK app evaluator (evaluator.h): function
// values with the scope they close over, arguments (spread included),
// parameters bound with defaults and destructuring, calls of the app's
// functions, of the methods of constructs, arrays and strings, and calls into
// Node.js (`require`, `JSON`, `Buffer`, `path`, `fs`) and a node's `tryGetContext`.
#include <filesystem>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/cdk/typescript/evaluator.h"
#include "parsers/common/base64.h"

namespace sagelint::cdk::typescript {
namespace {

namespace fs = std::filesystem;

}  // namespace

// A function of the app: its node, where it is written, the scope it closes
// over, `this` (arrow functions, methods) and a method's class.
Value Evaluator::FunctionValue(TSNode node, int file, std::shared_ptr<Scope> scope, Value self,
                               std::shared_ptr<Class> home) {
  Value v;
  v.k = K::kFunction;
  v.fn = std::make_shared<Function>();
  v.fn->node = node;
  v.fn->file = file;
  v.fn->scope = std::move(scope);
  v.fn->self = std::move(self);
  v.fn->home = std::move(home);
  return v;
}

Evaluator::Args Evaluator::EvalArgs(TSNode args, const std::shared_ptr<Scope>& scope) {
  Args out;
  if (ts_node_is_null(args)) return out;
  if (ts::Type(args) == "template_string") {  // tagged template
    out.values.push_back(Eval(args, scope));
    return out;
  }
  for (TSNode c : NamedChildren(args)) {
    if (ts::Type(c) == "comment") continue;
    if (ts::Type(c) == "spread_element") {
      Value s = Eval(ts_node_named_child(c, 0), scope);
      if (s.k == K::kObject && s.obj && s.obj->array && s.obj->complete) {
        for (const auto& f : s.obj->fields) out.values.push_back(f.second);
      } else {
        out.spread_unknown = true;
        out.values.push_back(Unknown(ts::Start(c), frame_->file));
      }
      continue;
    }
    out.values.push_back(Eval(c, scope));
  }
  return out;
}

void Evaluator::BindParams(TSNode params, const Args& args, const std::shared_ptr<Scope>& scope, const Value& self) {
  if (ts_node_is_null(params)) return;
  if (ts::Type(params) == "identifier") {  // `x => …`
    Bind(params, args.values.empty() ? Undefined() : args.values[0], scope);
    return;
  }
  size_t k = 0;
  for (TSNode p : NamedChildren(params)) {
    std::string_view t = ts::Type(p);
    if (t != "required_parameter" && t != "optional_parameter") {
      if (t == "identifier" || t == "assignment_pattern" || t == "object_pattern" || t == "array_pattern") {
        Value v = k < args.values.size() ? args.values[k] : (args.spread_unknown ? Unknown() : Undefined());
        ++k;
        Bind(p, v, scope);
      }
      continue;
    }
    TSNode pattern = ts::Field(p, "pattern");
    if (ts_node_is_null(pattern)) pattern = ts::Field(p, "name");
    if (ts_node_is_null(pattern)) continue;
    if (ts::Type(pattern) == "rest_pattern") {
      Bind(ts_node_named_child(pattern, 0), Unknown(), scope);
      continue;
    }
    if (T(pattern) == "this") continue;
    Value v = k < args.values.size() ? args.values[k] : (args.spread_unknown ? Unknown() : Undefined());
    ++k;
    TSNode def = ts::Field(p, "value");
    if (v.k == K::kUndefined && !ts_node_is_null(def)) v = Eval(def, scope);
    Bind(pattern, v, scope);
    // `constructor(private readonly x: T)`: also a field.
    bool property = false;
    uint32_t m = ts_node_child_count(p);
    for (uint32_t j = 0; j < m; ++j) {
      std::string_view ct = ts::Type(ts_node_child(p, j));
      if (ct == "accessibility_modifier" || ct == "readonly") property = true;
    }
    if (property && self.k == K::kObject && self.obj && ts::Type(pattern) == "identifier")
      self.obj->Set(std::string(T(pattern)), v, ts::Start(p));
  }
}

Value Evaluator::Undefined() {
  Value v;
  v.k = K::kUndefined;
  return v;
}

Value Evaluator::CallFunction(const Function& fn, const Args& args, SourcePos at) {
  if (Spent()) return Unknown(at, frame_->file);
  if (call_depth_ >= kMaxCallDepth) {
    Stop(frame_->file, at, "CDK app calls nest deeper than " + std::to_string(kMaxCallDepth) + " levels");
    return Unknown(at, frame_->file);
  }
  ++call_depth_;
  Frame fr;
  fr.file = fn.file;
  fr.self = fn.self;
  fr.home = fn.home;
  fr.ret.k = K::kUndefined;
  Frame* saved = frame_;
  frame_ = &fr;
  auto scope = NewScope();
  scope->parent = fn.scope;
  TSNode params = ts::Field(fn.node, "parameters");
  if (ts_node_is_null(params)) params = ts::Field(fn.node, "parameter");
  BindParams(params, args, scope, Value{});
  TSNode body = ts::Field(fn.node, "body");
  Value result = Undefined();
  if (!ts_node_is_null(body)) {
    if (ts::Type(body) == "statement_block") {
      Hoist(body, scope);
      ExecStatements(body, scope);
      result = fr.ret;
    } else {
      result = Eval(body, scope);
    }
  }
  frame_ = saved;
  --call_depth_;
  if (result.file == fn.file && fn.file != frame_->file) {
    result.file = frame_->file;
    result.pos = at;
  }
  return result;
}

bool Evaluator::Recorded(std::string_view m) {
  static const std::set<std::string_view> kMethods = {"addToPolicy",
                                                      "addToPrincipalPolicy",
                                                      "addManagedPolicy",
                                                      "attachInlinePolicy",
                                                      "attachToRole",
                                                      "addStatements",
                                                      "scaleToTrackMetric",
                                                      "scaleOnMetric",
                                                      "scaleOnSchedule",
                                                      "autoScaleInstanceCount",
                                                      "findInstanceProductionVariant",
                                                      "scaleOnInvocations",
                                                      "scaleOnUtilization",
                                                      "addMetadata",
                                                      "addPropertyOverride",
                                                      "addOverride",
                                                      "addPropertyDeletionOverride",
                                                      "addToRolePolicy",
                                                      "addVariant",
                                                      "addProductionVariant",
                                                      "addContainer"};
  return kMethods.count(m) > 0;
}

Value Evaluator::Call(TSNode n, const std::shared_ptr<Scope>& scope) {
  SourcePos at = ts::Start(n);
  TSNode fnode = ts::Field(n, "function");
  std::string_view ft = ts::Type(fnode);
  if (ft == "super") {
    Args args = EvalArgs(ts::Field(n, "arguments"), scope);
    if (frame_->home && frame_->home->base.k == K::kClass)
      RunConstructor(frame_->home->base.cls, frame_->self, args, at, 1);
    return Undefined();
  }
  if (ft == "import") {  // import(spec): a promise of the module
    Args args = EvalArgs(ts::Field(n, "arguments"), scope);
    if (!args.values.empty() && args.values[0].k == K::kStr) {
      Require(args.values[0].text, at);
    } else {
      Unread(n, at);
    }
    return Unknown(at, frame_->file);
  }
  Value callee = Eval(fnode, scope);
  Args args = EvalArgs(ts::Field(n, "arguments"), scope);
  if (Spent()) return Unknown(at, frame_->file);
  if (callee.k == K::kExternal && callee.text == "global" && callee.path == std::vector<std::string>{"require"} &&
      (args.values.empty() || args.values[0].k != K::kStr)) {
    Unread(n, at);
  }
  if (callee.k == K::kMethod && callee.index == -3 && callee.obj && callee.obj->complete &&
      (callee.text == "forEach" || callee.text == "map") && !args.values.empty() && args.values[0].k == K::kFunction &&
      callee.obj->fields.size() <= kMaxLoop) {
    // A callback over a known array: once per item.
    auto items = callee.obj->fields;
    Value out = NewObject(true, at);
    for (size_t i = 0; i < items.size() && !Spent(); ++i) {
      Args call;
      call.values.push_back(items[i].second);
      call.values.push_back(Str(std::to_string(i), at));
      call.values.back().k = K::kNum;
      out.obj->Set(std::to_string(i), CallFunction(*args.values[0].fn, call, at), at);
    }
    if (callee.text == "map") return out;
    return Undefined();
  }
  if (callee.k != K::kFunction) {
    // A function handed to code that is not run here (`xs.forEach(x => …)`
    // over unknown items, a library callback): its body runs once with
    // unknown arguments, as a loop body.
    for (const Value& a : args.values) {
      if (a.k != K::kFunction || Spent()) continue;
      ++open_loops_;
      Args unknown;
      unknown.spread_unknown = true;
      CallFunction(*a.fn, unknown, at);
      --open_loops_;
    }
  }
  switch (callee.k) {
    case K::kFunction:
      return CallFunction(*callee.fn, args, at);
    case K::kMethod:
      return MethodCallOn(callee, args, n);
    case K::kCdk: {
      if (callee.path.size() < 2) return Unknown(at, frame_->file);
      std::vector<cfn::Node> nodes;
      for (const auto& a : args.values) nodes.push_back(ToNode(a, at, 0));
      if (auto node = CallValue(callee.text, callee.path[callee.path.size() - 2], callee.path.back(), nodes, at))
        return NodeValue(std::move(*node), callee, at);
      return Unknown(at, frame_->file);
    }
    case K::kExternal:
      return ExternalCall(callee, args, at);
    default:
      return Unknown(at, frame_->file);
  }
}

Value Evaluator::MethodCallOn(const Value& m, const Args& args, TSNode n) {
  SourcePos at = ts::Start(n);
  if (m.index == -2 && !m.items.empty()) return StringMethod(m.items[0], m.text, args, at);
  if (m.index == -4 && !args.values.empty()) {
    if (auto node = JsonString(ToNode(args.values[0], at, 0), at)) {
      Value v;
      v.k = K::kNode;
      v.node = std::make_shared<cfn::Node>(std::move(*node));
      v.pos = at;
      v.file = frame_->file;
      return v;
    }
    return Unknown(at, frame_->file);
  }
  if (m.index == -3 && m.obj) {
    if (m.text == "push" && !args.spread_unknown && open_loops_ == 0 &&
        m.obj->fields.size() + args.values.size() <= kMaxLoop) {
      for (const auto& a : args.values) m.obj->Set(std::to_string(m.obj->fields.size()), a, at);
    } else if (m.text == "push" || m.text == "unshift" || m.text == "splice" || m.text == "pop" || m.text == "shift" ||
               m.text == "reverse" || m.text == "sort" || m.text == "fill") {
      m.obj->complete = false;
    }
    if (m.text == "includes" && m.obj->complete && !args.values.empty() && args.values[0].known_scalar()) {
      bool found = false;
      for (const auto& f : m.obj->fields) found = found || SameValue(f.second, args.values[0]);
      Value b = Str(found ? "true" : "false", at);
      b.k = K::kBool;
      return b;
    }
    return Unknown(at, frame_->file);
  }
  if (m.via_node && m.text == "tryGetContext") {
    if (args.values.empty() || args.values[0].k != K::kStr || !in_.context.is_map()) return Unknown(at, frame_->file);
    const cfn::Node* c = in_.context.Get(args.values[0].text);
    if (!c) return Undefined();
    Value v = FromNode(*c, 0);
    return Here(v, at);
  }
  if (m.index < 0) return Unknown(at, frame_->file);
  if (!Recorded(m.text)) return Unknown(at, frame_->file);
  MethodCall mc;
  mc.construct = m.index;
  mc.method = m.text;
  for (const auto& a : args.values) mc.args.push_back(ToNode(a, at, 0));
  mc.file = frame_->file;
  mc.call = Range(n);
  app_.methods.push_back(std::move(mc));
  if (m.text == "findInstanceProductionVariant" || m.text == "autoScaleInstanceCount") {
    // The variant and its scalable capacity stand for the construct: later calls on them name it.
    Value v;
    v.k = K::kConstruct;
    v.index = m.index;
    v.pos = at;
    v.file = frame_->file;
    return v;
  }
  return Unknown(at, frame_->file);
}

Value Evaluator::StringMethod(const Value& s, const std::string& name, const Args& args, SourcePos at) {
  if (s.k != K::kStr) return Unknown(at, frame_->file);
  auto arg = [&](size_t i) -> const Value* {
    return i < args.values.size() && args.values[i].known_scalar() ? &args.values[i] : nullptr;
  };
  if (name == "toLowerCase" || name == "toUpperCase") {
    std::string t = s.text;
    for (char& c : t)
      c = name == "toLowerCase" ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                                : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return Str(t, at);
  }
  if (name == "trim") {
    size_t a = s.text.find_first_not_of(" \t\n\r"), b = s.text.find_last_not_of(" \t\n\r");
    return Str(a == std::string::npos ? "" : s.text.substr(a, b - a + 1), at);
  }
  if (name == "toString") {
    // `Buffer.from(script).toString('base64')`: a Buffer of text is held as that text.
    if (arg(0) && arg(0)->text == "base64") return Str(Base64Encode(s.text), at);
    return Str(s.text, at);
  }
  if ((name == "startsWith" || name == "endsWith" || name == "includes") && arg(0)) {
    const std::string& x = arg(0)->text;
    bool b = name == "startsWith" ? s.text.starts_with(x)
             : name == "endsWith" ? s.text.ends_with(x)
                                  : s.text.find(x) != std::string::npos;
    Value v = Str(b ? "true" : "false", at);
    v.k = K::kBool;
    return v;
  }
  if (name == "replace" && arg(0) && arg(1) && args.values[0].k == K::kStr) {
    std::string t = s.text;
    size_t p = t.find(arg(0)->text);
    if (p != std::string::npos) t.replace(p, arg(0)->text.size(), arg(1)->text);
    return Str(t, at);
  }
  return Unknown(at, frame_->file);
}

// Node's `path`, `fs`, `JSON`, `require`, `process`.
Value Evaluator::ExternalCall(const Value& callee, const Args& args, SourcePos at) {
  const auto& p = callee.path;
  auto str = [&](size_t i) -> const std::string* {
    return i < args.values.size() && args.values[i].k == K::kStr ? &args.values[i].text : nullptr;
  };
  if (callee.text == "global" && p.size() == 1 && p[0] == "require") {
    if (const std::string* s = str(0)) return Require(*s, at);
    return Unknown(at, frame_->file);
  }
  if (callee.text == "global" && p.size() == 2 && p[0] == "JSON" && p[1] == "stringify" && !args.values.empty()) {
    if (auto node = JsonString(ToNode(args.values[0], at, 0), at)) return NodeValue(std::move(*node), callee, at);
    return Unknown(at, frame_->file);
  }
  if (callee.text == "global" && p.size() == 2 && p[0] == "JSON" && p[1] == "parse") {
    if (const std::string* s = str(0)) return ParseJson(*s, at);
    return Unknown(at, frame_->file);
  }
  if (callee.text == "global" && p.size() == 2 && p[0] == "Buffer" && p[1] == "from" && str(0) &&
      (args.values.size() == 1 || (str(1) && (*str(1) == "utf8" || *str(1) == "utf-8")))) {
    return Str(*str(0), at);
  }
  if (callee.text == "path" && p.size() == 1 && (p[0] == "join" || p[0] == "resolve")) {
    fs::path out;
    for (size_t i = 0; i < args.values.size(); ++i) {
      const std::string* s = str(i);
      if (!s) return Unknown(at, frame_->file);
      if (p[0] == "resolve" && !s->empty() && (*s)[0] == '/') {
        out = *s;
      } else {
        out /= *s;
      }
    }
    std::string r = out.lexically_normal().string();
    if (p[0] == "resolve" && out.is_relative()) r = (fs::path(cwd_) / out).lexically_normal().string();
    if (r.size() > 1 && r.back() == '/') r.pop_back();
    return Str(r, at);
  }
  if (callee.text == "path" && p.size() == 1 && (p[0] == "dirname") && str(0))
    return Str(fs::path(*str(0)).parent_path().string(), at);
  if (callee.text == "fs" && p.size() == 1 && p[0] == "readFileSync") {
    const std::string* s = str(0);
    if (!s) return Unknown(at, frame_->file);
    fs::path fp = *s;
    if (fp.is_relative()) fp = fs::path(cwd_) / fp;
    auto canon = Files().WeaklyCanonical(fp.lexically_normal().string());
    if (!canon || !Inside(*canon)) {
      app_.notes.push_back({frame_->file, ParseError{"file '" + *s + "' is outside the scan root; not read", at}});
      return Unknown(at, frame_->file);
    }
    std::string text, error;
    if (!Files().Read(*canon, kMaxFileBytes, &text, &error)) return Unknown(at, frame_->file);
    return Str(std::move(text), at);
  }
  return Unknown(at, frame_->file);
}

}  // namespace sagelint::cdk::typescript
