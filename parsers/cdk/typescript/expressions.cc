// Expressions of the CDK app evaluator (evaluator.h): literals, template
// strings, identifiers, operators, ternaries, assignments, object and array
// literals.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {
namespace {

namespace fs = std::filesystem;

// A scalar of kind `k` written at `at` of file `file`.
Value ScalarAt(K k, std::string text, SourcePos at, int file) {
  Value v;
  v.k = k;
  v.text = std::move(text);
  v.pos = at;
  v.file = file;
  return v;
}
}  // namespace

int Evaluator::Truth(const Value& v) {  // 1 true, 0 false, -1 unknown
  switch (v.k) {
    case K::kUndefined:
    case K::kNull:
      return 0;
    case K::kStr:
      return v.text.empty() ? 0 : 1;
    case K::kBool:
      return v.text == "true" ? 1 : 0;
    case K::kNum: {
      double d = 0;
      if (!ParseNum(v.text, &d)) return -1;
      return d == 0 || std::isnan(d) ? 0 : 1;
    }
    case K::kUnknown:
    case K::kNode:
      return -1;
    default:
      return 1;
  }
}

bool Evaluator::SameValue(const Value& a, const Value& b) {
  if (a.k != b.k) return false;
  switch (a.k) {
    case K::kStr:
    case K::kBool:
      return a.text == b.text;
    case K::kNum: {
      double x, y;
      return ParseNum(a.text, &x) && ParseNum(b.text, &y) && x == y;
    }
    case K::kUndefined:
    case K::kNull:
      return true;
    case K::kConstruct:
      return a.index == b.index;
    case K::kAttr:
      return a.index == b.index && a.text == b.text;
    case K::kObject:
      return a.obj == b.obj;
    default:
      return false;
  }
}

Value Evaluator::Str(std::string s, SourcePos at) {
  if (s.size() > kMaxString) return Unknown(at, frame_->file);  // `s = s + s` …
  Value v;
  v.k = K::kStr;
  v.text = std::move(s);
  v.pos = at;
  v.file = frame_->file;
  return v;
}

// A value used where `at` is in the current file: placed there when it comes from another file.
Value Evaluator::Here(Value v, SourcePos at) {
  if (v.file != frame_->file) {
    v.file = frame_->file;
    v.pos = at;
    v.lit_end = 0;
  }
  return v;
}

Value Evaluator::Eval(TSNode n, const std::shared_ptr<Scope>& scope) {
  if (ts_node_is_null(n) || !Step(n)) return Unknown();
  if (++expr_depth_ > kMaxExprDepth) {
    --expr_depth_;
    Stop(frame_->file, ts::Start(n),
         "CDK app expression nests deeper than " + std::to_string(kMaxExprDepth) + " levels; evaluation stopped");
    return Unknown();
  }
  Value v = EvalImpl(n, scope);
  --expr_depth_;
  return Here(std::move(v), ts::Start(n));
}

