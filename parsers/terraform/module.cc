// Terraform front end: one module directory's `*.tf`, `*.tf.json` and
// `*.tfvars` files evaluated together (variables, locals, templates, a few
// functions, local child modules), and plan JSON.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "parsers/frontend.h"
#include "parsers/cloudformation/node.h"
#include "parsers/common/base64.h"
#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/terraform/resources.h"
#include "parsers/terraform/value.h"

extern "C" const TSLanguage* tree_sitter_hcl(void);

namespace sagelint {
namespace tf {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFileBytes = 4u << 20;
constexpr int kDeadlineMs = 2000;
constexpr int kMaxDepth = 64;
constexpr int kMaxModuleDepth = 4;
constexpr size_t kMaxReadBytes = 1u << 20;  // file(), templatefile()

std::string_view Type(TSNode n) { return ts::Type(n); }

// One parsed file of the module.
struct HclFile {
  std::string path;  // display path
  std::string abs;
  std::string text;
  ts::Tree tree;
  bool json = false;   // *.tf.json
  cfn::Node json_root;
  bool vars = false;   // *.tfvars
  bool broken = false;
};

bool ReadLimited(const fs::path& p, std::string* out) {
  std::string error;  // a regular file of at most 1 MiB, or nothing
  return ReadFileCapped(p.string(), kMaxReadBytes, out, &error);
}

TfVal Known(TfVal::Kind kind, std::string text, SourceRange r, std::string origin = {}) {
  TfVal v;
  v.kind = kind;
  v.text = std::move(text);
  v.range = r;
  v.origin = std::move(origin);
  return v;
}

std::string NumText(double d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

class Module {
 public:
  Module(std::vector<HclFile*> files, fs::path dir, std::string prefix, std::map<std::string, TfVal> inputs,
         const ResolveOptions& opts, int depth)
      : files_(std::move(files)), dir_(std::move(dir)), prefix_(std::move(prefix)), inputs_(std::move(inputs)),
        opts_(opts), depth_(depth) {}

  // Reads the declarations of every file.
  void Load() {
    for (HclFile* f : files_) {
      if (f->broken) continue;
      if (f->json) {
        LoadJson(*f);
        continue;
      }
      TSNode body = Body(ts_tree_root_node(f->tree.get()));
      if (ts_node_is_null(body)) continue;
      uint32_t n = ts_node_named_child_count(body);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode c = ts_node_named_child(body, i);
        if (f->vars && Type(c) == "attribute") {
          VarFileValue(*f, c);
        } else if (Type(c) == "block") {
          Declaration(*f, c);
        }
      }
    }
    for (const std::string& vf : opts_.tf_var_files) LoadVarFile(vf);
  }

  // Every resource and data source, evaluated.
  void Resources(std::vector<Resource>* out, const std::vector<std::string>& report_only) {
    for (auto& [address, decl] : decls_) {
      if (report_only.size() && std::find(report_only.begin(), report_only.end(), decl.file->path) == report_only.end()) {
        continue;
      }
      const TfVal& body = Evaluated(address);
      // `count = 0` known: nothing is created.
      if (const TfVal* count = body.Get("count"); count && count->known() && count->text == "0") continue;
      Resource r;
      r.mode = decl.mode;
      r.type = decl.type;
      r.address = prefix_ + (decl.mode == "data" ? "data." : "") + decl.type + "." + decl.name;
      r.body = body;
      r.range = decl.range;
      r.path = decl.file->path;
      r.scope = DisplayPath(dir_.string());
      out->push_back(std::move(r));
    }
    if (depth_ >= kMaxModuleDepth || !report_only.empty()) return;
    for (const auto& [name, call] : modules_) ChildModule(name, call, out);
  }

 private:
  struct Decl {
    std::string mode, type, name;
    HclFile* file = nullptr;
    TSNode body{};             // HCL
    const cfn::Node* json = nullptr;  // .tf.json
    SourceRange range;
  };

  static TSNode Body(TSNode root) {
    if (Type(root) == "body") return root;
    uint32_t n = ts_node_named_child_count(root);
    for (uint32_t i = 0; i < n; ++i) {
      if (Type(ts_node_named_child(root, i)) == "body") return ts_node_named_child(root, i);
    }
    return TSNode{};
  }

  static std::vector<std::string> Labels(TSNode block, const HclFile& f) {
    std::vector<std::string> labels;
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 1; i < n; ++i) {
      TSNode c = ts_node_named_child(block, i);
      if (Type(c) == "string_lit") {
        std::string_view t = ts::Text(c, f.text);
        labels.emplace_back(t.size() >= 2 ? t.substr(1, t.size() - 2) : t);
      } else if (Type(c) == "identifier") {
        labels.emplace_back(ts::Text(c, f.text));
      }
    }
    return labels;
  }
  static TSNode BlockBody(TSNode block) {
    uint32_t n = ts_node_named_child_count(block);
    for (uint32_t i = 0; i < n; ++i) {
      if (Type(ts_node_named_child(block, i)) == "body") return ts_node_named_child(block, i);
    }
    return TSNode{};
  }

