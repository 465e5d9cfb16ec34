// Variables and locals of a Terraform module (eval.h): type constraints
// (object attributes with optional defaults), values from variable files,
// --var and defaults, locals, and how often each is mentioned (a value
// written once may be edited where it is written).
#include <algorithm>

#include "parsers/terraform/eval.h"
#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

using K = TfVal::Kind;

// Ranges of a value a stand-in reports: only what `path` wrote keeps a position.
void SetSources(TfVal& v, const std::string& path, SourceRange src, int depth) {
  if (depth > kMaxDepth) return;
  if (v.src_path.empty()) {
    v.src_path = path;
    v.src = v.range.valid() ? v.range : src;
  }
  for (TfVal& i : v.items) SetSources(i, path, src, depth + 1);
  for (auto& f : v.fields) SetSources(f.second, path, src, depth + 1);
}

}  // namespace

// ---- types ------------------------------------------------------------------

struct Module::TypeSpec {
  enum class T { kAny, kString, kNumber, kBool, kList, kSet, kMap, kObject, kTuple };
  T t = T::kAny;
  std::vector<std::unique_ptr<TypeSpec>> elems;
  struct Attr {
    std::string name;
    std::unique_ptr<TypeSpec> type;
    bool has_default = false;
    TfVal def;
  };
  std::vector<Attr> attrs;
};

std::unique_ptr<Module::TypeSpec> Module::ParseType(TSNode n, const HclFile& f, int depth) {
  auto spec = std::make_unique<TypeSpec>();
  while (!ts_node_is_null(n) && (Type(n) == "expression" || Type(n) == "collection_value") &&
         ts_node_named_child_count(n) == 1) {
    n = ts_node_named_child(n, 0);
  }
  if (ts_node_is_null(n) || depth > kMaxDepth) return spec;
  if (Type(n) == "variable_expr") {
    std::string_view name = ts::Text(n, f.text);
    if (name == "string") spec->t = TypeSpec::T::kString;
    if (name == "number") spec->t = TypeSpec::T::kNumber;
    if (name == "bool") spec->t = TypeSpec::T::kBool;
    return spec;
  }
  if (Type(n) != "function_call") return spec;
  std::string name(ts::Text(ts_node_named_child(n, 0), f.text));
  std::vector<TSNode> args;
  if (ts_node_named_child_count(n) > 1) {
    TSNode list = ts_node_named_child(n, 1);
    for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
      if (Type(ts_node_named_child(list, i)) == "expression") args.push_back(ts_node_named_child(list, i));
    }
  }
  if ((name == "list" || name == "set" || name == "map") && args.size() == 1) {
    spec->t = name == "list" ? TypeSpec::T::kList : name == "set" ? TypeSpec::T::kSet : TypeSpec::T::kMap;
    spec->elems.push_back(ParseType(args[0], f, depth + 1));
  } else if (name == "tuple" && args.size() == 1) {
    spec->t = TypeSpec::T::kTuple;
    TSNode t = args[0];
    while (!ts_node_is_null(t) && Type(t) != "tuple" && ts_node_named_child_count(t) == 1)
      t = ts_node_named_child(t, 0);
    if (!ts_node_is_null(t) && Type(t) == "tuple") {
      for (uint32_t i = 0; i < ts_node_named_child_count(t); ++i) {
        TSNode c = ts_node_named_child(t, i);
        if (Type(c) == "expression") spec->elems.push_back(ParseType(c, f, depth + 1));
      }
    }
  } else if (name == "object" && args.size() == 1) {
    spec->t = TypeSpec::T::kObject;
    TSNode o = args[0];
    while (!ts_node_is_null(o) && Type(o) != "object" && ts_node_named_child_count(o) == 1)
      o = ts_node_named_child(o, 0);
    if (ts_node_is_null(o) || Type(o) != "object") return spec;
    for (uint32_t i = 0; i < ts_node_named_child_count(o); ++i) {
      TSNode e = ts_node_named_child(o, i);
      if (Type(e) != "object_elem") continue;
      TypeSpec::Attr a;
      std::string key(ts::Text(ts::Field(e, "key"), f.text));
      if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
      a.name = key;
      TSNode val = ts::Field(e, "val");
      TSNode call = val;
      while (!ts_node_is_null(call) && Type(call) == "expression" && ts_node_named_child_count(call) == 1) {
        call = ts_node_named_child(call, 0);
      }
      if (!ts_node_is_null(call) && Type(call) == "function_call" &&
          ts::Text(ts_node_named_child(call, 0), f.text) == "optional" && ts_node_named_child_count(call) > 1) {
        TSNode list = ts_node_named_child(call, 1);
        std::vector<TSNode> oargs;
        for (uint32_t j = 0; j < ts_node_named_child_count(list); ++j) {
          if (Type(ts_node_named_child(list, j)) == "expression") oargs.push_back(ts_node_named_child(list, j));
        }
        a.type = oargs.empty() ? std::make_unique<TypeSpec>() : ParseType(oargs[0], f, depth + 1);
        if (oargs.size() > 1) {
          a.has_default = true;
          a.def = Eval(oargs[1], f, depth + 1);
        }
      } else {
        a.type = ParseType(val, f, depth + 1);
      }
      spec->attrs.push_back(std::move(a));
    }
  }
  return spec;
}