Value Evaluator::EvalImpl(TSNode n, const std::shared_ptr<Scope>& scope) {
  std::string_view t = ts::Type(n);
  SourcePos at = ts::Start(n);
  int file = frame_->file;
  auto make = [&](K k, std::string text) { return ScalarAt(k, std::move(text), at, file); };
  auto literal = [&](Value v) {
    v.lit_end_pos = ts::End(n);
    v.lit_begin = ts_node_start_byte(n);
    v.lit_end = ts_node_end_byte(n);
    return v;
  };
  if (t == "string") return literal(make(K::kStr, StringText(n, Src(file))));
  if (t == "number") {
    double d;
    std::string text(T(n));
    if (!ParseNum(text, &d)) return Unknown(at, file);
    bool plain = text.find_first_of("xXoObB_") == std::string::npos;
    return literal(make(K::kNum, plain ? text : NumText(d)));
  }
  if (t == "true" || t == "false") return literal(make(K::kBool, std::string(t)));
  if (t == "null") return make(K::kNull, "");
  if (t == "undefined") return make(K::kUndefined, "");
  if (t == "template_string") {
    // A template without substitutions is one literal token too.
    bool plain = true;
    for (TSNode c : NamedChildren(n)) plain = plain && ts::Type(c) != "template_substitution";
    Value v = Template(n, scope);
    return plain && v.k == K::kStr ? literal(std::move(v)) : v;
  }
  if (t == "parenthesized_expression" || t == "as_expression" || t == "satisfies_expression" ||
      t == "non_null_expression" || t == "type_assertion") {
    for (TSNode c : NamedChildren(n)) {
      if (ts::Type(c) != "type_arguments" && ts::Type(c) != "comment") return Eval(c, scope);
    }
    return Unknown(at, file);
  }
  if (t == "identifier" || t == "shorthand_property_identifier") return Identifier(n, scope);
  if (t == "this") return frame_->self;
  if (t == "object") return ObjectLiteral(n, scope);
  if (t == "array") return ArrayLiteral(n, scope);
  if (t == "member_expression") {
    TSNode on = ts::Field(n, "object");
    bool optional = !ts_node_is_null(ts::Field(n, "optional_chain"));
    Value o = Eval(on, scope);
    TSNode prop = ts::Field(n, "property");
    return Member(o, std::string(T(prop)), optional, at);
  }
  if (t == "subscript_expression") {
    Value o = Eval(ts::Field(n, "object"), scope);
    Value index = Eval(ts::Field(n, "index"), scope);
    if (!index.known_scalar()) return Unknown(at, file);
    return Member(o, index.text, !ts_node_is_null(ts::Field(n, "optional_chain")), at);
  }
  if (t == "binary_expression") return Binary(n, scope);
  if (t == "ternary_expression") return Ternary(n, scope);
  if (t == "unary_expression") return Unary(n, scope);
  if (t == "assignment_expression") {
    Value v = Eval(ts::Field(n, "right"), scope);
    Assign(ts::Field(n, "left"), v, scope);
    return v;
  }
  if (t == "augmented_assignment_expression") return AugmentedAssignment(n, scope);
  if (t == "update_expression") {
    TSNode arg = ts::Field(n, "argument");
    if (!ts_node_is_null(arg)) Assign(arg, Unknown(at, file), scope);
    return Unknown(at, file);
  }
  if (t == "new_expression") return New(n, scope);
  if (t == "call_expression") return Call(n, scope);
  if (t == "arrow_function" || t == "function_expression" || t == "function") {
    Value v = FunctionValue(n, file, scope, t == "arrow_function" ? frame_->self : Value{});
    v.pos = at;
    v.file = file;
    return v;
  }
  if (t == "class") return MakeClass(n, scope);
  if (t == "await_expression") return Eval(ts_node_named_child(n, 0), scope);
  if (t == "sequence_expression") {
    Value last = Unknown(at, file);
    for (TSNode c : NamedChildren(n)) last = Eval(c, scope);
    return last;
  }
  return Unknown(at, file);
}

// `c ? a : b`.
Value Evaluator::Ternary(TSNode n, const std::shared_ptr<Scope>& scope) {
  Value c = Eval(ts::Field(n, "condition"), scope);
  int truth = Truth(c);
  if (truth == 1) return Eval(ts::Field(n, "consequence"), scope);
  if (truth == 0) return Eval(ts::Field(n, "alternative"), scope);
  // Both run (a construct made in one is conditional); two known scalars are alternatives.
  std::string cond = ConditionText(ts::Field(n, "condition"));
  branch_conds_.push_back(cond + " is true");
  Value a = Eval(ts::Field(n, "consequence"), scope);
  branch_conds_.back() = cond + " is false";
  Value b = Eval(ts::Field(n, "alternative"), scope);
  branch_conds_.pop_back();
  return SameValue(a, b) ? a : Merged(cond, a, b);
}

