// Program functions and classes: definitions (decorators, parameters,
// defaults), the calls recorded for each, the analysis of a body once per
// distinct call (or once unseeded when never called), and the same-file
// helpers run at their call from module-level code (one call deep).
#include <algorithm>
#include <cctype>
#include <climits>
#include <cstdlib>
#include <functional>
#include <set>

#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {
namespace {

constexpr size_t kMaxCallSnapshots = 8;
constexpr size_t kMaxCalls = 64;
constexpr long kNeverCalled = LONG_MAX / 4;

}  // namespace

int Analyzer::DefineFunction(TSNode def, TSNode decorated) {
  (void)decorated;
  Function f;
  f.def = def;
  f.name = T(g_.Field(def, g_.f_name));
  f.parent = scope_;
  f.method = scope_->kind == Scope::kClass;
  f.expected_to_fail = expect_failure_ > 0;
  f.def_order = order_;
  TSNode params = g_.Field(def, g_.f_parameters);
  bool keyword_only = false;
  for (TSNode p : Kids(params)) {
    Param param;
    switch (g_.Kind(p)) {
      case N::kIdentifier:
        param.name = T(p);
        break;
      case N::kDefaultParameter:
      case N::kTypedDefaultParameter:
        param.name = T(g_.Field(p, g_.f_name));
        param.default_value = Eval(g_.Field(p, g_.f_value));
        break;
      case N::kTypedParameter: {
        TSNode inner = ts_node_named_child(p, 0);
        if (g_.Kind(inner) == N::kListSplatPattern) {
          param.kind = Param::kStar;
          param.name = T(ts_node_named_child(inner, 0));
          keyword_only = true;
        } else if (g_.Kind(inner) == N::kDictionarySplatPattern) {
          param.kind = Param::kDoubleStar;
          param.name = T(ts_node_named_child(inner, 0));
        } else {
          param.name = T(inner);
        }
        break;
      }
      case N::kListSplatPattern:
        param.kind = Param::kStar;
        param.name = T(ts_node_named_child(p, 0));
        keyword_only = true;
        break;
      case N::kDictionarySplatPattern:
        param.kind = Param::kDoubleStar;
        param.name = T(ts_node_named_child(p, 0));
        break;
      case N::kKeywordSeparator:
        keyword_only = true;
        continue;
      default:
        continue;
    }
    param.keyword_only = keyword_only && param.kind == Param::kNormal;
    f.params.push_back(param);
  }
  int id = static_cast<int>(functions_.size());
  functions_.push_back(std::move(f));
  Value v;
  v.kind = VK::kFunction;
  v.ref = id;
  Bind(functions_[id].name, store_.New(std::move(v)));
  return id;
}

Scope* Analyzer::EnterScope(Scope::Kind kind, Scope* parent) {
  scopes_.emplace_back();
  Scope* s = &scopes_.back();
  s->kind = kind;
  s->parent = parent;
  Scope* saved = scope_;
  scope_ = s;
  return saved;
}

void Analyzer::DefineClass(TSNode def, TSNode decorated) {
  ClassDef c;
  c.def = def;
  c.name = T(g_.Field(def, g_.f_name));
  TSNode supers = g_.Field(def, g_.f_superclasses);
  if (!ts_node_is_null(supers)) {
    Args bases = EvalArgs(supers, true);
    for (const Ev& b : bases.positional) c.bases.push_back(b.v);
  }
  for (TSNode d : Kids(decorated)) {
    if (g_.Kind(d) == N::kDecorator && T(d).find("dataclass") != std::string_view::npos) c.dataclass = true;
  }
  Scope* saved = EnterScope(Scope::kClass, scope_);
  c.scope = scope_;
  TSNode body = g_.Field(def, g_.f_body);
  ExecBlockImpl(body);
  scope_ = saved;
  if (c.dataclass) {
    // Annotated names of the body, in order: the generated constructor's parameters.
    for (TSNode stmt : Kids(body)) {
      if (g_.Kind(stmt) != N::kExpressionStatement) continue;
      TSNode a = ts_node_named_child(stmt, 0);
      if (g_.Kind(a) != N::kAssignment || ts_node_is_null(g_.Field(a, g_.f_type))) continue;
      TSNode left = g_.Field(a, g_.f_left);
      if (g_.Kind(left) != N::kIdentifier) continue;
      std::string_view name = T(left);
      auto it = c.scope->slot_of.find(name);
      VId d = it == c.scope->slot_of.end() ? kUnbound : c.scope->env[static_cast<size_t>(it->second)];
      c.fields.emplace_back(name, d);
    }
  }
  Value v;
  v.kind = VK::kClass;
  v.ref = static_cast<int32_t>(classes_.size());
  classes_.push_back(std::move(c));
  Bind(T(g_.Field(def, g_.f_name)), store_.New(std::move(v)));
}

