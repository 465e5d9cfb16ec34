// Expressions of the Terraform evaluator (eval.h): references and their
// traversals (attributes, indexes, splats), resource attributes, conditionals,
// operators and for expressions.
#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "parsers/terraform/eval.h"
#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

using K = TfVal::Kind;

}  // namespace

TfVal Module::Eval(TSNode n, const HclFile& f, int depth) {
  if (ts_node_is_null(n)) return TfVal{};
  if (!f.snippet) unit_.At(&f, ts::Start(n));
  // Each expression is one step and one value of its own; what it copies or
  // builds is charged where that happens.
  if (depth > kMaxDepth || !unit_.Step() || !unit_.Charge({1, 0}, Range(n))) return Unknown(Range(n));
  TfVal v = EvalInner(n, f, depth);
  // What a function, condition, operator or for expression gives is no token
  // of the file, even when it is one of its operands.
  // jsonencode of an object or a tuple keeps its elements' tokens: a request
  // written as `jsonencode({...})` says each value where it is written.
  static const std::set<std::string_view> kComputed = {"function_call", "conditional", "operation", "for_expr"};
  bool encoded = Type(n) == "function_call" && (v.kind == K::kMap || v.kind == K::kList) &&
                 ts::Text(ts_node_named_child(n, 0), f.text) == "jsonencode";
  if (kComputed.count(Type(n)) && !encoded) ClearLiteral(v);
  if (v.src_path.empty()) {
    v.src_path = f.path;
    v.src = v.range.valid() ? v.range : Range(n);
  }
  return v;
}

TfVal Module::EvalInner(TSNode n, const HclFile& f, int depth) {
  SourceRange r = Range(n);
  std::string_view type = Type(n);
  if (type == "expression") return Chain(n, 0, ts_node_named_child_count(n), f, depth);
  if (type == "variable_expr") {
    uint32_t next = 0;
    return Traversal(n, 0, &next, f, depth);
  }
  if (type == "literal_value" || type == "template_expr" || type == "collection_value") {
    return Eval(ts_node_named_child(n, 0), f, depth + 1);
  }
  if (type == "numeric_lit") {
    auto exp = f.exponent_numbers.find(ts_node_start_byte(n));
    if (exp != f.exponent_numbers.end()) return MakeKnown(K::kNum, exp->second, r);
    TfVal v = MakeKnown(K::kNum, std::string(ts::Text(n, f.text)), r);
    v.literal = true;
    return v;
  }
  if (type == "bool_lit") {
    TfVal v = MakeKnown(K::kBool, std::string(ts::Text(n, f.text)), r);
    v.literal = true;
    return v;
  }
  if (type == "null_lit") return MakeNull(r);
  if (type == "string_lit" || type == "quoted_template") return Template(n, f, depth, false);
  if (type == "heredoc_template") return Template(n, f, depth, true);
  if (type == "tuple") {
    TfVal v;
    v.kind = K::kList;
    v.range = r;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) == "expression") v.items.push_back(Eval(c, f, depth + 1));
    }
    return v;
  }
  if (type == "object") {
    TfVal v;
    v.kind = K::kMap;
    v.range = r;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) != "object_elem") continue;
      TSNode key = ts::Field(c, "key");
      std::string k;
      // A bare key (`Version = …`) is its own name, not a reference.
      if (ts_node_named_child_count(key) == 1 && Type(ts_node_named_child(key, 0)) == "variable_expr") {
        k = std::string(ts::Text(key, f.text));
      } else {
        TfVal kv = Eval(key, f, depth + 1);
        if (!kv.known()) {
          v.dynamic = true;
          continue;
        }
        k = kv.text;
      }
      TfVal val = Eval(ts::Field(c, "val"), f, depth + 1);
      auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == k; });
      if (it != v.fields.end())
        it->second = std::move(val);
      else
        v.fields.emplace_back(k, std::move(val));
    }
    return v;
  }
  if (type == "function_call") return Function(n, f, depth);
  if (type == "conditional") return Conditional(n, f, depth);
  if (type == "operation") return Operation(ts_node_named_child(n, 0), f, depth);
  if (type == "for_expr") return ForExpr(n, f, depth);
  return Unknown(r);
}

