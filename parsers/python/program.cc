// Whole-program runs (a CDK app): the entry file and the modules it imports,
// run eagerly. Every call of a program function runs its body at the call,
// program classes are instantiated (constructor with the call's arguments and
// parameter defaults, `self.x` attributes, `super()`, dataclass fields), and
// each imported program module runs once. Bounded by the per-program
// evaluation steps and values (the file budget), a call depth and a module count.
#include <algorithm>
#include <string>

#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {
namespace {

constexpr int kMaxInvokeDepth = 24;  // nested program calls
constexpr size_t kMaxModules = 64;   // program modules run
constexpr size_t kMaxInstances = 20000;

}  // namespace

void Analyzer::RunProgram(TSNode root, ModuleFinder* finder, std::vector<Library*> libraries) {
  eager_ = true;
  finder_ = finder;
  libraries_ = std::move(libraries);
  trees_.push_back({root.tree, {0, src_}});
  scopes_.emplace_back();
  scope_ = &scopes_.back();
  scope_->kind = Scope::kModule;
  Module m;
  m.file = 0;
  m.scope = scope_;
  m.src = src_;
  m.root = root;
  m.dotted = "__main__";
  modules_.push_back(m);
  Bind("__name__", store_.Str("__main__"));
  ExecBlockImpl(root);
  if (OverBudget() && !halted_) {
    Halt(last_stmt_, store_.exhausted() ? "the values it builds exceed the budget (250,000 values or 16 MiB)"
                                        : "it needs more than 3,000,000 evaluation steps");
  }
}

int Analyzer::FileOf(TSNode n) const {
  if (ts_node_is_null(n)) return cur_file_;
  for (const auto& [tree, file] : trees_) {
    if (tree == n.tree) return file.first;
  }
  return cur_file_;
}

void Analyzer::Halt(TSNode at, const std::string& why) {
  if (halted_) return;
  halted_ = true;
  SourceRange r = ts_node_is_null(at) ? SourceRange{{1, 1}, {1, 1}} : R(at);
  program_bounds_.push_back({FileOf(at), ParseError{"sagelint stopped evaluating this app here: " + why +
                                                        "; constructs created after this point are not read",
                                                    r.begin}});
}

int Analyzer::LoadModule(int from_file, std::string_view dotted, int level) {
  if (!finder_ || halted_) return -1;
  std::optional<ModuleFile> found = finder_->Find(from_file, dotted, level);
  if (!found) return -1;
  for (size_t i = 0; i < modules_.size(); ++i) {
    if (modules_[i].file == found->file) return static_cast<int>(i);  // run once (a cycle sees it as it is)
  }
  if (modules_.size() >= kMaxModules) {
    Halt(found->root, "the app imports more than 64 of its own modules");
    return -1;
  }
  Module m;
  m.file = found->file;
  m.src = found->src;
  m.root = found->root;
  m.dotted = level == 0 ? std::string(dotted) : std::string();
  trees_.push_back({found->root.tree, {found->file, found->src}});
  // The module runs in a scope of its own, as if from the top level.
  Scope* saved_scope = EnterScope(Scope::kModule, nullptr);
  m.scope = scope_;
  int id = static_cast<int>(modules_.size());
  modules_.push_back(m);
  int saved_file = cur_file_;
  std::string_view saved_src = src_;
  std::vector<Ev>* saved_returns = returns_;
  int saved_depth = invoke_depth_;
  std::vector<std::pair<int, VId>> saved_self;
  saved_self.swap(self_stack_);
  cur_file_ = m.file;
  src_ = m.src;
  returns_ = nullptr;
  Bind("__name__", store_.Str(m.dotted.empty() ? std::string(dotted) : m.dotted));
  ExecBlockImpl(m.root);
  scope_ = saved_scope;
  cur_file_ = saved_file;
  src_ = saved_src;
  returns_ = saved_returns;
  invoke_depth_ = saved_depth;
  self_stack_.swap(saved_self);
  return id;
}

VId Analyzer::ModuleAttribute(int module, std::string_view name) {
  const Module& m = modules_[static_cast<size_t>(module)];
  auto it = m.scope->slot_of.find(name);
  if (it != m.scope->slot_of.end()) {
    VId v = m.scope->env[static_cast<size_t>(it->second)];
    if (v != kUnbound) return v;
  }
  // A submodule of a package (`import stacks` … `stacks.ml_stack`).
  if (!m.dotted.empty() && m.dotted != "__main__") {
    int sub = LoadModule(m.file, m.dotted + "." + std::string(name), 0);
    if (sub >= 0) {
      Value v;
      v.kind = VK::kModule;
      v.ref = sub;
      return store_.New(std::move(v));
    }
  }
  return kUnknown;
}