void Analyzer::RecordFunctionCall(int fn, Args& args, TSNode call) {
  Function& f = functions_[fn];
  // A dict handed to a function that mutates that parameter is no longer known.
  for (size_t i = 0; i < f.params.size(); ++i) {
    if (!MutatesParam(fn, f.params[i].name)) continue;
    VId v = kUnbound;
    if (i < args.positional.size() && !f.params[i].keyword_only && f.params[i].kind == Param::kNormal) {
      v = args.positional[i].v;
    }
    for (const auto& [k, e] : args.keywords) {
      if (k == f.params[i].name) v = e.v;
    }
    VK kind = store_.Kind(v);
    if (kind == VK::kDict || kind == VK::kList) Rebind(v, Incomplete(v));
  }
  // A dict of the caller's scopes that the body mutates by its global name
  // (the body runs later in our reading): no longer fully known.
  MutatesParam(fn, {});  // scans the body once
  for (std::string_view name : functions_[fn].mutated) {
    bool param = std::any_of(functions_[fn].params.begin(), functions_[fn].params.end(),
                             [&](const Param& p) { return p.name == name; });
    if (param) continue;
    VId v = Lookup(name);
    VK kind = store_.Kind(v);
    if (kind == VK::kDict || kind == VK::kList) Rebind(v, Incomplete(v));
  }
  Function& f2 = functions_[fn];
  if (f2.analysed) return;
  if (f2.calls.size() >= kMaxCalls) {
    f2.too_many_calls = true;
    return;
  }
  CallRecord rec;
  rec.args = args;
  rec.order = order_;
  rec.line = Line(call);
  if (f2.calls.size() < kMaxCallSnapshots && snapshot_slots_ < 4'000'000 && !literal_) {
    for (Scope* s = scope_; s; s = s->parent) {
      if (s == f2.parent || s->origin == f2.parent) {
        rec.parent_env = s->env;
        snapshot_slots_ += s->env.size();
        break;
      }
    }
  }
  f2.calls.push_back(std::move(rec));
}

// Whether a function body mutates the dict bound to parameter `name`
// (`name[k] = v`, `del name[k]`, `name.update(...)`, `name.setdefault(...)`).
bool Analyzer::MutatesParam(int fn, std::string_view name) {
  Function& f = functions_[fn];
  if (!f.mutation_scanned) {
    f.mutation_scanned = true;
    TSNode body = g_.Field(f.def, g_.f_body);
    TSTreeCursor cursor = ts_tree_cursor_new(body);
    int visited = 0;
    while (++visited < 200000) {
      TSNode n = ts_tree_cursor_current_node(&cursor);
      N k = g_.Kind(n);
      TSNode base{};
      if (k == N::kAssignment || k == N::kAugmentedAssignment) {
        TSNode left = g_.Field(n, g_.f_left);
        if (g_.Kind(left) == N::kSubscript) base = g_.Field(left, g_.f_value);
      } else if (k == N::kDeleteStatement) {
        TSNode t = ts_node_named_child(n, 0);
        if (g_.Kind(t) == N::kSubscript) base = g_.Field(t, g_.f_value);
      } else if (k == N::kCall) {
        TSNode fn_node = g_.Field(n, g_.f_function);
        if (g_.Kind(fn_node) == N::kAttribute) {
          std::string_view m = T(g_.Field(fn_node, g_.f_attribute));
          if (m == "update" || m == "setdefault" || m == "pop" || m == "clear" || m == "popitem" || m == "append" ||
              m == "extend" || m == "insert") {
            base = g_.Field(fn_node, g_.f_object);
          }
        }
      }
      if (!ts_node_is_null(base) && g_.Kind(base) == N::kIdentifier) f.mutated.insert(T(base));
      if (ts_tree_cursor_goto_first_child(&cursor)) continue;
      bool moved = false;
      while (!moved) {
        if (ts_tree_cursor_goto_next_sibling(&cursor))
          moved = true;
        else if (!ts_tree_cursor_goto_parent(&cursor))
          break;
      }
      if (!moved) break;
    }
    ts_tree_cursor_delete(&cursor);
  }
  return f.mutated.count(name) > 0;
}