// Named children [first, last) of `parent`: a base and the attributes,
// indexes and splats that follow it.
TfVal Module::Chain(TSNode parent, uint32_t first, uint32_t last, const HclFile& f, int depth) {
  if (first >= last) return TfVal{};
  TSNode base = ts_node_named_child(parent, first);
  SourceRange whole{ts::Start(base), ts::End(ts_node_named_child(parent, last - 1))};
  TfVal v;
  uint32_t i = first + 1;
  if (Type(base) == "variable_expr") {
    v = Traversal(parent, first, &i, f, depth);
  } else {
    v = Eval(base, f, depth + 1);
  }
  bool suffixed = i < last;
  for (; i < last; ++i) {
    TSNode s = ts_node_named_child(parent, i);
    if (Type(s) == "comment") continue;
    v = Suffix(std::move(v), s, f, depth);
  }
  if (suffixed) {
    v.range = whole;
    ClearLiteral(v);  // an element or attribute of a collection
  }
  return v;
}

// var.x, local.y, aws_x.name.attr, data.t.n.attr, path.module, each.*,
// count.index, module.m.out, and the variables of for expressions and
// dynamic blocks. `*next` is set to the first child not consumed.
TfVal Module::Traversal(TSNode parent, uint32_t first, uint32_t* next, const HclFile& f, int depth) {
  (void)depth;
  std::vector<std::string> parts;
  uint32_t count = ts_node_named_child_count(parent);
  if (Type(parent) == "variable_expr") count = 1;
  uint32_t i = first;
  TSNode last{};
  for (; i < count; ++i) {
    TSNode c = Type(parent) == "variable_expr" ? parent : ts_node_named_child(parent, i);
    if ((i == first && Type(c) == "variable_expr") || (i > first && Type(c) == "get_attr")) {
      parts.emplace_back(ts::Text(ts_node_named_child(c, 0), f.text));
      last = c;
    } else {
      break;
    }
  }
  *next = i;
  if (parts.empty()) return TfVal{};
  SourceRange at{ts::Start(Type(parent) == "variable_expr" ? parent : ts_node_named_child(parent, first)),
                 ts::End(last)};
  const std::string& root = parts[0];
  size_t used = 1;
  TfVal v;
  // Past the budget only what is written literally is read.
  if (unit_.literal()) return Unknown(at);
  if (const TfVal* s = Lookup(root)) {
    v = Moved(*s, at);
    ClearLiteral(v);  // each.value, a for or dynamic iterator: one value per instance
  } else if (root == "var" && parts.size() > 1) {
    v = Variable(parts[1], at);
    used = 2;
  } else if (root == "local" && parts.size() > 1) {
    v = Local(parts[1], at);
    used = 2;
  } else if (root == "path" && parts.size() > 1) {
    // path.module is this module's directory; path.root and path.cwd the root module's.
    std::string dir = dir_.string();
    v = MakeKnown(K::kStr, parts[1] == "module" ? dir : unit_.root_dir.empty() ? dir : unit_.root_dir, at);
    used = 2;
  } else if (root == "module" && parts.size() > 1) {
    v = Unknown(at);
    v.ref = "module." + parts[1];
    used = 2;
  } else if (root == "each" || root == "count" || root == "self" || root == "terraform") {
    return Unknown(at);
  } else {
    bool data = root == "data";
    size_t base = data ? 1 : 0;
    if (parts.size() < base + 2) return Unknown(at);
    std::string address = (data ? "data." : "") + parts[base] + "." + parts[base + 1];
    if (!decls_.count(address)) return Unknown(at);
    v = Unknown(at);
    v.ref = address;
    v.link = std::string(1, kRefMark) + prefix_ + address + kRefMark;
    used = base + 2;
  }
  for (size_t k = used; k < parts.size(); ++k) v = GetAttr(v, parts[k], at);
  if (used < parts.size()) ClearLiteral(v);
  return v;
}

