// Statements and expressions in program order: scopes, branches, loops,
// assignments, dict mutation and function bodies.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <set>

#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {
namespace {

// Ends the branches and loop bodies a statement ran under a helper argument's control.
struct ControlRelease {
  int& depth;
  int& n;
  ~ControlRelease() { depth -= n; }
};

constexpr size_t kMaxUnrolled = 64;  // program runs: loop iterations run one by one

}  // namespace

// Collapses whitespace and shortens a condition's source text for messages.
std::string Shorten(std::string_view text, size_t max) {
  std::string out;
  bool space = false;
  for (char c : text) {
    if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\\') {
      space = !out.empty();
      continue;
    }
    if (space) out += ' ';
    space = false;
    out += c;
  }
  if (out.size() > max) out = out.substr(0, max - 3) + "...";
  return out;
}

Analyzer::Analyzer(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out)
    : g_(PythonGrammar()), file_(file), src_(src), nb_(nb), out_(out) {}

Analyzer::~Analyzer() {
  if (cursor_ready_) ts_tree_cursor_delete(&cursor_);
}

std::vector<TSNode> Analyzer::Kids(TSNode n) {
  std::vector<TSNode> out;
  if (ts_node_is_null(n)) return out;
  uint32_t count = ts_node_child_count(n);
  if (count <= 6) {  // indexed access is cheapest for the many small nodes
    out.reserve(count);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_child(n, i);
      if (ts_node_is_named(c)) out.push_back(c);
    }
    return out;
  }
  if (!cursor_ready_) {
    cursor_ = ts_tree_cursor_new(n);
    cursor_ready_ = true;
  } else {
    ts_tree_cursor_reset(&cursor_, n);
  }
  if (ts_tree_cursor_goto_first_child(&cursor_)) {
    do {
      TSNode c = ts_tree_cursor_current_node(&cursor_);
      if (ts_node_is_named(c)) out.push_back(c);
    } while (ts_tree_cursor_goto_next_sibling(&cursor_));
  }
  return out;
}

SourceRange Analyzer::R(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  SourceRange r{ts::Start(n), ts::End(n)};
  return nb_ ? MapRange(*nb_, r) : r;
}

std::string_view Analyzer::T(TSNode n) const {
  if (ts_node_is_null(n)) return {};
  if (trees_.empty()) return ts::Text(n, src_);
  for (const auto& [tree, file] : trees_) {  // a program run: the file that holds the node
    if (tree == n.tree) return ts::Text(n, file.second);
  }
  return ts::Text(n, src_);
}

int Analyzer::Line(TSNode n) const { return R(n).begin.line; }

void Analyzer::Run(TSNode root, std::vector<Library*> libraries) {
  libraries_ = std::move(libraries);
  if (nb_) workflow_ = NotebookWorkflow(file_.path);
  root_ = root;
  Prescan(root);
  scopes_.emplace_back();
  scope_ = &scopes_.back();
  scope_->kind = Scope::kModule;
  Bind("__name__", store_.Str("__main__"));
  ExecBlockImpl(root);
  ExecFunctions();
  if (OverBudget()) EnterLiteralMode();  // the budget ran out in the last statement: said all the same
}

bool Analyzer::OverBudget() const { return !literal_ && (store_.exhausted() || steps_ > kMaxSteps); }

// The budget is spent: say where (SM007), and read the rest with literal values.
void Analyzer::EnterLiteralMode() {
  literal_ = true;
  SourceRange r = ts_node_is_null(last_stmt_) ? SourceRange{{1, 1}, {1, 1}} : R(last_stmt_);
  std::string bound = store_.exhausted() ? "the values it builds exceed the per-file budget (250,000 values or 16 MiB)"
                                         : "it needs more than 3,000,000 evaluation steps";
  ParseError e{"sagelint stopped evaluating this file here: " + bound +
                   "; every SageMaker call after this line was read with its literal arguments only",
               r.begin};
  e.cell = r.cell;
  e.cell_line = r.cell_line;
  out_->bounds.push_back(std::move(e));
  store_.GrantReserve();
  // What was not evaluated may have rebound any name: only imports, classes,
  // functions and library objects keep their values.
  auto kept = [&](VId v) {
    auto plain = [&](VId x) {
      VK k = store_.Kind(x);
      return k == VK::kQual || k == VK::kFunction || k == VK::kClass ||
             (k == VK::kLibrary && V(x).role == Role::kObject);
    };
    if (plain(v)) return true;
    if (store_.Kind(v) != VK::kOneOf) return false;
    const std::vector<Alt>& alts = V(v).alts;
    return std::all_of(alts.begin(), alts.end(), [&](const Alt& a) { return plain(a.value.v); });
  };
  for (Scope& scope : scopes_) {
    for (VId& v : scope.env) {
      if (v > kUnknown && !kept(v)) v = kUnknown;
    }
  }
  stored_.clear();
  if (!prescanned_) LexicalPass();
}

// One pass over the source text: how each name is used. A function whose
// name is only ever called (never passed around) and whose every call site
// we evaluate gets its parameters from those calls. The pass is lexical
// (strings and comments skipped), cheaper than a walk over the tree; where it
// is unsure it counts a use, which only keeps parameters unknown.
void Analyzer::Prescan(TSNode) {
  // Only function bodies (and literal mode) use what this pass finds.
  if (src_.find("def ") == std::string_view::npos && src_.find("def\t") == std::string_view::npos) return;
  LexicalPass();
}