// Function bodies run after the module, callers before callees, so that the
// arguments of every call site are known when a body runs.
void Analyzer::ExecFunctions() {
  while (true) {
    bool any = false, progress = false;
    for (size_t i = 0; i < functions_.size(); ++i) {
      if (functions_[i].analysed) continue;
      any = true;
      const Function& f = functions_[i];
      auto calls = call_counts_.find(f.name);
      int expected = calls == call_counts_.end() ? 0 : calls->second;
      bool escapes = other_uses_.count(f.name) > 0;
      if (!f.method && !escapes && !f.too_many_calls && f.calls.empty() && f.inlined > 0 &&
          f.inlined + f.dead_calls >= expected) {
        functions_[i].analysed = true;  // it ran at each of its calls
        progress = true;
        continue;
      }
      if (f.method || escapes || f.too_many_calls ||
          static_cast<int>(f.calls.size()) + f.inlined + f.dead_calls >= expected) {
        AnalyseFunction(static_cast<int>(i));
        progress = true;
      }
    }
    if (!any) return;
    if (!progress) {
      for (size_t i = 0; i < functions_.size(); ++i) {
        if (!functions_[i].analysed) {
          AnalyseFunction(static_cast<int>(i));
          break;
        }
      }
    }
    if (OverBudget()) EnterLiteralMode();
  }
}

