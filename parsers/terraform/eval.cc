// Module instances of the Terraform evaluator (eval.h): declarations read
// from the module's files (override files last), the count and for_each
// instances of resources and module calls, the resources handed to the
// extractors, and local child modules with their outputs.
#include "parsers/terraform/eval.h"

#include <algorithm>
#include <cstdlib>

#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

namespace fs = std::filesystem;
using K = TfVal::Kind;

constexpr size_t kMaxInstances = 256;  // count / for_each instances of one resource

}  // namespace

struct Module::Call {
  std::string suffix;
  std::map<std::string, TfVal> inputs;
  std::unique_ptr<Module> module;
};

// ---- module -----------------------------------------------------------------

Module::Module(Unit& unit, std::vector<HclFile*> files, fs::path dir, std::string prefix, std::string via,
               const std::map<std::string, TfVal>* inputs, int depth)
    : unit_(unit),
      files_(std::move(files)),
      dir_(std::move(dir)),
      prefix_(std::move(prefix)),
      via_(std::move(via)),
      inputs_(inputs),
      depth_(depth) {}

Module::~Module() = default;

// `override.tf`, `*_override.tf` and their .tf.json: Terraform reads them
// after the other files of the module.
static bool IsOverrideFile(const HclFile& f) {
  std::string base = fs::path(f.abs).filename().string();
  if (base.ends_with(".tf.json")) base.resize(base.size() - 5);
  return base == "override.tf" || base.ends_with("_override.tf");
}

void Module::Load() {
  std::vector<HclFile*> ordered;
  for (bool overrides : {false, true}) {
    for (HclFile* f : files_) {
      if (IsOverrideFile(*f) == overrides) ordered.push_back(f);
    }
  }
  for (HclFile* f : ordered) {
    if (f->broken || f->vars) continue;
    if (f->json) {
      LoadJson(*f);
      continue;
    }
    TSNode body = Body(ts_tree_root_node(f->tree.get()));
    if (ts_node_is_null(body)) continue;
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode c = ts_node_named_child(body, i);
      if (Type(c) == "block") Declaration(*f, c);
    }
  }
  if (inputs_) return;
  // A root module's variables: terraform.tfvars, terraform.tfvars.json,
  // *.auto.tfvars and *.auto.tfvars.json in lexical order, then --var-file in
  // order, then --var; a later value wins. Other *.tfvars are not loaded.
  std::vector<std::pair<std::string, HclFile*>> auto_files;
  for (HclFile* f : files_) {
    if (!f->vars || f->broken) continue;
    std::string base = fs::path(f->abs).filename().string();
    if (base == "terraform.tfvars")
      auto_files.emplace_back("0", f);
    else if (base == "terraform.tfvars.json")
      auto_files.emplace_back("1", f);
    else if (base.ends_with(".auto.tfvars") || base.ends_with(".auto.tfvars.json"))
      auto_files.emplace_back("2" + base, f);
  }
  std::sort(auto_files.begin(), auto_files.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  for (auto& [rank, f] : auto_files) {
    for (auto& [k, v] : VarFileValues(*f)) var_values_[k] = std::move(v);
  }
  for (HclFile* f : unit_.var_files) {
    if (!f || f->broken) continue;
    for (auto& [k, v] : VarFileValues(*f)) var_values_[k] = std::move(v);
  }
  for (const auto& [k, text] : unit_.opts().tf_variables) {
    TfVal v = MakeKnown(K::kStr, text, {}, "variable " + k + " (given)");
    var_values_[k] = std::move(v);
  }
}