  void Declaration(HclFile& f, TSNode block) {
    std::string kind(ts::Text(ts_node_named_child(block, 0), f.text));
    std::vector<std::string> labels = Labels(block, f);
    TSNode body = BlockBody(block);
    SourceRange range{ts::Start(block), ts::Start(block)};
    if ((kind == "resource" || kind == "data") && labels.size() >= 2) {
      Decl d{kind, labels[0], labels[1], &f, body, nullptr, range};
      decls_[(kind == "data" ? "data." : "") + labels[0] + "." + labels[1]] = d;
    } else if (kind == "variable" && labels.size() == 1) {
      variables_[labels[0]] = {&f, body};
    } else if (kind == "locals" && !ts_node_is_null(body)) {
      uint32_t n = ts_node_named_child_count(body);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode a = ts_node_named_child(body, i);
        if (Type(a) == "attribute") locals_[std::string(ts::Text(ts_node_named_child(a, 0), f.text))] = {&f, a};
      }
    } else if (kind == "module" && labels.size() == 1) {
      modules_[labels[0]] = {&f, body};
    }
  }

  void VarFileValue(HclFile& f, TSNode attr) {
    std::string name(ts::Text(ts_node_named_child(attr, 0), f.text));
    TfVal v = Eval(ts_node_named_child(attr, 1), f, 0);
    v.origin = "variable " + name + " (" + f.path + ")";
    // terraform.tfvars first, *.auto.tfvars after (alphabetically): later files win.
    bool is_auto = f.path.ends_with(".auto.tfvars");
    auto it = tfvars_.find(name);
    if (it == tfvars_.end() || is_auto || !it->second.second) tfvars_[name] = {v, is_auto};
  }