void Analyzer::AnalyseFunction(int id) {
  functions_[id].analysed = true;
  // A body that names nothing relevant (Library::RelevantName) can neither
  // make nor delete a workload; skipping it only leaves the parameters of functions it calls unknown.
  if (!Relevant(g_.Field(functions_[id].def, g_.f_body))) return;
  const Function f = functions_[id];  // copy: analysing may add functions
  Scope* parent = f.parent;
  while (parent && parent->kind == Scope::kClass) parent = parent->parent;
  auto calls = call_counts_.find(f.name);
  int expected = calls == call_counts_.end() ? 0 : calls->second;
  bool escapes = other_uses_.count(f.name) > 0;
  bool from_calls = !f.method && !escapes && !f.too_many_calls && !f.calls.empty() &&
                    static_cast<int>(f.calls.size()) + f.inlined + f.dead_calls == expected;
  // A function no code that can run calls: what its body deletes never happens.
  std::string never_runs;
  if (!f.method && !escapes && !f.too_many_calls && f.calls.empty() && f.inlined == 0 && f.remote < 0) {
    if (f.dead_calls > 0 && f.dead_calls >= expected)
      never_runs = "is in " + std::string(f.name) + "(), which " + f.dead_why;
    else if (expected == 0)
      never_runs = "is in " + std::string(f.name) + "(), which nothing calls";
  }
  std::vector<std::string> conds;
  for (const CallRecord& c : f.calls) conds.push_back("called from line " + std::to_string(c.line));

  // Globals as the call sites saw them.
  Scope* read_parent = parent;
  if (from_calls && f.parent == parent && !literal_) {
    std::vector<std::vector<VId>> envs;
    for (const CallRecord& c : f.calls) {
      if (c.parent_env.empty()) {
        envs.clear();
        break;
      }
      envs.push_back(c.parent_env);
    }
    if (!envs.empty()) {
      scopes_.push_back(*parent);
      Scope* snap = &scopes_.back();
      snap->origin = parent;
      snap->loop_access = nullptr;
      snap->env = envs.size() == 1 ? envs[0] : MergeEnvs(envs, conds);
      read_parent = snap;
    }
  }
  scopes_.emplace_back();
  Scope* fs = &scopes_.back();
  fs->kind = Scope::kFunction;
  fs->parent = read_parent;

  Scope* saved_scope = scope_;
  Order saved_order = order_;
  bool saved_in_function = in_function_;
  int saved_failure = expect_failure_;
  scope_ = fs;
  in_function_ = true;
  expect_failure_ = f.expected_to_fail ? 1 : 0;
  order_ = f.calls.empty() ? Order{kNeverCalled + f.def_order.major, 0} : f.calls.front().order;
  order_.minor = ++minor_base_ * 1'000'000;

  for (size_t i = 0; i < f.params.size(); ++i) {
    const Param& p = f.params[i];
    VId v = kUnknown;
    if (from_calls && p.kind == Param::kNormal) {
      std::vector<VId> vals;
      bool known = true;
      for (const CallRecord& c : f.calls) {
        VId x = kUnknown;
        bool found = false;
        if (!p.keyword_only) {
          // Index among positional-capable parameters.
          size_t pos = 0;
          for (size_t k = 0; k < i; ++k) {
            if (f.params[k].kind == Param::kNormal && !f.params[k].keyword_only) ++pos;
          }
          if (pos < c.args.positional.size()) {
            x = c.args.positional[pos].v;
            found = true;
          }
        }
        for (const auto& [k, e] : c.args.keywords) {
          if (k == p.name) {
            x = e.v;
            found = true;
          }
        }
        if (!found) {
          if (c.args.unknown_spread)
            x = kUnknown;
          else if (p.default_value != kUnbound)
            x = p.default_value;
        }
        VK kind = store_.Kind(x);
        if (kind == VK::kUnknown || kind == VK::kOpaque) known = false;
        vals.push_back(x);
      }
      if (known) v = MergeValues(vals, conds);
    }
    // A test function's parameter named as a pytest fixture: what the fixture gives, when known.
    if ((v == kUnknown || v == kUnbound) && !from_calls && p.kind == Param::kNormal && p.default_value == kUnbound &&
        !(f.method && i == 0) && IsTestFunction(f)) {
      if (VId fixture = FixtureValue(p.name); fixture != kUnknown) {
        Bind(p.name, fixture);
        continue;
      }
    }
    BindParameter(p.name, v);
  }
  std::string saved_dead = std::move(dead_function_);
  dead_function_ = never_runs;
  ExecBlockImpl(g_.Field(f.def, g_.f_body));
  dead_function_ = std::move(saved_dead);

  scope_ = saved_scope;
  order_ = saved_order;
  in_function_ = saved_in_function;
  expect_failure_ = saved_failure;
}

// ---- same-file helpers, one call deep -------------------------------------------

// A function defined in the file runs at a call from module-level code as
// the call is met, with that call's arguments: the workloads it makes are
// the call's, and what it returns is the call's value. Methods, generators,
// functions a library took over (Function::remote) and calls made inside a
// helper are not run this way.
bool Analyzer::Inlinable(int fn) const {
  const Function& f = functions_[fn];
  if (literal_ || inlining_ > 0 || in_function_ || f.method || f.remote >= 0) return false;
  TSNode body = g_.Field(f.def, g_.f_body);
  if (ts_node_is_null(body)) return false;
  std::string_view text = T(body);
  if (text.find("yield") != std::string_view::npos) return false;  // a generator: its body runs later
  // A body that names nothing relevant runs here only if it is small and returns something.
  if (!Relevant(body)) return text.size() <= 2000 && text.find("return") != std::string_view::npos;
  return true;
}

// Binds parameter `name` to `v`; an unknown one to an opaque value of its own.
void Analyzer::BindParameter(std::string_view name, VId v) {
  if (v == kUnknown || v == kUnbound)
    v = store_.Opaque();
  else
    v = store_.WithOrigin(v, "parameter " + std::string(name));
  Bind(name, v);
}