TfVal Module::Suffix(TfVal base, TSNode s, const HclFile& f, int depth) {
  SourceRange at = Range(s);
  std::string_view t = Type(s);
  if (t == "get_attr") return GetAttr(base, std::string(ts::Text(ts_node_named_child(s, 0), f.text)), at);
  if (t == "index") {
    TSNode idx = ts_node_named_child(s, 0);
    TfVal key;
    if (Type(idx) == "legacy_index") {
      std::string_view text = ts::Text(idx, f.text);
      while (!text.empty() && (text.front() == '.' || text.front() == ' ')) text.remove_prefix(1);
      key = MakeKnown(K::kNum, std::string(text), at);
    } else {
      key = Eval(ts_node_named_child(idx, 0), f, depth + 1);
    }
    return Index(base, key, at);
  }
  if (t == "splat") {
    TSNode inner = ts_node_named_child(s, 0);
    if (base.error) return base;
    std::vector<TfVal> elems;
    if (!base.ref.empty() && base.ref.find('[') == std::string::npos && base.ref.rfind("module.", 0) != 0) {
      for (const Instance& inst : Instances(base.ref)) {
        TfVal e = base;
        e.ref = base.ref + inst.suffix;
        e.link = std::string(1, kRefMark) + prefix_ + e.ref + kRefMark;
        elems.push_back(std::move(e));
      }
    } else if (base.kind == K::kList) {
      elems = base.items;
    } else if (base.kind == K::kNull) {
    } else if (base.kind == K::kUnknown || base.kind == K::kCond) {
      return Unknown(at);
    } else {
      elems.push_back(base);
    }
    TfVal out;
    out.kind = K::kList;
    out.range = at;
    for (TfVal& e : elems) {
      for (uint32_t i = 0; i < ts_node_named_child_count(inner); ++i)
        e = Suffix(std::move(e), ts_node_named_child(inner, i), f, depth);
      out.items.push_back(std::move(e));
    }
    return out;
  }
  return Unknown(at);
}

TfVal Module::GetAttr(const TfVal& base, const std::string& name, SourceRange at) {
  if (base.error) return base;
  if (!base.ref.empty()) {
    return base.ref.rfind("module.", 0) == 0 ? ModuleAttr(base, name, at) : RefAttr(base, name, at);
  }
  switch (base.kind) {
    case K::kMap:
      if (const TfVal* x = base.Get(name)) return *x;
      if (base.dynamic) return Unknown(at);
      return MakeError(at, "no attribute " + name);
    case K::kNull:
      return MakeError(at, "attribute " + name + " of null");
    case K::kCond: {
      TfVal v = base;
      for (TfVal& i : v.items) i = GetAttr(i, name, at);
      return v;
    }
    case K::kUnknown:
      return Unknown(at);
    default:
      return MakeError(at, "attribute " + name + " of a " + (base.kind == K::kList ? "list" : "scalar"));
  }
}

TfVal Module::Index(const TfVal& base, const TfVal& key, SourceRange at) {
  if (base.error) return base;
  if (key.error) return key;
  if (!base.ref.empty() && base.ref.find('[') == std::string::npos) {
    if (!key.known()) return base;  // an unknown instance: links to the resource as a whole
    TfVal v = base;
    v.ref = base.ref + InstanceSuffix(key);
    if (base.ref.rfind("module.", 0) != 0) {
      const auto& insts = Instances(base.ref);
      bool unexpanded = insts.size() == 1 && insts[0].suffix.empty();
      if (unexpanded) return base;
      if (std::none_of(insts.begin(), insts.end(),
                       [&](const Instance& i) { return i.suffix == InstanceSuffix(key); })) {
        return MakeError(at, "no instance " + v.ref);
      }
      v.link = std::string(1, kRefMark) + prefix_ + v.ref + kRefMark;
    }
    return v;
  }
  switch (base.kind) {
    case K::kList:
      if (key.known() && IsNumberText(key.text)) {
        double d = std::atof(key.text.c_str());
        if (d >= 0 && d < static_cast<double>(base.items.size())) return base.items[static_cast<size_t>(d)];
        return MakeError(at, "index out of range");
      }
      return Unknown(at);
    case K::kMap:
      if (!key.known()) return Unknown(at);
      if (const TfVal* x = base.Get(key.text)) return *x;
      if (base.dynamic) return Unknown(at);
      return MakeError(at, "no key " + key.text);
    case K::kNull:
      return MakeError(at, "index of null");
    case K::kCond: {
      TfVal v = base;
      for (TfVal& i : v.items) i = Index(i, key, at);
      return v;
    }
    default:
      return Unknown(at);
  }
}