// Terraform rejects a module that declares one address twice, in one file or
// two: the second declaration is the error, and the first one is kept. An
// override file (`override.tf`, `*_override.tf`, and their .tf.json) changes
// a declaration instead; its block stands for the one it overrides.
void Module::AddDecl(Decl d) {
  std::string address = (d.mode == "data" ? "data." : "") + d.type + "." + d.name;
  if (IsOverrideFile(*d.file)) {
    decls_[address] = d;
    return;
  }
  auto [it, added] = decls_.emplace(address, d);
  if (added) return;
  const Decl& first = it->second;
  unit_.errors.push_back({d.file->path,
                          {"Duplicate " + d.mode + " \"" + d.type + "\" configuration: a " + d.type + " " + d.mode +
                               " named \"" + d.name + "\" was already declared at " + first.file->path + ":" +
                               std::to_string(first.range.begin.line) + "; Terraform rejects the module",
                           d.range.begin.valid() ? d.range.begin : SourcePos{1, 1}}});
}

void Module::Declaration(HclFile& f, TSNode block) {
  std::string kind = BlockKind(block, f);
  std::vector<std::string> labels = Labels(block, f);
  TSNode body = BlockBody(block);
  SourceRange range{ts::Start(block), ts::Start(block)};
  if ((kind == "resource" || kind == "data") && labels.size() >= 2) {
    AddDecl(Decl{kind, labels[0], labels[1], &f, body, nullptr, range});
  } else if (kind == "variable" && labels.size() == 1) {
    variables_[labels[0]] = {&f, body};
  } else if (kind == "output" && labels.size() == 1) {
    outputs_[labels[0]] = {&f, body};
  } else if (kind == "module" && labels.size() == 1) {
    module_blocks_[labels[0]] = {&f, body};
  } else if (kind == "locals" && !ts_node_is_null(body)) {
    uint32_t n = ts_node_named_child_count(body);
    for (uint32_t i = 0; i < n; ++i) {
      TSNode a = ts_node_named_child(body, i);
      if (Type(a) == "attribute") locals_[std::string(ts::Text(ts_node_named_child(a, 0), f.text))] = {&f, a};
    }
  }
}

void Module::LoadJson(HclFile& f) {
  const cfn::Node& root = f.json_root;
  for (const char* mode : {"resource", "data"}) {
    const cfn::Node* types = root.Get(mode);
    if (!types || !types->is_map()) continue;
    for (size_t i = 0; i < types->entries.size(); ++i) {
      const auto& [type, names] = types->entries[i];
      if (!names.is_map()) continue;
      for (size_t j = 0; j < names.entries.size(); ++j) {
        AddDecl(Decl{mode,
                     type,
                     names.entries[j].first,
                     &f,
                     TSNode{},
                     &names.entries[j].second,
                     {names.key_pos[j], names.key_pos[j]}});
      }
    }
  }
  auto section = [&](const char* key, std::map<std::string, std::pair<HclFile*, const cfn::Node*>>& into) {
    if (const cfn::Node* s = root.Get(key); s && s->is_map()) {
      for (const auto& [name, v] : s->entries) into[name] = {&f, &v};
    }
  };
  section("variable", json_variables_);
  section("locals", json_locals_);
  section("output", json_outputs_);
  section("module", json_modules_);
}

// ---- instances --------------------------------------------------------------

TfVal Module::MetaArg(const Decl& d, const char* name, bool* present) {
  *present = false;
  std::vector<std::pair<std::string, TfVal>> saved;
  saved.swap(scope_);
  TfVal v;
  if (d.json) {
    if (const cfn::Node* x = d.json->Get(name)) {
      *present = true;
      v = FromJson(*x, *d.file, 1, true);
    }
  } else {
    TSNode e = AttributeExpr(d.body, *d.file, name);
    if (!ts_node_is_null(e)) {
      *present = true;
      v = Eval(e, *d.file, 1);
    }
  }
  scope_.swap(saved);
  return v;
}