// Binds `f`'s parameters in the current scope from a call's arguments (a
// default where it omits one); `self`, unless kUnbound, to the first. With
// `spreads`, `*args` / `**kwargs` get the arguments no other parameter took;
// else they are unknown. An unknown parameter is one opaque value.
void Analyzer::BindParams(const Function& f, const Args& args, VId self, bool spreads) {
  size_t pos = 0;
  bool self_bound = self == kUnbound;
  for (const Param& p : f.params) {
    if (!self_bound && p.kind == Param::kNormal) {
      Bind(p.name, self);
      self_bound = true;
      continue;
    }
    VId v = kUnknown;
    if (p.kind == Param::kNormal) {
      bool found = false;
      if (!p.keyword_only && pos < args.positional.size()) {
        v = args.positional[pos].v;
        found = true;
      }
      for (const auto& [k, e] : args.keywords) {
        if (k == p.name) {
          v = e.v;
          found = true;
        }
      }
      if (!found && !args.unknown_spread && p.default_value != kUnbound) v = p.default_value;
      if (!p.keyword_only) ++pos;
    } else if (spreads && p.kind == Param::kStar) {
      Value l;
      l.kind = VK::kList;
      l.complete = !args.unknown_spread;
      for (size_t i = pos; i < args.positional.size(); ++i) l.items.push_back(args.positional[i]);
      pos = args.positional.size();
      v = store_.New(std::move(l));
    } else if (spreads) {
      // `**kwargs`: the keywords no parameter took (`super().__init__(scope, id, **kwargs)` passes them on).
      Value d;
      d.kind = VK::kDict;
      d.complete = !args.unknown_spread;
      for (const auto& keyword : args.keywords) {
        const std::string& k = keyword.first;
        bool named = std::any_of(f.params.begin(), f.params.end(),
                                 [&](const Param& q) { return q.kind == Param::kNormal && q.name == k; });
        if (!named) d.entries.push_back({k, keyword.second});
      }
      Bind(p.name, store_.New(std::move(d)));
      continue;
    }
    BindParameter(p.name, v);
  }
}

VId Analyzer::Inline(int fn, Args& args, TSNode call) {
  const Function f = functions_[fn];  // copy: running the body may define functions
  ++functions_[fn].inlined;
  std::string target = std::move(pending_var_);
  pending_var_.clear();
  Scope* parent = f.parent;
  while (parent && parent->kind == Scope::kClass) parent = parent->parent;
  Scope* saved_scope = EnterScope(Scope::kFunction, parent);
  BindParams(f, args, kUnbound, false);
  // The values of the parameters this call passes (not a default it leaves): what the run reads of the call.
  int run = static_cast<int>(run_args_.size());
  run_ = run;
  run_args_.emplace_back();
  arg_read_ = false;
  arg_control_ = 0;
  {
    size_t pos = 0;
    for (const Param& p : f.params) {
      bool passed = args.unknown_spread;
      if (p.kind == Param::kNormal) {
        if (!p.keyword_only && pos < args.positional.size()) passed = true;
        if (!p.keyword_only) ++pos;
        for (const auto& keyword : args.keywords) passed = passed || keyword.first == p.name;
      } else {
        passed = true;  // *args / **kwargs: whatever the call passes beyond the named parameters
      }
      if (passed) SeedArgument(Lookup(p.name));
    }
  }
  std::vector<Ev> returns;
  std::vector<Ev>* saved_returns = returns_;
  returns_ = &returns;
  ++inlining_;
  inline_call_ = call;
  inline_helper_ = std::string(f.name);
  ExecBlockImpl(g_.Field(f.def, g_.f_body));
  --inlining_;
  run_ = -1;
  arg_read_ = false;
  arg_control_ = 0;
  returns_ = saved_returns;
  scope_ = saved_scope;
  inline_call_ = {};
  inline_helper_.clear();
  std::vector<Alt> alts;
  for (const Ev& r : returns) alts.push_back({"the return at line " + std::to_string(Line(r.at)) + " runs", r});
  VId result = returns.empty() ? store_.None() : store_.OneOf(std::move(alts));
  if (!target.empty()) {
    for (Library* lib : libraries_) lib->Returned(*this, result, run, target);
  }
  return result;
}

}  // namespace sagelint::py