// An attribute of a resource (instance): its argument when known (names,
// ARNs written out, resource IDs), a rendered template, or else a link to it.
TfVal Module::RefAttr(const TfVal& base, const std::string& attr, SourceRange at) {
  std::string address = base.ref;
  std::string decl = address.substr(0, address.find('['));
  TfVal link = Unknown(at);
  link.link = std::string(1, kRefMark) + prefix_ + address + kRefMark;
  auto d = decls_.find(decl);
  if (d == decls_.end() || evaluating_.count(address)) return link;
  const Instance* inst = nullptr;
  for (const Instance& i : Instances(decl)) {
    if (decl + i.suffix == address) inst = &i;
  }
  if (!inst) return link;
  const TfVal& body = Evaluated(address, *inst);
  const std::string& type = d->second.type;
  bool data = d->second.mode == "data";
  if (data && type == "template_file" && attr == "rendered") {
    const TfVal* tmpl = body.Get("template");
    if (!tmpl || !tmpl->known()) return link;
    TfVal out = RenderTemplate(tmpl->text, body.Get("vars"), at);
    if (out.known()) out.origin = "template of " + prefix_ + address;
    return out;
  }
  if (data && type == "aws_iam_policy" && attr == "arn" && !body.Get("arn")) {
    const TfVal* name = body.Get("name");
    if (name && name->known()) {
      TfVal out = link;
      out.shape = std::string("arn:") + kHole + ":iam::aws:policy/" + name->text;
      return out;
    }
  }
  std::string key = attr == "id" && type.rfind("aws_sagemaker_", 0) == 0 ? "name" : attr;
  if (const TfVal* x = body.Get(key)) {
    if (x->known() || x->kind == K::kList || x->kind == K::kMap) {
      TfVal out = Moved(*x, at);
      if (out.known()) out.origin = (key == "name" ? "name of " : attr + " of ") + prefix_ + address;
      if (!out.known()) out.link = link.link;
      return out;
    }
    if (!x->shape.empty()) link.shape = x->shape;
  }
  return link;
}

TfVal Module::Conditional(TSNode n, const HclFile& f, int depth) {
  TSNode c = ts_node_named_child(n, 0), a = ts_node_named_child(n, 1), b = ts_node_named_child(n, 2);
  TfVal cond = Eval(c, f, depth + 1);
  if (cond.error) return cond;
  if (cond.kind == K::kBool) return Eval(cond.text == "true" ? a : b, f, depth + 1);
  if (cond.is_null()) return MakeError(Range(n), "null condition");
  TfVal v;
  v.kind = K::kCond;
  v.range = Range(n);
  v.condition = std::string(ts::Text(c, f.text));
  v.items = {Eval(a, f, depth + 1), Eval(b, f, depth + 1)};
  return v;
}

TfVal Module::Operation(TSNode op, const HclFile& f, int depth) {
  SourceRange at = Range(op);
  uint32_t named = ts_node_named_child_count(op);
  if (Type(op) == "unary_operation") {
    std::string sym;
    for (uint32_t i = 0; i < ts_node_child_count(op); ++i) {
      TSNode c = ts_node_child(op, i);
      if (!ts_node_is_named(c)) {
        sym = std::string(Type(c));
        break;
      }
    }
    TfVal x = Chain(op, 0, named, f, depth + 1);
    if (x.error) return x;
    if (sym == "!" && x.kind == K::kBool) return MakeKnown(K::kBool, x.text == "true" ? "false" : "true", at);
    if (sym == "-" && x.known() && IsNumberText(x.text))
      return MakeKnown(K::kNum, NumText(-std::atof(x.text.c_str())), at);
    return Unknown(at);
  }
  if (Type(op) != "binary_operation") return Unknown(at);
  // The operands are runs of named children around the one anonymous operator.
  std::string sym;
  uint32_t left = 0;
  for (uint32_t i = 0; i < ts_node_child_count(op); ++i) {
    TSNode c = ts_node_child(op, i);
    if (ts_node_is_named(c)) {
      if (sym.empty() && Type(c) != "comment") ++left;
    } else if (sym.empty()) {
      sym = std::string(Type(c));
    }
  }
  if (sym.empty() || left == 0 || left >= named) return Unknown(at);
  TfVal a = Chain(op, 0, left, f, depth + 1);
  TfVal b = Chain(op, left, named, f, depth + 1);
  auto boolean = [&](bool x) { return MakeKnown(K::kBool, x ? "true" : "false", at); };
  if (sym == "&&" || sym == "||") {
    bool and_op = sym == "&&";
    // false && anything is false, true || anything is true.
    for (const TfVal* x : {&a, &b}) {
      if (x->kind == K::kBool && (x->text == "true") != and_op) return boolean(!and_op);
    }
    if (a.error) return a;
    if (b.error) return b;
    if (a.kind == K::kBool && b.kind == K::kBool) return boolean(and_op);
    return Unknown(at);
  }
  if (a.error) return a;
  if (b.error) return b;
  if (sym == "==" || sym == "!=") {
    auto e = Equal(a, b);
    if (!e) return Unknown(at);
    return boolean(*e == (sym == "=="));
  }
  if (!a.known() || !b.known() || !IsNumberText(a.text) || !IsNumberText(b.text)) return Unknown(at);
  double x = std::atof(a.text.c_str()), y = std::atof(b.text.c_str());
  if (sym == "+") return MakeKnown(K::kNum, NumText(x + y), at);
  if (sym == "-") return MakeKnown(K::kNum, NumText(x - y), at);
  if (sym == "*") return MakeKnown(K::kNum, NumText(x * y), at);
  if (sym == "/" && y != 0) return MakeKnown(K::kNum, NumText(x / y), at);
  if (sym == "%" && y != 0) return MakeKnown(K::kNum, NumText(std::fmod(x, y)), at);
  if (sym == ">") return boolean(x > y);
  if (sym == "<") return boolean(x < y);
  if (sym == ">=") return boolean(x >= y);
  if (sym == "<=") return boolean(x <= y);
  return Unknown(at);
}