void Analyzer::LexicalPass() {
  prescanned_ = true;
  std::string_view s = src_;
  size_t i = 0, n = s.size();
  std::string_view previous;  // the previous identifier token, for `def f(` / `class C(`
  char previous_char = 0;     // the previous significant character
  auto ident_start = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || (c & 0x80); };
  auto ident_char = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (c & 0x80);
  };
  while (i < n) {
    char c = s[i];
    if (c == '#') {
      while (i < n && s[i] != '\n') ++i;
      continue;
    }
    if (c == '\'' || c == '"') {
      // A string (prefix letters were read as an identifier just before).
      bool triple = i + 2 < n && s[i + 1] == c && s[i + 2] == c;
      i += triple ? 3 : 1;
      while (i < n) {
        if (s[i] == '\\') {
          i += 2;
          continue;
        }
        if (s[i] == c && (!triple || (i + 2 < n && s[i + 1] == c && s[i + 2] == c))) {
          i += triple ? 3 : 1;
          break;
        }
        if (!triple && s[i] == '\n') break;
        ++i;
      }
      previous_char = c;
      continue;
    }
    if (ident_start(c)) {
      size_t b = i;
      while (i < n && ident_char(s[i])) ++i;
      std::string_view name = s.substr(b, i - b);
      if (i < n && (s[i] == '\'' || s[i] == '"') && name.size() <= 3) continue;  // a string prefix
      if (RelevantName(name)) relevant_at_.push_back(static_cast<uint32_t>(b));
      size_t j = i;
      while (j < n && (s[j] == ' ' || s[j] == '\t')) ++j;
      bool attribute = previous_char == '.';
      bool definition = previous == "def" || previous == "class";
      if (!attribute && !definition) {
        if (j < n && s[j] == '(')
          ++call_counts_[name];
        else if (other_uses_.size() < 100000)
          ++other_uses_[name];
      }
      previous = name;
      previous_char = 'a';
      continue;
    }
    if (c != ' ' && c != '\t' && c != '\n' && c != '\r') {
      previous_char = c;
      previous = {};
    }
    ++i;
  }
}

// ---- names -------------------------------------------------------------------

int Analyzer::Slot(Scope* s, std::string_view name) {
  auto [it, inserted] = s->slot_of.emplace(name, static_cast<int>(s->slot_of.size()));
  if (s->env.size() <= static_cast<size_t>(it->second)) s->env.resize(it->second + 1, kUnbound);
  return it->second;
}

VId Analyzer::Lookup(std::string_view name) {
  for (Scope* s = scope_; s; s = s->parent) {
    auto it = s->slot_of.find(name);
    if (it == s->slot_of.end()) continue;
    size_t slot = static_cast<size_t>(it->second);
    if (s == scope_ && s->loop_access) {
      if (s->loop_access->size() <= slot) s->loop_access->resize(slot + 1, 0);
      if ((*s->loop_access)[slot] == 0) (*s->loop_access)[slot] = 1;  // read before any write
    }
    if (slot < s->env.size() && s->env[slot] != kUnbound) return s->env[slot];
  }
  return kUnbound;
}

// `globals()["name"]`: the module's binding of `name`; after a bare `%store -r`, an unbound name is
// read back from the store; else unbound.
VId Analyzer::GlobalValue(std::string_view name) {
  Scope* module = scope_;
  while (module && module->parent) module = module->parent;
  if (module) {
    auto it = module->slot_of.find(name);
    if (it != module->slot_of.end() && static_cast<size_t>(it->second) < module->env.size() &&
        module->env[it->second] != kUnbound) {
      return module->env[it->second];
    }
  }
  if (restore_all_) return SharedValue("%store:" + workflow_ + ":" + std::string(name));
  return kUnbound;
}

void Analyzer::Bind(std::string_view name, VId v) {
  int slot = Slot(scope_, name);
  if (scope_->loop_access) {
    auto& access = *scope_->loop_access;
    if (access.size() <= static_cast<size_t>(slot)) access.resize(slot + 1, 0);
    if (access[slot] == 0)
      access[slot] = 2;  // written first
    else if (access[slot] == 1)
      access[slot] = 3;  // read, then written: carried across iterations
  }
  scope_->env[slot] = v;
}

void Analyzer::Rebind(VId old_v, VId new_v) {
  if (old_v == new_v || old_v <= kUnknown || literal_) return;
  for (Scope* s = scope_; s; s = s->parent) {
    for (VId& v : s->env) {
      if (v == old_v) v = new_v;
    }
  }
}

// Evaluates `a[k1][k2]…`, remembering each container and key on the way so
// that a mutation of the innermost one can be written back into all of them.
VId Analyzer::EvalPath(TSNode n, Path* path) {
  std::vector<TSNode> subs;
  TSNode cur = n;
  while (g_.Kind(cur) == N::kSubscript && subs.size() < 16) {
    subs.push_back(cur);
    cur = g_.Field(cur, g_.f_value);
  }
  path->containers = {Eval(cur)};
  path->keys.clear();
  for (size_t i = subs.size(); i-- > 0;) {
    TSNode key = g_.Field(subs[i], g_.f_subscript);
    VId k = g_.Kind(key) == N::kSlice ? (Eval(key), kUnknown) : Eval(key);
    path->keys.push_back(k);
    path->containers.push_back(Subscript(path->containers.back(), k));
  }
  return path->containers.back();
}

void Analyzer::Propagate(const Path& path, VId updated) {
  if (path.containers.empty() || literal_) return;
  for (size_t j = path.keys.size(); j-- > 0;) {
    VId parent = path.containers[j];
    VId old_child = path.containers[j + 1];
    Rebind(old_child, updated);  // aliases of the inner container
    const Value& k = V(path.keys[j]);
    if (store_.Kind(parent) == VK::kDict && k.scalar() && updated != kUnknown) {
      TSNode at{};
      for (const Entry& e : V(parent).entries) {
        if (e.key == k.text) at = e.value.at;
      }
      std::string key = k.text;
      updated = DictSet(parent, key, Ev{updated, at});
    } else {
      updated = Incomplete(parent);
    }
  }
  Rebind(path.containers[0], updated);
}

std::string Analyzer::CondText(TSNode cond) const { return "`" + Shorten(T(cond), 60) + "`"; }

VId Analyzer::MergeValues(const std::vector<VId>& vals, const std::vector<std::string>& conds,
                          const std::vector<TSNode>& at) {
  std::vector<Alt> alts;
  for (size_t i = 0; i < vals.size(); ++i) {
    if (vals[i] == kUnbound) continue;
    Alt a;
    a.cond = i < conds.size() ? conds[i] : std::string();
    a.value = Ev{vals[i], i < at.size() ? at[i] : TSNode{}};
    alts.push_back(std::move(a));
  }
  if (alts.empty()) return kUnbound;
  bool same = std::all_of(alts.begin(), alts.end(), [&](const Alt& a) { return a.value.v == alts[0].value.v; });
  if (same) return alts[0].value.v;
  // An unknown alternative makes the whole value unknown for rules anyway,
  // except that it keeps the known ones visible with their conditions.
  return store_.OneOf(std::move(alts));
}