// `!a`, `-a`, `+a`, `typeof a` …
Value Evaluator::Unary(TSNode n, const std::shared_ptr<Scope>& scope) {
  SourcePos at = ts::Start(n);
  int file = frame_->file;
  TSNode op = ts::Field(n, "operator");
  Value a = Eval(ts::Field(n, "argument"), scope);
  std::string_view o = ts_node_is_null(op) ? "" : T(op);
  if (o == "!") {
    int truth = Truth(a);
    return truth < 0 ? Unknown(at, file) : ScalarAt(K::kBool, truth ? "false" : "true", at, file);
  }
  if (o == "-" && a.k == K::kNum) {
    double d;
    if (ParseNum(a.text, &d)) return ScalarAt(K::kNum, NumText(-d), at, file);
  }
  if (o == "+" && a.k == K::kNum) return a;
  if (o == "typeof" || o == "void" || o == "delete") return Unknown(at, file);
  return Unknown(at, file);
}

// `a ??= b`, `a ||= b`, `a += b`.
Value Evaluator::AugmentedAssignment(TSNode n, const std::shared_ptr<Scope>& scope) {
  SourcePos at = ts::Start(n);
  int file = frame_->file;
  TSNode left = ts::Field(n, "left");
  std::string_view op = T(ts::Field(n, "operator"));
  Value l = Eval(left, scope);
  Value r = Eval(ts::Field(n, "right"), scope);
  Value v;
  if (op == "?\?=") {
    v = l.nullish() ? r : (l.k == K::kUnknown ? Unknown(at, file) : l);
  } else if (op == "||=") {
    int truth = Truth(l);
    v = truth == 0 ? r : truth == 1 ? l : Unknown(at, file);
  } else if (op == "+=") {
    v = Add(l, r, at);
  } else {
    v = Unknown(at, file);
  }
  Assign(left, v, scope);
  return v;
}

Value Evaluator::Identifier(TSNode n, const std::shared_ptr<Scope>& scope) {
  std::string name(T(n));
  SourcePos at = ts::Start(n);
  if (Value* v = scope->Find(name)) return *v;
  if (name == "undefined") {
    Value v;
    v.k = K::kUndefined;
    v.pos = at;
    v.file = frame_->file;
    return v;
  }
  if (name == "__dirname") return Str(fs::path(files_[frame_->file]->abs).parent_path().string(), at);
  if (name == "__filename") return Str(files_[frame_->file]->abs, at);
  if (name == "JSON" || name == "require" || name == "Object" || name == "String" || name == "Number" ||
      name == "process" || name == "console" || name == "Math" || name == "Array" || name == "Buffer") {
    Value v;
    v.k = K::kExternal;
    v.text = "global";
    v.path = {name};
    return v;
  }
  return Unknown(at, frame_->file);
}

