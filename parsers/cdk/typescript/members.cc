// Member access in the CDK app evaluator (evaluator.h): `o.name` and `o[k]`
// on objects, arrays, class instances, constructs, strings, the CDK
// library's modules and enums, and a class's static members and methods.
#include <algorithm>
#include <cctype>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {

// `o.name`.
Value Evaluator::Member(const Value& o, const std::string& name, bool optional, SourcePos at) {
  Value v = Unknown(at, frame_->file);
  switch (o.k) {
    case K::kUndefined:
    case K::kNull:
      if (optional) v.k = K::kUndefined;
      return v;
    case K::kObject:
      return ObjectMember(o, name, at);
    case K::kConstruct:
      return ConstructMember(o, name, at);
    case K::kClass:
      if (o.cls) return StaticMember(o.cls, name, at);
      return v;
    case K::kNodeOf: {
      v.k = K::kMethod;
      v.index = o.index;
      v.obj = o.obj;
      v.text = name;
      v.via_node = true;
      return v;
    }
    case K::kCdk:
      return CdkMember(o, name, at);
    case K::kNode:
      if (o.path.size() < 4 && !o.path.empty()) {  // `InstanceType.of` style chains keep their names
        Value m;
        m.k = K::kCdk;
        m.text = o.text;
        m.path = o.path;
        m.path.push_back(name);
        return m;
      }
      return v;
    case K::kExternal: {
      Value m = o;
      m.path.push_back(name);
      if (m.text == "global" && m.path.size() == 3 && m.path[0] == "process" && m.path[1] == "env") return v;
      return m;
    }
    case K::kStr:
      if (name == "length") {
        Value n = Str(std::to_string(o.text.size()), at);
        n.k = K::kNum;
        return n;
      }
      {
        Value m;
        m.k = K::kMethod;
        m.text = name;
        m.items = {o};
        m.index = -2;  // a string method
        return m;
      }
    default:
      return v;
  }
}

// A member of an object, an array, a class instance, a stack or the app.
Value Evaluator::ObjectMember(const Value& o, const std::string& name, SourcePos at) {
  Value v = Unknown(at, frame_->file);
  if (!o.obj) return v;
  if (const Value* f = o.obj->Get(name)) return *f;
  if (o.obj->array && !o.obj->cls && name != "length") {
    Value m;
    m.k = K::kMethod;
    m.text = name;
    m.obj = o.obj;
    m.index = -3;  // an array method
    return m;
  }
  if (o.obj->array && name == "length" && o.obj->complete) {
    Value n = Str(std::to_string(o.obj->fields.size()), at);
    n.k = K::kNum;
    return n;
  }
  if (o.obj->cls) {
    // A method of the instance's class (or a base class); `node` of a construct.
    for (auto c = o.obj->cls; c;) {
      if (auto m = FindMethod(c, name)) {
        return FunctionValue(*m, c->file, c->scope, o, c);
      }
      c = c->base.k == K::kClass ? c->base.cls : nullptr;
    }
  }
  if ((o.obj->cls || o.obj->is_stack) && name == "toJsonString") {  // a stack's (Stack.toJsonString)
    Value m;
    m.k = K::kMethod;
    m.text = name;
    m.index = -4;
    return m;
  }
  if ((o.obj->cls || o.obj->is_app) && name == "node") {
    Value n;
    n.k = K::kNodeOf;
    n.obj = o.obj;
    return n;
  }
  if (o.obj->complete && !o.obj->cls && !o.obj->is_app) v.k = K::kUndefined;
  return v;
}

// A member of a construct: its node, an attribute (`attrArn`, `roleArn`, `ref`) or a method.
Value Evaluator::ConstructMember(const Value& o, const std::string& name, SourcePos at) {
  Value v = Unknown(at, frame_->file);
  if (name == "node") {
    Value n;
    n.k = K::kNodeOf;
    n.index = o.index;
    return n;
  }
  bool attribute = name == "ref" ||
                   (name.size() > 4 && name.starts_with("attr") && std::isupper(static_cast<unsigned char>(name[4]))) ||
                   name.ends_with("Arn") || name.ends_with("Name") || name.ends_with("Id") ||
                   name.starts_with("valueAs");  // a CfnParameter's value
  if (attribute) {
    v.k = K::kAttr;
    v.index = o.index;
    v.text = name;
    return v;
  }
  v.k = K::kMethod;
  v.index = o.index;
  v.text = name;
  return v;
}

// A name of the CDK library: a module (`aws_sagemaker`), a class, an enum member or a static constant.
Value Evaluator::CdkMember(const Value& o, const std::string& name, SourcePos at) {
  Value v = Unknown(at, frame_->file);
  if (o.path.empty() && name.starts_with("aws_")) {
    std::string sub = name;
    std::replace(sub.begin(), sub.end(), '_', '-');
    std::string mod = ModuleOf("aws-cdk-lib/" + sub);
    if (mod.empty()) return v;
    Value m;
    m.k = K::kCdk;
    m.text = mod;
    return m;
  }
  Value m = o;
  m.path.push_back(name);
  m.pos = at;
  m.file = frame_->file;
  if (m.path.size() == 2) {  // an enum member or a static constant: `InstanceClass.P3`
    if (auto node = MemberValue(m.text, m.path[0], m.path[1], at)) {
      Value x;
      x.k = K::kNode;
      x.node = std::make_shared<cfn::Node>(std::move(*node));
      x.text = m.text;
      x.path = m.path;
      x.pos = at;
      x.file = frame_->file;
      return x;
    }
  }
  return m;
}

// `Cls.NAME`: a static field's value (evaluated where the class is
// written, on each use), or a static method.
Value Evaluator::StaticMember(const std::shared_ptr<Class>& c, const std::string& name, SourcePos at) {
  if (ts_node_is_null(c->body)) return Unknown(at, frame_->file);
  std::string_view src = Src(c->file);
  for (TSNode m : NamedChildren(c->body)) {
    TSNode nm = ts::Field(m, "name");
    if (ts_node_is_null(nm) || ts::Text(nm, src) != name || !ts::Text(m, src).starts_with("static")) continue;
    if (ts::Type(m) == "method_definition") return FunctionValue(m, c->file, c->scope);
    TSNode value = ts::Field(m, "value");
    if (ts::Type(m) != "public_field_definition" || ts_node_is_null(value)) break;
    Frame fr;
    fr.file = c->file;
    fr.self.k = K::kUndefined;
    Frame* saved = frame_;
    frame_ = &fr;
    Value v = Eval(value, c->scope);
    frame_ = saved;
    return Here(v, at);
  }
  return Unknown(at, frame_->file);
}

std::optional<TSNode> Evaluator::FindMethod(const std::shared_ptr<Class>& c, const std::string& name) {
  if (ts_node_is_null(c->body)) return std::nullopt;
  std::string_view src = Src(c->file);
  for (TSNode m : NamedChildren(c->body)) {
    if (ts::Type(m) != "method_definition") continue;
    TSNode nm = ts::Field(m, "name");
    if (!ts_node_is_null(nm) && ts::Text(nm, src) == name && name != "constructor") return m;
  }
  return std::nullopt;
}

}  // namespace sagelint::cdk::typescript