std::vector<VId> Analyzer::MergeEnvs(const std::vector<std::vector<VId>>& envs, const std::vector<std::string>& conds) {
  size_t n = 0;
  for (const auto& e : envs) n = std::max(n, e.size());
  std::vector<VId> out(n, kUnbound);
  std::vector<VId> vals(envs.size());
  for (size_t i = 0; i < n; ++i) {
    bool same = true;
    VId first = kUnbound;
    for (size_t k = 0; k < envs.size(); ++k) {
      vals[k] = i < envs[k].size() ? envs[k][i] : kUnbound;
      if (vals[k] == kUnbound) continue;  // not bound on that path: the other paths decide
      if (first == kUnbound)
        first = vals[k];
      else if (vals[k] != first)
        same = false;
    }
    out[i] = same ? first : MergeValues(vals, conds);
  }
  return out;
}

// ---- statements ----------------------------------------------------------------

bool Analyzer::ExecBlockImpl(TSNode block) {
  // In a notebook an exception ends its cell, not the notebook: the next
  // cell runs (a cell that raises until a placeholder is edited is common).
  bool cells = nb_ && g_.Kind(block) == N::kModule;
  int dead_cell = 0;
  for (TSNode stmt : Kids(block)) {
    if (dead_cell) {
      if (R(stmt).cell == dead_cell) continue;
      dead_cell = 0;
    }
    if (!Exec(stmt)) {
      if (!cells) return false;
      dead_cell = R(stmt).cell;
      if (dead_cell == 0) return false;
    }
  }
  return true;
}

bool Analyzer::Exec(TSNode n) {
  if (ts_node_is_null(n)) return true;
  if (halted_) return true;
  if (OverBudget()) {
    if (eager_) {
      Halt(n, store_.exhausted() ? "the values it builds exceed the budget (250,000 values or 16 MiB)"
                                 : "it needs more than 3,000,000 evaluation steps");
      return true;
    }
    EnterLiteralMode();
  }
  // Past the budget, a statement that names nothing relevant (Library::RelevantName) cannot matter.
  if (literal_ && !Relevant(n)) return true;
  if (depth_ > kMaxEvalDepth) {
    if (eager_) Halt(n, "its statements and calls nest more than 160 deep");
    return true;
  }
  last_stmt_ = n;
  ++depth_;
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  if (!in_function_) ++order_.major;
  switch (g_.Kind(n)) {
    case N::kExpressionStatement: {
      for (TSNode c : Kids(n)) {
        N k = g_.Kind(c);
        if (k == N::kAssignment)
          ExecAssignment(c);
        else if (k == N::kAugmentedAssignment)
          ExecAugmented(c);
        else if (k == N::kString || k == N::kComment)
          continue;  // docstrings
        else
          Eval(c);
      }
      return true;
    }
    case N::kIfStatement:
      return ExecIf(n);
    case N::kForStatement:
      return ExecLoop(n, true);
    case N::kWhileStatement:
      return ExecLoop(n, false);
    case N::kTryStatement:
      return ExecTry(n);
    case N::kWithStatement:
      return ExecWith(n);
    case N::kFunctionDefinition:
      DefineFunction(n, {});
      return true;
    case N::kClassDefinition:
      DefineClass(n);
      return true;
    case N::kDecoratedDefinition: {
      // A decorator a library knows may take the function over (`@remote(...)`: a
      // training job per call).
      int remote = -1;
      Library* owner = nullptr;
      for (TSNode c : Kids(n)) {
        if (g_.Kind(c) != N::kDecorator) continue;
        TSNode e = ts_node_named_child(c, 0);
        VId v = Eval(e);
        for (Library* lib : libraries_) {
          int handle = -1;
          if (lib->Decorator(*this, v, e, &handle)) {
            remote = handle;
            owner = lib;
            break;
          }
        }
      }
      TSNode def = g_.Field(n, g_.f_definition);
      if (g_.Kind(def) == N::kFunctionDefinition) {
        int id = DefineFunction(def, n);
        if (remote >= 0) {
          functions_[id].remote = remote;
          owner->Decorated(*this, remote, id);
        }
      } else {
        DefineClass(def, n);
      }
      return true;
    }
    case N::kImportStatement:
    case N::kImportFromStatement:
    case N::kFutureImportStatement:
      Import(n);
      return true;
    case N::kReturnStatement: {
      Ev value{store_.None(), n};
      for (TSNode kid : Kids(n)) {
        if (g_.Kind(kid) != N::kComment) value = EvalEv(kid);
      }
      if (returns_) returns_->push_back(value);  // a helper run at its call
      return false;
    }
    case N::kRaiseStatement: {
      for (TSNode kid : Kids(n)) Eval(kid);
      return false;
    }
    case N::kBreakStatement:
    case N::kContinueStatement:
      return false;
    case N::kPassStatement:
      if (nb_) Magic(n);  // IPython syntax became `pass`
      return true;
    case N::kComment:
    case N::kGlobalStatement:
    case N::kNonlocalStatement:
      return true;
    case N::kDeleteStatement:
      ExecDelete(n);
      return true;
    case N::kMatchStatement:
      return ExecMatch(n);
    case N::kBlock:
    case N::kModule:
      return ExecBlockImpl(n);
    case N::kError: {
      // What tree-sitter could not fit: run the statements it still holds.
      for (TSNode kid : Kids(n)) Exec(kid);
      return true;
    }
    default:
      Eval(n);
      return true;
  }
}

