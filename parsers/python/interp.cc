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

constexpr int kMaxDepth = 160;
constexpr size_t kMaxCallSnapshots = 8;
constexpr size_t kMaxCalls = 64;
constexpr long kNeverCalled = LONG_MAX / 4;
constexpr size_t kMaxUnrolled = 64;  // program runs: loop iterations run one by one

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

bool IsInteger(const std::string& s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' ? 1 : 0;
  if (i == s.size()) return false;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

std::string FormatDouble(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", d);
    return buf;  // Python prints a float with a fractional part: 2.0
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", d);
  return buf;
}

}  // namespace

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

void Analyzer::Run(TSNode root) {
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
  Emit();
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
  // functions and SDK objects keep their values.
  auto kept = [&](VId v) {
    auto plain = [&](VId x) {
      VK k = store_.Kind(x);
      return k == VK::kQual || k == VK::kObject || k == VK::kFunction || k == VK::kClass;
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
      if (IsRelevantName(name)) relevant_at_.push_back(static_cast<uint32_t>(b));
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
  // Past the budget, a statement that names nothing SageMaker cannot matter.
  if (literal_ && !Relevant(n)) return true;
  if (depth_ > kMaxDepth) {
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
      // `@remote(...)` makes the function a training job per call.
      int remote = -1;
      for (TSNode c : Kids(n)) {
        if (g_.Kind(c) != N::kDecorator) continue;
        TSNode e = ts_node_named_child(c, 0);
        VId v = Eval(e);
        const Value& x = V(v);
        if (x.kind == VK::kObject && objects_[x.ref].kind == ObjKind::kRemote) {
          remote = x.ref;
        } else if (x.kind == VK::kQual && IsRemoteDecorator(x.text)) {
          Object o;
          o.kind = ObjKind::kRemote;
          o.cls = x.text.ends_with(".step") ? "@step" : "@remote";
          remote = NewObject(std::move(o), e);
        }
      }
      TSNode def = g_.Field(n, g_.f_definition);
      if (g_.Kind(def) == N::kFunctionDefinition) {
        int id = DefineFunction(def, n);
        if (remote >= 0) {
          functions_[id].remote = remote;
          objects_[remote].var = std::string(functions_[id].name);
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
      } else if (o.kind == VK::kObject) {
        // `estimator.use_spot_instances = True`: the setting the SDK sends.
        Args& a = objects_[o.ref].args;
        a.keywords.erase(
            std::remove_if(a.keywords.begin(), a.keywords.end(), [&](const auto& kv) { return kv.first == attr; }),
            a.keywords.end());
        a.keywords.push_back({attr, Ev{v, value_node}});
      } else if (o.kind == VK::kHelper) {
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
      } else if (kind == VK::kList || kind == VK::kHelper) {
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
        DeadDeletes(chain[j].block, "runs only when " + CondText(b.cond) + " is false, and it is True");
      }
      return ExecBlockImpl(b.block);
    }
    if (t && !*t) {
      DeadDeletes(b.block, "runs only when " + CondText(b.cond) + " is true, and it is False");
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
    if (it.kind == VK::kOpaque && it.aux.starts_with("endpoints:")) {
      element = iter;  // each endpoint list_endpoints() returned
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
    // A client's method taken as a value, in an item (`(client.delete_endpoint, "EndpointName", name)`):
    // the body calls it with that item's other values, so it runs per item as below.
    auto method_value = [&](const Ev& e) {
      const Value& x = V(e.v);
      if (x.kind == VK::kOpaque) return x.aux.starts_with("method:");
      return x.kind == VK::kList && std::any_of(x.items.begin(), x.items.end(), [&](const Ev& y) {
               return store_.Kind(y.v) == VK::kOpaque && V(y.v).aux.starts_with("method:");
             });
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
      DeadDeletes(body, "runs only for the items of " + CondText(g_.Field(n, g_.f_right)) + ", and it has none");
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
      DeadDeletes(body, "runs only while " + CondText(cond) + " is true, and it is False");
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
      NoteSdkAlias(local, full);
    } else if (!alias.empty()) {
      Bind(alias, store_.Qual(name));
      NoteSdkAlias(alias, name);
    } else {
      // `import sagemaker.sklearn` binds `sagemaker`.
      TSNode first = ts_node_named_child(c, 0);
      Bind(T(first), store_.Qual(name.substr(0, name.find('.'))));
    }
  }
}

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

// A name an import binds to an SDK or boto3 class under another name
// (`from sagemaker.pytorch import PyTorch as PyTorchEstimator`) makes code
// that mentions it relevant too.
void Analyzer::NoteSdkAlias(std::string_view local, std::string_view qualified) {
  if ((qualified.rfind("sagemaker", 0) == 0 || qualified.rfind("boto3", 0) == 0) && !IsRelevantName(local)) {
    sdk_aliases_.insert(local);
  }
}

bool Analyzer::Relevant(TSNode n) const {
  uint32_t b = ts_node_start_byte(n), e = ts_node_end_byte(n);
  auto it = std::lower_bound(relevant_at_.begin(), relevant_at_.end(), b);
  if (it != relevant_at_.end() && *it < e) return true;
  std::string_view text = src_.substr(b, e - b);
  auto ident = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::string_view alias : sdk_aliases_) {
    for (size_t at = text.find(alias); at != std::string_view::npos; at = text.find(alias, at + 1)) {
      bool starts = at == 0 || !ident(text[at - 1]);
      bool ends = at + alias.size() >= text.size() || !ident(text[at + alias.size()]);
      if (starts && ends) return true;
    }
  }
  return false;
}

void Analyzer::AnalyseFunction(int id) {
  functions_[id].analysed = true;
  // A body that names nothing SageMaker can neither make nor delete a
  // workload; skipping it only leaves the parameters of functions it calls unknown.
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
    if (v == kUnknown || v == kUnbound)
      v = store_.Opaque();
    else
      v = store_.WithOrigin(v, "parameter " + std::string(p.name));
    Bind(p.name, v);
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

// ---- expressions ----------------------------------------------------------------

Args Analyzer::EvalArgs(TSNode list, bool is_list) {
  Args a;
  if (!is_list) {
    a.call = list;
    list = g_.Field(list, g_.f_arguments);
  }
  if (ts_node_is_null(list)) return a;
  if (g_.Kind(list) == N::kGeneratorExpression) {
    a.positional.push_back(EvalEv(list));
    return a;
  }
  for (TSNode c : Kids(list)) {
    switch (g_.Kind(c)) {
      case N::kKeywordArgument: {
        std::string name(T(g_.Field(c, g_.f_name)));
        Ev e = EvalEv(g_.Field(c, g_.f_value));
        a.keywords.erase(
            std::remove_if(a.keywords.begin(), a.keywords.end(), [&](const auto& kv) { return kv.first == name; }),
            a.keywords.end());
        a.keywords.emplace_back(std::move(name), e);
        break;
      }
      case N::kDictionarySplat: {
        VId d = Eval(ts_node_named_child(c, 0));
        SpreadInto(d, a);
        break;
      }
      case N::kListSplat: {
        VId l = Eval(ts_node_named_child(c, 0));
        const Value& x = V(l);
        if (x.kind == VK::kList && x.complete) {
          for (const Ev& item : x.items) a.positional.push_back(item);
        } else {
          a.unknown_spread = true;
        }
        break;
      }
      case N::kComment:
        break;
      default:
        a.positional.push_back(EvalEv(c));
        break;
    }
  }
  return a;
}

// `**d` in a call: a known dict supplies its keywords; a conditional one
// supplies each key as a conditional value (absent where a branch lacks it).
void Analyzer::SpreadInto(VId d, Args& a) {
  const Value& x = V(d);
  auto put = [&](const std::string& key, Ev e) {
    a.keywords.erase(
        std::remove_if(a.keywords.begin(), a.keywords.end(), [&](const auto& kv) { return kv.first == key; }),
        a.keywords.end());
    a.keywords.emplace_back(key, e);
  };
  if (x.kind == VK::kDict) {
    std::vector<Entry> entries = x.entries;
    bool complete = x.complete;
    for (const Entry& e : entries) put(e.key, e.value);
    if (!complete) a.unknown_spread = true;
    return;
  }
  if (x.kind == VK::kOneOf) {
    std::vector<Alt> alts = x.alts;
    std::vector<std::string> keys;
    for (const Alt& alt : alts) {
      const Value& y = V(alt.value.v);
      if (y.kind != VK::kDict) {
        a.unknown_spread = true;
        return;
      }
      if (!y.complete) a.unknown_spread = true;
      for (const Entry& e : y.entries) {
        if (std::find(keys.begin(), keys.end(), e.key) == keys.end()) keys.push_back(e.key);
      }
    }
    for (const std::string& key : keys) {
      std::vector<Alt> per_key;
      TSNode at{};
      for (const Alt& alt : alts) {
        const Value& y = V(alt.value.v);
        Ev found{store_.None(), TSNode{}};
        for (const Entry& e : y.entries) {
          if (e.key == key) {
            found = e.value;
            if (ts_node_is_null(at)) at = e.value.at;
          }
        }
        per_key.push_back({alt.cond, found});
      }
      put(key, Ev{store_.OneOf(std::move(per_key)), at});
    }
    return;
  }
  a.unknown_spread = true;
}

// While a helper runs at a call, a value an expression computes from a value
// of the call's arguments (or under a branch such a value chose) is one of
// them too: what the workloads it makes read of the call (docs/python.md
// "Helpers").
VId Analyzer::Eval(TSNode n) {
  if (run_ < 0) return EvalNode(n);
  bool outer = arg_read_;
  arg_read_ = false;
  VId r = EvalNode(n);
  auto& from_args = run_args_[static_cast<size_t>(run_)];
  // Unknown, but computed from an argument (`config["type"]` of an unknown
  // `config`): one run-time value, which the workload may read.
  if (r == kUnknown && (arg_read_ || arg_control_ > 0)) r = store_.Opaque();
  if (r != kUnknown && r >= 0 && from_args.count(r)) {
    arg_read_ = true;
  } else if ((arg_read_ || arg_control_ > 0) && r != kUnknown && r >= 0 && r != store_.None() &&
             r != store_.Bool(true) && r != store_.Bool(false)) {
    from_args.insert(r);
    arg_read_ = true;
  }
  arg_read_ = arg_read_ || outer;
  return r;
}

// A condition or a loop's iterable: when it reads a value of a helper call's
// arguments, what the branch or body assigns and creates reads it too (until
// the statement ends: `*controlled` counts the levels to release).
VId Analyzer::EvalChoosing(TSNode n, int* controlled) {
  bool outer = arg_read_;
  arg_read_ = false;
  VId v = Eval(n);
  if (arg_read_ && run_ >= 0) {
    ++arg_control_;
    ++*controlled;
  }
  arg_read_ = arg_read_ || outer;
  return v;
}

// The values `v` holds (items, entries, alternatives), each counted as an argument of the current run.
void Analyzer::SeedArgument(VId v, int depth) {
  auto& from_args = run_args_[static_cast<size_t>(run_)];
  if (v == kUnknown || v < 0 || depth > 6 || from_args.size() > 4096 || v == store_.None() || v == store_.Bool(true) ||
      v == store_.Bool(false) || !from_args.insert(v).second) {
    return;
  }
  const Value& x = V(v);
  for (const Ev& e : x.items) SeedArgument(e.v, depth + 1);
  for (const Entry& e : x.entries) SeedArgument(e.value.v, depth + 1);
  for (const Alt& a : x.alts) SeedArgument(a.value.v, depth + 1);
}

VId Analyzer::EvalNode(TSNode n) {
  if (ts_node_is_null(n)) return kUnknown;
  if ((!literal_ && (++steps_ > kMaxSteps || store_.exhausted())) || depth_ > kMaxDepth) return kUnknown;
  ++depth_;
  struct Leave {
    int& d;
    ~Leave() { --d; }
  } leave{depth_};
  switch (g_.Kind(n)) {
    case N::kIdentifier: {
      std::string_view name = T(n);
      VId v = Lookup(name);
      if (v != kUnbound) return v;
      std::string star = ResolveStarImport(name);
      if (!star.empty()) return store_.Qual(star);
      static const std::set<std::string_view> kBuiltins = {"dict", "str", "int", "float", "bool", "list",   "tuple",
                                                           "len",  "min", "max", "print", "open", "globals"};
      // After a bare `%store -r`, a name nothing binds is read back from the store (a builtin is itself).
      if (restore_all_ && !kBuiltins.count(name)) return SharedValue("%store:" + workflow_ + ":" + std::string(name));
      if (kBuiltins.count(name)) return store_.Qual("builtins." + std::string(name));
      return kUnknown;
    }
    case N::kString:
      return StringValue(n);
    case N::kConcatenatedString: {
      VId acc = kUnbound;
      for (TSNode kid : Kids(n)) {
        VId part = StringValue(kid);
        acc = acc == kUnbound ? part : Concat(acc, part);
      }
      return acc == kUnbound ? kUnknown : acc;
    }
    case N::kInteger:
    case N::kFloat:
      return NumberValue(n);
    case N::kTrue:
      return store_.Bool(true);
    case N::kFalse:
      return store_.Bool(false);
    case N::kNone:
      return store_.None();
    case N::kParenthesizedExpression: {
      VId v = kUnknown;
      for (TSNode c : Kids(n)) {
        if (g_.Kind(c) != N::kComment) v = Eval(c);
      }
      return v;
    }
    case N::kAttribute: {
      VId obj = Eval(g_.Field(n, g_.f_object));
      std::string_view attr = T(g_.Field(n, g_.f_attribute));
      // `predictor.delete_endpoint` handed to something that calls it
      // (`_try("endpoint", endpoint.delete)`): a delete where it is handed over.
      const Value& o = V(obj);
      if (o.kind == VK::kObject && objects_[o.ref].kind == ObjKind::kPredictor && IsDeleteMethod(attr)) {
        RecordDelete(obj, n);
      }
      // `client.delete_endpoint` handed on uncalled (a clean-up loop over `(fn, "EndpointName", name)`
      // tuples calling `fn(**{arg: name})`): the client's method, which deletes where it is called.
      if (o.kind == VK::kObject && attr == "delete_endpoint" &&
          (objects_[o.ref].kind == ObjKind::kClient || objects_[o.ref].kind == ObjKind::kSession)) {
        Value m;
        m.kind = VK::kOpaque;
        m.ref = o.ref;
        m.aux = "method:delete_endpoint";
        return store_.New(std::move(m));
      }
      return Attribute(obj, attr, n);
    }
    case N::kSubscript: {
      VId container = Eval(g_.Field(n, g_.f_value));
      TSNode key = g_.Field(n, g_.f_subscript);
      VId k = Eval(key);
      if (g_.Kind(key) == N::kSlice) return kUnknown;
      VId r = Subscript(container, k);
      // An SDK object chosen from a known list by a position known only at run time
      // (`builders[best]`): one of them, each under its condition, as a loop variable is.
      const Value& c = V(container);
      if (r == kUnknown && c.kind == VK::kList && c.complete && !c.items.empty() && c.items.size() <= Store::kMaxAlts &&
          !store_[k].scalar() &&
          std::all_of(c.items.begin(), c.items.end(), [&](const Ev& e) { return store_.Kind(e.v) == VK::kObject; })) {
        std::vector<Ev> items = c.items;
        std::string shown = "`" + Shorten(T(n), 40) + "`";
        std::vector<VId> vals;
        std::vector<std::string> conds;
        std::vector<TSNode> at;
        for (size_t i = 0; i < items.size(); ++i) {
          vals.push_back(items[i].v);
          conds.push_back(shown + " is item " + std::to_string(i));
          at.push_back(items[i].at);
        }
        return MergeValues(vals, conds, at);
      }
      return r;
    }
    case N::kCall:
      return Call(n);
    case N::kDictionary: {
      Value d;
      d.kind = VK::kDict;
      auto put = [&](std::string key, Ev e) {
        for (Entry& x : d.entries) {
          if (x.key == key) {
            x.value = e;
            return;
          }
        }
        if (d.entries.size() < Store::kMaxItems)
          d.entries.push_back({std::move(key), e});
        else
          d.complete = false;
      };
      for (TSNode c : Kids(n)) {
        N k = g_.Kind(c);
        if (k == N::kPair) {
          VId key = Eval(g_.Field(c, g_.f_key));
          Ev value = EvalEv(g_.Field(c, g_.f_value));
          const Value& kv = V(key);
          if (kv.scalar())
            put(kv.text, value);
          else
            d.complete = false;
        } else if (k == N::kDictionarySplat) {
          VId inner = Eval(ts_node_named_child(c, 0));
          const Value& x = V(inner);
          if (x.kind == VK::kDict) {
            std::vector<Entry> entries = x.entries;
            if (!x.complete) d.complete = false;
            for (Entry& e : entries) put(std::move(e.key), e.value);
          } else {
            d.complete = false;
          }
        } else if (k != N::kComment) {
          Eval(c);
          d.complete = false;
        }
      }
      return store_.New(std::move(d));
    }
    case N::kList:
    case N::kTuple:
    case N::kSet:
    case N::kExpressionList: {
      Value l;
      l.kind = VK::kList;
      for (TSNode c : Kids(n)) {
        N k = g_.Kind(c);
        if (k == N::kComment) continue;
        if (k == N::kListSplat) {
          VId inner = Eval(ts_node_named_child(c, 0));
          const Value& x = V(inner);
          if (x.kind == VK::kList && x.complete && l.items.size() + x.items.size() <= Store::kMaxItems) {
            std::vector<Ev> items = x.items;
            l.items.insert(l.items.end(), items.begin(), items.end());
          } else {
            l.complete = false;
          }
          continue;
        }
        Ev e = EvalEv(c);
        if (l.items.size() < Store::kMaxItems)
          l.items.push_back(e);
        else
          l.complete = false;
      }
      return store_.New(std::move(l));
    }
    case N::kBinaryOperator:
      return Binary(n);
    case N::kUnaryOperator: {
      VId v = Eval(g_.Field(n, g_.f_argument));
      std::string_view op = T(g_.Field(n, g_.f_operator));
      const Value& x = V(v);
      if (x.kind == VK::kNum && op == "-") {
        std::string text = x.text[0] == '-' ? x.text.substr(1) : "-" + x.text;
        return store_.Num(text);
      }
      if (x.kind == VK::kNum && op == "+") return v;
      return kUnknown;
    }
    case N::kNotOperator: {
      auto t = Truth(store_, Eval(g_.Field(n, g_.f_argument)));
      return t ? store_.Bool(!*t) : kUnknown;
    }
    case N::kBooleanOperator: {
      VId a = Eval(g_.Field(n, g_.f_left));
      std::string_view op = T(g_.Field(n, g_.f_operator));
      auto t = Truth(store_, a);
      // Python short-circuits: the right side runs only when it decides.
      if (t && ((op == "and" && !*t) || (op == "or" && *t))) return a;
      VId b = Eval(g_.Field(n, g_.f_right));
      if (t) return b;
      // Truth unknown: the left value when it decides, else the right one (alternatives).
      std::string text = CondText(g_.Field(n, g_.f_left));
      bool is_or = op == "or";
      return MergeValues({a, b}, {text + (is_or ? " is true" : " is false"), text + (is_or ? " is false" : " is true")},
                         {g_.Field(n, g_.f_left), g_.Field(n, g_.f_right)});
    }
    case N::kComparisonOperator:
      return Compare(n);
    case N::kConditionalExpression: {
      // a if cond else b
      TSNode a = ts_node_named_child(n, 0);
      TSNode cond = ts_node_named_child(n, 1);
      TSNode b = ts_node_named_child(n, 2);
      auto t = Truth(store_, Eval(cond));
      if (t) return Eval(*t ? a : b);
      std::string saved = target_;
      VId va = Eval(a);
      target_ = saved;
      VId vb = Eval(b);
      std::string text = CondText(cond);
      return MergeValues({va, vb}, {text + " is true", text + " is false"}, {a, b});
    }
    case N::kNamedExpression: {
      VId v = Eval(g_.Field(n, g_.f_value));
      Assign(g_.Field(n, g_.f_name), v, n);
      return v;
    }
    case N::kLambda: {
      // Its body runs later, with unknown arguments. A body that deletes an
      // endpoint (`lambda: Endpoint.get(name).delete()`, handed to a helper
      // that calls it) is read now for that delete; nothing else is.
      TSNode body = g_.Field(n, g_.f_body);
      if (g_.Kind(body) != N::kCall || g_.Kind(g_.Field(body, g_.f_function)) != N::kAttribute) return kUnknown;
      std::string_view method = T(g_.Field(g_.Field(body, g_.f_function), g_.f_attribute));
      if (!IsDeleteMethod(method)) return kUnknown;
      Scope* saved = EnterScope(Scope::kFunction, scope_);
      TSNode params = g_.Field(n, g_.f_parameters);
      for (TSNode p : Kids(params)) {
        if (g_.Kind(p) == N::kIdentifier) Bind(T(p), kUnknown);
      }
      Eval(body);
      scope_ = saved;
      return kUnknown;
    }
    case N::kListComprehension:
    case N::kSetComprehension:
    case N::kGeneratorExpression:
    case N::kDictionaryComprehension:
      return Comprehension(n);
    case N::kAwait:
      return Eval(ts_node_named_child(n, 0));
    case N::kComment:
      return kUnknown;
    default: {
      // Anything else: evaluate its parts for the calls they make.
      for (TSNode kid : Kids(n)) Eval(kid);
      return kUnknown;
    }
  }
}

VId Analyzer::Comprehension(TSNode n) {
  // The loop variables are bound in a scope of their own; the body runs once.
  scopes_.emplace_back();
  Scope* inner = &scopes_.back();
  inner->kind = Scope::kFunction;
  inner->parent = scope_;
  Scope* saved = scope_;
  for (TSNode c : Kids(n)) {
    if (g_.Kind(c) == N::kForInClause) {
      VId iter = Eval(g_.Field(c, g_.f_right));
      const Value& it = V(iter);
      VId element = kUnknown;
      if (it.kind == VK::kOpaque && it.aux.starts_with("endpoints:")) {
        element = iter;  // each endpoint list_endpoints() returned
      } else if (it.kind == VK::kList && it.complete && !it.items.empty() && it.items.size() <= Store::kMaxAlts) {
        std::vector<Alt> alts;
        for (const Ev& item : it.items) alts.push_back({std::string("an item of the comprehension"), item});
        element = store_.OneOf(std::move(alts));
      }
      scope_ = inner;
      Assign(g_.Field(c, g_.f_left), element, c);
    } else if (g_.Kind(c) == N::kIfClause) {
      scope_ = inner;
      Eval(ts_node_named_child(c, 0));
    }
  }
  scope_ = inner;
  TSNode body = g_.Field(n, g_.f_body);
  if (g_.Kind(body) == N::kPair) {
    Eval(g_.Field(body, g_.f_key));
    Eval(g_.Field(body, g_.f_value));
  } else {
    Eval(body);
  }
  scope_ = saved;
  return kUnknown;
}

VId Analyzer::StringValue(TSNode n) {
  bool raw = false, fstring = false;
  std::string text, link;
  bool known = true, linked = false;
  int parts = 0;           // content pieces and interpolations
  VId only = kUnbound;     // the value of an f-string that is one plain interpolation
  std::vector<Ev> pieces;  // a program run: the pieces, for a library value among them
  bool foreign = false;
  for (TSNode c : Kids(n)) {
    switch (g_.Kind(c)) {
      case N::kStringStart: {
        std::string_view prefix = T(c);
        raw = prefix.find_first_of("rR") != std::string_view::npos;
        fstring = prefix.find_first_of("fF") != std::string_view::npos;
        if (prefix.find_first_of("bB") != std::string_view::npos) return kUnknown;
        break;
      }
      case N::kStringContent: {
        std::string piece = raw ? std::string(T(c)) : DecodeEscapes(T(c));
        if (fstring) {
          std::string unescaped;
          for (size_t k = 0; k < piece.size(); ++k) {
            unescaped += piece[k];
            if ((piece[k] == '{' || piece[k] == '}') && k + 1 < piece.size() && piece[k + 1] == piece[k]) ++k;
          }
          piece = std::move(unescaped);
        }
        if (!store_.Spend(piece.size())) return kUnknown;
        if (eager_) pieces.push_back(Ev{store_.Str(piece), c});
        text += piece;
        link += piece;
        if (!piece.empty()) ++parts;
        break;
      }
      case N::kInterpolation: {
        VId part = Eval(g_.Field(c, g_.f_expression));
        bool plain =
            ts_node_is_null(g_.Field(c, g_.f_format_specifier)) && ts_node_is_null(g_.Field(c, g_.f_type_conversion));
        ++parts;
        only = plain ? part : kUnbound;
        if (eager_) {
          pieces.push_back(Ev{plain ? part : kUnknown, c});
          VK k = store_.Kind(part);
          foreign = foreign || (plain && (k == VK::kForeign || k == VK::kQual));
        }
        const Value& x = V(part);
        if (x.scalar() && plain) {
          text += PyText(x);
          link += PyText(x);
        } else if (x.kind == VK::kEndpointRef) {
          known = false;
          linked = true;
          link += kLinkMark + objects_[x.ref].key + kLinkMark;
        } else if (x.kind == VK::kOpaque && !x.link.empty()) {
          known = false;
          linked = true;
          link += x.link;
        } else {
          known = false;
          link += kUnknownText;
        }
        break;
      }
      default:
        break;
    }
    if (text.size() > Store::kMaxString) return kUnknown;
  }
  if (known) return store_.Str(text);
  if (foreign || (eager_ && !text.empty())) {
    // A library value inside an f-string (a CDK attribute), or a program's
    // known text around an unknown part: the library's to join.
    VId joined = kUnknown;
    for (Library* lib : libraries_) {
      if (lib->Join(*this, pieces, &joined)) return joined;
    }
  }
  // f"{name}" is the (string) value of `name` itself: it keeps its identity.
  if (parts == 1 && only != kUnbound && store_.Kind(only) == VK::kOpaque) return only;
  if (!linked) return kUnknown;
  Value v;
  v.kind = VK::kOpaque;
  v.link = std::move(link);
  return store_.New(std::move(v));
}

VId Analyzer::NumberValue(TSNode n) {
  std::string text;
  for (char c : T(n)) {
    if (c != '_') text += c;
  }
  if (text.empty()) return kUnknown;
  char last = text.back();
  if (last == 'j' || last == 'J') return kUnknown;
  if (last == 'l' || last == 'L') text.pop_back();
  if (g_.Kind(n) == N::kInteger && text.size() > 2 && text[0] == '0' &&
      (text[1] == 'x' || text[1] == 'X' || text[1] == 'o' || text[1] == 'O' || text[1] == 'b' || text[1] == 'B')) {
    int base = (text[1] == 'x' || text[1] == 'X') ? 16 : (text[1] == 'o' || text[1] == 'O') ? 8 : 2;
    long long v = 0;
    auto [p, ec] = std::from_chars(text.data() + 2, text.data() + text.size(), v, base);
    if (ec != std::errc() || p != text.data() + text.size()) return kUnknown;
    text = std::to_string(v);
  }
  return store_.Num(text);
}

VId Analyzer::Arith(std::string_view op, VId a, VId b) {
  const Value& x = V(a);
  const Value& y = V(b);
  if (x.kind != VK::kNum || y.kind != VK::kNum) return kUnknown;
  if (IsInteger(x.text) && IsInteger(y.text) && op != "/") {
    long long p = 0, q = 0;
    std::from_chars(x.text.data(), x.text.data() + x.text.size(), p);
    std::from_chars(y.text.data(), y.text.data() + y.text.size(), q);
    long long r = 0;
    bool ok = true;
    if (op == "+")
      ok = !__builtin_add_overflow(p, q, &r);
    else if (op == "-")
      ok = !__builtin_sub_overflow(p, q, &r);
    else if (op == "*")
      ok = !__builtin_mul_overflow(p, q, &r);
    else if (op == "//" && q != 0)
      r = p / q - ((p % q != 0) && ((p < 0) != (q < 0)) ? 1 : 0);
    else if (op == "%" && q != 0)
      r = ((p % q) + q) % q;
    else if (op == "**" && q >= 0 && q < 64) {
      r = 1;
      for (long long i = 0; i < q && ok; ++i) ok = !__builtin_mul_overflow(r, p, &r);
    } else
      ok = false;
    return ok ? store_.Num(std::to_string(r)) : kUnknown;
  }
  double p = std::strtod(x.text.c_str(), nullptr), q = std::strtod(y.text.c_str(), nullptr), r = 0;
  if (op == "+")
    r = p + q;
  else if (op == "-")
    r = p - q;
  else if (op == "*")
    r = p * q;
  else if (op == "/" && q != 0)
    r = p / q;
  else if (op == "//" && q != 0)
    r = std::floor(p / q);
  else if (op == "**")
    r = std::pow(p, q);
  else
    return kUnknown;
  if (!std::isfinite(r)) return kUnknown;
  return store_.Num(FormatDouble(r));
}

VId Analyzer::Binary(TSNode n) {
  VId a = Eval(g_.Field(n, g_.f_left));
  VId b = Eval(g_.Field(n, g_.f_right));
  std::string_view op = T(g_.Field(n, g_.f_operator));
  if (op == "+") return Concat(a, b);
  if (op == "%" && store_.Kind(a) == VK::kStr) return Percent(a, b);
  if (op == "|" && store_.Kind(a) == VK::kDict && store_.Kind(b) == VK::kDict) {
    VId copy = DictUpdate(a, b, nullptr);
    return copy;
  }
  if (store_.Kind(a) == VK::kOneOf || store_.Kind(b) == VK::kOneOf) return kUnknown;
  return Arith(op, a, b);
}

// `a + b`: strings, numbers, lists; conditional operands give a conditional
// result; endpoint references survive in the link text.
VId Analyzer::Concat(VId a, VId b) {
  const Value& x = V(a);
  const Value& y = V(b);
  if (eager_ && (x.kind == VK::kForeign || y.kind == VK::kForeign || x.kind == VK::kQual || y.kind == VK::kQual)) {
    VId joined = kUnknown;
    std::vector<Ev> pieces{Ev{a, {}}, Ev{b, {}}};
    for (Library* lib : libraries_) {
      if (lib->Join(*this, pieces, &joined)) return joined;
    }
    if (x.kind == VK::kForeign || y.kind == VK::kForeign) return kUnknown;
  }
  if (x.kind == VK::kOneOf || y.kind == VK::kOneOf) {
    std::vector<Alt> xs = x.kind == VK::kOneOf ? x.alts : std::vector<Alt>{{std::string(), Ev{a, {}}}};
    std::vector<Alt> ys = y.kind == VK::kOneOf ? y.alts : std::vector<Alt>{{std::string(), Ev{b, {}}}};
    if (xs.size() * ys.size() > Store::kMaxAlts) return kUnknown;
    std::vector<Alt> out;
    for (const Alt& p : xs) {
      for (const Alt& q : ys) {
        std::string cond = p.cond.empty() ? q.cond : q.cond.empty() ? p.cond : p.cond + " and " + q.cond;
        out.push_back({cond, Ev{Concat(p.value.v, q.value.v), {}}});
      }
    }
    return store_.OneOf(std::move(out));
  }
  if (x.kind == VK::kStr && y.kind == VK::kStr) {
    if (x.text.size() + y.text.size() > Store::kMaxString || !store_.Spend(x.text.size() + y.text.size())) {
      return kUnknown;
    }
    return store_.Str(x.text + y.text);
  }
  if (x.kind == VK::kNum && y.kind == VK::kNum) return Arith("+", a, b);
  if (x.kind == VK::kList && y.kind == VK::kList) {
    if (x.items.size() + y.items.size() > Store::kMaxItems) return kUnknown;
    Value l;
    l.kind = VK::kList;
    l.complete = x.complete && y.complete;
    l.items = x.items;
    l.items.insert(l.items.end(), y.items.begin(), y.items.end());
    return store_.New(std::move(l));
  }
  auto link_of = [&](const Value& v, std::string* out) {
    if (v.kind == VK::kStr)
      *out += v.text;
    else if (v.kind == VK::kEndpointRef)
      *out += kLinkMark + objects_[v.ref].key + kLinkMark;
    else if (v.kind == VK::kOpaque && !v.link.empty())
      *out += v.link;
    else
      return false;
    return true;
  };
  bool x_link = x.kind == VK::kEndpointRef || (x.kind == VK::kOpaque && !x.link.empty());
  bool y_link = y.kind == VK::kEndpointRef || (y.kind == VK::kOpaque && !y.link.empty());
  if (x_link || y_link) {
    std::string link;
    if (!link_of(x, &link)) link += kUnknownText;
    if (!link_of(y, &link)) link += kUnknownText;
    if (link.size() > Store::kMaxString) return kUnknown;
    Value v;
    v.kind = VK::kOpaque;
    v.link = std::move(link);
    return store_.New(std::move(v));
  }
  return kUnknown;
}

VId Analyzer::Percent(VId fmt, VId args) {
  const Value& f = V(fmt);
  const Value& a = V(args);
  std::vector<VId> values;
  if (a.kind == VK::kList) {
    if (!a.complete) return kUnknown;
    for (const Ev& e : a.items) values.push_back(e.v);
  } else {
    values.push_back(args);
  }
  std::string out;
  size_t next = 0;
  for (size_t i = 0; i < f.text.size(); ++i) {
    if (f.text[i] != '%') {
      out += f.text[i];
      continue;
    }
    if (i + 1 >= f.text.size()) return kUnknown;
    char spec = f.text[++i];
    if (spec == '%') {
      out += '%';
      continue;
    }
    if (spec != 's' && spec != 'd' && spec != 'i') return kUnknown;
    if (next >= values.size()) return kUnknown;
    const Value& v = V(values[next++]);
    if (!v.scalar()) return kUnknown;
    if (spec != 's' && v.kind != VK::kNum) return kUnknown;
    out += PyText(v);
    if (out.size() > Store::kMaxString) return kUnknown;
  }
  if (next != values.size()) return kUnknown;
  return store_.Str(out);
}

// "ml.{}.{size}".format(...): positional and named fields without format specs.
VId Analyzer::Format(VId fmt, const Args& args) {
  const Value& f = V(fmt);
  if (args.unknown_spread) return kUnknown;
  std::string out;
  size_t auto_index = 0;
  std::vector<Ev> pieces;  // a program run: text and values, when a value is not text
  size_t mark = 0;         // where the text after the last such value starts in `out`
  for (size_t i = 0; i < f.text.size(); ++i) {
    char c = f.text[i];
    if (c == '}' && i + 1 < f.text.size() && f.text[i + 1] == '}') {
      out += '}';
      ++i;
      continue;
    }
    if (c != '{') {
      out += c;
      continue;
    }
    if (i + 1 < f.text.size() && f.text[i + 1] == '{') {
      out += '{';
      ++i;
      continue;
    }
    size_t close = f.text.find('}', i);
    if (close == std::string::npos) return kUnknown;
    std::string field = f.text.substr(i + 1, close - i - 1);
    i = close;
    if (field.find_first_of(":!.[") != std::string::npos) return kUnknown;
    VId v = kUnknown;
    if (field.empty()) {
      if (auto_index >= args.positional.size()) return kUnknown;
      v = args.positional[auto_index++].v;
    } else if (IsInteger(field)) {
      size_t k = std::strtoul(field.c_str(), nullptr, 10);
      if (k >= args.positional.size()) return kUnknown;
      v = args.positional[k].v;
    } else {
      bool found = false;
      for (const auto& [name, e] : args.keywords) {
        if (name == field) {
          v = e.v;
          found = true;
        }
      }
      if (!found) return kUnknown;
    }
    const Value& x = V(v);
    if (!x.scalar()) {
      // A program run: the library joins the known text and what it cannot know.
      if (!eager_) return kUnknown;
      pieces.push_back(Ev{store_.Str(out.substr(mark)), {}});
      pieces.push_back(Ev{v, {}});
      mark = out.size();
      continue;
    }
    out += PyText(x);
    if (out.size() > Store::kMaxString) return kUnknown;
  }
  if (pieces.empty()) return store_.Str(out);
  pieces.push_back(Ev{store_.Str(out.substr(mark)), {}});
  VId joined = kUnknown;
  for (Library* lib : libraries_) {
    if (lib->Join(*this, pieces, &joined)) return joined;
  }
  return kUnknown;
}

VId Analyzer::Subscript(VId container, VId key) {
  const Value& c = V(container);
  const Value& k = V(key);
  if (c.kind == VK::kOpaque && c.aux == "globals:") {
    VId v = k.kind == VK::kStr ? GlobalValue(k.text) : kUnbound;
    return v == kUnbound ? kUnknown : v;
  }
  if (c.kind == VK::kOpaque && c.aux == "step:") return container;  // a step output's item: still that step
  if (c.kind == VK::kOpaque && !c.aux.empty()) {
    // What list_endpoints() returned, by a key: still the listed endpoints;
    // by a position: one of them.
    if (c.aux.starts_with("endpoints:")) return k.kind == VK::kStr ? container : kUnknown;
    // A file's content read by keys: a name shared through that file.
    if (c.aux.starts_with("name:file:") && k.kind == VK::kStr) {
      std::string shared = c.aux.substr(5) + (c.aux.find('#') == std::string::npos ? "#" : "/") + k.text;
      return SharedValue(shared);
    }
    return kUnknown;
  }
  if (c.kind == VK::kDict && k.scalar()) {
    for (const Entry& e : c.entries) {
      if (e.key == k.text) return e.value.v;
    }
    return kUnknown;
  }
  if (c.kind == VK::kList && c.complete && k.kind == VK::kNum && IsInteger(k.text)) {
    long long i = std::strtoll(k.text.c_str(), nullptr, 10);
    long long size = static_cast<long long>(c.items.size());
    if (i < 0) i += size;
    if (i < 0 || i >= size) return kUnknown;
    return c.items[static_cast<size_t>(i)].v;
  }
  if (c.kind == VK::kOneOf) {
    std::vector<Alt> alts = c.alts;
    for (Alt& a : alts) a.value = Ev{Subscript(a.value.v, key), {}};
    return store_.OneOf(std::move(alts));
  }
  return kUnknown;
}

VId Analyzer::DictSet(VId dict, const std::string& key, Ev value) {
  Value d = V(dict);
  for (Entry& e : d.entries) {
    if (e.key == key) {
      e.value = value;
      return store_.New(std::move(d));
    }
  }
  if (d.entries.size() >= Store::kMaxItems) return kUnknown;
  d.entries.push_back({key, value});
  return store_.New(std::move(d));
}

VId Analyzer::DictDel(VId dict, const std::string& key) {
  Value d = V(dict);
  d.entries.erase(std::remove_if(d.entries.begin(), d.entries.end(), [&](const Entry& e) { return e.key == key; }),
                  d.entries.end());
  return store_.New(std::move(d));
}

// d.update(other, **kw) / d | other.
VId Analyzer::DictUpdate(VId dict, VId other, const Args* kw) {
  Value d = V(dict);
  auto put = [&](const std::string& key, Ev e) {
    for (Entry& x : d.entries) {
      if (x.key == key) {
        x.value = e;
        return;
      }
    }
    if (d.entries.size() < Store::kMaxItems)
      d.entries.push_back({key, e});
    else
      d.complete = false;
  };
  if (other != kUnbound) {
    const Value& o = V(other);
    if (o.kind == VK::kDict) {
      std::vector<Entry> entries = o.entries;
      if (!o.complete) d.complete = false;
      for (const Entry& e : entries) put(e.key, e.value);
    } else {
      d.complete = false;  // keys we cannot see
    }
  }
  if (kw) {
    if (kw->unknown_spread) d.complete = false;
    for (const auto& [k, e] : kw->keywords) put(k, e);
  }
  return store_.New(std::move(d));
}

VId Analyzer::Incomplete(VId container) {
  const Value& c = V(container);
  if (c.kind != VK::kDict && c.kind != VK::kList && c.kind != VK::kHelper) return kUnknown;
  if (!c.complete) return container;
  Value d = c;
  d.complete = false;
  return store_.New(std::move(d));
}

VId Analyzer::Compare(TSNode n) {
  std::vector<VId> operands;
  std::vector<std::string> ops;
  uint32_t count = ts_node_child_count(n);
  std::string pending;
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    if (ts_node_is_named(c)) {
      if (g_.Kind(c) == N::kComment) continue;
      if (!operands.empty()) ops.push_back(pending);
      pending.clear();
      operands.push_back(Eval(c));
    } else {
      if (!pending.empty()) pending += ' ';
      pending += std::string(T(c));
    }
  }
  if (operands.size() < 2 || ops.size() != operands.size() - 1) return kUnknown;
  bool all = true;
  for (size_t i = 0; i < ops.size(); ++i) {
    const std::string& op = ops[i];
    VId a = operands[i], b = operands[i + 1];
    std::optional<bool> r;
    if (op == "==" || op == "is")
      r = Equal(store_, a, b);
    else if (op == "!=" || op == "is not" || op == "<>") {
      r = Equal(store_, a, b);
      if (r) r = !*r;
    } else if (op == "in" || op == "not in") {
      const Value& x = V(a);
      const Value& y = V(b);
      if (x.scalar() && y.kind == VK::kStr && x.kind == VK::kStr)
        r = y.text.find(x.text) != std::string::npos;
      else if (x.scalar() && y.kind == VK::kList) {
        bool found = false, unknown = !y.complete;
        for (const Ev& item : y.items) {
          auto e = Equal(store_, a, item.v);
          if (!e)
            unknown = true;
          else if (*e)
            found = true;
        }
        if (found)
          r = true;
        else if (!unknown)
          r = false;
      } else if (x.scalar() && y.kind == VK::kDict) {
        bool found = false;
        for (const Entry& e : y.entries) found = found || e.key == x.text;
        if (found)
          r = true;
        else if (y.complete)
          r = false;
      }
      if (r && op == "not in") r = !*r;
    } else if (op == "<" || op == ">" || op == "<=" || op == ">=") {
      const Value& x = V(a);
      const Value& y = V(b);
      if (x.kind == VK::kNum && y.kind == VK::kNum) {
        double p = std::strtod(x.text.c_str(), nullptr), q = std::strtod(y.text.c_str(), nullptr);
        r = op == "<" ? p < q : op == ">" ? p > q : op == "<=" ? p <= q : p >= q;
      }
    }
    if (!r) return kUnknown;
    all = all && *r;
  }
  return store_.Bool(all);
}

// ---- same-file helpers, one call deep -------------------------------------------

// A function defined in the file runs at a call from module-level code as
// the call is met, with that call's arguments: the workloads it makes are
// the call's, and what it returns is the call's value. Methods, generators,
// @remote functions and calls made inside a helper are not run this way.
bool Analyzer::Inlinable(int fn) const {
  const Function& f = functions_[fn];
  if (literal_ || inlining_ > 0 || in_function_ || f.method || f.remote >= 0) return false;
  TSNode body = g_.Field(f.def, g_.f_body);
  if (ts_node_is_null(body)) return false;
  std::string_view text = T(body);
  if (text.find("yield") != std::string_view::npos) return false;  // a generator: its body runs later
  // A body that names nothing SageMaker runs here only if it is small and returns something.
  if (!Relevant(body)) return text.size() <= 2000 && text.find("return") != std::string_view::npos;
  return true;
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
    if (v == kUnknown || v == kUnbound)
      v = store_.Opaque();
    else
      v = store_.WithOrigin(v, "parameter " + std::string(p.name));
    Bind(p.name, v);
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
  run_ = static_cast<int>(run_args_.size());
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
  size_t first_object = objects_.size();
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
  // `m = build_model(...)`: an object the helper made and returns is named at the call.
  if (!target.empty() && store_.Kind(result) == VK::kObject && static_cast<size_t>(V(result).ref) >= first_object) {
    Object& made = objects_[V(result).ref];
    made.helper_var = made.var;
    made.var = target == "_" ? std::string() : target;
  }
  return result;
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

void Analyzer::DeadDeletes(TSNode block, const std::string& why) {
  if (literal_ || ts_node_is_null(block) || expect_failure_ > 0) return;
  TSTreeCursor cursor = ts_tree_cursor_new(block);
  int visited = 0;
  while (++visited < 100000) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (g_.Kind(n) == N::kCall) {
      TSNode fn = g_.Field(n, g_.f_function);
      if (g_.Kind(fn) == N::kAttribute) {
        std::string_view method = T(g_.Field(fn, g_.f_attribute));
        if (IsDeleteMethod(method)) {
          VId recv = PureEval(g_.Field(fn, g_.f_object));
          const Value& r = V(recv);
          VId target = kUnbound;
          if (r.kind == VK::kObject && objects_[r.ref].kind == ObjKind::kPredictor) {
            target = recv;
          } else if (method == "delete_endpoint") {
            target = kUnknown;
            for (TSNode a : Kids(g_.Field(n, g_.f_arguments))) {
              if (g_.Kind(a) == N::kKeywordArgument) {
                std::string_view k = T(g_.Field(a, g_.f_name));
                if (k == "EndpointName" || k == "endpoint_name") target = PureEval(g_.Field(a, g_.f_value));
              } else if (g_.Kind(a) != N::kComment && target == kUnknown) {
                target = PureEval(a);
              }
            }
          }
          if (target != kUnbound) {
            Delete d = MakeDelete(target, n);
            d.dead = why;
            d.order = order_;
            deletes_.push_back(std::move(d));
          }
        }
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
// only by that shared name ("%store:<workflow>:NAME"), which a deploy whose
// endpoint name was stored under it also carries (SM213, SM211).
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
