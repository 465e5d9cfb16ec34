// Statements of the CDK app evaluator (evaluator.h): declarations, blocks,
// `if` (both branches of an unknown condition, their results merged),
// loops run once, `switch`, `try`, `return`; destructuring patterns and
// assignments.
#include <cmath>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "parsers/aws/request.h"
#include "parsers/cdk/typescript/evaluator.h"

namespace sagelint::cdk::typescript {

// Function declarations and classes of a block, declared before it runs.
// Each statement looked at is a step of the file's budget.
void Evaluator::Hoist(TSNode block, const std::shared_ptr<Scope>& scope) {
  for (TSNode s : NamedChildren(block)) {
    if (!Step(s)) return;
    if (ts::Type(s) == "export_statement") {
      TSNode d = ts::Field(s, "declaration");
      if (ts_node_is_null(d)) continue;
      s = d;
    }
    if (ts::Type(s) == "function_declaration") {
      TSNode name = ts::Field(s, "name");
      if (ts_node_is_null(name)) continue;
      Value v = FunctionValue(s, frame_->file, scope);
      v.file = frame_->file;
      v.pos = ts::Start(s);
      scope->vars[std::string(T(name))] = v;
    }
  }
}

void Evaluator::ExecStatements(TSNode block, const std::shared_ptr<Scope>& scope) {
  for (TSNode s : NamedChildren(block)) {
    if (frame_->returned || Spent()) return;
    Exec(s, scope);
  }
}

void Evaluator::Exec(TSNode s, const std::shared_ptr<Scope>& scope) {
  if (!Step(s)) return;
  if (expr_depth_ >= kMaxExprDepth) {
    Stop(frame_->file, ts::Start(s),
         "CDK app code nests deeper than " + std::to_string(kMaxExprDepth) + " levels; evaluation stopped");
    return;
  }
  ++expr_depth_;
  ExecImpl(s, scope);
  --expr_depth_;
}

void Evaluator::ExecImpl(TSNode s, const std::shared_ptr<Scope>& scope) {
  std::string_view type = ts::Type(s);
  if (type == "expression_statement") {
    TSNode e = ts_node_named_child(s, 0);
    if (!ts_node_is_null(e)) Eval(e, scope);
  } else if (type == "lexical_declaration" || type == "variable_declaration") {
    for (TSNode d : NamedChildren(s)) {
      if (ts::Type(d) != "variable_declarator") continue;
      TSNode value = ts::Field(d, "value");
      Value v;
      v.k = K::kUndefined;
      if (!ts_node_is_null(value)) v = Eval(value, scope);
      Bind(ts::Field(d, "name"), v, scope);
    }
  } else if (type == "import_statement") {
    Import(s, scope);
  } else if (type == "export_statement") {
    Export(s, scope);
  } else if (type == "class_declaration" || type == "abstract_class_declaration") {
    Value c = MakeClass(s, scope);
    TSNode name = ts::Field(s, "name");
    if (!ts_node_is_null(name)) scope->vars[std::string(T(name))] = c;
  } else if (type == "enum_declaration") {
    EnumDeclaration(s, scope);
  } else if (type == "function_declaration") {
    // hoisted
  } else if (type == "statement_block") {
    auto inner = NewScope();
    inner->parent = scope;
    Hoist(s, inner);
    ExecStatements(s, inner);
  } else if (type == "if_statement") {
    If(s, scope);
  } else if (type == "for_in_statement") {
    ForIn(s, scope);
  } else if (type == "for_statement" || type == "while_statement" || type == "do_statement") {
    Loop(s, scope);
  } else if (type == "try_statement") {
    Exec(ts::Field(s, "body"), scope);
    TSNode fin = ts::Field(s, "finalizer");
    if (!ts_node_is_null(fin)) {
      TSNode b = ts::Field(fin, "body");
      if (!ts_node_is_null(b)) Exec(b, scope);
    }
  } else if (type == "return_statement") {
    TSNode e = ts_node_named_child(s, 0);
    Value v;
    v.k = K::kUndefined;
    if (!ts_node_is_null(e)) v = Eval(e, scope);
    frame_->ret = v;
    frame_->returned = true;
  } else if (type == "switch_statement") {
    TSNode body = ts::Field(s, "body");
    for (TSNode c : NamedChildren(body)) {
      for (TSNode st : NamedChildren(c)) {
        if (ts_node_is_named(st) && !ts_node_eq(st, ts::Field(c, "value"))) Exec(st, scope);
      }
    }
    frame_->returned = false;
  }
  // Types, interfaces, enums and the rest hold nothing the app creates.
}

// `enum Size { Small = 'ml.t3.medium', … }`: an object of its members
// (numbered from 0 where no value is written).
void Evaluator::EnumDeclaration(TSNode s, const std::shared_ptr<Scope>& scope) {
  TSNode name = ts::Field(s, "name");
  TSNode body = ts::Field(s, "body");
  Value e = NewObject(false, ts::Start(s));
  double next = 0;
  for (TSNode m : ts_node_is_null(body) ? std::vector<TSNode>() : NamedChildren(body)) {
    bool assigned = ts::Type(m) == "enum_assignment";
    TSNode key = assigned ? ts::Field(m, "name") : m;
    if (ts::Type(key) == "comment") continue;
    Value v;
    if (assigned) {
      v = Eval(ts::Field(m, "value"), scope);
    } else {
      v = Str(NumText(next), ts::Start(m));
      v.k = K::kNum;
    }
    double d;
    next = v.k == K::kNum && ParseNum(v.text, &d) ? d + 1 : std::nan("");
    e.obj->Set(KeyName(key, scope), v, ts::Start(m));
  }
  if (!ts_node_is_null(name)) scope->vars[std::string(T(name))] = e;
}

void Evaluator::If(TSNode s, const std::shared_ptr<Scope>& scope) {
  Value c = Eval(ts::Field(s, "condition"), scope);
  int truth = Truth(c);
  TSNode alt = ts::Field(s, "alternative");
  TSNode other = ts_node_is_null(alt) ? alt : ts_node_named_child(alt, 0);
  if (truth == 1) {
    Exec(ts::Field(s, "consequence"), scope);
  } else if (truth == 0) {
    if (!ts_node_is_null(other)) Exec(other, scope);
  } else {
    IfUnknown(s, other, scope);
  }
}

// Both branches run, each from the names and object fields as they were
// before the `if`; a `return` in one does not end the other. A name or a
// field the two paths leave different is unknown after it: neither
// branch's value is the app's. A construct made in a branch is
// conditional (Construct::conditions).
void Evaluator::IfUnknown(TSNode s, TSNode other, const std::shared_ptr<Scope>& scope) {
  std::vector<Scope*> chain;
  size_t names = 0;
  for (Scope* sc = scope.get(); sc; sc = sc->parent.get()) {
    chain.push_back(sc);
    names += sc->vars.size();
  }
  bool merge = names <= kMaxMergedNames;
  std::vector<std::map<std::string, Value>> before, after_then;
  if (merge) {
    for (Scope* sc : chain) before.push_back(sc->vars);
  }
  std::string cond = ConditionText(ts::Field(s, "condition"));
  size_t mark = field_writes_.size();
  branch_conds_.push_back(cond + " is true");
  Exec(ts::Field(s, "consequence"), scope);
  auto then_fields = UndoFields(mark);
  bool first = frame_->returned;
  frame_->returned = false;
  if (merge) {
    for (size_t i = 0; i < chain.size(); ++i) {
      after_then.push_back(chain[i]->vars);
      chain[i]->vars = before[i];
    }
  }
  branch_conds_.back() = cond + " is false";
  if (!ts_node_is_null(other)) Exec(other, scope);
  auto else_fields = UndoFields(mark);
  branch_conds_.pop_back();
  frame_->returned = first && frame_->returned;
  if (merge) {
    for (size_t i = 0; i < chain.size(); ++i) {
      for (auto& [name, v] : chain[i]->vars) {
        auto it = after_then[i].find(name);
        v = it == after_then[i].end() ? Unknown(v.pos, v.file) : Merged(cond, it->second, v);
      }
      for (auto& [name, v] : after_then[i]) {
        if (!chain[i]->vars.count(name)) chain[i]->vars[name] = Unknown(v.pos, v.file);
      }
    }
  }
  MergeFields(cond, then_fields, else_fields);
}

// Runs the body once, its loop variables unknown.
void Evaluator::Loop(TSNode s, const std::shared_ptr<Scope>& scope) {
  auto inner = NewScope();
  inner->parent = scope;
  TSNode init = ts::Field(s, "initializer");
  if (!ts_node_is_null(init) && (ts::Type(init) == "lexical_declaration" || ts::Type(init) == "variable_declaration")) {
    for (TSNode d : NamedChildren(init)) Bind(ts::Field(d, "name"), Unknown(), inner);
  }
  TSNode body = ts::Field(s, "body");
  ++open_loops_;
  if (!ts_node_is_null(body)) Exec(body, inner);
  --open_loops_;
  frame_->returned = false;
}

void Evaluator::ForIn(TSNode s, const std::shared_ptr<Scope>& scope) {
  Value over = Eval(ts::Field(s, "right"), scope);
  TSNode left = ts::Field(s, "left");
  TSNode body = ts::Field(s, "body");
  TSNode op = ts::Field(s, "operator");
  bool of = !ts_node_is_null(op) && T(op) == "of";
  std::vector<Value> items;
  if (over.k == K::kObject && over.obj && over.obj->complete && over.obj->fields.size() <= kMaxLoop) {
    for (const auto& f : over.obj->fields) {
      if (of && over.obj->array) {
        items.push_back(f.second);
      } else if (!of) {
        Value k;
        k.k = K::kStr;
        k.text = f.first;
        items.push_back(k);
      }
    }
    if (of && !over.obj->array) items.clear();
    if (of && !over.obj->array) items.push_back(Unknown());
  } else {
    items.push_back(Unknown());
  }
  for (const Value& item : items) {
    if (Spent()) return;
    auto inner = NewScope();
    inner->parent = scope;
    Bind(left, item, inner);
    if (!ts_node_is_null(body)) Exec(body, inner);
    frame_->returned = false;
  }
}

void Evaluator::Bind(TSNode pattern, const Value& v, const std::shared_ptr<Scope>& scope) {
  if (ts_node_is_null(pattern) || Spent()) return;
  std::string_view t = ts::Type(pattern);
  if (t == "identifier" || t == "shorthand_property_identifier_pattern") {
    scope->vars[std::string(T(pattern))] = v;
  } else if (t == "assignment_pattern" || t == "object_assignment_pattern") {
    Value x = v;
    if (x.k == K::kUndefined) x = Eval(ts::Field(pattern, "right"), scope);
    Bind(ts::Field(pattern, "left"), x, scope);
  } else if (t == "object_pattern") {
    std::set<std::string> taken;
    for (TSNode p : NamedChildren(pattern)) {
      std::string_view pt = ts::Type(p);
      if (pt == "shorthand_property_identifier_pattern") {
        std::string k(T(p));
        taken.insert(k);
        Bind(p, Member(v, k, true, ts::Start(p)), scope);
      } else if (pt == "object_assignment_pattern") {
        TSNode left = ts::Field(p, "left");
        if (ts::Type(left) == "shorthand_property_identifier_pattern") {
          std::string k(T(left));
          taken.insert(k);
          Bind(p, Member(v, k, true, ts::Start(p)), scope);
        } else {
          Bind(p, Unknown(), scope);
        }
      } else if (pt == "pair_pattern") {
        std::string k = KeyName(ts::Field(p, "key"), scope);
        taken.insert(k);
        Bind(ts::Field(p, "value"), Member(v, k, true, ts::Start(p)), scope);
      } else if (pt == "rest_pattern") {
        Value rest;
        if (v.k == K::kObject && v.obj) {
          rest.k = K::kObject;
          rest.obj = NewObj();
          rest.obj->complete = v.obj->complete;
          for (size_t j = 0; j < v.obj->fields.size(); ++j) {
            if (!taken.count(v.obj->fields[j].first))
              rest.obj->Set(v.obj->fields[j].first, v.obj->fields[j].second, v.obj->key_pos[j]);
          }
        }
        Bind(ts_node_named_child(p, 0), rest, scope);
      }
    }
  } else if (t == "array_pattern") {
    size_t i = 0;
    for (TSNode p : NamedChildren(pattern)) {
      if (ts::Type(p) == "rest_pattern") {
        Bind(ts_node_named_child(p, 0), Unknown(), scope);
        ++i;
        continue;
      }
      Bind(p, Member(v, std::to_string(i++), true, ts::Start(p)), scope);
    }
  } else if (t == "member_expression") {
    Assign(pattern, v, scope);
  } else if (t == "non_null_expression" || t == "parenthesized_expression") {
    Bind(ts_node_named_child(pattern, 0), v, scope);
  }
}

std::string Evaluator::KeyName(TSNode key, const std::shared_ptr<Scope>& scope) {
  if (ts_node_is_null(key)) return "";
  std::string_view t = ts::Type(key);
  if (t == "string") return StringText(key, Src(frame_->file));
  if (t == "computed_property_name") {
    Value v = Eval(ts_node_named_child(key, 0), scope);
    return v.known_scalar() ? v.text : std::string();
  }
  return std::string(T(key));
}

void Evaluator::Assign(TSNode left, const Value& v, const std::shared_ptr<Scope>& scope) {
  std::string_view t = ts::Type(left);
  if (t == "identifier") {
    std::string name(T(left));
    if (Value* slot = scope->Find(name)) {
      *slot = v;
    } else {
      files_[frame_->file]->scope->vars[name] = v;
    }
  } else if (t == "member_expression") {
    TSNode on = ts::Field(left, "object");
    std::string prop(T(ts::Field(left, "property")));
    if (ts::Type(on) == "identifier" && T(on) == "module" && prop == "exports" && !scope->Find("module")) {
      files_[frame_->file]->module_exports = v;
      if (v.k == K::kObject && v.obj) files_[frame_->file]->exports = v.obj;
      return;
    }
    if (ts::Type(on) == "identifier" && T(on) == "exports" && !scope->Find("exports")) {
      files_[frame_->file]->exports->Set(prop, v, ts::Start(left));
      return;
    }
    Value target = Eval(on, scope);
    if (target.k == K::kObject && target.obj) SetField(target.obj, prop, v, ts::Start(left));
    if (target.k == K::kConstruct && target.index >= 0) {
      // An L1 construct's props are its attributes: `notebook.lifecycleConfigName = lc.ref`.
      cfn::Node& props = app_.constructs[target.index].props;
      if (props.is_null()) {
        props.kind = cfn::Node::Kind::kMap;
        props.pos = ts::Start(left);
      }
      if (!props.is_map()) return;
      cfn::Node value = ToNode(v, ts::Start(ts::Field(left, "property")), 0);
      // Set in a branch of an unknown condition on a construct made before it: maybe set.
      const std::vector<std::string>& made = app_.constructs[target.index].conditions;
      if (made.size() < branch_conds_.size() || !std::equal(branch_conds_.begin(), branch_conds_.end(), made.begin())) {
        value = cfn::MakeScalar(std::string(aws::kUnknownMarker), value.pos, false);
      }
      for (size_t i = 0; i < props.entries.size(); ++i) {
        if (props.entries[i].first == prop) {
          props.entries[i].second = std::move(value);
          props.key_pos[i] = ts::Start(left);
          return;
        }
      }
      props.entries.emplace_back(prop, std::move(value));
      props.key_pos.push_back(ts::Start(left));
    }
  } else if (t == "subscript_expression") {
    Value target = Eval(ts::Field(left, "object"), scope);
    Value index = Eval(ts::Field(left, "index"), scope);
    if (target.k == K::kObject && target.obj) {
      if (index.known_scalar()) {
        SetField(target.obj, index.text, v, ts::Start(left));
      } else {
        target.obj->complete = false;
      }
    }
  } else if (t == "object_pattern" || t == "array_pattern") {
    Bind(left, v, scope);
  } else if (t == "non_null_expression" || t == "parenthesized_expression") {
    Assign(ts_node_named_child(left, 0), v, scope);
  }
}

// The condition as the code writes it, for the conditions of what a branch makes.
std::string Evaluator::ConditionText(TSNode cond) {
  if (!ts_node_is_null(cond) && ts::Type(cond) == "parenthesized_expression" && ts_node_named_child_count(cond) == 1) {
    cond = ts_node_named_child(cond, 0);
  }
  std::string text;
  for (char c : T(cond)) {
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
    if (c == ' ' && !text.empty() && text.back() == ' ') continue;
    text += c;
  }
  if (text.size() > 60) text = text.substr(0, 57) + "...";
  return "`" + text + "`";
}

// `obj.k = v` / `obj[k] = v`; inside a branch of an unknown condition the
// value it replaces is logged, so the other branch starts from it.
void Evaluator::SetField(const std::shared_ptr<Obj>& obj, const std::string& k, const Value& v, SourcePos at) {
  if (!branch_conds_.empty()) {
    const Value* old = obj->Get(k);
    field_writes_.push_back({obj, k, old ? std::optional<Value>(*old) : std::nullopt});
  }
  obj->Set(k, v, at);
}

// Undoes the field writes logged since `mark`; returns the values they had left.
Evaluator::Fields Evaluator::UndoFields(size_t mark) {
  Fields left;
  while (field_writes_.size() > mark) {
    FieldWrite w = std::move(field_writes_.back());
    field_writes_.pop_back();
    auto key = std::make_pair(w.obj.get(), w.key);
    if (!left.count(key)) {
      const Value* now = w.obj->Get(w.key);
      left[key] = {w.obj, now ? std::optional<Value>(*now) : std::nullopt};
    }
    if (w.before) {
      w.obj->Set(w.key, *w.before);
    } else {
      w.obj->Erase(w.key);
    }
  }
  return left;
}

// After both branches: a field holds what Merged makes of the two values it was left.
void Evaluator::MergeFields(const std::string& cond, const Fields& then_fields, const Fields& else_fields) {
  std::set<std::pair<Obj*, std::string>> keys;
  for (const auto& [k, v] : then_fields) keys.insert(k);
  for (const auto& [k, v] : else_fields) keys.insert(k);
  for (const auto& key : keys) {
    auto t = then_fields.find(key), e = else_fields.find(key);
    const std::shared_ptr<Obj>& obj = t != then_fields.end() ? t->second.first : e->second.first;
    const Value* now = obj->Get(key.second);
    std::optional<Value> tv =
        t != then_fields.end() ? t->second.second : (now ? std::optional<Value>(*now) : std::nullopt);
    std::optional<Value> ev =
        e != else_fields.end() ? e->second.second : (now ? std::optional<Value>(*now) : std::nullopt);
    const std::optional<Value>& any = tv ? tv : ev;
    SetField(obj, key.second, tv && ev ? Merged(cond, *tv, *ev) : Unknown(any->pos, any->file), any->pos);
  }
}

// What a name or field holds after both branches of an unknown condition `cond`
// left it `a` and `b`: that value when they are the same; two known scalars are
// alternatives, `Fn::If` [cond, a, b] as CloudFormation writes them; else unknown.
Value Evaluator::Merged(const std::string& cond, const Value& a, const Value& b) {
  if (SameBinding(a, b)) return a;
  if (!a.known_scalar() || !b.known_scalar() || a.file != b.file) return Unknown(a.pos, a.file);
  Value v;
  v.k = K::kNode;
  v.node = std::make_shared<cfn::Node>(Alternatives(cond, cfn::MakeScalar(a.text, a.pos, a.k == K::kStr),
                                                    cfn::MakeScalar(b.text, b.pos, b.k == K::kStr), a.pos));
  v.pos = a.pos;
  v.file = a.file;
  return v;
}

}  // namespace sagelint::cdk::typescript