void Analyzer::ExecAssignment(TSNode n) {
  TSNode left = g_.Field(n, g_.f_left);
  TSNode right = g_.Field(n, g_.f_right);
  if (ts_node_is_null(right)) return;      // `x: int` annotation only
  if (g_.Kind(right) == N::kAssignment) {  // a = b = value
    ExecAssignment(right);
    TSNode inner = right;
    while (g_.Kind(g_.Field(inner, g_.f_right)) == N::kAssignment) inner = g_.Field(inner, g_.f_right);
    VId v = Eval(g_.Field(inner, g_.f_left));
    Assign(left, v, right);
    return;
  }
  if (g_.Kind(left) == N::kIdentifier) target_ = std::string(T(left));
  VId v = Eval(right);
  target_.clear();
  Assign(left, v, right);
}

void Analyzer::ExecAugmented(TSNode n) {
  TSNode left = g_.Field(n, g_.f_left);
  TSNode right = g_.Field(n, g_.f_right);
  std::string_view op = T(g_.Field(n, g_.f_operator));
  VId cur = Eval(left);
  VId rhs = Eval(right);
  VId result = kUnknown;
  if (op == "+=") {
    result = Concat(cur, rhs);
  } else if (op == "|=" && store_.Kind(cur) == VK::kDict) {
    result = DictUpdate(cur, rhs, nullptr);
  } else if ((op == "-=" || op == "*=") && store_.Kind(cur) == VK::kNum && store_.Kind(rhs) == VK::kNum) {
    result = Arith(op.substr(0, 1), cur, rhs);
  }
  if (store_.Kind(cur) == VK::kDict || store_.Kind(cur) == VK::kList)
    Rebind(cur, result == kUnknown ? Incomplete(cur) : result);
  Assign(left, result, right);
}

void Analyzer::Assign(TSNode target, VId v, TSNode value_node) {
  switch (g_.Kind(target)) {
    case N::kIdentifier: {
      std::string_view name = T(target);
      VId assigned = v;
      if (v == kUnknown || v == kUnbound)
        v = store_.Opaque();  // unknown, but one value
      else
        v = store_.WithOrigin(v, "constant " + std::string(name));
      if (run_ >= 0 && v != assigned) {  // still a value of the helper call's arguments
        auto& from_args = run_args_[static_cast<size_t>(run_)];
        if (arg_control_ > 0 || from_args.count(assigned)) from_args.insert(v);
      }
      Bind(name, v);
      return;
    }
    case N::kPatternList:
    case N::kTuplePattern:
    case N::kListPattern:
    case N::kExpressionList:
    case N::kTuple:
    case N::kList:
    case N::kParenthesizedExpression: {
      std::vector<TSNode> targets = Kids(target);
      if (g_.Kind(target) == N::kParenthesizedExpression && targets.size() == 1) {
        Assign(targets[0], v, value_node);
        return;
      }
      const Value& x = V(v);
      bool spread = x.kind == VK::kList && x.complete && x.items.size() == targets.size();
      std::vector<Ev> items = spread ? x.items : std::vector<Ev>();
      for (size_t i = 0; i < targets.size(); ++i) {
        TSNode t = targets[i];
        Assign(t, spread && g_.Kind(t) != N::kListSplatPattern ? items[i].v : kUnknown, value_node);
      }
      return;
    }
    case N::kListSplatPattern:
    case N::kListSplat:
      Assign(ts_node_named_child(target, 0), kUnknown, value_node);
      return;
    case N::kAttribute: {
      VId obj = Eval(g_.Field(target, g_.f_object));
      std::string attr(T(g_.Field(target, g_.f_attribute)));
      const Value& o = V(obj);
      if (o.kind == VK::kInstance) {
        // `self.x = …`: the instance's attribute from now on.
        SetAttribute(o.ref, attr, Ev{v, value_node});
      } else if (o.kind == VK::kLibrary && o.role == Role::kObject) {
        for (Library* lib : libraries_) {
          if (lib->SetAttribute(*this, obj, attr, Ev{v, value_node})) break;
        }
      } else if (o.kind == VK::kRecord) {
        Rebind(obj, DictSet(obj, attr, Ev{v, value_node}));
      }
      return;
    }
    case N::kSubscript: {
      if (literal_) return;  // past the budget containers are not followed
      // d[k] = v, also nested (request["A"]["B"] = v): every dict on the way is updated.
      Path path;
      VId container = EvalPath(g_.Field(target, g_.f_value), &path);
      VId key = Eval(g_.Field(target, g_.f_subscript));
      VK kind = store_.Kind(container);
      const Value& k = V(key);
      if (kind == VK::kDict) {
        Propagate(path, k.scalar() ? DictSet(container, k.text, Ev{v, value_node}) : Incomplete(container));
      } else if (kind == VK::kList || kind == VK::kRecord) {
        Propagate(path, Incomplete(container));
      } else if (kind == VK::kOneOf) {
        Propagate(path, kUnknown);
      }
      return;
    }
    default:
      return;
  }
}

void Analyzer::ExecDelete(TSNode n) {
  std::vector<TSNode> targets;
  for (TSNode c : Kids(n)) {
    if (g_.Kind(c) == N::kExpressionList) {
      for (TSNode t : Kids(c)) targets.push_back(t);
    } else {
      targets.push_back(c);
    }
  }
  for (TSNode t : targets) {
    if (g_.Kind(t) == N::kSubscript) {
      Path path;
      VId container = EvalPath(g_.Field(t, g_.f_value), &path);
      VId key = Eval(g_.Field(t, g_.f_subscript));
      VK kind = store_.Kind(container);
      if (kind == VK::kDict) {
        const Value& k = V(key);
        Propagate(path, k.scalar() ? DictDel(container, k.text) : Incomplete(container));
      } else if (kind == VK::kList) {
        Propagate(path, Incomplete(container));
      }
    } else if (g_.Kind(t) == N::kIdentifier) {
      Bind(T(t), kUnbound);
    }
  }
}

void Analyzer::SetAttribute(int instance, const std::string& attr, std::optional<Ev> v) {
  auto& attrs = instances_[instance].attrs;
  auto it = std::find_if(attrs.begin(), attrs.end(), [&](const auto& kv) { return kv.first == attr; });
  if (!branch_conds_.empty()) {
    attr_writes_.push_back({instance, attr, it == attrs.end() ? std::nullopt : std::optional<Ev>(it->second)});
  }
  if (!v) {
    if (it != attrs.end()) attrs.erase(it);
  } else if (it != attrs.end()) {
    it->second = *v;
  } else if (attrs.size() < Store::kMaxItems) {
    attrs.emplace_back(attr, *v);
  }
}