// `import a.b [as c]`, `from a.b import x [as y]`, `from .m import x`, `from . import m`,
// `from m import *` of the program's own modules; false when the statement names none.
bool Analyzer::ImportProgram(TSNode n) {
  N kind = g_.Kind(n);
  auto module_value = [&](int id) {
    Value v;
    v.kind = VK::kModule;
    v.ref = id;
    return store_.New(std::move(v));
  };
  auto clean = [](std::string_view t) {
    std::string s(t);
    s.erase(std::remove_if(s.begin(), s.end(), [](char ch) { return ch == ' ' || ch == '\t' || ch == '\\'; }), s.end());
    return s;
  };
  if (kind == N::kImportFromStatement) {
    TSNode module_node = g_.Field(n, g_.f_module_name);
    std::string dotted = clean(T(module_node));
    int level = 0;
    while (level < static_cast<int>(dotted.size()) && dotted[level] == '.') ++level;
    dotted = dotted.substr(level);
    int mod = LoadModule(cur_file_, dotted, level);
    if (mod < 0 && level == 0 && dotted.find('.') == std::string::npos) {
      // `from stacks import ml_stack` where `stacks` is a folder without __init__.py: each name a module.
      bool any = false;
      for (TSNode c : Kids(n)) {
        if (ts_node_eq(c, module_node)) continue;
        TSNode name_node = g_.Kind(c) == N::kAliasedImport ? g_.Field(c, g_.f_name) : c;
        if (g_.Kind(name_node) != N::kDottedName) continue;
        int sub = LoadModule(cur_file_, dotted + "." + clean(T(name_node)), 0);
        if (sub < 0) continue;
        any = true;
        std::string_view local = g_.Kind(c) == N::kAliasedImport ? T(g_.Field(c, g_.f_alias)) : T(name_node);
        Bind(local, module_value(sub));
      }
      return any;
    }
    if (mod < 0) return level > 0;  // a relative import that names no file: nothing bound from it is known
    const Scope* from = modules_[static_cast<size_t>(mod)].scope;  // (loading a submodule grows modules_)
    for (TSNode c : Kids(n)) {
      if (ts_node_eq(c, module_node)) continue;
      if (g_.Kind(c) == N::kWildcardImport) {
        for (const auto& [name, slot] : from->slot_of) {
          VId v = from->env[static_cast<size_t>(slot)];
          if (v != kUnbound && !name.starts_with("_")) Bind(name, v);
        }
        continue;
      }
      TSNode name_node = g_.Kind(c) == N::kAliasedImport ? g_.Field(c, g_.f_name) : c;
      if (g_.Kind(name_node) != N::kDottedName) continue;
      std::string name = clean(T(name_node));
      std::string_view local = g_.Kind(c) == N::kAliasedImport ? T(g_.Field(c, g_.f_alias)) : T(name_node);
      VId v = kUnbound;
      auto it = from->slot_of.find(name);
      if (it != from->slot_of.end()) v = from->env[static_cast<size_t>(it->second)];
      if (v == kUnbound) {
        int sub = LoadModule(cur_file_, dotted.empty() ? name : dotted + "." + name, level);
        v = sub >= 0 ? module_value(sub) : kUnknown;
      }
      Bind(local, v);
    }
    return true;
  }
  if (kind != N::kImportStatement) return false;
  // Resolve every name first: a statement naming no program module is read as before.
  std::vector<std::pair<TSNode, int>> names;
  bool any = false;
  for (TSNode c : Kids(n)) {
    TSNode name_node = g_.Kind(c) == N::kAliasedImport ? g_.Field(c, g_.f_name) : c;
    if (g_.Kind(name_node) != N::kDottedName) continue;
    std::string name = clean(T(name_node));
    int mod = LoadModule(cur_file_, name, 0);
    any = any || mod >= 0;
    names.emplace_back(c, mod);
  }
  if (!any) return false;
  for (const auto& [c, mod] : names) {
    bool aliased = g_.Kind(c) == N::kAliasedImport;
    TSNode name_node = aliased ? g_.Field(c, g_.f_name) : c;
    std::string name = clean(T(name_node));
    if (aliased) {
      Bind(T(g_.Field(c, g_.f_alias)), mod >= 0 ? module_value(mod) : store_.Qual(name));
      continue;
    }
    // `import a.b` binds `a`.
    std::string first = name.substr(0, name.find('.'));
    int top = first == name ? mod : LoadModule(cur_file_, first, 0);
    Bind(T(ts_node_named_child(name_node, 0)), top >= 0 ? module_value(top) : store_.Qual(first));
  }
  return true;
}