Value Evaluator::Template(TSNode n, const std::shared_ptr<Scope>& scope) {
  std::string_view src = Src(frame_->file);
  std::vector<Value> parts;
  std::string text;
  bool unknown = false, join = false;
  uint32_t a = ts_node_start_byte(n) + 1, end = ts_node_end_byte(n) - 1;
  auto flush = [&](uint32_t upto) {
    if (upto > a && upto <= src.size()) {
      std::string_view raw = src.substr(a, upto - a);
      for (size_t i = 0; i < raw.size(); ++i) {
        if (raw[i] == '\\' && i + 1 < raw.size()) {
          char c = raw[++i];
          text += c == 'n' ? '\n' : c == 't' ? '\t' : c;
        } else {
          text += raw[i];
        }
      }
    }
  };
  for (TSNode c : NamedChildren(n)) {
    if (ts::Type(c) != "template_substitution") continue;
    flush(ts_node_start_byte(c));
    a = ts_node_end_byte(c);
    Value v = Eval(ts_node_named_child(c, 0), scope);
    if (v.known_scalar()) {
      text += v.text;
    } else if (v.k == K::kAttr || v.k == K::kConstruct || v.k == K::kJoin ||
               (v.k == K::kNode && v.node && v.node->is_map())) {  // `${Aws.ACCOUNT_ID}`: a Ref
      join = true;
      if (!text.empty()) parts.push_back(Str(text, ts::Start(n)));
      text.clear();
      if (v.k == K::kJoin) {
        for (auto& p : v.items) parts.push_back(p);
      } else {
        parts.push_back(v);
      }
    } else {
      unknown = true;
      if (!text.empty()) parts.push_back(Str(text, ts::Start(n)));
      text.clear();
      parts.push_back(Unknown(ts::Start(c), frame_->file));
    }
  }
  flush(end);
  // Known text around an unknown part stays: a resource ARN keeps its type
  // (the join is unknown as a value, its text a pattern for IAM resources).
  bool texts = !text.empty() || std::any_of(parts.begin(), parts.end(),
                                            [](const Value& p) { return p.known_scalar() && !p.text.empty(); });
  if (join || (unknown && texts)) {
    if (!text.empty()) parts.push_back(Str(text, ts::Start(n)));
    Value v;
    v.k = K::kJoin;
    v.items = std::move(parts);
    v.pos = ts::Start(n);
    v.file = frame_->file;
    return v;
  }
  if (unknown) return Unknown(ts::Start(n), frame_->file);
  return Str(text, ts::Start(n));
}

Value Evaluator::Add(const Value& l, const Value& r, SourcePos at) {
  if (l.k == K::kNum && r.k == K::kNum) {
    double x, y;
    if (ParseNum(l.text, &x) && ParseNum(r.text, &y)) {
      Value v = Str(NumText(x + y), at);
      v.k = K::kNum;
      return v;
    }
    return Unknown(at, frame_->file);
  }
  auto stringish = [](const Value& v) {
    return v.known_scalar() || v.k == K::kAttr || v.k == K::kJoin || v.k == K::kConstruct;
  };
  if ((l.k == K::kStr || r.k == K::kStr || l.k == K::kJoin || r.k == K::kJoin || l.k == K::kAttr || r.k == K::kAttr) &&
      stringish(l) && stringish(r)) {
    if (l.known_scalar() && r.known_scalar()) return Str(l.text + r.text, at);
    Value v;
    v.k = K::kJoin;
    v.pos = at;
    v.file = frame_->file;
    for (const Value* p : {&l, &r}) {
      if (p->k == K::kJoin) {
        for (const auto& x : p->items) v.items.push_back(x);
      } else {
        v.items.push_back(*p);
      }
    }
    return v;
  }
  return Unknown(at, frame_->file);
}

Value Evaluator::Binary(TSNode n, const std::shared_ptr<Scope>& scope) {
  SourcePos at = ts::Start(n);
  std::string_view op = T(ts::Field(n, "operator"));
  Value l = Eval(ts::Field(n, "left"), scope);
  if (op == "??") {
    if (l.nullish()) return Eval(ts::Field(n, "right"), scope);
    if (l.k == K::kUnknown) {
      Eval(ts::Field(n, "right"), scope);
      return Unknown(at, frame_->file);
    }
    return l;
  }
  if (op == "||" || op == "&&") {
    int truth = Truth(l);
    bool take_right = op == "||" ? truth == 0 : truth == 1;
    if (take_right) return Eval(ts::Field(n, "right"), scope);
    if (truth >= 0) return l;
    Value r = Eval(ts::Field(n, "right"), scope);
    return op == "&&" && Truth(r) == 0 && r.k == K::kBool ? r : Unknown(at, frame_->file);
  }
  Value r = Eval(ts::Field(n, "right"), scope);
  if (op == "+") return Add(l, r, at);
  auto boolean = [&](bool b) { return Str(b ? "true" : "false", at); };
  if (op == "===" || op == "==" || op == "!==" || op == "!=") {
    bool neg = op[0] == '!';
    if ((l.known_scalar() || l.nullish()) && (r.known_scalar() || r.nullish())) {
      Value b = boolean(SameValue(l, r) != neg);
      b.k = K::kBool;
      return b;
    }
    return Unknown(at, frame_->file);
  }
  if (l.k == K::kNum && r.k == K::kNum) {
    double x, y;
    if (ParseNum(l.text, &x) && ParseNum(r.text, &y)) {
      Value v = Str("", at);
      v.k = K::kNum;
      if (op == "-") {
        v.text = NumText(x - y);
      } else if (op == "*") {
        v.text = NumText(x * y);
      } else if (op == "/" && y != 0) {
        v.text = NumText(x / y);
      } else if (op == "<" || op == ">" || op == "<=" || op == ">=") {
        bool b = op == "<" ? x < y : op == ">" ? x > y : op == "<=" ? x <= y : x >= y;
        v = boolean(b);
        v.k = K::kBool;
      } else {
        return Unknown(at, frame_->file);
      }
      return v;
    }
  }
  return Unknown(at, frame_->file);
}