std::vector<Module::Instance> Module::Expand(const TfVal* count, const TfVal* for_each) {
  std::vector<Instance> out;
  if (count) {
    if (count->known() && IsNumberText(count->text) && std::atof(count->text.c_str()) >= 0 &&
        std::atof(count->text.c_str()) <= static_cast<double>(kMaxInstances)) {
      int n = static_cast<int>(std::atof(count->text.c_str()));
      for (int i = 0; i < n; ++i) {
        TfVal index = MakeKnown(K::kNum, std::to_string(i), count->range);
        out.push_back({InstanceSuffix(index), {{"count", MapOf({{"index", index}})}}});
      }
      return out;
    }
    // Not known: one instance whose index is unknown.
    out.push_back({"", {{"count", MapOf({{"index", Unknown(count->range)}})}}});
    return out;
  }
  if (for_each) {
    std::vector<std::pair<std::string, TfVal>> keyed;
    bool known = false;
    if (auto els = Elements(*for_each); els && !for_each->error) {
      known = true;
      for (auto& [k, v] : *els) {
        if (for_each->kind == K::kList) {
          // A set of strings: each key is the value.
          if (!v.known()) {
            known = false;
            break;
          }
          keyed.emplace_back(v.text, v);
        } else {
          keyed.emplace_back(k.text, v);
        }
      }
      std::sort(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
      keyed.erase(
          std::unique(keyed.begin(), keyed.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
          keyed.end());
      if (keyed.size() > kMaxInstances) known = false;
    }
    if (!known) {
      out.push_back({"", {{"each", MapOf({{"key", Unknown(for_each->range)}, {"value", Unknown(for_each->range)}})}}});
      return out;
    }
    for (auto& [k, v] : keyed) {
      TfVal key = MakeKnown(K::kStr, k, v.range);
      out.push_back({InstanceSuffix(key), {{"each", MapOf({{"key", key}, {"value", v}})}}});
    }
    return out;
  }
  out.push_back({"", {}});
  return out;
}

const std::vector<Module::Instance>& Module::Instances(const std::string& address) {
  auto memo = instances_.find(address);
  if (memo != instances_.end()) return memo->second;
  std::vector<Instance> insts;
  auto it = decls_.find(address);
  if (it != decls_.end() && !evaluating_.count("meta:" + address)) {
    evaluating_.insert("meta:" + address);
    bool has_count = false, has_each = false;
    TfVal count = MetaArg(it->second, "count", &has_count);
    TfVal each = has_count ? TfVal{} : MetaArg(it->second, "for_each", &has_each);
    insts = Expand(has_count ? &count : nullptr, has_each ? &each : nullptr);
    evaluating_.erase("meta:" + address);
  } else {
    insts.push_back({"", {}});
  }
  return instances_[address] = std::move(insts);
}

const TfVal& Module::Evaluated(const std::string& address, const Instance& inst) {
  auto memo = evaluated_.find(address);
  if (memo != evaluated_.end()) return memo->second;
  TfVal body;
  body.kind = K::kMap;
  std::string decl = address.substr(0, address.find('['));
  auto it = decls_.find(decl);
  Nesting nesting(unit_);
  if (!nesting.ok) {
    static const TfVal kUnknownBody = [] {
      TfVal v;
      v.kind = K::kMap;
      v.dynamic = true;
      return v;
    }();
    return kUnknownBody;
  }
  if (it != decls_.end() && !evaluating_.count(address)) {
    evaluating_.insert(address);
    std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
    scope_ = inst.scope;
    const Decl& d = it->second;
    body = d.json ? FromJson(*d.json, *d.file, 1, true) : BodyValue(d.body, *d.file, 1, true);
    if (d.json) {
      for (const char* meta : {"count", "for_each", "depends_on", "provider", "lifecycle"}) {
        body.fields.erase(
            std::remove_if(body.fields.begin(), body.fields.end(), [&](const auto& f) { return f.first == meta; }),
            body.fields.end());
      }
    }
    scope_ = std::move(saved);
    evaluating_.erase(address);
  }
  return evaluated_[address] = std::move(body);
}

void Module::Resources(std::vector<Resource>* out) {
  for (auto& [address, decl] : decls_) {
    const std::vector<Instance>& instances = Instances(address);
    for (const Instance& inst : instances) {
      std::string addr = address + inst.suffix;
      Resource r;
      if (!inst.suffix.empty()) {
        r.construct = prefix_ + address;
        r.instance_key = inst.suffix.substr(1, inst.suffix.size() - 2);
        r.instances = static_cast<int>(instances.size());
      }
      r.mode = decl.mode;
      r.type = decl.type;
      r.address = prefix_ + addr;
      r.body = Evaluated(addr, inst);
      r.range = decl.range;
      r.path = decl.file->path;
      r.via = via_;
      r.via_path = via_path_;
      r.via_call = via_call_;
      r.scope = unit_.scope;
      out->push_back(std::move(r));
    }
  }
  LoadCalls();
  for (auto& [name, calls] : calls_) {
    for (auto& c : calls) c->module->Resources(out);
  }
}

// ---- module calls -----------------------------------------------------------

void Module::LoadCalls() {
  if (calls_loaded_) return;
  calls_loaded_ = true;
  if (depth_ >= kMaxModuleDepth) return;
  chain_.push_back(unit_.opts().files->WeaklyCanonical(dir_.string()).value_or(dir_.string()));
  struct Block {
    std::string name;
    HclFile* file;
    TSNode body;
    const cfn::Node* json;
  };
  std::vector<Block> blocks;
  for (auto& [name, b] : module_blocks_) blocks.push_back({name, b.first, b.second, nullptr});
  for (auto& [name, b] : json_modules_) blocks.push_back({name, b.first, TSNode{}, b.second});
  for (const Block& b : blocks) {
    Decl d{"module", "", b.name, b.file, b.body, b.json, {}};
    bool present = false;
    TfVal source = MetaArg(d, "source", &present);
    if (!source.known()) continue;
    const std::string& s = source.text;
    if (s.rfind("./", 0) != 0 && s.rfind("../", 0) != 0 && s != "." && s != "..") continue;
    // Relative to the calling file's directory, and never outside the scan root.
    auto dir = unit_.Inside(fs::path(b.file->abs).parent_path() / s);
    const FileSource& source_files = *unit_.opts().files;
    if (!dir || !source_files.IsDirectory(dir->string())) continue;
    // The `module` block.
    SourceRange at = d.range;
    if (!ts_node_is_null(b.body)) at = Range(ts_node_parent(b.body));
    if (b.json) at = {b.json->pos, b.json->pos};
    // A module that calls itself, directly or through others: Terraform
    // rejects the configuration ("Module cycle"), so it is not expanded.
    if (std::find(chain_.begin(), chain_.end(), dir->string()) != chain_.end()) {
      std::string how = dir->string() == chain_.back() ? "calls its own module" : "calls a module that calls this one";
      unit_.errors.push_back(
          {b.file->path,
           {"module \"" + b.name + "\" (source \"" + s + "\") " + how + ": a module cycle, which Terraform rejects",
            at.begin.valid() ? at.begin : SourcePos{1, 1}}});
      continue;
    }
    std::vector<fs::path> paths;
    std::vector<DirEntry> entries;
    std::string error;
    source_files.List(dir->string(), &entries, &error);
    for (const DirEntry& e : entries) {
      const std::string& name = e.name;
      if ((name.ends_with(".tf") || name.ends_with(".tf.json")) && e.type == FileType::kRegular) {
        paths.push_back(*dir / name);
      }
    }
    std::sort(paths.begin(), paths.end());
    std::vector<HclFile*> files;
    for (const fs::path& p : paths) {
      auto inside = unit_.Inside(p);
      if (!inside) continue;
      if (HclFile* f = unit_.File(*inside)) files.push_back(f);
    }
    bool has_count = false, has_each = false;
    TfVal count = MetaArg(d, "count", &has_count);
    TfVal each = has_count ? TfVal{} : MetaArg(d, "for_each", &has_each);
    for (const Instance& inst : Expand(has_count ? &count : nullptr, has_each ? &each : nullptr)) {
      if (!unit_.NewModule()) break;
      auto call = std::make_unique<Call>();
      call->suffix = inst.suffix;
      std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
      scope_ = inst.scope;
      static const std::set<std::string> kMeta = {"source", "version", "count", "for_each", "providers", "depends_on"};
      if (b.json) {
        for (const auto& [k, x] : b.json->entries) {
          if (!kMeta.count(k)) call->inputs[k] = FromJson(x, *b.file, 1, true);
        }
      } else if (!ts_node_is_null(b.body)) {
        for (uint32_t i = 0; i < ts_node_named_child_count(b.body); ++i) {
          TSNode a = ts_node_named_child(b.body, i);
          if (Type(a) != "attribute") continue;
          std::string k(ts::Text(ts_node_named_child(a, 0), b.file->text));
          if (!kMeta.count(k)) call->inputs[k] = Eval(ts_node_named_child(a, 1), *b.file, 1);
        }
      }
      scope_ = std::move(saved);
      std::string via = via_.empty() ? b.file->root_path : via_;
      call->module = std::make_unique<Module>(unit_, files, *dir, prefix_ + "module." + b.name + inst.suffix + ".", via,
                                              &call->inputs, depth_ + 1);
      call->module->chain_ = chain_;
      call->module->via_path_ = via_.empty() ? b.file->path : via_path_;
      call->module->via_call_ = via_.empty() ? at : via_call_;
      call->module->Load();
      calls_[b.name].push_back(std::move(call));
    }
  }
}

TfVal Module::ModuleAttr(const TfVal& base, const std::string& attr, SourceRange at) {
  LoadCalls();
  // base.ref: "module.NAME" or "module.NAME[key]"
  std::string rest = base.ref.substr(7);
  size_t bracket = rest.find('[');
  std::string name = rest.substr(0, bracket);
  std::string suffix = bracket == std::string::npos ? "" : rest.substr(bracket);
  auto it = calls_.find(name);
  if (it == calls_.end()) return Unknown(at);
  for (auto& c : it->second) {
    if (c->suffix == suffix) return c->module->Output(attr, at);
  }
  return Unknown(at);
}

TfVal Module::Output(const std::string& name, SourceRange at) {
  std::string key = "output." + name;
  Nesting nesting(unit_);
  if (!nesting.ok || evaluating_.count(key)) return Unknown(at);
  evaluating_.insert(key);
  std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
  scope_.clear();
  TfVal v = Unknown(at);
  if (auto it = outputs_.find(name); it != outputs_.end()) {
    TSNode e = AttributeExpr(it->second.second, *it->second.first, "value");
    if (!ts_node_is_null(e)) v = Eval(e, *it->second.first, 1);
  } else if (auto j = json_outputs_.find(name); j != json_outputs_.end()) {
    if (const cfn::Node* value = j->second.second->Get("value")) v = FromJson(*value, *j->second.first, 1, true);
  }
  scope_ = std::move(saved);
  evaluating_.erase(key);
  return Moved(std::move(v), at);
}

// ---- values -----------------------------------------------------------------

TfVal Module::Moved(const TfVal& v, SourceRange at) {
  // Measured before it is copied: a copy past the budget is never made.
  ValueSize size = SizeOf(v, kMaxValueNodes);
  if (!unit_.Step(static_cast<long>(size.nodes)) || !unit_.Charge(size, at)) return Unknown(at);
  return Rehome(v, at);
}

const TfVal* Module::Lookup(const std::string& name) {
  for (auto it = scope_.rbegin(); it != scope_.rend(); ++it) {
    if (it->first == name) return &it->second;
  }
  return nullptr;
}

}  // namespace sagelint::tf