  void LoadVarFile(const std::string& path) {
    auto f = std::make_unique<HclFile>();
    f->abs = fs::absolute(path).string();
    f->path = DisplayPath(f->abs);
    std::string text;
    if (!ReadLimited(f->abs, &text)) return;
    f->text = text;
    f->tree = ts::Parse(tree_sitter_hcl(), f->text, kDeadlineMs);
    if (!f->tree) return;
    TSNode body = Body(ts_tree_root_node(f->tree.get()));
    if (ts_node_is_null(body)) return;
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(body, i);
      if (Type(c) != "attribute") continue;
      std::string name(ts::Text(ts_node_named_child(c, 0), f->text));
      TfVal v = Eval(ts_node_named_child(c, 1), *f, 0);
      v.origin = "variable " + name + " (" + f->path + ")";
      var_files_[name] = v;
    }
    owned_.push_back(std::move(f));
  }

  void LoadJson(HclFile& f) {
    const cfn::Node& root = f.json_root;
    for (const char* mode : {"resource", "data"}) {
      const cfn::Node* types = root.Get(mode);
      if (!types || !types->is_map()) continue;
      for (size_t i = 0; i < types->entries.size(); ++i) {
        const auto& [type, names] = types->entries[i];
        if (!names.is_map()) continue;
        for (size_t j = 0; j < names.entries.size(); ++j) {
          Decl d{mode, type, names.entries[j].first, &f, TSNode{}, &names.entries[j].second,
                 {names.key_pos[j], names.key_pos[j]}};
          decls_[(std::string(mode) == "data" ? "data." : "") + type + "." + names.entries[j].first] = d;
        }
      }
    }
    if (const cfn::Node* vars = root.Get("variable"); vars && vars->is_map()) {
      for (const auto& [name, v] : vars->entries) json_variables_[name] = &v;
    }
    if (const cfn::Node* locals = root.Get("locals"); locals && locals->is_map()) {
      for (const auto& [name, v] : locals->entries) json_locals_[name] = {&f, &v};
    }
  }

  // ---- values -----------------------------------------------------------
  TfVal Variable(const std::string& name, SourceRange at) {
    auto in = inputs_.find(name);
    if (in != inputs_.end()) {
      TfVal v = in->second;
      v.range = at;
      return v;
    }
    auto cli = opts_.tf_variables.find(name);
    if (cli != opts_.tf_variables.end() && depth_ == 0) {
      return Known(TfVal::Kind::kStr, cli->second, at, "variable " + name + " (given)");
    }
    for (auto* m : {&var_files_}) {
      auto it = m->find(name);
      if (it != m->end() && depth_ == 0) {
        TfVal v = it->second;
        v.range = at;
        return v;
      }
    }
    auto tv = tfvars_.find(name);
    if (tv != tfvars_.end() && depth_ == 0) {
      TfVal v = tv->second.first;
      v.range = at;
      return v;
    }
    auto decl = variables_.find(name);
    if (decl != variables_.end() && !ts_node_is_null(decl->second.second)) {
      TSNode body = decl->second.second;
      uint32_t n = ts_node_named_child_count(body);
      for (uint32_t i = 0; i < n; ++i) {
        TSNode a = ts_node_named_child(body, i);
        if (Type(a) == "attribute" && ts::Text(ts_node_named_child(a, 0), decl->second.first->text) == "default") {
          TfVal v = Eval(ts_node_named_child(a, 1), *decl->second.first, 1);
          v.range = at;
          if (v.known()) v.origin = "variable " + name + " default";
          return v;
        }
      }
    }
    if (auto j = json_variables_.find(name); j != json_variables_.end()) {
      if (const cfn::Node* def = j->second->Get("default"); def && def->is_scalar()) {
        return Known(TfVal::Kind::kStr, def->text, at, "variable " + name + " default");
      }
    }
    TfVal v;
    v.range = at;
    v.origin = "variable " + name + " has no value";
    return v;
  }

  TfVal Local(const std::string& name, SourceRange at, int depth) {
    if (evaluating_.count("local." + name)) return TfVal{};
    evaluating_.insert("local." + name);
    TfVal v;
    if (auto it = locals_.find(name); it != locals_.end()) {
      v = Eval(ts_node_named_child(it->second.second, 1), *it->second.first, depth + 1);
    } else if (auto j = json_locals_.find(name); j != json_locals_.end()) {
      v = FromJson(*j->second.second, *j->second.first, depth + 1);
    }
    evaluating_.erase("local." + name);
    if (v.known() && v.origin.empty()) v.origin = "local " + name;
    v.range = at;
    return v;
  }

  const TfVal& Evaluated(const std::string& address) {
    auto memo = evaluated_.find(address);
    if (memo != evaluated_.end()) return memo->second;
    TfVal body;
    body.kind = TfVal::Kind::kMap;
    auto it = decls_.find(address);
    if (it != decls_.end() && !evaluating_.count(address)) {
      evaluating_.insert(address);
      const Decl& d = it->second;
      body = d.json ? FromJson(*d.json, *d.file, 1) : BodyValue(d.body, *d.file, 1);
      evaluating_.erase(address);
    }
    return evaluated_[address] = std::move(body);
  }

  // A reference `type.name.attr…` (or `data.type.name.attr…`).
  TfVal ResourceRef(const std::vector<std::string>& parts, SourceRange at) {
    bool data = parts[0] == "data";
    size_t base = data ? 1 : 0;
    if (parts.size() < base + 2) return TfVal{};
    std::string address = (data ? "data." : "") + parts[base] + "." + parts[base + 1];
    TfVal v;
    v.range = at;
    if (!decls_.count(address)) return v;
    std::string attr = parts.size() > base + 2 ? parts[base + 2] : "";
    // The `name` (and, for SageMaker resources, the `id`, which is the name) when written literally.
    if ((attr == "name" || (attr == "id" && parts[base].rfind("aws_sagemaker_", 0) == 0)) && !evaluating_.count(address)) {
      const TfVal* name = Evaluated(address).Get("name");
      if (name && name->known()) {
        TfVal out = *name;
        out.range = at;
        out.origin = "name of " + address;
        return out;
      }
    }
    v.link = std::string(1, kRefMark) + prefix_ + address + kRefMark;
    return v;
  }

  TfVal BodyValue(TSNode body, const HclFile& f, int depth) {
    TfVal m;
    m.kind = TfVal::Kind::kMap;
    if (ts_node_is_null(body) || depth > kMaxDepth) return m;
    m.range = {ts::Start(body), ts::Start(body)};
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(body, i);
      if (Type(c) == "attribute") {
        std::string key(ts::Text(ts_node_named_child(c, 0), f.text));
        TfVal v = Eval(ts_node_named_child(c, 1), f, depth + 1);
        m.fields.emplace_back(key, std::move(v));
      } else if (Type(c) == "block") {
        std::string key(ts::Text(ts_node_named_child(c, 0), f.text));
        if (key == "dynamic") {
          m.dynamic = true;
          continue;
        }
        TfVal child = BodyValue(BlockBody(c), f, depth + 1);
        child.range = {ts::Start(c), ts::Start(c)};
        auto it = std::find_if(m.fields.begin(), m.fields.end(), [&](const auto& kv) { return kv.first == key; });
        if (it == m.fields.end()) {
          TfVal list;
          list.kind = TfVal::Kind::kList;
          list.range = child.range;
          list.items.push_back(std::move(child));
          m.fields.emplace_back(key, std::move(list));
        } else {
          it->second.items.push_back(std::move(child));
        }
      }
    }
    return m;
  }

  TfVal FromJson(const cfn::Node& n, const HclFile& f, int depth) {
    TfVal v;
    v.range = {n.pos, n.pos};
    if (depth > kMaxDepth) return v;
    switch (n.kind) {
      case cfn::Node::Kind::kNull: v.kind = TfVal::Kind::kNull; return v;
      case cfn::Node::Kind::kSeq:
        v.kind = TfVal::Kind::kList;
        for (const cfn::Node& i : n.items) v.items.push_back(FromJson(i, f, depth + 1));
        return v;
      case cfn::Node::Kind::kMap:
        v.kind = TfVal::Kind::kMap;
        for (const auto& [k, x] : n.entries) {
          if (k == "dynamic") {
            v.dynamic = true;
            continue;
          }
          v.fields.emplace_back(k, FromJson(x, f, depth + 1));
        }
        return v;
      default:
        if (n.text.find("${") == std::string::npos) return Known(TfVal::Kind::kStr, n.text, v.range);
        return Interpolated(n.text, v.range, depth);
    }
  }

  // A JSON string with ${…} interpolations, evaluated as an HCL template.
  TfVal Interpolated(const std::string& text, SourceRange at, int depth) {
    auto f = std::make_unique<HclFile>();
    f->path = "(interpolation)";
    std::string escaped;
    for (char c : text) {
      if (c == '"' || c == '\\') escaped += '\\';
      if (c == '\n') {
        escaped += "\\n";
        continue;
      }
      escaped += c;
    }
    f->text = "v = \"" + escaped + "\"\n";
    f->tree = ts::Parse(tree_sitter_hcl(), f->text, kDeadlineMs);
    TfVal v;
    v.range = at;
    if (!f->tree) return v;
    TSNode body = Body(ts_tree_root_node(f->tree.get()));
    if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return v;
    TSNode attr = ts_node_named_child(body, 0);
    v = Eval(ts_node_named_child(attr, 1), *f, depth + 1);
    v.range = at;
    owned_.push_back(std::move(f));
    return v;
  }

  TfVal Eval(TSNode n, const HclFile& f, int depth) {
    TfVal v;
    if (ts_node_is_null(n)) return v;
    v.range = {ts::Start(n), ts::End(n)};
    if (depth > kMaxDepth) return v;
    std::string_view type = Type(n);
    if (type == "expression") {
      uint32_t count = ts_node_named_child_count(n);
      if (count == 0) return v;
      TSNode first = ts_node_named_child(n, 0);
      if (Type(first) == "variable_expr") return Traversal(n, f, depth);
      TfVal base = Eval(first, f, depth + 1);
      for (uint32_t i = 1; i < count; ++i) base = Suffix(base, ts_node_named_child(n, i), f, depth);
      if (count == 1 && !base.range.valid()) base.range = v.range;
      return base;
    }
    if (type == "literal_value") return Eval(ts_node_named_child(n, 0), f, depth + 1);
    if (type == "numeric_lit") return Known(TfVal::Kind::kNum, std::string(ts::Text(n, f.text)), v.range);
    if (type == "bool_lit") return Known(TfVal::Kind::kBool, std::string(ts::Text(n, f.text)), v.range);
    if (type == "null_lit") {
      v.kind = TfVal::Kind::kNull;
      return v;
    }
    if (type == "string_lit" || type == "quoted_template") return Template(n, f, depth, false);
    if (type == "template_expr") return Eval(ts_node_named_child(n, 0), f, depth + 1);
    if (type == "heredoc_template") return Template(n, f, depth, true);
    if (type == "collection_value") return Eval(ts_node_named_child(n, 0), f, depth + 1);
    if (type == "tuple") {
      v.kind = TfVal::Kind::kList;
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (Type(c) == "expression") v.items.push_back(Eval(c, f, depth + 1));
      }
      return v;
    }
    if (type == "object") {
      v.kind = TfVal::Kind::kMap;
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
        v.fields.emplace_back(k, Eval(ts::Field(c, "val"), f, depth + 1));
      }
      return v;
    }
    if (type == "function_call") return Function(n, f, depth);
    if (type == "conditional") return Conditional(n, f, depth);
    if (type == "operation") return Operation(ts_node_named_child(n, 0), f, depth);
    return v;
  }

  TfVal Suffix(const TfVal& base, TSNode s, const HclFile& f, int depth) {
    TfVal v;
    v.range = base.range;
    if (Type(s) == "get_attr") {
      const TfVal* field = base.Get(std::string(ts::Text(ts_node_named_child(s, 0), f.text)));
      return field ? *field : v;
    }
    if (Type(s) == "index") {
      TSNode idx = ts_node_named_child(s, 0);
      TfVal i = Eval(ts_node_named_child(idx, 0), f, depth + 1);
      if (base.kind == TfVal::Kind::kList && i.kind == TfVal::Kind::kNum) {
        size_t k = static_cast<size_t>(std::atof(i.text.c_str()));
        if (k < base.items.size()) return base.items[k];
      }
      if (base.kind == TfVal::Kind::kMap && i.known()) {
        const TfVal* field = base.Get(i.text);
        if (field) return *field;
      }
    }
    return v;
  }

  // var.x, local.y, aws_x.name.attr, data.t.n.attr, path.module, each.*, count.index, module.m.out.
  TfVal Traversal(TSNode expr, const HclFile& f, int depth) {
    std::vector<std::string> parts;
    uint32_t count = ts_node_named_child_count(expr);
    SourceRange at{ts::Start(expr), ts::End(expr)};
    uint32_t i = 0;
    for (; i < count; ++i) {
      TSNode c = ts_node_named_child(expr, i);
      if (Type(c) == "variable_expr" || Type(c) == "get_attr") {
        parts.emplace_back(ts::Text(ts_node_named_child(c, 0), f.text));
      } else {
        break;
      }
    }
    TfVal v;
    v.range = at;
    if (parts.empty()) return v;
    const std::string& root = parts[0];
    size_t used = 1;
    if (root == "var" && parts.size() > 1) {
      v = Variable(parts[1], at);
      used = 2;
    } else if (root == "local" && parts.size() > 1) {
      v = Local(parts[1], at, depth);
      used = 2;
    } else if (root == "path" && parts.size() > 1) {
      if (parts[1] == "module" || parts[1] == "root" || parts[1] == "cwd") {
        v = Known(TfVal::Kind::kStr, parts[1] == "module" ? dir_.string() : fs::current_path().string(), at);
      }
      used = 2;
    } else if (root == "each" || root == "count" || root == "module" || root == "self" || root == "terraform") {
      return v;
    } else {
      return ResourceRef(parts, at);
    }
    // Remaining attributes and indexes apply to the value.
    for (size_t k = used; k < parts.size(); ++k) {
      const TfVal* field = v.Get(parts[k]);
      if (!field) return TfVal{};
      v = *field;
    }
    for (; i < count; ++i) v = Suffix(v, ts_node_named_child(expr, i), f, depth);
    return v;
  }

  TfVal Template(TSNode n, const HclFile& f, int depth, bool heredoc) {
    TfVal v;
    v.range = {ts::Start(n), ts::End(n)};
    std::string text, link;
    bool known = true, linkable = true;
    auto append = [&](const TfVal& part) {
      if (part.known()) {
        text += part.text;
        link += part.text;
      } else {
        known = false;
        if (part.link.empty()) linkable = false;
        link += part.link;
      }
    };
    if (!heredoc) {
      uint32_t count = ts_node_named_child_count(n);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        std::string_view t = Type(c);
        if (t == "template_literal") {
          std::string lit = DecodeEscapes(ts::Text(c, f.text));
          text += lit;
          link += lit;
        } else if (t == "template_interpolation") {
          append(Eval(InterpolationExpr(c), f, depth + 1));
        } else if (t == "template_directive") {
          known = linkable = false;
        }
      }
    } else {
      // The raw text between the two identifiers, with interpolations spliced in.
      uint32_t count = ts_node_named_child_count(n);
      TSNode open{}, close{};
      bool indent = ts::Text(n, f.text).substr(0, 3) == "<<-";
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (Type(c) == "heredoc_identifier") (ts_node_is_null(open) ? open : close) = c;
      }
      if (ts_node_is_null(open) || ts_node_is_null(close)) return v;
      uint32_t pos = ts_node_end_byte(open);
      size_t nl = f.text.find('\n', pos);
      if (nl == std::string::npos) return v;
      pos = static_cast<uint32_t>(nl + 1);
      uint32_t end = ts_node_start_byte(close);
      std::string raw;
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(n, i);
        if (Type(c) == "template_interpolation" || Type(c) == "template_directive") {
          raw.append(f.text, pos, ts_node_start_byte(c) - pos);
          if (Type(c) == "template_directive") {
            known = linkable = false;
          } else {
            TfVal part = Eval(InterpolationExpr(c), f, depth + 1);
            if (part.known()) {
              raw += part.text;
            } else {
              known = false;
              raw += part.link;
            }
          }
          pos = ts_node_end_byte(c);
        }
      }
      if (end > pos) raw.append(f.text, pos, end - pos);
      // Drop the closing identifier's indentation line.
      while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.pop_back();
      if (indent) raw = Dedent(raw);
      text = link = raw;
    }
    if (known) {
      v.kind = TfVal::Kind::kStr;
      v.text = text;
    } else if (linkable) {
      v.link = link;
    }
    return v;
  }

  static TSNode InterpolationExpr(TSNode interpolation) {
    uint32_t n = ts_node_named_child_count(interpolation);
    for (uint32_t i = 0; i < n; ++i) {
      if (Type(ts_node_named_child(interpolation, i)) == "expression") return ts_node_named_child(interpolation, i);
    }
    return TSNode{};
  }

  static std::string Dedent(const std::string& s) {
    size_t common = std::string::npos;
    std::istringstream in(s);
    std::string line;
    while (std::getline(in, line)) {
      size_t ind = line.find_first_not_of(" \t");
      if (ind == std::string::npos) continue;
      common = std::min(common, ind);
    }
    if (common == std::string::npos || common == 0) return s;
    std::string out;
    std::istringstream again(s);
    while (std::getline(again, line)) {
      out += line.size() >= common ? line.substr(common) : std::string();
      out += '\n';
    }
    if (!s.empty() && s.back() != '\n' && !out.empty()) out.pop_back();
    return out;
  }

  TfVal Conditional(TSNode n, const HclFile& f, int depth) {
    TSNode c = ts_node_named_child(n, 0), a = ts_node_named_child(n, 1), b = ts_node_named_child(n, 2);
    TfVal cond = Eval(c, f, depth + 1);
    if (cond.kind == TfVal::Kind::kBool) return Eval(cond.text == "true" ? a : b, f, depth + 1);
    TfVal v;
    v.kind = TfVal::Kind::kCond;
    v.range = {ts::Start(n), ts::End(n)};
    v.condition = std::string(ts::Text(c, f.text));
    v.items = {Eval(a, f, depth + 1), Eval(b, f, depth + 1)};
    return v;
  }

  TfVal Operation(TSNode op, const HclFile& f, int depth) {
    TfVal v;
    v.range = {ts::Start(op), ts::End(op)};
    if (Type(op) == "unary_operation") {
      TfVal x = Eval(ts_node_named_child(op, 0), f, depth + 1);
      std::string_view sym = ts::Text(op, f.text).substr(0, 1);
      if (sym == "!" && x.kind == TfVal::Kind::kBool) return Known(TfVal::Kind::kBool, x.text == "true" ? "false" : "true", v.range);
      return v;
    }
    if (Type(op) != "binary_operation" || ts_node_child_count(op) < 3) return v;
    TfVal a = Eval(ts_node_child(op, 0), f, depth + 1);
    TfVal b = Eval(ts_node_child(op, 2), f, depth + 1);
    std::string sym(ts::Text(ts_node_child(op, 1), f.text));
    if (!a.known() || !b.known()) return v;
    if (sym == "==" || sym == "!=") return Known(TfVal::Kind::kBool, ((a.text == b.text) == (sym == "==")) ? "true" : "false", v.range);
    if (sym == "&&" || sym == "||") {
      bool x = a.text == "true", y = b.text == "true";
      return Known(TfVal::Kind::kBool, (sym == "&&" ? (x && y) : (x || y)) ? "true" : "false", v.range);
    }
    if (a.kind == TfVal::Kind::kNum && b.kind == TfVal::Kind::kNum) {
      double x = std::atof(a.text.c_str()), y = std::atof(b.text.c_str());
      if (sym == "+") return Known(TfVal::Kind::kNum, NumText(x + y), v.range);
      if (sym == "-") return Known(TfVal::Kind::kNum, NumText(x - y), v.range);
      if (sym == "*") return Known(TfVal::Kind::kNum, NumText(x * y), v.range);
      if (sym == ">" || sym == "<" || sym == ">=" || sym == "<=") {
        bool r = sym == ">" ? x > y : sym == "<" ? x < y : sym == ">=" ? x >= y : x <= y;
        return Known(TfVal::Kind::kBool, r ? "true" : "false", v.range);
      }
    }
    return v;
  }

  // A file a function reads: relative to the working directory (paths usually
  // start with path.module), and never outside the scanned root.
  bool ReadModuleFile(const std::string& path, std::string* out) {
    fs::path p = fs::path(path).is_absolute() ? fs::path(path) : fs::current_path() / path;
    std::error_code ec;
    fs::path canon = fs::weakly_canonical(p, ec);
    if (ec) return false;
    if (!opts_.root.empty()) {
      fs::path rel = canon.lexically_relative(fs::weakly_canonical(opts_.root, ec));
      if (rel.empty() || *rel.begin() == "..") return false;
    }
    return ReadLimited(canon, out);
  }

  TfVal Function(TSNode n, const HclFile& f, int depth) {
    TfVal v;
    v.range = {ts::Start(n), ts::End(n)};
    std::string name(ts::Text(ts_node_named_child(n, 0), f.text));
    std::vector<TfVal> args;
    if (ts_node_named_child_count(n) > 1) {
      TSNode list = ts_node_named_child(n, 1);
      uint32_t count = ts_node_named_child_count(list);
      for (uint32_t i = 0; i < count; ++i) {
        TSNode c = ts_node_named_child(list, i);
        if (Type(c) == "expression") args.push_back(Eval(c, f, depth + 1));
      }
    }
    auto arg = [&](size_t i) -> const TfVal* { return i < args.size() ? &args[i] : nullptr; };
    if ((name == "jsonencode" || name == "tostring" || name == "tonumber" || name == "tolist" || name == "toset" ||
         name == "tomap" || name == "trimspace") && arg(0)) {
      TfVal out = *arg(0);
      out.range = v.range;
      if (name == "trimspace" && out.known()) {
        size_t a = out.text.find_first_not_of(" \t\n\r"), b = out.text.find_last_not_of(" \t\n\r");
        out.text = a == std::string::npos ? "" : out.text.substr(a, b - a + 1);
      }
      return out;
    }
    if (name == "base64encode" && arg(0) && arg(0)->known()) {
      return Known(TfVal::Kind::kStr, Base64Encode(arg(0)->text), v.range, arg(0)->origin);
    }
    if (name == "base64decode" && arg(0) && arg(0)->known()) {
      bool ok = false;
      std::string d = Base64Decode(arg(0)->text, &ok);
      if (ok) return Known(TfVal::Kind::kStr, d, v.range);
      return v;
    }
    if ((name == "file" || name == "filebase64" || name == "templatefile") && arg(0) && arg(0)->known()) {
      std::string content;
      if (!ReadModuleFile(arg(0)->text, &content)) return v;
      std::string origin = "file " + DisplayPath(fs::absolute(arg(0)->text).string());
      if (name == "templatefile") {
        const TfVal* vars = arg(1);
        std::string out;
        for (size_t i = 0; i < content.size();) {
          if (content.compare(i, 2, "${") == 0) {
            size_t close = content.find('}', i + 2);
            if (close == std::string::npos) break;
            std::string key = content.substr(i + 2, close - i - 2);
            key.erase(0, key.find_first_not_of(' '));
            key.erase(key.find_last_not_of(' ') + 1);
            const TfVal* x = vars ? vars->Get(key) : nullptr;
            if (!x || !x->known()) return v;
            out += x->text;
            i = close + 1;
          } else if (content.compare(i, 2, "%{") == 0) {
            return v;
          } else {
            out += content[i++];
          }
        }
        content = out;
      }
      if (name == "filebase64") content = Base64Encode(content);
      return Known(TfVal::Kind::kStr, content, v.range, origin);
    }
    if (name == "lookup" && arg(0) && arg(1)) {
      if (arg(0)->kind == TfVal::Kind::kMap && arg(1)->known()) {
        if (const TfVal* x = arg(0)->Get(arg(1)->text)) return *x;
        if (arg(2)) return *arg(2);
      }
      return v;
    }
    if (name == "merge") {
      v.kind = TfVal::Kind::kMap;
      for (const TfVal& m : args) {
        if (m.kind != TfVal::Kind::kMap) return TfVal{};
        for (const auto& kv : m.fields) {
          auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == kv.first; });
          if (it != v.fields.end()) it->second = kv.second;
          else v.fields.push_back(kv);
        }
        v.dynamic = v.dynamic || m.dynamic;
      }
      return v;
    }
    if (name == "format" && arg(0) && arg(0)->known()) {
      std::string out;
      const std::string& fmt = arg(0)->text;
      size_t next = 1;
      for (size_t i = 0; i < fmt.size(); ++i) {
        if (fmt[i] != '%' || i + 1 == fmt.size()) {
          out += fmt[i];
          continue;
        }
        char c = fmt[++i];
        if (c == '%') {
          out += '%';
          continue;
        }
        const TfVal* x = arg(next++);
        if (!x || !x->known()) return v;
        out += x->text;
      }
      return Known(TfVal::Kind::kStr, out, v.range);
    }
    if ((name == "coalesce" || name == "try") && !args.empty()) {
      for (const TfVal& a : args) {
        if (a.kind == TfVal::Kind::kNull) continue;
        if (a.known() || name == "coalesce") return a;
      }
      return v;
    }
    return v;
  }

  void ChildModule(const std::string& name, const std::pair<HclFile*, TSNode>& call, std::vector<Resource>* out) {
    TfVal body = BodyValue(call.second, *call.first, 1);
    const TfVal* source = body.Get("source");
    if (!source || !source->known() || (source->text.rfind("./", 0) != 0 && source->text.rfind("../", 0) != 0)) return;
    std::error_code ec;
    fs::path child = fs::weakly_canonical(fs::path(call.first->abs).parent_path() / source->text, ec);
    if (ec || !fs::is_directory(child, ec)) return;
    if (!opts_.root.empty()) {
      fs::path rel = child.lexically_relative(fs::weakly_canonical(opts_.root, ec));
      if (rel.empty() || *rel.begin() == "..") return;
    }
    std::map<std::string, TfVal> inputs;
    for (const auto& [k, v] : body.fields) {
      if (k != "source" && k != "version" && k != "count" && k != "for_each" && k != "providers") inputs[k] = v;
    }
    std::vector<std::unique_ptr<HclFile>> files;
    std::vector<fs::directory_entry> entries;
    for (const auto& e : fs::directory_iterator(child, ec)) entries.push_back(e);
    std::sort(entries.begin(), entries.end(), [](const auto& a, const auto& b) { return a.path() < b.path(); });
    for (const auto& e : entries) {
      std::string p = e.path().string();
      if (!p.ends_with(".tf")) continue;
      auto f = std::make_unique<HclFile>();
      f->abs = p;
      f->path = DisplayPath(e.path().string());
      if (!ReadLimited(p, &f->text) || f->text.size() > kMaxFileBytes) continue;
      f->tree = ts::Parse(tree_sitter_hcl(), f->text, kDeadlineMs);
      if (!f->tree || ts_node_has_error(ts_tree_root_node(f->tree.get()))) continue;
      files.push_back(std::move(f));
    }
    std::vector<HclFile*> ptrs;
    for (auto& f : files) ptrs.push_back(f.get());
    Module m(ptrs, child, prefix_ + "module." + name + ".", inputs, opts_, depth_ + 1);
    m.Load();
    m.Resources(out, {});
    for (auto& f : files) owned_.push_back(std::move(f));
  }

  std::vector<HclFile*> files_;
  fs::path dir_;
  std::string prefix_;
  std::map<std::string, TfVal> inputs_;
  const ResolveOptions& opts_;
  int depth_;
  std::map<std::string, Decl> decls_;
  std::map<std::string, std::pair<HclFile*, TSNode>> variables_, locals_, modules_;
  std::map<std::string, const cfn::Node*> json_variables_;
  std::map<std::string, std::pair<HclFile*, const cfn::Node*>> json_locals_;
  std::map<std::string, std::pair<TfVal, bool>> tfvars_;
  std::map<std::string, TfVal> var_files_;
  std::map<std::string, TfVal> evaluated_;
  std::set<std::string> evaluating_;
  std::vector<std::unique_ptr<HclFile>> owned_;
};