// [for x in c : v if cond] and {for k, v in c : key => value... if cond}.
TfVal Module::ForExpr(TSNode n, const HclFile& f, int depth) {
  SourceRange at = Range(n);
  TSNode inner = ts_node_named_child(n, 0);
  bool object = Type(inner) == "for_object_expr";
  TSNode intro{}, cond{};
  std::vector<TSNode> exprs;
  bool group = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(inner); ++i) {
    TSNode c = ts_node_named_child(inner, i);
    std::string_view t = Type(c);
    if (t == "for_intro")
      intro = c;
    else if (t == "for_cond")
      cond = ts_node_named_child(c, 0);
    else if (t == "expression")
      exprs.push_back(c);
    else if (t == "ellipsis")
      group = true;
  }
  if (ts_node_is_null(intro) || exprs.size() != (object ? 2u : 1u)) return Unknown(at);
  std::vector<std::string> names;
  TSNode collection_expr{};
  for (uint32_t i = 0; i < ts_node_named_child_count(intro); ++i) {
    TSNode c = ts_node_named_child(intro, i);
    if (Type(c) == "identifier")
      names.emplace_back(ts::Text(c, f.text));
    else if (Type(c) == "expression")
      collection_expr = c;
  }
  if (names.empty() || names.size() > 2) return Unknown(at);
  TfVal collection = Eval(collection_expr, f, depth + 1);
  if (collection.error) return collection;
  if (collection.is_null()) return MakeError(at, "for over null");
  auto els = Elements(collection);
  if (!els) return Unknown(at);
  TfVal out;
  out.kind = object ? K::kMap : K::kList;
  out.range = at;
  for (auto& [k, v] : *els) {
    // Past the budget a loop stops: its result is unknown.
    if (unit_.literal()) return Unknown(at);
    size_t pushed = 0;
    if (names.size() == 2) {
      scope_.emplace_back(names[0], k);
      ++pushed;
    }
    scope_.emplace_back(names.back(), v);
    ++pushed;
    auto pop = [&] { scope_.resize(scope_.size() - pushed); };
    if (!ts_node_is_null(cond)) {
      TfVal c = Eval(cond, f, depth + 1);
      if (c.error || c.kind != K::kBool) {
        pop();
        return c.error ? c : Unknown(at);
      }
      if (c.text == "false") {
        pop();
        continue;
      }
    }
    if (!object) {
      out.items.push_back(Eval(exprs[0], f, depth + 1));
      pop();
      continue;
    }
    TfVal key = Eval(exprs[0], f, depth + 1);
    TfVal value = Eval(exprs[1], f, depth + 1);
    pop();
    if (key.error) return key;
    if (!key.known()) {
      out.dynamic = true;
      continue;
    }
    auto it = std::find_if(out.fields.begin(), out.fields.end(), [&](const auto& x) { return x.first == key.text; });
    if (group) {
      if (it == out.fields.end()) {
        TfVal list;
        list.kind = K::kList;
        list.range = at;
        out.fields.emplace_back(key.text, std::move(list));
        it = out.fields.end() - 1;
      }
      it->second.items.push_back(std::move(value));
    } else if (it != out.fields.end()) {
      return MakeError(at, "duplicate key " + key.text);
    } else {
      out.fields.emplace_back(key.text, std::move(value));
    }
  }
  return out;
}

}  // namespace sagelint::tf