std::map<std::pair<int, std::string>, std::optional<Ev>> Analyzer::UndoAttributes(size_t mark) {
  std::map<std::pair<int, std::string>, std::optional<Ev>> left;
  while (attr_writes_.size() > mark) {
    AttrWrite w = std::move(attr_writes_.back());
    attr_writes_.pop_back();
    auto& attrs = instances_[w.instance].attrs;
    auto it = std::find_if(attrs.begin(), attrs.end(), [&](const auto& kv) { return kv.first == w.attr; });
    std::pair<int, std::string> key{w.instance, w.attr};
    if (!left.count(key)) left[key] = it == attrs.end() ? std::nullopt : std::optional<Ev>(it->second);
    if (!w.before) {
      if (it != attrs.end()) attrs.erase(it);
    } else if (it != attrs.end()) {
      it->second = *w.before;
    } else {
      attrs.emplace_back(w.attr, *w.before);
    }
  }
  return left;
}

bool Analyzer::ExecIf(TSNode n) {
  struct Branch {
    TSNode cond;
    TSNode block;
  };
  std::vector<Branch> chain;
  chain.push_back({g_.Field(n, g_.f_condition), g_.Field(n, g_.f_consequence)});
  for (TSNode c : Kids(n)) {
    if (g_.Kind(c) == N::kElifClause) {
      chain.push_back({g_.Field(c, g_.f_condition), g_.Field(c, g_.f_consequence)});
    } else if (g_.Kind(c) == N::kElseClause) {
      chain.push_back({TSNode{}, g_.Field(c, g_.f_body)});
    }
  }
  int controlled = 0;
  ControlRelease release{arg_control_, controlled};
  // Runs branch i onwards; returns whether control falls through.
  std::function<bool(size_t)> run = [&](size_t i) -> bool {
    if (i == chain.size()) return true;
    const Branch& b = chain[i];
    if (ts_node_is_null(b.cond)) return ExecBlockImpl(b.block);
    auto t = Truth(store_, EvalChoosing(b.cond, &controlled));
    if (t && *t) {
      for (size_t j = i + 1; j < chain.size(); ++j) {
        DeadCalls(chain[j].block, "runs only when " + CondText(b.cond) + " is false, and it is True");
      }
      return ExecBlockImpl(b.block);
    }
    if (t && !*t) {
      DeadCalls(b.block, "runs only when " + CondText(b.cond) + " is true, and it is False");
      return run(i + 1);
    }
    if (literal_) {  // past the budget: both paths run, nothing is merged
      bool through_then = ExecBlockImpl(b.block);
      bool through_else = run(i + 1);
      return through_then || through_else;
    }
    std::string text = CondText(b.cond);
    std::vector<VId> before = scope_->env;
    // Instance attributes (`self.x = …`, a program run) are merged as names are.
    size_t mark = attr_writes_.size();
    branch_conds_.push_back(text + " is true");
    bool through_then = ExecBlockImpl(b.block);
    auto then_attrs = UndoAttributes(mark);
    std::vector<VId> then_env = scope_->env;
    scope_->env = before;
    branch_conds_.back() = text + " is false";
    bool through_else = run(i + 1);
    auto else_attrs = UndoAttributes(mark);
    branch_conds_.pop_back();
    std::vector<VId> else_env = scope_->env;
    // Attributes live on after a `return` (the instance is the caller's): both paths count.
    std::set<std::pair<int, std::string>> keys;
    for (const auto& [k, v] : then_attrs) keys.insert(k);
    for (const auto& [k, v] : else_attrs) keys.insert(k);
    for (const auto& key : keys) {
      std::optional<Ev> now;
      for (const auto& [name, ev] : instances_[key.first].attrs) {
        if (name == key.second) now = ev;
      }
      auto left = [&](const std::map<std::pair<int, std::string>, std::optional<Ev>>& m) {
        auto it = m.find(key);
        return it == m.end() ? now : it->second;
      };
      std::optional<Ev> t = left(then_attrs), e = left(else_attrs);
      VId merged = MergeValues({t ? t->v : kUnbound, e ? e->v : kUnbound}, {text + " is true", text + " is false"},
                               {t ? t->at : TSNode{}, e ? e->at : TSNode{}});
      if (merged != kUnbound) SetAttribute(key.first, key.second, Ev{merged, t ? t->at : e->at});
    }
    if (!through_then && !through_else) return false;
    if (!through_then) return true;  // only the other path continues: its values hold
    if (!through_else) {
      scope_->env = then_env;
      return true;
    }
    scope_->env = MergeEnvs({then_env, else_env}, {text + " is true", text + " is false"});
    return true;
  };
  return run(0);
}