// Plan JSON: planned_values.root_module and its child_modules.
void PlanResources(const cfn::Node& module, const std::string& path, std::vector<Resource>* out, int depth) {
  if (depth > kMaxModuleDepth * 4) return;
  if (const cfn::Node* rs = module.Get("resources"); rs && rs->is_seq()) {
    for (const cfn::Node& r : rs->items) {
      const cfn::Node* type = r.Get("type");
      const cfn::Node* address = r.Get("address");
      const cfn::Node* values = r.Get("values");
      if (!type || !address || !values || !type->is_scalar() || !address->is_scalar()) continue;
      Resource res;
      const cfn::Node* mode = r.Get("mode");
      res.mode = mode && mode->is_scalar() && mode->text == "data" ? "data" : "resource";
      res.type = type->text;
      res.address = address->text;
      res.range = {r.pos, r.pos};
      res.path = path;
      res.scope = path;
      // Values in a plan are resolved: convert them as they are.
      std::function<TfVal(const cfn::Node&, int)> conv = [&](const cfn::Node& n, int d) {
        TfVal v;
        v.range = {n.pos, n.pos};
        if (d > kMaxDepth) return v;
        if (n.is_null()) v.kind = TfVal::Kind::kNull;
        else if (n.is_scalar()) return Known(TfVal::Kind::kStr, n.text, v.range);
        else if (n.is_seq()) {
          v.kind = TfVal::Kind::kList;
          for (const cfn::Node& i : n.items) v.items.push_back(conv(i, d + 1));
        } else {
          v.kind = TfVal::Kind::kMap;
          for (const auto& [k, x] : n.entries) v.fields.emplace_back(k, conv(x, d + 1));
        }
        return v;
      };
      res.body = conv(*values, 0);
      // JSON documents (policies, definitions) are strings in a plan.
      out->push_back(std::move(res));
    }
  }
  if (const cfn::Node* children = module.Get("child_modules"); children && children->is_seq()) {
    for (const cfn::Node& c : children->items) PlanResources(c, path, out, depth + 1);
  }
}

}  // namespace
}  // namespace tf