int Analyzer::FunctionOf(VId v) const {
  const Value& x = V(v);
  return x.kind == VK::kFunction ? x.ref : -1;
}

VId Analyzer::Invoke(int fn, VId self, Args& args, TSNode call) {
  if (halted_) return kUnknown;
  if (invoke_depth_ >= kMaxInvokeDepth) {
    Halt(call, "its calls nest more than 24 deep");
    return kUnknown;
  }
  const Function f = functions_[static_cast<size_t>(fn)];  // copy: running the body may define functions
  Scope* parent = f.parent;
  while (parent && parent->kind == Scope::kClass) parent = parent->parent;
  Scope* saved_scope = EnterScope(Scope::kFunction, parent);
  int saved_file = cur_file_;
  std::string_view saved_src = src_;
  cur_file_ = FileOf(f.def);
  for (const auto& [tree, file] : trees_) {
    if (tree == f.def.tree) src_ = file.second;
  }
  BindParams(f, args, self, true);
  std::vector<Ev> returns;
  std::vector<Ev>* saved_returns = returns_;
  returns_ = &returns;
  ++invoke_depth_;
  ExecBlockImpl(g_.Field(f.def, g_.f_body));
  --invoke_depth_;
  returns_ = saved_returns;
  scope_ = saved_scope;
  cur_file_ = saved_file;
  src_ = saved_src;
  if (returns.empty()) return store_.None();
  if (returns.size() == 1) return returns[0].v;
  std::vector<Alt> alts;
  for (const Ev& r : returns) alts.push_back({"the return at line " + std::to_string(Line(r.at)) + " runs", r});
  return store_.OneOf(std::move(alts));
}

std::vector<int> Analyzer::Mro(int cls) const {
  std::vector<int> out;
  std::vector<int> todo{cls};
  while (!todo.empty() && out.size() < 64) {
    int c = todo.front();
    todo.erase(todo.begin());
    if (std::find(out.begin(), out.end(), c) != out.end()) continue;
    out.push_back(c);
    for (VId b : classes_[static_cast<size_t>(c)].bases) {
      if (store_.Kind(b) == VK::kClass && V(b).ref >= 0) todo.push_back(V(b).ref);
    }
  }
  return out;
}

std::vector<std::string> Analyzer::LibraryBases(int cls) const {
  std::vector<std::string> out;
  for (int c : Mro(cls)) {
    for (VId b : classes_[static_cast<size_t>(c)].bases) {
      if (store_.Kind(b) == VK::kQual) out.push_back(V(b).text);
    }
  }
  return out;
}

VId Analyzer::ClassAttribute(int cls, std::string_view name, size_t from) {
  std::vector<int> mro = Mro(cls);
  for (size_t i = from; i < mro.size(); ++i) {
    const Scope* s = classes_[static_cast<size_t>(mro[i])].scope;
    auto it = s->slot_of.find(name);
    if (it == s->slot_of.end()) continue;
    VId v = s->env[static_cast<size_t>(it->second)];
    if (v != kUnbound) return v;
  }
  return kUnknown;
}