TfVal Module::ApplyType(TfVal v, const TypeSpec& t, int depth) {
  if (depth > kMaxDepth || v.error || v.kind == K::kNull || v.kind == K::kUnknown || v.kind == K::kCond) return v;
  switch (t.t) {
    case TypeSpec::T::kString:
      if (v.known()) v.kind = K::kStr;
      break;
    case TypeSpec::T::kNumber:
      if (v.known() && IsNumberText(v.text)) v.kind = K::kNum;
      break;
    case TypeSpec::T::kBool:
      if (v.known() && (v.text == "true" || v.text == "false")) v.kind = K::kBool;
      break;
    case TypeSpec::T::kList:
    case TypeSpec::T::kSet:
      if (v.kind == K::kList && !t.elems.empty()) {
        for (TfVal& i : v.items) i = ApplyType(std::move(i), *t.elems[0], depth + 1);
      }
      break;
    case TypeSpec::T::kTuple:
      if (v.kind == K::kList) {
        for (size_t i = 0; i < v.items.size() && i < t.elems.size(); ++i) {
          v.items[i] = ApplyType(std::move(v.items[i]), *t.elems[i], depth + 1);
        }
      }
      break;
    case TypeSpec::T::kMap:
      if (v.kind == K::kMap && !t.elems.empty()) {
        for (auto& fld : v.fields) fld.second = ApplyType(std::move(fld.second), *t.elems[0], depth + 1);
      }
      break;
    case TypeSpec::T::kObject:
      if (v.kind != K::kMap || v.dynamic) break;
      // Attributes the value leaves out are null, or their optional() default.
      for (const TypeSpec::Attr& a : t.attrs) {
        auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == a.name; });
        if (it != v.fields.end()) {
          if (it->second.is_null() && a.has_default) it->second = a.def;
          it->second = ApplyType(std::move(it->second), *a.type, depth + 1);
        } else {
          TfVal def = a.has_default ? ApplyType(a.def, *a.type, depth + 1) : MakeNull(v.range);
          v.fields.emplace_back(a.name, std::move(def));
        }
      }
      break;
    default:
      break;
  }
  return v;
}

std::vector<std::pair<std::string, TfVal>> Module::VarFileValues(HclFile& f) {
  std::vector<std::pair<std::string, TfVal>> out;
  if (f.json) {
    if (!f.json_root.is_map()) return out;
    for (size_t i = 0; i < f.json_root.entries.size(); ++i) {
      const auto& [name, node] = f.json_root.entries[i];
      TfVal v = JsonValue(node, {f.json_root.key_pos[i], f.json_root.key_pos[i]}, 0);
      SetSources(v, f.path, v.range, 0);
      v.origin = "variable " + name + " (" + f.root_path + ")";
      out.emplace_back(name, std::move(v));
    }
    return out;
  }
  TSNode body = Body(ts_tree_root_node(f.tree.get()));
  if (ts_node_is_null(body)) return out;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) != "attribute") continue;
    std::string name(ts::Text(ts_node_named_child(c, 0), f.text));
    TfVal v = Eval(ts_node_named_child(c, 1), f, 0);
    v.origin = "variable " + name + " (" + f.root_path + ")";
    out.emplace_back(name, std::move(v));
  }
  return out;
}