bool LooksLikeTerraformPlan(std::string_view text) {
  return text.find("\"planned_values\"") != std::string_view::npos &&
         text.find("\"format_version\"") != std::string_view::npos;
}

FileResult ParseTerraformPlan(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kTerraform;
  cfn::Node root;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(file.text, 0, cfn::LoadLimits{}, &root, &errors)) {
    for (const auto& e : errors) out.errors.push_back({e.message, e.pos});
    return out;
  }
  const cfn::Node* module = root.Find({"planned_values", "root_module"});
  if (!module) return out;
  std::vector<tf::Resource> resources;
  tf::PlanResources(*module, file.path, &resources, 0);
  tf::ExtractWorkloads(resources, &out.workloads);
  return out;
}

std::vector<FileResult> ParseTerraformModule(const std::vector<SourceFile>& sources, const ResolveOptions& opts,
                                             const std::vector<std::string>& report_only) {
  std::vector<FileResult> results;
  std::vector<std::unique_ptr<tf::HclFile>> files;
  std::map<std::string, size_t> index;  // display path -> result
  for (const SourceFile& s : sources) {
    FileResult r;
    r.path = s.path;
    r.format = Format::kTerraform;
    auto f = std::make_unique<tf::HclFile>();
    f->path = s.path;
    f->abs = s.abs_path;
    f->text = s.text;
    f->vars = s.path.ends_with(".tfvars") || s.path.ends_with(".tfvars.json");
    f->json = s.path.ends_with(".tf.json");
    // A byte-order mark becomes spaces, so offsets and lines stay put.
    if (f->text.compare(0, 3, "\xEF\xBB\xBF") == 0) f->text.replace(0, 3, "   ");
    if (f->text.size() > tf::kMaxFileBytes) {
      r.errors.push_back({"file larger than 4 MiB; not parsed", {1, 1}});
      f->broken = true;
    } else if (f->text.find('\0') != std::string::npos) {
      r.errors.push_back({"file contains NUL bytes; not parsed", {1, 1}});
      f->broken = true;
    } else if (f->json) {
      std::vector<cfn::LoadError> errors;
      if (!cfn::LoadDocument(f->text, 0, cfn::LoadLimits{}, &f->json_root, &errors) || !f->json_root.is_map()) {
        for (const auto& e : errors) r.errors.push_back({e.message, e.pos});
        f->broken = true;
      }
    } else {
      f->tree = ts::Parse(tree_sitter_hcl(), f->text, tf::kDeadlineMs);
      if (!f->tree) {
        r.errors.push_back({"parsing took too long; file skipped", {1, 1}});
        f->broken = true;
      } else if (auto err = ts::FirstError(ts_tree_root_node(f->tree.get()), f->text)) {
        r.errors.push_back({err->message, err->pos});
        f->broken = true;
      }
    }
    index[s.path] = results.size();
    results.push_back(std::move(r));
    files.push_back(std::move(f));
  }
  if (files.empty()) return results;
  std::vector<tf::HclFile*> ptrs;
  for (auto& f : files) ptrs.push_back(f.get());
  std::filesystem::path dir = std::filesystem::path(files.front()->abs).parent_path();
  tf::Module module(ptrs, dir, "", {}, opts, 0);
  module.Load();
  std::vector<tf::Resource> resources;
  module.Resources(&resources, report_only);
  std::vector<Workload> workloads;
  tf::ExtractWorkloads(resources, &workloads);
  for (Workload& w : workloads) {
    auto it = index.find(w.path);
    if (it == index.end()) {
      FileResult r;
      r.path = w.path;
      r.format = Format::kTerraform;
      index[w.path] = results.size();
      results.push_back(std::move(r));
      it = index.find(w.path);
    }
    results[it->second].workloads.push_back(std::move(w));
  }
  // Only files that declare something or failed are reported.
  std::vector<FileResult> out;
  for (FileResult& r : results) {
    bool named = report_only.empty() || std::find(report_only.begin(), report_only.end(), r.path) != report_only.end();
    if (named && (!r.workloads.empty() || !r.errors.empty())) out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sagelint