VId Analyzer::Instantiate(int cls, Args& args, TSNode call) {
  if (halted_ || instances_.size() >= kMaxInstances) return kUnknown;
  int id = static_cast<int>(instances_.size());
  instances_.push_back(Instance{cls, {}, kUnknown});
  Value v;
  v.kind = VK::kInstance;
  v.ref = id;
  VId self = store_.New(std::move(v));
  instances_[static_cast<size_t>(id)].value = self;
  std::vector<std::string> bases = LibraryBases(cls);
  for (const std::string& q : bases) {
    for (Library* lib : libraries_) lib->EnterInstance(*this, id, q, call, args);
  }
  std::vector<int> mro = Mro(cls);
  int init = -1, owner = -1;
  for (int c : mro) {
    const Scope* s = classes_[static_cast<size_t>(c)].scope;
    auto it = s->slot_of.find("__init__");
    if (it == s->slot_of.end()) continue;
    init = FunctionOf(s->env[static_cast<size_t>(it->second)]);
    owner = c;
    break;
  }
  if (init < 0) {
    // A dataclass's generated constructor: its fields from the arguments, else their defaults.
    std::vector<std::pair<std::string_view, VId>> fields;
    for (auto c = mro.rbegin(); c != mro.rend(); ++c) {
      const ClassDef& d = classes_[static_cast<size_t>(*c)];
      if (d.dataclass) fields.insert(fields.end(), d.fields.begin(), d.fields.end());
    }
    size_t pos = 0;
    for (const auto& [name, def] : fields) {
      Ev e{def, {}};
      if (pos < args.positional.size()) e = args.positional[pos];
      ++pos;
      for (const auto& [k, kv] : args.keywords) {
        if (k == name) e = kv;
      }
      if (e.v == kUnbound) e.v = kUnknown;
      instances_[static_cast<size_t>(id)].attrs.emplace_back(std::string(name), e);
    }
  } else {
    self_stack_.emplace_back(owner, self);
    Invoke(init, self, args, call);
    self_stack_.pop_back();
  }
  for (size_t i = 0; i < bases.size(); ++i) {
    for (Library* lib : libraries_) lib->LeaveInstance(*this, id);
  }
  return self;
}

VId Analyzer::InstanceAttribute(VId object, std::string_view name, TSNode node) {
  const Value& x = V(object);
  const Instance& inst = instances_[static_cast<size_t>(x.ref)];
  for (const auto& [k, e] : inst.attrs) {
    if (k == name) return e.v;
  }
  VId v = ClassAttribute(inst.cls, name);
  if (v != kUnknown && store_.Kind(v) != VK::kFunction) return v;
  VId out = kUnknown;
  VId real = inst.value;  // `super().x` asks about the instance itself
  for (Library* lib : libraries_) {
    if (lib->Attribute(*this, real, name, node, &out)) return out;
  }
  return kUnknown;
}

VId Analyzer::InstanceMethod(VId object, std::string_view method, TSNode call, Args& args) {
  const Value& x = V(object);
  int ref = x.ref;
  const Instance& inst = instances_[static_cast<size_t>(ref)];
  VId self = inst.value;
  std::vector<int> mro = Mro(inst.cls);
  size_t from = 0;
  if (x.text.starts_with("super:")) {
    int after = std::stoi(x.text.substr(6));
    auto it = std::find(mro.begin(), mro.end(), after);
    from = it == mro.end() ? mro.size() : static_cast<size_t>(it - mro.begin()) + 1;
  } else {
    // A callable stored on the instance.
    for (const auto& [k, e] : inst.attrs) {
      if (k != method) continue;
      const Value& c = V(e.v);
      if (c.kind == VK::kFunction) return Invoke(c.ref, kUnbound, args, call);
      if (c.kind == VK::kQual) {
        std::string q = c.text;
        return CallQualified(q, call, args);
      }
      if (c.kind == VK::kLibrary && c.role != Role::kToken) return kUnknown;
    }
  }
  for (size_t i = from; i < mro.size(); ++i) {
    const Scope* s = classes_[static_cast<size_t>(mro[i])].scope;
    auto it = s->slot_of.find(method);
    if (it == s->slot_of.end()) continue;
    int fn = FunctionOf(s->env[static_cast<size_t>(it->second)]);
    if (fn < 0) return kUnknown;
    self_stack_.emplace_back(mro[i], self);
    VId r = Invoke(fn, self, args, call);
    self_stack_.pop_back();
    return r;
  }
  // A method of a library base class (`super().__init__(scope, id, **kwargs)` of a Stack,
  // `self.add_dependency(…)`): the libraries' to answer.
  VId out = kUnknown;
  for (Library* lib : libraries_) {
    if (lib->Method(*this, self, method, call, args, &out)) return out;
  }
  // A method of a base class from outside the program and the CDK (a
  // configuration loader's `load_for_stack`): it may set any attribute, so
  // none of the instance's stays known.
  bool foreign_base = false;
  for (int c : mro) {
    for (VId b : classes_[static_cast<size_t>(c)].bases) {
      const Value& base = V(b);
      foreign_base = foreign_base || base.kind == VK::kUnknown ||
                     (base.kind == VK::kQual && !base.text.starts_with("aws_cdk") &&
                      !base.text.starts_with("constructs") && base.text != "builtins.object");
    }
  }
  if (foreign_base) {
    for (auto& [k, e] : instances_[static_cast<size_t>(ref)].attrs) e.v = kUnknown;
  }
  return kUnknown;
}

}  // namespace sagelint::py