namespace {

// Mentions of var.x and local.y in a JSON file's strings ("${var.x}"): every
// `var.` or `local.` that does not continue a longer name.
void CountJsonUses(const std::string& text, std::map<std::string, int>* uses) {
  for (std::string_view root : {"var.", "local."}) {
    for (size_t at = text.find(root); at != std::string::npos; at = text.find(root, at + 1)) {
      if (at > 0 && (IdentChar(text[at - 1]) || text[at - 1] == '.')) continue;
      size_t end = at + root.size();
      while (end < text.size() && IdentChar(text[end])) ++end;
      if (end > at + root.size()) ++(*uses)[text.substr(at, end - at)];
    }
  }
}

// Mentions in an HCL tree: a `var` or `local` variable followed by an attribute.
void CountHclUses(const HclFile& f, std::map<std::string, int>* uses) {
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(f.tree.get()));
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (Type(n) == "variable_expr") {
      std::string_view root = ts::Text(n, f.text);
      TSNode next = ts_node_next_named_sibling(n);
      if ((root == "var" || root == "local") && !ts_node_is_null(next) && Type(next) == "get_attr" &&
          ts_node_named_child_count(next) > 0) {
        ++(*uses)[std::string(root) + "." + std::string(ts::Text(ts_node_named_child(next, 0), f.text))];
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace

int Module::Uses(std::string_view root, const std::string& name) {
  if (!uses_) {
    uses_.emplace();
    for (const HclFile* f : files_) {
      if (f->broken || f->vars) continue;
      if (f->json) {
        CountJsonUses(f->text, &*uses_);
      } else if (f->tree) {
        CountHclUses(*f, &*uses_);
      }
    }
  }
  auto it = uses_->find(std::string(root) + "." + name);
  return it == uses_->end() ? 0 : it->second;
}

TfVal Module::Variable(const std::string& name, SourceRange at) {
  auto memo = variable_memo_.find(name);
  if (memo == variable_memo_.end()) {
    Nesting nesting(unit_);
    if (!nesting.ok) return Unknown(at);
    TfVal v;
    bool set = false;
    if (inputs_) {
      if (auto in = inputs_->find(name); in != inputs_->end()) {
        v = in->second;
        set = true;
      }
    } else if (auto it = var_values_.find(name); it != var_values_.end()) {
      v = it->second;
      set = true;
    }
    // A module argument or a variable file's value is not this module's to edit.
    if (set) ClearLiteral(v);
    std::unique_ptr<TypeSpec> type;
    std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
    scope_.clear();
    if (auto decl = variables_.find(name); decl != variables_.end()) {
      const HclFile& f = *decl->second.first;
      TSNode type_expr = AttributeExpr(decl->second.second, f, "type");
      if (!ts_node_is_null(type_expr)) type = ParseType(type_expr, f, 1);
      TSNode def = AttributeExpr(decl->second.second, f, "default");
      if (!set && !ts_node_is_null(def)) {
        v = Eval(def, f, 1);
        if (v.known()) v.origin = "variable " + name + " default";
        if (Uses("var", name) != 1) ClearLiteral(v);
        set = true;
      }
    } else if (auto j = json_variables_.find(name); j != json_variables_.end() && !set) {
      if (const cfn::Node* def = j->second.second->Get("default")) {
        v = JsonValue(*def, {def->pos, def->pos}, 0);
        SetSources(v, j->second.first->path, v.range, 0);
        if (v.known()) v.origin = "variable " + name + " default";
        set = true;
      }
    }
    scope_ = std::move(saved);
    if (!set) v.origin = "variable " + name + " has no value";
    if (type) v = ApplyType(std::move(v), *type, 0);
    memo = variable_memo_.emplace(name, std::move(v)).first;
  }
  return Moved(memo->second, at);
}

TfVal Module::Local(const std::string& name, SourceRange at) {
  auto memo = local_memo_.find(name);
  if (memo == local_memo_.end()) {
    Nesting nesting(unit_);
    if (!nesting.ok || evaluating_.count("local." + name)) return Unknown(at);
    evaluating_.insert("local." + name);
    std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
    scope_.clear();
    TfVal v;
    if (auto it = locals_.find(name); it != locals_.end()) {
      v = Eval(ts_node_named_child(it->second.second, 1), *it->second.first, 1);
    } else if (auto j = json_locals_.find(name); j != json_locals_.end()) {
      v = FromJson(*j->second.second, *j->second.first, 1, true);
    } else {
      v = MakeError(at, "no local " + name);
    }
    scope_ = std::move(saved);
    evaluating_.erase("local." + name);
    if (v.known() && v.origin.empty()) v.origin = "local " + name;
    if (Uses("local", name) != 1) ClearLiteral(v);
    memo = local_memo_.emplace(name, std::move(v)).first;
  }
  return Moved(memo->second, at);
}

}  // namespace sagelint::tf