// A new object or array written at `at` in the current file.
Value Evaluator::NewObject(bool array, SourcePos at) {
  Value v;
  v.k = K::kObject;
  v.obj = NewObj();
  v.obj->array = array;
  v.obj->file = frame_->file;
  v.pos = at;
  v.file = frame_->file;
  return v;
}

Value Evaluator::ObjectLiteral(TSNode n, const std::shared_ptr<Scope>& scope) {
  Value v = NewObject(false, ts::Start(n));
  for (TSNode c : NamedChildren(n)) {
    std::string_view t = ts::Type(c);
    if (t == "pair") {
      TSNode key = ts::Field(c, "key");
      std::string k = KeyName(key, scope);
      Value val = Eval(ts::Field(c, "value"), scope);
      if (k.empty() && ts::Type(key) == "computed_property_name") {
        v.obj->complete = false;
        continue;
      }
      v.obj->Set(k, std::move(val), ts::Start(key));
    } else if (t == "shorthand_property_identifier") {
      v.obj->Set(std::string(T(c)), Eval(c, scope), ts::Start(c));
    } else if (t == "spread_element") {
      Value s = Eval(ts_node_named_child(c, 0), scope);
      if (s.k == K::kObject && s.obj) {
        for (size_t j = 0; j < s.obj->fields.size(); ++j)
          v.obj->Set(s.obj->fields[j].first, Here(s.obj->fields[j].second, ts::Start(c)), ts::Start(c));
        if (!s.obj->complete) v.obj->complete = false;
      } else if (!s.nullish()) {
        v.obj->complete = false;
      }
    } else if (t == "method_definition") {
      Value f = FunctionValue(c, frame_->file, scope, v);
      v.obj->Set(KeyName(ts::Field(c, "name"), scope), f, ts::Start(c));
    }
  }
  return v;
}

Value Evaluator::ArrayLiteral(TSNode n, const std::shared_ptr<Scope>& scope) {
  Value v = NewObject(true, ts::Start(n));
  for (TSNode c : NamedChildren(n)) {
    if (ts::Type(c) == "comment") continue;
    if (ts::Type(c) == "spread_element") {
      Value s = Eval(ts_node_named_child(c, 0), scope);
      if (s.k == K::kObject && s.obj && s.obj->array) {
        for (const auto& f : s.obj->fields)
          v.obj->Set(std::to_string(v.obj->fields.size()), Here(f.second, ts::Start(c)), ts::Start(c));
        if (!s.obj->complete) v.obj->complete = false;
      } else {
        v.obj->complete = false;
      }
      continue;
    }
    v.obj->Set(std::to_string(v.obj->fields.size()), Eval(c, scope), ts::Start(c));
  }
  return v;
}

}  // namespace sagelint::cdk::typescript