// A loop body runs once in our reading. The loop variable is one of the
// items when they are known; names assigned in the body keep the body's
// values, except those that depend on themselves from one iteration to the
// next (`x = x + ...`): those are unknown after the loop.
bool Analyzer::ExecLoop(TSNode n, bool for_loop) {
  TSNode body = g_.Field(n, g_.f_body);
  TSNode else_clause = g_.Field(n, g_.f_alternative);
  std::optional<bool> runs;  // whether the body runs at least once
  VId element = kUnknown;
  int controlled = 0;
  ControlRelease release{arg_control_, controlled};
  if (for_loop) {
    TSNode left = g_.Field(n, g_.f_left);
    VId iter = EvalChoosing(g_.Field(n, g_.f_right), &controlled);
    const Value& it = V(iter);
    if (it.kind == VK::kOpaque && EachOf(iter, &element)) {
      // an opaque value a library iterates (Library::Each)
    } else if (it.kind == VK::kList && it.complete) {
      runs = !it.items.empty();
      if (!it.items.empty() && it.items.size() <= Store::kMaxAlts) {
        std::vector<Alt> alts;
        std::string var = "`" + Shorten(T(left), 30) + "`";
        for (const Ev& item : it.items) {
          const Value& x = V(item.v);
          std::string shown = x.kind == VK::kStr ? "'" + Shorten(x.text, 40) + "'" : x.scalar() ? x.text : "an item";
          alts.push_back({var + " is " + shown, item});
        }
        element = store_.OneOf(std::move(alts));
      }
    }
    // A library's method taken as a value (Library::MethodValue), in an item
    // (`(client.method, "Key", value)`): the body calls it with that item's
    // other values, so it runs per item as below.
    auto method = [&](VId v) {
      return std::any_of(libraries_.begin(), libraries_.end(),
                         [&](Library* lib) { return lib->MethodValue(*this, v); });
    };
    auto method_value = [&](const Ev& e) {
      const Value& x = V(e.v);
      if (x.kind != VK::kList) return method(e.v);
      return std::any_of(x.items.begin(), x.items.end(), [&](const Ev& y) { return method(y.v); });
    };
    bool per_item = eager_ || (it.kind == VK::kList && std::any_of(it.items.begin(), it.items.end(), method_value));
    if (per_item && it.kind == VK::kList && it.complete && it.items.size() <= kMaxUnrolled) {
      // A program run (a CDK app) runs the body once per known item: each iteration may
      // create its own constructs. A body that leaves the loop (break, return, raise) ends it.
      std::vector<Ev> items = it.items;
      bool through = true;
      for (const Ev& item : items) {
        if (halted_) return true;
        Assign(left, item.v, n);
        through = ExecBlockImpl(body);
        if (!through) break;
      }
      if (through && !ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
      return true;
    }
    if (runs == false) {
      DeadCalls(body, "runs only for the items of " + CondText(g_.Field(n, g_.f_right)) + ", and it has none");
      if (!ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
      return true;
    }
    if (literal_) {
      Assign(left, element, n);
      ExecBlockImpl(body);
      if (!ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
      return true;
    }
    std::vector<VId> before = scope_->env;
    std::vector<uint8_t> access;
    std::vector<uint8_t>* outer = scope_->loop_access;
    scope_->loop_access = &access;
    Assign(left, element, n);
    ExecBlockImpl(body);
    scope_->loop_access = outer;
    FinishLoop(before, access, runs.value_or(false));
  } else {
    TSNode cond = g_.Field(n, g_.f_condition);
    auto t = Truth(store_, Eval(cond));
    if (t && !*t) {
      DeadCalls(body, "runs only while " + CondText(cond) + " is true, and it is False");
      if (!ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
      return true;
    }
    if (literal_) {
      ExecBlockImpl(body);
      if (!ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
      return true;
    }
    std::vector<VId> before = scope_->env;
    std::vector<uint8_t> access;
    std::vector<uint8_t>* outer = scope_->loop_access;
    scope_->loop_access = &access;
    ExecBlockImpl(body);
    scope_->loop_access = outer;
    FinishLoop(before, access, t.value_or(false));
  }
  if (!ts_node_is_null(else_clause)) ExecBlockImpl(g_.Field(else_clause, g_.f_body));
  return true;
}

void Analyzer::FinishLoop(const std::vector<VId>& before, const std::vector<uint8_t>& access, bool runs) {
  std::vector<VId>& env = scope_->env;
  for (size_t i = 0; i < env.size(); ++i) {
    uint8_t a = i < access.size() ? access[i] : 0;
    VId old = i < before.size() ? before[i] : kUnbound;
    if (a == 3) {
      env[i] = store_.Opaque();  // depends on the previous iteration
    } else if (!runs && env[i] != old && old != kUnbound) {
      env[i] = store_.Opaque();  // the body may not run: either value
    }
    // Propagate accesses to an enclosing loop of the same scope.
    if (scope_->loop_access && a != 0) {
      auto& outer = *scope_->loop_access;
      if (outer.size() <= i) outer.resize(i + 1, 0);
      if (outer[i] == 0)
        outer[i] = a == 3 ? 3 : a;
      else if (outer[i] == 1 && a >= 2)
        outer[i] = 3;
    }
  }
}

// A value known only as a name shared with other notebooks through a file
// (`%store`, a JSON or text file of the repository): a library may link it
// like a literal of that name (Library::SharedLink).
VId Analyzer::SharedValue(const std::string& name) {
  Value v;
  v.kind = VK::kOpaque;
  v.aux = "name:" + name;
  for (Library* lib : libraries_) {
    if (std::string link = lib->SharedLink(name); !link.empty()) {
      v.link = std::move(link);
      break;
    }
  }
  return store_.New(std::move(v));
}

// `with pytest.raises(...)`, `with raises(...)` (from pytest), `with self.assertRaises(...)`.
bool Analyzer::ExpectsFailure(TSNode expr) {
  if (g_.Kind(expr) != N::kCall) return false;
  TSNode fn = g_.Field(expr, g_.f_function);
  if (g_.Kind(fn) == N::kAttribute) {
    std::string_view attr = T(g_.Field(fn, g_.f_attribute));
    if (attr == "assertRaises" || attr == "assertRaisesRegex" || attr == "assertRaisesRegexp") return true;
    if (attr == "raises") {
      TSNode obj = g_.Field(fn, g_.f_object);
      if (g_.Kind(obj) == N::kIdentifier) {
        VId v = Lookup(T(obj));
        return v != kUnbound && store_.Kind(v) == VK::kQual && store_[v].text == "pytest";
      }
    }
    return false;
  }
  if (g_.Kind(fn) == N::kIdentifier) {
    VId v = Lookup(T(fn));
    return v != kUnbound && store_.Kind(v) == VK::kQual && store_[v].text == "pytest.raises";
  }
  return false;
}

bool Analyzer::TryExpectsFailure(TSNode body) {
  if (ts_node_is_null(body)) return false;
  TSNode last{};
  for (TSNode c : Kids(body)) {
    if (g_.Kind(c) != N::kComment) last = c;
  }
  if (ts_node_is_null(last)) return false;
  std::string_view text = T(last);
  switch (g_.Kind(last)) {
    case N::kRaiseStatement:
      return text.starts_with("raise AssertionError");
    case N::kExpressionStatement:
      return text.starts_with("pytest.fail(") || text.starts_with("self.fail(");
    default:
      // `assert False` (tree-sitter's assert_statement is not a kind of its own here).
      return text == "assert False" || text.starts_with("assert False,");
  }
}

bool Analyzer::ExecTry(TSNode n) {
  if (literal_) {  // past the budget: every clause runs once, in order
    ExecBlockImpl(g_.Field(n, g_.f_body));
    for (TSNode c : Kids(n)) {
      N k = g_.Kind(c);
      if (k == N::kElseClause) ExecBlockImpl(g_.Field(c, g_.f_body));
      if (k == N::kExceptClause || k == N::kExceptGroupClause || k == N::kFinallyClause) {
        for (TSNode part : Kids(c)) {
          if (g_.Kind(part) == N::kBlock) ExecBlockImpl(part);
        }
      }
    }
    return true;
  }
  std::vector<VId> before = scope_->env;
  // A try body that ends by failing the test (`raise AssertionError(...)`,
  // `assert False`, `pytest.fail(...)`) expects the calls before it to raise.
  int failing = TryExpectsFailure(g_.Field(n, g_.f_body)) ? 1 : 0;
  expect_failure_ += failing;
  bool through = ExecBlockImpl(g_.Field(n, g_.f_body));
  expect_failure_ -= failing;
  std::vector<std::vector<VId>> envs;
  std::vector<std::string> conds;
  TSNode finally_clause{};
  // `else` runs after a try body that raised nothing.
  for (TSNode c : Kids(n)) {
    if (g_.Kind(c) == N::kElseClause && through) through = ExecBlockImpl(g_.Field(c, g_.f_body));
  }
  if (through) {
    envs.push_back(scope_->env);
    conds.push_back("the try block at line " + std::to_string(Line(n)) + " succeeds");
  }
  for (TSNode c : Kids(n)) {
    N k = g_.Kind(c);
    if (k == N::kFinallyClause) finally_clause = c;
    if (k != N::kExceptClause && k != N::kExceptGroupClause) continue;
    scope_->env = before;
    bool ok = true;
    for (TSNode part : Kids(c)) {
      if (g_.Kind(part) == N::kBlock)
        ok = ExecBlockImpl(part);
      else if (g_.Kind(part) == N::kAsPattern)
        Assign(g_.Field(part, g_.f_alias), kUnknown, part);
    }
    if (ok) {
      envs.push_back(scope_->env);
      conds.push_back("the except clause at line " + std::to_string(Line(c)) + " runs");
    }
  }
  bool falls = !envs.empty();
  if (envs.size() == 1)
    scope_->env = envs[0];
  else if (envs.size() > 1)
    scope_->env = MergeEnvs(envs, conds);
  else
    scope_->env = before;
  if (!ts_node_is_null(finally_clause)) {
    for (TSNode block : Kids(finally_clause)) {
      if (!ExecBlockImpl(block)) falls = false;
    }
  }
  return falls;
}

bool Analyzer::ExecWith(TSNode n) {
  int failing = 0;
  for (TSNode clause : Kids(n)) {
    if (g_.Kind(clause) != N::kWithClause) continue;
    for (TSNode item : Kids(clause)) {
      TSNode value = g_.Field(item, g_.f_value);
      if (ts_node_is_null(value)) continue;
      TSNode expr = value;
      TSNode alias{};
      if (g_.Kind(value) == N::kAsPattern) {
        expr = ts_node_named_child(value, 0);
        alias = g_.Field(value, g_.f_alias);
      }
      if (ExpectsFailure(expr)) ++failing;
      VId v = Eval(expr);
      if (!ts_node_is_null(alias)) {
        TSNode target = ts_node_named_child_count(alias) > 0 ? ts_node_named_child(alias, 0) : alias;
        Assign(target, v, expr);
      }
    }
  }
  // pytest.raises / assertRaises: the body is expected to fail, so what it
  // creates never runs in the cloud.
  expect_failure_ += failing;
  bool through = ExecBlockImpl(g_.Field(n, g_.f_body));
  expect_failure_ -= failing;
  return through || failing > 0;
}

bool Analyzer::ExecMatch(TSNode n) {
  Eval(g_.Field(n, g_.f_subject));
  TSNode body = g_.Field(n, g_.f_body);
  if (literal_) {
    for (TSNode c : Kids(body)) {
      if (g_.Kind(c) == N::kCaseClause) ExecBlockImpl(g_.Field(c, g_.f_consequence));
    }
    return true;
  }
  std::vector<VId> before = scope_->env;
  std::vector<std::vector<VId>> envs;
  std::vector<std::string> conds;
  for (TSNode c : Kids(body)) {
    if (g_.Kind(c) != N::kCaseClause) continue;
    scope_->env = before;
    if (ExecBlockImpl(g_.Field(c, g_.f_consequence))) {
      envs.push_back(scope_->env);
      conds.push_back("the case at line " + std::to_string(Line(c)) + " matches");
    }
  }
  envs.push_back(before);
  conds.push_back("no case matches");
  scope_->env = MergeEnvs(envs, conds);
  return true;
}

void Analyzer::Import(TSNode n) {
  if (eager_ && ImportProgram(n)) return;
  N kind = g_.Kind(n);
  std::string module;
  TSNode module_node = g_.Field(n, g_.f_module_name);
  for (TSNode c : Kids(n)) {
    if (kind == N::kImportFromStatement && ts_node_eq(c, module_node)) {
      module = std::string(T(c));
      continue;
    }
    if (kind == N::kFutureImportStatement) continue;
    if (g_.Kind(c) == N::kWildcardImport) {
      scope_->star_modules.push_back(module);
      continue;
    }
    std::string name;
    std::string_view alias;
    if (g_.Kind(c) == N::kAliasedImport) {
      name = std::string(T(g_.Field(c, g_.f_name)));
      alias = T(g_.Field(c, g_.f_alias));
    } else if (g_.Kind(c) == N::kDottedName) {
      name = std::string(T(c));
    } else {
      continue;
    }
    name.erase(std::remove_if(name.begin(), name.end(), [](char ch) { return ch == ' ' || ch == '\t'; }), name.end());
    if (kind == N::kImportFromStatement) {
      std::string full = module + "." + name;
      std::string_view local = alias.empty() ? T(g_.Kind(c) == N::kAliasedImport ? g_.Field(c, g_.f_name) : c) : alias;
      Bind(local, store_.Qual(full));
      NoteLibraryAlias(local, full);
    } else if (!alias.empty()) {
      Bind(alias, store_.Qual(name));
      NoteLibraryAlias(alias, name);
    } else {
      // `import os.path` binds `os`.
      TSNode first = ts_node_named_child(c, 0);
      Bind(T(first), store_.Qual(name.substr(0, name.find('.'))));
    }
  }
}

// A name an import binds to a library's name under another name
// (`from package.module import Class as Alias`, Library::Owns) makes code
// that mentions it relevant too.
void Analyzer::NoteLibraryAlias(std::string_view local, std::string_view qualified) {
  bool owned = std::any_of(libraries_.begin(), libraries_.end(), [&](Library* lib) { return lib->Owns(qualified); });
  if (owned && !RelevantName(local)) library_aliases_.insert(local);
}

bool Analyzer::RelevantName(std::string_view name) const {
  return std::any_of(libraries_.begin(), libraries_.end(), [&](Library* lib) { return lib->RelevantName(name); });
}

bool Analyzer::Relevant(TSNode n) const {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  auto it = std::lower_bound(relevant_at_.begin(), relevant_at_.end(), b);
  if (it != relevant_at_.end() && *it < e) return true;
  std::string_view text = src_.substr(b, e - b);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::string_view alias : library_aliases_) {
    for (size_t at = text.find(alias); at != std::string_view::npos; at = text.find(alias, at + 1)) {
      bool starts = at == 0 || !ident(text[at - 1]);
      bool ends = at + alias.size() >= text.size() || !ident(text[at + alias.size()]);
      if (starts && ends) return true;
    }
  }
  return false;
}

// ---- deletes that cannot run ------------------------------------------------------

// Names, attributes, subscripts and plain strings: what a delete in a branch
// that does not run names, read without running anything.
VId Analyzer::PureEval(TSNode n) {
  switch (g_.Kind(n)) {
    case N::kIdentifier: {
      VId v = Lookup(T(n));
      return v == kUnbound ? kUnknown : v;
    }
    case N::kAttribute:
      return Attribute(PureEval(g_.Field(n, g_.f_object)), T(g_.Field(n, g_.f_attribute)), n);
    case N::kSubscript:
      return Subscript(PureEval(g_.Field(n, g_.f_value)), PureEval(g_.Field(n, g_.f_subscript)));
    case N::kString: {
      for (TSNode c : Kids(n)) {
        if (g_.Kind(c) == N::kInterpolation) return kUnknown;
      }
      return StringValue(n);
    }
    default:
      return kUnknown;
  }
}

void Analyzer::DeadCalls(TSNode block, const std::string& why) {
  if (literal_ || ts_node_is_null(block) || expect_failure_ > 0) return;
  TSTreeCursor cursor = ts_tree_cursor_new(block);
  int visited = 0;
  while (++visited < 100000) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (g_.Kind(n) == N::kCall) {
      TSNode fn = g_.Field(n, g_.f_function);
      if (g_.Kind(fn) == N::kAttribute) {
        for (Library* lib : libraries_) lib->DeadCall(*this, n, why);
      } else if (g_.Kind(fn) == N::kIdentifier) {
        // A helper called only here never runs from here.
        VId f = Lookup(T(fn));
        if (store_.Kind(f) == VK::kFunction) {
          Function& callee = functions_[V(f).ref];
          ++callee.dead_calls;
          if (callee.dead_why.empty()) callee.dead_why = why;
        }
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor))
        moved = true;
      else if (!ts_tree_cursor_goto_parent(&cursor) || ts_node_eq(ts_tree_cursor_current_node(&cursor), block))
        break;
    }
    if (!moved) break;
  }
  steps_ += visited;
  ts_tree_cursor_delete(&cursor);
}

// ---- IPython magics -----------------------------------------------------------------

// `%store NAME …` shares the values of names with the other notebooks of the
// directory; `%store -r NAME …` reads them back. A name read back is known
// only by that shared name ("%store:<workflow>:NAME"); a library links it
// with what was stored under that name (Library::SharedLink).
void Analyzer::Magic(TSNode n) {
  size_t line = ts_node_start_point(n).row;  // 0-based Python line
  if (line >= nb_->lines.size() || !nb_->lines[line].rewritten) return;
  // The words of the magic, as views into the notebook's own lines (names
  // bound here must outlive the call), across backslash continuations.
  std::vector<std::string_view> words;
  for (size_t l = line; l < nb_->original.size() && l <= line + 32; ++l) {
    std::string_view part = nb_->original[l];
    while (!part.empty() && (part.back() == '\r' || part.back() == ' ' || part.back() == '\t')) part.remove_suffix(1);
    bool more = !part.empty() && part.back() == '\\';
    if (more) part.remove_suffix(1);
    for (size_t i = 0; i < part.size();) {
      while (i < part.size() && (part[i] == ' ' || part[i] == '\t')) ++i;
      size_t e = i;
      while (e < part.size() && part[e] != ' ' && part[e] != '\t') ++e;
      if (e > i) words.push_back(part.substr(i, e - i));
      i = e;
    }
    if (!more) break;
  }
  if (words.empty() || words[0] != "%store") return;
  if (words.size() == 2 && words[1] == "-r") {
    restore_all_ = true;  // every stored name comes back: an unbound name may be one
    return;
  }
  bool restore = false;
  for (size_t i = 1; i < words.size(); ++i) {
    std::string_view w = words[i];
    if (w == "-r") {
      restore = true;
      continue;
    }
    if (w[0] == '-' || w[0] == '>') return;  // -d, -z, `%store x >file`: not shared by name
    bool ident =
        std::all_of(w.begin(), w.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
    if (!ident) continue;
    std::string shared = "%store:" + workflow_ + ":" + std::string(w);
    if (restore) {
      Bind(w, SharedValue(shared));
    } else {
      VId v = Lookup(w);
      if (v != kUnbound) stored_.push_back({shared, v});
    }
  }
}

}  // namespace sagelint::py
