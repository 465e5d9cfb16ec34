// The TypeScript/JavaScript evaluator of CDK apps (docs/architecture.md "CDK apps"): runs the entry
// file and the files it imports within the scan root, parsed with the
// TypeScript grammar, and records the constructs the app creates, the
// methods it calls on them and its stacks (parsers/cdk/app.h).
//
// It is a small interpreter of what CDK apps are written with: declarations,
// literals, template strings, objects and arrays (spread, shorthand),
// `??`/`||`/`&&`, ternaries, classes with constructors run with the caller's
// arguments, functions, destructuring with defaults, `this.x = …`, imports,
// `require`, JSON configuration files and `tryGetContext`. A value it cannot
// know is unknown; both branches of an unknown condition run. Files, steps
// and call depth are bounded; past a bound evaluation stops with a budget
// entry.
#include <tree_sitter/api.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/paths.h"
#include "parsers/aws/request.h"
#include "parsers/cdk/app.h"
#include "parsers/cdk/typescript/value.h"
#include "parsers/common/base64.h"
#include "parsers/common/escapes.h"
#include "parsers/common/tree_sitter.h"

extern "C" const TSLanguage* tree_sitter_typescript(void);

namespace sagelint::cdk {
namespace typescript {
namespace {

namespace fs = std::filesystem;
using K = Value::K;

constexpr size_t kMaxFiles = 200;
constexpr size_t kMaxFileBytes = 1u << 20;
constexpr long kMaxSteps = 500'000;
constexpr int kMaxCallDepth = 48;
constexpr int kMaxExprDepth = 300;
constexpr size_t kMaxLoop = 256;
constexpr size_t kMaxString = 2u << 20;  // a computed string longer than this is unknown
// One value handed over: its nesting and its size (a value may refer to itself).
constexpr int kMaxNodeDepth = 64;
constexpr long kMaxNodes = 20'000;

// Past this many names in scope, an `if` on an unknown condition runs its
// branches one after the other without comparing them (the last assignment wins).
constexpr size_t kMaxMergedNames = 4096;

// Two values the same: the same scalar, or the same object, construct, function.
bool SameBinding(const Value& a, const Value& b, int depth = 0) {
  if (a.k != b.k || a.text != b.text || a.index != b.index || a.obj != b.obj || a.fn != b.fn || a.cls != b.cls ||
      a.node != b.node || a.path != b.path || a.items.size() != b.items.size() || depth > 8) {
    return false;
  }
  for (size_t i = 0; i < a.items.size(); ++i) {
    if (!SameBinding(a.items[i], b.items[i], depth + 1)) return false;
  }
  return a.k != Value::K::kUnknown;
}

// The named children of `n`, read once with a cursor: ts_node_named_child(n, i)
// walks the siblings before i, so indexing them in a loop is quadratic in the
// node's width (a 160 KB run of unclosed object literals).
std::vector<TSNode> NamedChildren(TSNode n) {
  std::vector<TSNode> out;
  TSTreeCursor c = ts_tree_cursor_new(n);
  if (ts_tree_cursor_goto_first_child(&c)) {
    do {
      TSNode x = ts_tree_cursor_current_node(&c);
      if (ts_node_is_named(x)) out.push_back(x);
    } while (ts_tree_cursor_goto_next_sibling(&c));
  }
  ts_tree_cursor_delete(&c);
  return out;
}

struct File {
  std::string abs;  // canonical absolute path
  std::string text;
  ts::Tree tree;
  int index = 0;
  bool done = false;
  std::shared_ptr<Obj> exports = std::make_shared<Obj>();
  Value module_exports;  // `module.exports = …` (kUndefined when not assigned)
  std::shared_ptr<Scope> scope = std::make_shared<Scope>();
};

// What a running function sees.
struct Frame {
  int file = 0;
  Value self;                   // `this`
  std::shared_ptr<Class> home;  // the class whose method runs (for `super`)
  Value ret;
  bool returned = false;
};

Value Unknown(SourcePos at = {}, int file = kOutsideFile) {
  Value v;
  v.pos = at;
  v.file = file;
  return v;
}

bool IsTestPath(std::string_view rel) {
  std::string r = "/" + std::string(rel);
  if (r.find("/test/") != std::string::npos || r.find("/tests/") != std::string::npos ||
      r.find("/__tests__/") != std::string::npos) {
    return true;
  }
  for (std::string_view suf : {".test.ts", ".test.js", ".spec.ts", ".spec.js", ".test.tsx", ".spec.tsx"}) {
    if (r.size() >= suf.size() && r.compare(r.size() - suf.size(), suf.size(), suf) == 0) return true;
  }
  return false;
}

std::string NumText(double d) {
  if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) < 1e15) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.0f", d);
    return buf;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.17g", d);
  return buf;
}

bool ParseNum(const std::string& s, double* out) {
  if (s.empty()) return false;
  try {
    size_t used = 0;
    std::string t;
    for (char c : s)
      if (c != '_') t += c;
    double d;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
      d = static_cast<double>(std::stoll(t.substr(2), &used, 16));
      used += 2;
    } else {
      d = std::stod(t, &used);
    }
    if (used != t.size()) return false;
    *out = d;
    return true;
  } catch (...) {
    return false;
  }
}

// The text of a string literal node, its escapes decoded.
std::string StringText(TSNode n, std::string_view src) {
  std::string_view raw = ts::Text(n, src);
  if (raw.size() < 2) return "";
  return DecodeEscapes(raw.substr(1, raw.size() - 2));
}

class Evaluator {
 public:
  explicit Evaluator(const AppInput& in) : in_(in) {
    if (in.opts && !in.opts->root.empty()) root_ = in.opts->files->WeaklyCanonical(in.opts->root).value_or("");
  }

  // Values refer to each other in cycles (a class in a scope closes over
  // that scope; `this.self = this`): when the evaluation is over, every scope
  // and object it made is emptied, so the cycles free.
  ~Evaluator() {
    for (const auto& w : scopes_) {
      if (auto sc = w.lock()) sc->vars.clear();
    }
    for (const auto& w : objects_) {
      if (auto o = w.lock()) o->Clear();
    }
    for (const auto& f : files_) {
      f->exports->Clear();
      f->scope->vars.clear();
      f->module_exports = Value{};
    }
  }

  App Run() {
    const SourceFile& e = in_.entry;
    std::string abs = e.abs_path.empty() ? e.path : e.abs_path;
    std::string canon = Files().WeaklyCanonical(abs).value_or(abs);
    app_.files.push_back(e);
    auto f = std::make_unique<File>();
    f->abs = canon;
    f->text = e.text;
    if (f->text.compare(0, 3, "\xEF\xBB\xBF") == 0) f->text.replace(0, 3, "   ");
    f->module_exports.k = K::kUndefined;
    by_path_[canon] = 0;
    files_.push_back(std::move(f));
    // The app's working directory: the nearest directory up from the entry with a cdk.json.
    fs::path dir = fs::path(canon).parent_path();
    cwd_ = dir.string();
    for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
      if (!Inside(d.string())) break;
      if (Files().IsRegularFile((d / "cdk.json").string())) {
        cwd_ = d.string();
        break;
      }
      if (d == d.parent_path()) break;
    }
    LoadModule(0);
    return std::move(app_);
  }

 private:
  std::shared_ptr<Obj> NewObj() {
    auto o = std::make_shared<Obj>();
    objects_.push_back(o);
    return o;
  }
  std::shared_ptr<Scope> NewScope() {
    auto sc = std::make_shared<Scope>();
    scopes_.push_back(sc);
    return sc;
  }

  const FileSource& Files() const { return in_.opts ? *in_.opts->files : DiskFiles(); }

  bool Inside(const std::string& canonical) const {
    return root_.empty() ? false : PathBelow(canonical, root_).has_value();
  }

  // ---- budgets ----------------------------------------------------------

  bool Spent() const { return stopped_; }
  void Stop(int file, SourcePos at, const std::string& why) {
    if (stopped_) return;
    stopped_ = true;
    app_.budgets.push_back({file < 0 ? 0 : file, ParseError{why, at.valid() ? at : SourcePos{1, 1}}});
  }
  bool Step(TSNode n) {
    if (stopped_) return false;
    if (++steps_ > kMaxSteps) {
      Stop(frame_->file, ts::Start(n), "CDK app evaluation stopped after " + std::to_string(kMaxSteps) + " steps");
      return false;
    }
    return true;
  }

  // ---- files and modules -----------------------------------------------

  std::string_view Src(int file) const { return files_[file]->text; }
  std::string_view T(TSNode n) const { return ts::Text(n, Src(frame_->file)); }

  // Parses file `index` (once) and runs its top level.
  void LoadModule(int index) {
    File& f = *files_[index];
    if (f.done) return;
    f.done = true;
    f.tree = ts::Parse(tree_sitter_typescript(), f.text);
    if (!f.tree) {
      app_.errors.push_back({index, ParseError{"parsing took too long; file skipped", {1, 1}}});
      return;
    }
    TSNode root = ts_tree_root_node(f.tree.get());
    if (auto err = ts::FirstError(root, f.text)) app_.errors.push_back({index, ParseError{err->message, err->pos}});
    Frame fr;
    fr.file = index;
    fr.self.k = K::kUndefined;
    Frame* saved = frame_;
    frame_ = &fr;
    Hoist(root, f.scope);
    ExecStatements(root, f.scope);
    frame_ = saved;
  }

  // A relative import of the app: the file it names, read and run; nullopt
  // when it is outside the root, a test file, missing, or past the bound.
  std::optional<int> ImportFile(const std::string& spec, SourcePos at) {
    fs::path base = fs::path(files_[frame_->file]->abs).parent_path();
    fs::path p = (base / spec).lexically_normal();
    std::vector<std::string> candidates;
    std::string s = p.string();
    // Compiled `.js` names in TypeScript imports stand for the `.ts` file.
    if (s.size() > 3 && s.ends_with(".js")) candidates.push_back(s.substr(0, s.size() - 3) + ".ts");
    candidates.push_back(s);
    for (std::string_view ext : {".ts", ".tsx", ".js", ".mjs", ".cjs", "/index.ts", "/index.js"})
      candidates.push_back(s + std::string(ext));
    for (const std::string& c : candidates) {
      auto canon = Files().WeaklyCanonical(c);
      if (!canon || !Files().IsRegularFile(*canon)) continue;
      auto rel = root_.empty() ? std::nullopt : PathBelow(*canon, root_);
      if (!rel) {
        app_.notes.push_back(
            {frame_->file, ParseError{"import '" + spec + "' is outside the scan root; not read", at}});
        return std::nullopt;
      }
      if (IsTestPath(*rel)) return std::nullopt;
      auto it = by_path_.find(*canon);
      if (it != by_path_.end()) return it->second;
      if (canon->ends_with(".json")) return std::nullopt;
      if (files_.size() >= kMaxFiles) {
        Stop(frame_->file, at, "CDK app has more than " + std::to_string(kMaxFiles) + " files; the rest not read");
        return std::nullopt;
      }
      std::string text, error;
      if (!Files().Read(*canon, kMaxFileBytes, &text, &error)) {
        app_.notes.push_back({frame_->file, ParseError{"import '" + spec + "' not read: " + error, at}});
        return std::nullopt;
      }
      int index = static_cast<int>(files_.size());
      auto f = std::make_unique<File>();
      f->abs = *canon;
      f->text = std::move(text);
      f->module_exports.k = K::kUndefined;
      SourceFile sf;
      sf.abs_path = *canon;
      sf.path = DisplayPath(*canon);
      sf.root_path = *rel;
      sf.text = f->text;
      if (f->text.compare(0, 3, "\xEF\xBB\xBF") == 0) f->text.replace(0, 3, "   ");
      app_.files.push_back(std::move(sf));
      by_path_[*canon] = index;
      files_.push_back(std::move(f));
      if (++depth_ > kMaxCallDepth) {
        --depth_;
        Stop(frame_->file, at, "CDK app imports nest deeper than " + std::to_string(kMaxCallDepth) + " files");
        return std::nullopt;
      }
      LoadModule(index);
      --depth_;
      return index;
    }
    return std::nullopt;
  }

  Value ModuleValue(int index) {
    File& f = *files_[index];
    if (f.module_exports.k != K::kUndefined) return f.module_exports;
    Value v;
    v.k = K::kObject;
    v.obj = f.exports;
    return v;
  }

  // A JSON file of the scan root read as a value.
  Value ReadJson(const std::string& path, SourcePos at) {
    fs::path p = path;
    if (p.is_relative()) p = fs::path(cwd_) / p;
    auto canon = Files().WeaklyCanonical(p.lexically_normal().string());
    if (!canon || !Inside(*canon)) return Unknown(at, frame_->file);
    std::string text, error;
    if (!Files().Read(*canon, kMaxFileBytes, &text, &error)) return Unknown(at, frame_->file);
    return ParseJson(text, at);
  }

  Value ParseJson(const std::string& text, SourcePos at) {
    cfn::Node doc;
    std::vector<cfn::LoadError> errors;
    if (!cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors)) return Unknown(at, frame_->file);
    return FromNode(doc, 0);
  }

  Value FromNode(const cfn::Node& n, int depth) {
    Value v;
    v.file = kOutsideFile;
    if (depth > kMaxExprDepth) return v;
    switch (n.kind) {
      case cfn::Node::Kind::kNull:
        v.k = K::kNull;
        break;
      case cfn::Node::Kind::kScalar: {
        double d;
        if (n.quoted) {
          v.k = K::kStr;
        } else if (n.text == "true" || n.text == "false") {
          v.k = K::kBool;
        } else if (n.text == "null" || n.text == "~") {
          v.k = K::kNull;
        } else if (ParseNum(n.text, &d)) {
          v.k = K::kNum;
        } else {
          v.k = K::kStr;
        }
        v.text = n.text;
        break;
      }
      case cfn::Node::Kind::kMap:
        v.k = K::kObject;
        v.obj = NewObj();
        for (const auto& e : n.entries) v.obj->Set(e.first, FromNode(e.second, depth + 1));
        break;
      case cfn::Node::Kind::kSeq:
        v.k = K::kObject;
        v.obj = NewObj();
        v.obj->array = true;
        for (size_t i = 0; i < n.items.size(); ++i) v.obj->Set(std::to_string(i), FromNode(n.items[i], depth + 1));
        break;
    }
    return v;
  }

  // ---- statements --------------------------------------------------------

  // Function declarations and classes of a block, declared before it runs.
  // Each statement looked at is a step of the file's budget.
  void Hoist(TSNode block, const std::shared_ptr<Scope>& scope) {
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

  void ExecStatements(TSNode block, const std::shared_ptr<Scope>& scope) {
    for (TSNode s : NamedChildren(block)) {
      if (frame_->returned || Spent()) return;
      Exec(s, scope);
    }
  }

  void Exec(TSNode s, const std::shared_ptr<Scope>& scope) {
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

  void ExecImpl(TSNode s, const std::shared_ptr<Scope>& scope) {
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
      // `enum Size { Small = 'ml.t3.medium', … }`: an object of its members
      // (numbered from 0 where no value is written).
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
    } else if (type == "function_declaration") {
      // hoisted
    } else if (type == "statement_block") {
      auto inner = NewScope();
      inner->parent = scope;
      Hoist(s, inner);
      ExecStatements(s, inner);
    } else if (type == "if_statement") {
      Value c = Eval(ts::Field(s, "condition"), scope);
      int truth = Truth(c);
      TSNode alt = ts::Field(s, "alternative");
      TSNode other = ts_node_is_null(alt) ? alt : ts_node_named_child(alt, 0);
      if (truth == 1) {
        Exec(ts::Field(s, "consequence"), scope);
      } else if (truth == 0) {
        if (!ts_node_is_null(other)) Exec(other, scope);
      } else {
        // Both branches run, each from the names and object fields as they were
        // before the `if`; a `return` in one does not end the other. A name or a
        // field the two paths leave different is unknown after it: neither
        // branch's value is the app's. A construct made in a branch is
        // conditional (Construct::conditions).
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
    } else if (type == "for_in_statement") {
      ForIn(s, scope);
    } else if (type == "for_statement" || type == "while_statement" || type == "do_statement") {
      // Run the body once, its loop variables unknown.
      auto inner = NewScope();
      inner->parent = scope;
      TSNode init = ts::Field(s, "initializer");
      if (!ts_node_is_null(init) &&
          (ts::Type(init) == "lexical_declaration" || ts::Type(init) == "variable_declaration")) {
        for (TSNode d : NamedChildren(init)) Bind(ts::Field(d, "name"), Unknown(), inner);
      }
      TSNode body = ts::Field(s, "body");
      ++open_loops_;
      if (!ts_node_is_null(body)) Exec(body, inner);
      --open_loops_;
      frame_->returned = false;
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

  void ForIn(TSNode s, const std::shared_ptr<Scope>& scope) {
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

  // ---- imports and exports ----------------------------------------------

  void Import(TSNode s, const std::shared_ptr<Scope>& scope) {
    TSNode source = ts::Field(s, "source");
    for (TSNode c : NamedChildren(s)) {
      if (ts::Type(c) == "import_require_clause") {  // import x = require('y')
        TSNode name = ts_node_named_child(c, 0);
        TSNode src = ts::Field(c, "source");
        if (!ts_node_is_null(name) && !ts_node_is_null(src))
          scope->vars[std::string(T(name))] = Require(StringText(src, Src(frame_->file)), ts::Start(c));
      }
    }
    if (ts_node_is_null(source)) return;
    std::string spec = StringText(source, Src(frame_->file));
    Value mod = Require(spec, ts::Start(s));
    for (TSNode clause : NamedChildren(s)) {
      if (ts::Type(clause) != "import_clause") continue;
      for (TSNode c : NamedChildren(clause)) {
        std::string_view t = ts::Type(c);
        if (t == "identifier") {  // default import
          Value d = Member(mod, "default", false, ts::Start(c));
          if (d.k == K::kUndefined || d.k == K::kUnknown) {
            // CommonJS and JSON modules: the whole module.
            if (mod.k != K::kCdk && mod.k != K::kExternal) d = mod;
          }
          scope->vars[std::string(T(c))] = d;
        } else if (t == "namespace_import") {
          TSNode id = ts_node_named_child(c, 0);
          if (!ts_node_is_null(id)) scope->vars[std::string(T(id))] = mod;
        } else if (t == "named_imports") {
          for (TSNode spec_node : NamedChildren(c)) {
            if (ts::Type(spec_node) != "import_specifier") continue;
            TSNode name = ts::Field(spec_node, "name");
            TSNode alias = ts::Field(spec_node, "alias");
            std::string nm = ts::Type(name) == "string" ? StringText(name, Src(frame_->file)) : std::string(T(name));
            std::string local = ts_node_is_null(alias) ? nm : std::string(T(alias));
            scope->vars[local] = Member(mod, nm, false, ts::Start(spec_node));
          }
        }
      }
    }
  }

  // A module named only at run time (`require('../lib/' + name)`,
  // `import(name)`): what it defines is not read, and that is said at the
  // call (SM008, rules/SM008.md).
  void Unread(TSNode call, SourcePos at) { app_.unread.push_back({frame_->file, DynamicImport(T(call), at)}); }

  // What `require(spec)` / `import … from spec` gives.
  Value Require(const std::string& spec, SourcePos at) {
    if (spec.empty()) return Unknown(at, frame_->file);
    if (spec[0] == '.' || spec[0] == '/') {
      if (spec.ends_with(".json")) {
        fs::path p = fs::path(files_[frame_->file]->abs).parent_path() / spec;
        return ReadJson(p.lexically_normal().string(), at);
      }
      auto index = ImportFile(spec, at);
      if (!index) return Unknown(at, frame_->file);
      return ModuleValue(*index);
    }
    Value v;
    std::string mod = ModuleOf(spec);
    if (!mod.empty()) {
      v.k = K::kCdk;
      v.text = mod;
    } else {
      v.k = K::kExternal;
      v.text = spec.starts_with("node:") ? spec.substr(5) : spec;
    }
    return v;
  }

  void Export(TSNode s, const std::shared_ptr<Scope>& scope) {
    File& f = *files_[frame_->file];
    TSNode decl = ts::Field(s, "declaration");
    if (!ts_node_is_null(decl)) {
      Exec(decl, scope);
      std::string_view t = ts::Type(decl);
      if (t == "lexical_declaration" || t == "variable_declaration") {
        for (TSNode d : NamedChildren(decl)) {
          TSNode name = ts::Field(d, "name");
          if (!ts_node_is_null(name) && ts::Type(name) == "identifier") {
            std::string nm(T(name));
            if (Value* v = scope->Find(nm)) f.exports->Set(nm, *v);
          }
        }
      } else {
        TSNode name = ts::Field(decl, "name");
        if (!ts_node_is_null(name)) {
          std::string nm(T(name));
          if (Value* v = scope->Find(nm)) {
            f.exports->Set(nm, *v);
            if (T(s).starts_with("export default")) f.exports->Set("default", *v);  // export default class A {…}
          }
        }
      }
      return;
    }
    TSNode value = ts::Field(s, "value");
    if (!ts_node_is_null(value)) {  // export default <expression>
      f.exports->Set("default", Eval(value, scope));
      return;
    }
    TSNode source = ts::Field(s, "source");
    Value from;
    if (!ts_node_is_null(source)) from = Require(StringText(source, Src(frame_->file)), ts::Start(s));
    bool any_clause = false;
    for (TSNode c : NamedChildren(s)) {
      std::string_view t = ts::Type(c);
      if (t == "export_clause") {
        any_clause = true;
        for (TSNode sp : NamedChildren(c)) {
          TSNode name = ts::Field(sp, "name");
          TSNode alias = ts::Field(sp, "alias");
          if (ts_node_is_null(name)) continue;
          std::string nm(T(name));
          std::string as = ts_node_is_null(alias) ? nm : std::string(T(alias));
          if (!ts_node_is_null(source)) {
            f.exports->Set(as, Member(from, nm, false, ts::Start(sp)));
          } else if (Value* v = scope->Find(nm)) {
            f.exports->Set(as, *v);
          }
        }
      } else if (t == "namespace_export") {
        any_clause = true;
        TSNode id = ts_node_named_child(c, 0);
        if (!ts_node_is_null(id)) f.exports->Set(std::string(T(id)), from);
      } else if (t != "string" && t != "comment" && ts_node_is_null(source)) {
        // `export default class {…}` and the like, `export = x`.
        Value v = Eval(c, scope);
        if (T(s).starts_with("export default")) {
          f.exports->Set("default", v);
        } else {
          f.module_exports = v;
        }
        any_clause = true;
      }
    }
    if (!any_clause && !ts_node_is_null(source) && from.k == K::kObject && from.obj) {  // export * from './x'
      for (const auto& e : from.obj->fields)
        if (e.first != "default") f.exports->Set(e.first, e.second);
    }
  }

  // ---- patterns ----------------------------------------------------------

  void Bind(TSNode pattern, const Value& v, const std::shared_ptr<Scope>& scope) {
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

  std::string KeyName(TSNode key, const std::shared_ptr<Scope>& scope) {
    if (ts_node_is_null(key)) return "";
    std::string_view t = ts::Type(key);
    if (t == "string") return StringText(key, Src(frame_->file));
    if (t == "computed_property_name") {
      Value v = Eval(ts_node_named_child(key, 0), scope);
      return v.known_scalar() ? v.text : std::string();
    }
    return std::string(T(key));
  }

  void Assign(TSNode left, const Value& v, const std::shared_ptr<Scope>& scope) {
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
        if (made.size() < branch_conds_.size() ||
            !std::equal(branch_conds_.begin(), branch_conds_.end(), made.begin())) {
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

  // ---- branches of an unknown condition ------------------------------------

  // The condition as the code writes it, for the conditions of what a branch makes.
  std::string ConditionText(TSNode cond) {
    if (!ts_node_is_null(cond) && ts::Type(cond) == "parenthesized_expression" &&
        ts_node_named_child_count(cond) == 1) {
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
  void SetField(const std::shared_ptr<Obj>& obj, const std::string& k, const Value& v, SourcePos at) {
    if (!branch_conds_.empty()) {
      const Value* old = obj->Get(k);
      field_writes_.push_back({obj, k, old ? std::optional<Value>(*old) : std::nullopt});
    }
    obj->Set(k, v, at);
  }

  using Fields = std::map<std::pair<Obj*, std::string>, std::pair<std::shared_ptr<Obj>, std::optional<Value>>>;

  // Undoes the field writes logged since `mark`; returns the values they had left.
  Fields UndoFields(size_t mark) {
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
  void MergeFields(const std::string& cond, const Fields& then_fields, const Fields& else_fields) {
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

  static void Relocate(cfn::Node* n, SourcePos at) {
    n->pos = at;
    // Written elsewhere: no token here a fix may edit (docs/cdk.md "Fixes").
    n->end = {};
    n->offset = n->end_offset = 0;
    for (SourcePos& p : n->key_pos) p = at;
    for (auto& e : n->entries) Relocate(&e.second, at);
    for (auto& i : n->items) Relocate(&i, at);
  }

  // What a name or field holds after both branches of an unknown condition `cond`
  // left it `a` and `b`: that value when they are the same; two known scalars are
  // alternatives, `Fn::If` [cond, a, b] as CloudFormation writes them; else unknown.
  static Value Merged(const std::string& cond, const Value& a, const Value& b) {
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

  // ---- values ------------------------------------------------------------

  static int Truth(const Value& v) {  // 1 true, 0 false, -1 unknown
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

  static bool SameValue(const Value& a, const Value& b) {
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

  Value Str(std::string s, SourcePos at) {
    if (s.size() > kMaxString) return Unknown(at, frame_->file);  // `s = s + s` …
    Value v;
    v.k = K::kStr;
    v.text = std::move(s);
    v.pos = at;
    v.file = frame_->file;
    return v;
  }

  // A value used where `at` is in the current file: placed there when it comes from another file.
  Value Here(Value v, SourcePos at) {
    if (v.file != frame_->file) {
      v.file = frame_->file;
      v.pos = at;
      v.lit_end = 0;
    }
    return v;
  }

  Value Eval(TSNode n, const std::shared_ptr<Scope>& scope) {
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

  Value EvalImpl(TSNode n, const std::shared_ptr<Scope>& scope) {
    std::string_view t = ts::Type(n);
    SourcePos at = ts::Start(n);
    int file = frame_->file;
    auto make = [&](K k, std::string text) {
      Value v;
      v.k = k;
      v.text = std::move(text);
      v.pos = at;
      v.file = file;
      return v;
    };
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
    if (t == "ternary_expression") {
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
    if (t == "unary_expression") {
      TSNode op = ts::Field(n, "operator");
      Value a = Eval(ts::Field(n, "argument"), scope);
      std::string_view o = ts_node_is_null(op) ? "" : T(op);
      if (o == "!") {
        int truth = Truth(a);
        return truth < 0 ? Unknown(at, file) : make(K::kBool, truth ? "false" : "true");
      }
      if (o == "-" && a.k == K::kNum) {
        double d;
        if (ParseNum(a.text, &d)) return make(K::kNum, NumText(-d));
      }
      if (o == "+" && a.k == K::kNum) return a;
      if (o == "typeof" || o == "void" || o == "delete") return Unknown(at, file);
      return Unknown(at, file);
    }
    if (t == "assignment_expression") {
      Value v = Eval(ts::Field(n, "right"), scope);
      Assign(ts::Field(n, "left"), v, scope);
      return v;
    }
    if (t == "augmented_assignment_expression") {
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

  Value Identifier(TSNode n, const std::shared_ptr<Scope>& scope) {
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

  Value Template(TSNode n, const std::shared_ptr<Scope>& scope) {
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

  Value Add(const Value& l, const Value& r, SourcePos at) {
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
    if ((l.k == K::kStr || r.k == K::kStr || l.k == K::kJoin || r.k == K::kJoin || l.k == K::kAttr ||
         r.k == K::kAttr) &&
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

  Value Binary(TSNode n, const std::shared_ptr<Scope>& scope) {
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
  Value NewObject(bool array, SourcePos at) {
    Value v;
    v.k = K::kObject;
    v.obj = NewObj();
    v.obj->array = array;
    v.obj->file = frame_->file;
    v.pos = at;
    v.file = frame_->file;
    return v;
  }

  Value ObjectLiteral(TSNode n, const std::shared_ptr<Scope>& scope) {
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

  Value ArrayLiteral(TSNode n, const std::shared_ptr<Scope>& scope) {
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

  // `o.name`.
  Value Member(const Value& o, const std::string& name, bool optional, SourcePos at) {
    Value v = Unknown(at, frame_->file);
    switch (o.k) {
      case K::kUndefined:
      case K::kNull:
        if (optional) v.k = K::kUndefined;
        return v;
      case K::kObject: {
        if (!o.obj) return v;
        if (const Value* f = o.obj->Get(name)) return *f;
        if (o.obj->array && !o.obj->cls && name != "length") {
          Value m;
          m.k = K::kMethod;
          m.text = name;
          m.obj = o.obj;
          m.index = -3;  // an array method
          return m;
        }
        if (o.obj->array && name == "length" && o.obj->complete) {
          Value n = Str(std::to_string(o.obj->fields.size()), at);
          n.k = K::kNum;
          return n;
        }
        if (o.obj->cls) {
          // A method of the instance's class (or a base class); `node` of a construct.
          for (auto c = o.obj->cls; c;) {
            if (auto m = FindMethod(c, name)) {
              return FunctionValue(*m, c->file, c->scope, o, c);
            }
            c = c->base.k == K::kClass ? c->base.cls : nullptr;
          }
        }
        if ((o.obj->cls || o.obj->is_stack) && name == "toJsonString") {  // a stack's (Stack.toJsonString)
          Value m;
          m.k = K::kMethod;
          m.text = name;
          m.index = -4;
          return m;
        }
        if ((o.obj->cls || o.obj->is_app) && name == "node") {
          Value n;
          n.k = K::kNodeOf;
          n.obj = o.obj;
          return n;
        }
        if (o.obj->complete && !o.obj->cls && !o.obj->is_app) v.k = K::kUndefined;
        return v;
      }
      case K::kConstruct: {
        if (name == "node") {
          Value n;
          n.k = K::kNodeOf;
          n.index = o.index;
          return n;
        }
        bool attribute = name == "ref" || (name.size() > 4 && name.starts_with("attr") && std::isupper(name[4])) ||
                         name.ends_with("Arn") || name.ends_with("Name") || name.ends_with("Id") ||
                         name.starts_with("valueAs");  // a CfnParameter's value
        if (attribute) {
          v.k = K::kAttr;
          v.index = o.index;
          v.text = name;
          return v;
        }
        v.k = K::kMethod;
        v.index = o.index;
        v.text = name;
        return v;
      }
      case K::kClass:
        if (o.cls) return StaticMember(o.cls, name, at);
        return v;
      case K::kNodeOf: {
        v.k = K::kMethod;
        v.index = o.index;
        v.obj = o.obj;
        v.text = name;
        v.via_node = true;
        return v;
      }
      case K::kCdk: {
        if (o.path.empty() && name.starts_with("aws_")) {
          std::string sub = name;
          std::replace(sub.begin(), sub.end(), '_', '-');
          std::string mod = ModuleOf("aws-cdk-lib/" + sub);
          if (mod.empty()) return v;
          Value m;
          m.k = K::kCdk;
          m.text = mod;
          return m;
        }
        Value m = o;
        m.path.push_back(name);
        m.pos = at;
        m.file = frame_->file;
        if (m.path.size() == 2) {  // an enum member or a static constant: `InstanceClass.P3`
          if (auto node = MemberValue(m.text, m.path[0], m.path[1], at)) {
            Value x;
            x.k = K::kNode;
            x.node = std::make_shared<cfn::Node>(std::move(*node));
            x.text = m.text;
            x.path = m.path;
            x.pos = at;
            x.file = frame_->file;
            return x;
          }
        }
        return m;
      }
      case K::kNode:
        if (o.path.size() < 4 && !o.path.empty()) {  // `InstanceType.of` style chains keep their names
          Value m;
          m.k = K::kCdk;
          m.text = o.text;
          m.path = o.path;
          m.path.push_back(name);
          return m;
        }
        return v;
      case K::kExternal: {
        Value m = o;
        m.path.push_back(name);
        if (m.text == "global" && m.path.size() == 3 && m.path[0] == "process" && m.path[1] == "env") return v;
        return m;
      }
      case K::kStr:
        if (name == "length") {
          Value n = Str(std::to_string(o.text.size()), at);
          n.k = K::kNum;
          return n;
        }
        {
          Value m;
          m.k = K::kMethod;
          m.text = name;
          m.items = {o};
          m.index = -2;  // a string method
          return m;
        }
      default:
        return v;
    }
  }

  // `Cls.NAME`: a static field's value (evaluated where the class is
  // written, on each use), or a static method.
  Value StaticMember(const std::shared_ptr<Class>& c, const std::string& name, SourcePos at) {
    if (ts_node_is_null(c->body)) return Unknown(at, frame_->file);
    std::string_view src = Src(c->file);
    for (TSNode m : NamedChildren(c->body)) {
      TSNode nm = ts::Field(m, "name");
      if (ts_node_is_null(nm) || ts::Text(nm, src) != name || !ts::Text(m, src).starts_with("static")) continue;
      if (ts::Type(m) == "method_definition") return FunctionValue(m, c->file, c->scope);
      TSNode value = ts::Field(m, "value");
      if (ts::Type(m) != "public_field_definition" || ts_node_is_null(value)) break;
      Frame fr;
      fr.file = c->file;
      fr.self.k = K::kUndefined;
      Frame* saved = frame_;
      frame_ = &fr;
      Value v = Eval(value, c->scope);
      frame_ = saved;
      return Here(v, at);
    }
    return Unknown(at, frame_->file);
  }

  std::optional<TSNode> FindMethod(const std::shared_ptr<Class>& c, const std::string& name) {
    if (ts_node_is_null(c->body)) return std::nullopt;
    std::string_view src = Src(c->file);
    for (TSNode m : NamedChildren(c->body)) {
      if (ts::Type(m) != "method_definition") continue;
      TSNode nm = ts::Field(m, "name");
      if (!ts_node_is_null(nm) && ts::Text(nm, src) == name && name != "constructor") return m;
    }
    return std::nullopt;
  }

  // ---- classes, functions, calls -------------------------------------------

  // A function of the app: its node, where it is written, the scope it closes
  // over, `this` (arrow functions, methods) and a method's class.
  static Value FunctionValue(TSNode node, int file, std::shared_ptr<Scope> scope, Value self = {},
                             std::shared_ptr<Class> home = nullptr) {
    Value v;
    v.k = K::kFunction;
    v.fn = std::make_shared<Function>();
    v.fn->node = node;
    v.fn->file = file;
    v.fn->scope = std::move(scope);
    v.fn->self = std::move(self);
    v.fn->home = std::move(home);
    return v;
  }

  Value MakeClass(TSNode n, const std::shared_ptr<Scope>& scope) {
    Value v;
    v.k = K::kClass;
    v.cls = std::make_shared<Class>();
    v.cls->body = ts::Field(n, "body");
    v.cls->file = frame_->file;
    v.cls->scope = scope;
    v.cls->base.k = K::kUndefined;
    TSNode name = ts::Field(n, "name");
    if (!ts_node_is_null(name)) v.cls->name = std::string(T(name));
    for (TSNode c : NamedChildren(n)) {
      if (ts::Type(c) == "class_heritage") {
        for (TSNode e : NamedChildren(c)) {
          if (ts::Type(e) == "extends_clause") v.cls->base = Eval(ts::Field(e, "value"), scope);
        }
      } else if (ts::Type(c) == "extends_clause") {  // JavaScript form
        v.cls->base = Eval(ts::Field(c, "value"), scope);
      }
    }
    v.pos = ts::Start(n);
    v.file = frame_->file;
    return v;
  }

  static bool IsStackClass(const Value& c, int depth = 0) {
    if (depth > 64) return false;
    if (c.k == K::kCdk)
      return c.text == "core" && c.path.size() == 1 && (c.path[0] == "Stack" || c.path[0] == "NestedStack");
    if (c.k == K::kClass && c.cls) return IsStackClass(c.cls->base, depth + 1);
    return false;
  }

  // The stack a scope argument belongs to.
  int StackOf(const Value& scope) const {
    if (scope.k == K::kObject && scope.obj) return scope.obj->stack;
    if (scope.k == K::kConstruct && scope.index >= 0) return app_.constructs[scope.index].stack;
    return current_stack_;
  }

  struct Args {
    std::vector<Value> values;
    bool spread_unknown = false;
  };

  Args EvalArgs(TSNode args, const std::shared_ptr<Scope>& scope) {
    Args out;
    if (ts_node_is_null(args)) return out;
    if (ts::Type(args) == "template_string") {  // tagged template
      out.values.push_back(Eval(args, scope));
      return out;
    }
    for (TSNode c : NamedChildren(args)) {
      if (ts::Type(c) == "comment") continue;
      if (ts::Type(c) == "spread_element") {
        Value s = Eval(ts_node_named_child(c, 0), scope);
        if (s.k == K::kObject && s.obj && s.obj->array && s.obj->complete) {
          for (const auto& f : s.obj->fields) out.values.push_back(f.second);
        } else {
          out.spread_unknown = true;
          out.values.push_back(Unknown(ts::Start(c), frame_->file));
        }
        continue;
      }
      out.values.push_back(Eval(c, scope));
    }
    return out;
  }

  Value New(TSNode n, const std::shared_ptr<Scope>& scope) {
    SourcePos at = ts::Start(n);
    Value callee = Eval(ts::Field(n, "constructor"), scope);
    Args args = EvalArgs(ts::Field(n, "arguments"), scope);
    if (Spent()) return Unknown(at, frame_->file);
    if (callee.k == K::kClass) return Instantiate(callee, args, n);
    if (callee.k == K::kCdk && !callee.path.empty()) return NewCdk(callee, args, n);
    if (callee.k == K::kExternal && callee.text == "constructs" &&
        callee.path == std::vector<std::string>{"Construct"}) {
      Value v;
      v.k = K::kObject;
      v.obj = NewObj();
      v.obj->complete = false;
      v.obj->stack = args.values.empty() ? current_stack_ : StackOf(args.values[0]);
      return v;
    }
    return Unknown(at, frame_->file);
  }

  SourceRange Range(TSNode n) const { return {ts::Start(n), ts::End(n)}; }

  static bool ScopeLike(const Value& v) {
    return (v.k == K::kObject && v.obj && (v.obj->cls || v.obj->is_app || v.obj->stack >= 0 || v.obj->is_stack)) ||
           v.k == K::kConstruct || v.k == K::kUnknown;
  }

  Value NewCdk(const Value& callee, const Args& args, TSNode n) {
    SourcePos at = ts::Start(n);
    const std::string& module = callee.text;
    const std::string& cls = callee.path.back();
    if (module == "core" && callee.path.size() == 1 && (cls == "App" || cls == "Stack" || cls == "NestedStack")) {
      if (cls == "App") {
        Value v;
        v.k = K::kObject;
        v.obj = NewObj();
        v.obj->is_app = true;
        v.obj->complete = false;
        return v;
      }
      if (cls == "Stack" || cls == "NestedStack") {
        Value v;
        v.k = K::kObject;
        v.obj = NewObj();
        v.obj->is_stack = true;
        v.obj->complete = false;
        v.obj->stack = RecordStack(args, n);
        return v;
      }
    }
    std::vector<cfn::Node> nodes;
    for (const auto& a : args.values) nodes.push_back(ToNode(a, at, 0));
    if (callee.path.size() == 1) {
      if (auto node = CallValue(module, cls, "", nodes, at)) {
        // `new ec2.InstanceType('m4.xlarge')`: the type is its one literal (a fix edits it
        // where the call stands inside a construct's props; docs/cdk.md "Fixes").
        const Value* arg = args.values.size() == 1 ? &args.values[0] : nullptr;
        if (module == "ec2" && cls == "InstanceType" && node->is_scalar() && arg && arg->k == K::kStr &&
            arg->lit_end > arg->lit_begin && arg->file == frame_->file) {
          node->end = arg->lit_end_pos;
          node->offset = arg->lit_begin;
          node->end_offset = arg->lit_end;
        }
        return NodeValue(std::move(*node), callee, at);
      }
    }
    if (module == "core" && cls != "CfnParameter") return Unknown(at, frame_->file);
    Construct c;
    c.module = module;
    c.cls = cls;
    c.conditions = branch_conds_;
    c.file = frame_->file;
    c.call = Range(n);
    // `new X(scope, id, props)`: an id is a string (not `new SfnStateMachine(machine, {…})`).
    bool scoped = args.values.size() >= 2 && ScopeLike(args.values[0]) &&
                  (args.values[1].k == K::kStr || args.values[1].k == K::kUnknown || args.values[1].k == K::kJoin);
    if (scoped) {
      c.stack = StackOf(args.values[0]);
      if (args.values[1].k == K::kStr) c.id = args.values[1].text;
      // A scalar written as one literal token inside the call keeps the token's
      // range: a fix may edit it there (docs/cdk.md "Fixes").
      literal_call_ = {ts_node_start_byte(n), ts_node_end_byte(n)};
      if (args.values.size() >= 3) c.props = ToNode(args.values[2], at, 0);
      literal_call_ = {0, 0};
    } else if (module == "iam" && (cls == "PolicyStatement" || cls == "PolicyDocument")) {
      c.stack = current_stack_;
      if (!args.values.empty()) c.props = ToNode(args.values[0], at, 0);
    } else {
      return Unknown(at, frame_->file);
    }
    Value v;
    v.k = K::kConstruct;
    v.index = static_cast<int>(app_.constructs.size());
    v.pos = at;
    v.file = frame_->file;
    app_.constructs.push_back(std::move(c));
    return v;
  }

  Value NodeValue(cfn::Node node, const Value& from, SourcePos at) {
    Value v;
    v.k = K::kNode;
    v.node = std::make_shared<cfn::Node>(std::move(node));
    v.text = from.text;
    v.path = from.path;
    v.pos = at;
    v.file = frame_->file;
    return v;
  }

  int RecordStack(const Args& args, TSNode n) {
    Stack s;
    if (args.values.size() >= 2 && args.values[1].k == K::kStr) s.id = args.values[1].text;
    s.file = frame_->file;
    s.call = Range(n);
    app_.stacks.push_back(std::move(s));
    return static_cast<int>(app_.stacks.size()) - 1;
  }

  Value Instantiate(const Value& callee, const Args& args, TSNode n) {
    Value self;
    self.k = K::kObject;
    self.obj = NewObj();
    self.obj->cls = callee.cls;
    self.obj->complete = false;
    self.pos = ts::Start(n);
    self.file = frame_->file;
    int saved_stack = current_stack_;
    // Two stacks of one id in one scope are refused by the CDK, so both
    // branches of an unknown condition that create it stand for one stack.
    std::pair<const void*, std::string> key;
    bool stack = IsStackClass(callee);
    if (stack && args.values.size() >= 2 && args.values[1].k == K::kStr) {
      key = {args.values[0].obj.get(), args.values[1].text};
      auto it = stack_instances_.find(key);
      if (it != stack_instances_.end()) return it->second;
    }
    if (stack) {
      self.obj->is_stack = true;
      self.obj->stack = RecordStack(args, n);
    } else {
      self.obj->stack = args.values.empty() ? current_stack_ : StackOf(args.values[0]);
    }
    current_stack_ = self.obj->stack;
    if (!key.second.empty()) stack_instances_[key] = self;
    RunConstructor(callee.cls, self, args, ts::Start(n), 0);
    current_stack_ = saved_stack;
    return self;
  }

  void RunConstructor(const std::shared_ptr<Class>& cls, const Value& self, const Args& args, SourcePos at, int depth) {
    if (!cls || depth > 32 || Spent()) return;
    if (call_depth_ >= kMaxCallDepth) {
      Stop(frame_->file, at, "CDK app calls nest deeper than " + std::to_string(kMaxCallDepth) + " levels");
      return;
    }
    ++call_depth_;
    Frame fr;
    fr.file = cls->file;
    fr.self = self;
    fr.home = cls;
    Frame* saved = frame_;
    frame_ = &fr;
    auto scope = NewScope();
    scope->parent = cls->scope;
    // Field initializers, then the constructor (the base's first when there is none).
    std::optional<TSNode> ctor;
    for (TSNode m : NamedChildren(cls->body)) {
      std::string_view t = ts::Type(m);
      if (t == "public_field_definition" || t == "field_definition") {
        TSNode name = ts::Field(m, "name");
        if (ts_node_is_null(name)) name = ts::Field(m, "property");
        TSNode value = ts::Field(m, "value");
        if (ts_node_is_null(name) || ts_node_is_null(value) || T(m).starts_with("static")) continue;
        self.obj->Set(std::string(T(name)), Eval(value, scope), ts::Start(m));
      } else if (t == "method_definition") {
        TSNode name = ts::Field(m, "name");
        if (!ts_node_is_null(name) && T(name) == "constructor") ctor = m;
      }
    }
    if (ctor) {
      BindParams(ts::Field(*ctor, "parameters"), args, scope, self);
      TSNode body = ts::Field(*ctor, "body");
      if (!ts_node_is_null(body)) {
        Hoist(body, scope);
        ExecStatements(body, scope);
      }
    } else if (cls->base.k == K::kClass) {
      frame_ = saved;
      RunConstructor(cls->base.cls, self, args, at, depth + 1);
    }
    frame_ = saved;
    --call_depth_;
  }

  void BindParams(TSNode params, const Args& args, const std::shared_ptr<Scope>& scope, const Value& self) {
    if (ts_node_is_null(params)) return;
    if (ts::Type(params) == "identifier") {  // `x => …`
      Bind(params, args.values.empty() ? Undefined() : args.values[0], scope);
      return;
    }
    size_t k = 0;
    for (TSNode p : NamedChildren(params)) {
      std::string_view t = ts::Type(p);
      if (t != "required_parameter" && t != "optional_parameter") {
        if (t == "identifier" || t == "assignment_pattern" || t == "object_pattern" || t == "array_pattern") {
          Value v = k < args.values.size() ? args.values[k] : (args.spread_unknown ? Unknown() : Undefined());
          ++k;
          Bind(p, v, scope);
        }
        continue;
      }
      TSNode pattern = ts::Field(p, "pattern");
      if (ts_node_is_null(pattern)) pattern = ts::Field(p, "name");
      if (ts_node_is_null(pattern)) continue;
      if (ts::Type(pattern) == "rest_pattern") {
        Bind(ts_node_named_child(pattern, 0), Unknown(), scope);
        continue;
      }
      if (T(pattern) == "this") continue;
      Value v = k < args.values.size() ? args.values[k] : (args.spread_unknown ? Unknown() : Undefined());
      ++k;
      TSNode def = ts::Field(p, "value");
      if (v.k == K::kUndefined && !ts_node_is_null(def)) v = Eval(def, scope);
      Bind(pattern, v, scope);
      // `constructor(private readonly x: T)`: also a field.
      bool property = false;
      uint32_t m = ts_node_child_count(p);
      for (uint32_t j = 0; j < m; ++j) {
        std::string_view ct = ts::Type(ts_node_child(p, j));
        if (ct == "accessibility_modifier" || ct == "readonly") property = true;
      }
      if (property && self.k == K::kObject && self.obj && ts::Type(pattern) == "identifier")
        self.obj->Set(std::string(T(pattern)), v, ts::Start(p));
    }
  }

  Value Undefined() {
    Value v;
    v.k = K::kUndefined;
    return v;
  }

  Value CallFunction(const Function& fn, const Args& args, SourcePos at) {
    if (Spent()) return Unknown(at, frame_->file);
    if (call_depth_ >= kMaxCallDepth) {
      Stop(frame_->file, at, "CDK app calls nest deeper than " + std::to_string(kMaxCallDepth) + " levels");
      return Unknown(at, frame_->file);
    }
    ++call_depth_;
    Frame fr;
    fr.file = fn.file;
    fr.self = fn.self;
    fr.home = fn.home;
    fr.ret.k = K::kUndefined;
    Frame* saved = frame_;
    frame_ = &fr;
    auto scope = NewScope();
    scope->parent = fn.scope;
    TSNode params = ts::Field(fn.node, "parameters");
    if (ts_node_is_null(params)) params = ts::Field(fn.node, "parameter");
    BindParams(params, args, scope, Value{});
    TSNode body = ts::Field(fn.node, "body");
    Value result = Undefined();
    if (!ts_node_is_null(body)) {
      if (ts::Type(body) == "statement_block") {
        Hoist(body, scope);
        ExecStatements(body, scope);
        result = fr.ret;
      } else {
        result = Eval(body, scope);
      }
    }
    frame_ = saved;
    --call_depth_;
    if (result.file == fn.file && fn.file != frame_->file) {
      result.file = frame_->file;
      result.pos = at;
    }
    return result;
  }

  static bool Recorded(std::string_view m) {
    static const std::set<std::string_view> kMethods = {"addToPolicy",
                                                        "addToPrincipalPolicy",
                                                        "addManagedPolicy",
                                                        "attachInlinePolicy",
                                                        "addStatements",
                                                        "scaleToTrackMetric",
                                                        "scaleOnMetric",
                                                        "scaleOnSchedule",
                                                        "autoScaleInstanceCount",
                                                        "findInstanceProductionVariant",
                                                        "scaleOnInvocations",
                                                        "scaleOnUtilization",
                                                        "addMetadata",
                                                        "addPropertyOverride",
                                                        "addOverride",
                                                        "addPropertyDeletionOverride",
                                                        "addToRolePolicy",
                                                        "addVariant",
                                                        "addProductionVariant",
                                                        "addContainer"};
    return kMethods.count(m) > 0;
  }

  Value Call(TSNode n, const std::shared_ptr<Scope>& scope) {
    SourcePos at = ts::Start(n);
    TSNode fnode = ts::Field(n, "function");
    std::string_view ft = ts::Type(fnode);
    if (ft == "super") {
      Args args = EvalArgs(ts::Field(n, "arguments"), scope);
      if (frame_->home && frame_->home->base.k == K::kClass)
        RunConstructor(frame_->home->base.cls, frame_->self, args, at, 1);
      return Undefined();
    }
    if (ft == "import") {  // import(spec): a promise of the module
      Args args = EvalArgs(ts::Field(n, "arguments"), scope);
      if (!args.values.empty() && args.values[0].k == K::kStr) {
        Require(args.values[0].text, at);
      } else {
        Unread(n, at);
      }
      return Unknown(at, frame_->file);
    }
    Value callee = Eval(fnode, scope);
    Args args = EvalArgs(ts::Field(n, "arguments"), scope);
    if (Spent()) return Unknown(at, frame_->file);
    if (callee.k == K::kExternal && callee.text == "global" && callee.path == std::vector<std::string>{"require"} &&
        (args.values.empty() || args.values[0].k != K::kStr)) {
      Unread(n, at);
    }
    if (callee.k == K::kMethod && callee.index == -3 && callee.obj && callee.obj->complete &&
        (callee.text == "forEach" || callee.text == "map") && !args.values.empty() &&
        args.values[0].k == K::kFunction && callee.obj->fields.size() <= kMaxLoop) {
      // A callback over a known array: once per item.
      auto items = callee.obj->fields;
      Value out = NewObject(true, at);
      for (size_t i = 0; i < items.size() && !Spent(); ++i) {
        Args call;
        call.values.push_back(items[i].second);
        call.values.push_back(Str(std::to_string(i), at));
        call.values.back().k = K::kNum;
        out.obj->Set(std::to_string(i), CallFunction(*args.values[0].fn, call, at), at);
      }
      if (callee.text == "map") return out;
      return Undefined();
    }
    if (callee.k != K::kFunction) {
      // A function handed to code that is not run here (`xs.forEach(x => …)`
      // over unknown items, a library callback): its body runs once with
      // unknown arguments, as a loop body.
      for (const Value& a : args.values) {
        if (a.k != K::kFunction || Spent()) continue;
        ++open_loops_;
        Args unknown;
        unknown.spread_unknown = true;
        CallFunction(*a.fn, unknown, at);
        --open_loops_;
      }
    }
    switch (callee.k) {
      case K::kFunction:
        return CallFunction(*callee.fn, args, at);
      case K::kMethod:
        return MethodCallOn(callee, args, n);
      case K::kCdk: {
        if (callee.path.size() < 2) return Unknown(at, frame_->file);
        std::vector<cfn::Node> nodes;
        for (const auto& a : args.values) nodes.push_back(ToNode(a, at, 0));
        if (auto node = CallValue(callee.text, callee.path[callee.path.size() - 2], callee.path.back(), nodes, at))
          return NodeValue(std::move(*node), callee, at);
        return Unknown(at, frame_->file);
      }
      case K::kExternal:
        return ExternalCall(callee, args, at);
      default:
        return Unknown(at, frame_->file);
    }
  }

  Value MethodCallOn(const Value& m, const Args& args, TSNode n) {
    SourcePos at = ts::Start(n);
    if (m.index == -2 && !m.items.empty()) return StringMethod(m.items[0], m.text, args, at);
    if (m.index == -4 && !args.values.empty()) {
      if (auto node = JsonString(ToNode(args.values[0], at, 0), at)) {
        Value v;
        v.k = K::kNode;
        v.node = std::make_shared<cfn::Node>(std::move(*node));
        v.pos = at;
        v.file = frame_->file;
        return v;
      }
      return Unknown(at, frame_->file);
    }
    if (m.index == -3 && m.obj) {
      if (m.text == "push" && !args.spread_unknown && open_loops_ == 0 &&
          m.obj->fields.size() + args.values.size() <= kMaxLoop) {
        for (const auto& a : args.values) m.obj->Set(std::to_string(m.obj->fields.size()), a, at);
      } else if (m.text == "push" || m.text == "unshift" || m.text == "splice" || m.text == "pop" ||
                 m.text == "shift" || m.text == "reverse" || m.text == "sort" || m.text == "fill") {
        m.obj->complete = false;
      }
      if (m.text == "includes" && m.obj->complete && !args.values.empty() && args.values[0].known_scalar()) {
        bool found = false;
        for (const auto& f : m.obj->fields) found = found || SameValue(f.second, args.values[0]);
        Value b = Str(found ? "true" : "false", at);
        b.k = K::kBool;
        return b;
      }
      return Unknown(at, frame_->file);
    }
    if (m.via_node && m.text == "tryGetContext") {
      if (args.values.empty() || args.values[0].k != K::kStr || !in_.context.is_map()) return Unknown(at, frame_->file);
      const cfn::Node* c = in_.context.Get(args.values[0].text);
      if (!c) return Undefined();
      Value v = FromNode(*c, 0);
      return Here(v, at);
    }
    if (m.index < 0) return Unknown(at, frame_->file);
    if (!Recorded(m.text)) return Unknown(at, frame_->file);
    MethodCall mc;
    mc.construct = m.index;
    mc.method = m.text;
    for (const auto& a : args.values) mc.args.push_back(ToNode(a, at, 0));
    mc.file = frame_->file;
    mc.call = Range(n);
    app_.methods.push_back(std::move(mc));
    if (m.text == "findInstanceProductionVariant" || m.text == "autoScaleInstanceCount") {
      // The variant and its scalable capacity stand for the construct: later calls on them name it.
      Value v;
      v.k = K::kConstruct;
      v.index = m.index;
      v.pos = at;
      v.file = frame_->file;
      return v;
    }
    return Unknown(at, frame_->file);
  }

  Value StringMethod(const Value& s, const std::string& name, const Args& args, SourcePos at) {
    if (s.k != K::kStr) return Unknown(at, frame_->file);
    auto arg = [&](size_t i) -> const Value* {
      return i < args.values.size() && args.values[i].known_scalar() ? &args.values[i] : nullptr;
    };
    if (name == "toLowerCase" || name == "toUpperCase") {
      std::string t = s.text;
      for (char& c : t)
        c = name == "toLowerCase" ? static_cast<char>(std::tolower(static_cast<unsigned char>(c)))
                                  : static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
      return Str(t, at);
    }
    if (name == "trim") {
      size_t a = s.text.find_first_not_of(" \t\n\r"), b = s.text.find_last_not_of(" \t\n\r");
      return Str(a == std::string::npos ? "" : s.text.substr(a, b - a + 1), at);
    }
    if (name == "toString") {
      // `Buffer.from(script).toString('base64')`: a Buffer of text is held as that text.
      if (arg(0) && arg(0)->text == "base64") return Str(Base64Encode(s.text), at);
      return Str(s.text, at);
    }
    if ((name == "startsWith" || name == "endsWith" || name == "includes") && arg(0)) {
      const std::string& x = arg(0)->text;
      bool b = name == "startsWith" ? s.text.starts_with(x)
               : name == "endsWith" ? s.text.ends_with(x)
                                    : s.text.find(x) != std::string::npos;
      Value v = Str(b ? "true" : "false", at);
      v.k = K::kBool;
      return v;
    }
    if (name == "replace" && arg(0) && arg(1) && args.values[0].k == K::kStr) {
      std::string t = s.text;
      size_t p = t.find(arg(0)->text);
      if (p != std::string::npos) t.replace(p, arg(0)->text.size(), arg(1)->text);
      return Str(t, at);
    }
    return Unknown(at, frame_->file);
  }

  // Node's `path`, `fs`, `JSON`, `require`, `process`.
  Value ExternalCall(const Value& callee, const Args& args, SourcePos at) {
    const auto& p = callee.path;
    auto str = [&](size_t i) -> const std::string* {
      return i < args.values.size() && args.values[i].k == K::kStr ? &args.values[i].text : nullptr;
    };
    if (callee.text == "global" && p.size() == 1 && p[0] == "require") {
      if (const std::string* s = str(0)) return Require(*s, at);
      return Unknown(at, frame_->file);
    }
    if (callee.text == "global" && p.size() == 2 && p[0] == "JSON" && p[1] == "stringify" && !args.values.empty()) {
      if (auto node = JsonString(ToNode(args.values[0], at, 0), at)) return NodeValue(std::move(*node), callee, at);
      return Unknown(at, frame_->file);
    }
    if (callee.text == "global" && p.size() == 2 && p[0] == "JSON" && p[1] == "parse") {
      if (const std::string* s = str(0)) return ParseJson(*s, at);
      return Unknown(at, frame_->file);
    }
    if (callee.text == "global" && p.size() == 2 && p[0] == "Buffer" && p[1] == "from" && str(0) &&
        (args.values.size() == 1 || (str(1) && (*str(1) == "utf8" || *str(1) == "utf-8")))) {
      return Str(*str(0), at);
    }
    if (callee.text == "path" && p.size() == 1 && (p[0] == "join" || p[0] == "resolve")) {
      fs::path out;
      for (size_t i = 0; i < args.values.size(); ++i) {
        const std::string* s = str(i);
        if (!s) return Unknown(at, frame_->file);
        if (p[0] == "resolve" && !s->empty() && (*s)[0] == '/') {
          out = *s;
        } else {
          out /= *s;
        }
      }
      std::string r = out.lexically_normal().string();
      if (p[0] == "resolve" && out.is_relative()) r = (fs::path(cwd_) / out).lexically_normal().string();
      if (r.size() > 1 && r.back() == '/') r.pop_back();
      return Str(r, at);
    }
    if (callee.text == "path" && p.size() == 1 && (p[0] == "dirname") && str(0))
      return Str(fs::path(*str(0)).parent_path().string(), at);
    if (callee.text == "fs" && p.size() == 1 && p[0] == "readFileSync") {
      const std::string* s = str(0);
      if (!s) return Unknown(at, frame_->file);
      fs::path fp = *s;
      if (fp.is_relative()) fp = fs::path(cwd_) / fp;
      auto canon = Files().WeaklyCanonical(fp.lexically_normal().string());
      if (!canon || !Inside(*canon)) {
        app_.notes.push_back({frame_->file, ParseError{"file '" + *s + "' is outside the scan root; not read", at}});
        return Unknown(at, frame_->file);
      }
      std::string text, error;
      if (!Files().Read(*canon, kMaxFileBytes, &text, &error)) return Unknown(at, frame_->file);
      return Str(std::move(text), at);
    }
    return Unknown(at, frame_->file);
  }

  // ---- handing values over -----------------------------------------------

  // Takes the token range off what does not lie inside the construct call whose props
  // are being converted (or off everything, outside such a conversion).
  void KeepLiteralsWithin(cfn::Node* n) const {
    if (n->end.valid() && (n->offset < literal_call_.first || n->end_offset > literal_call_.second)) {
      n->end = {};
      n->offset = n->end_offset = 0;
    }
    for (auto& e : n->entries) KeepLiteralsWithin(&e.second);
    for (auto& i : n->items) KeepLiteralsWithin(&i);
  }

  // `n` with the range of the literal token `v` is written as, when that lies
  // inside the construct call whose props are being converted.
  cfn::Node Literal(const Value& v, cfn::Node n) const {
    if (v.lit_end > v.lit_begin && v.file == frame_->file && v.lit_begin >= literal_call_.first &&
        v.lit_end <= literal_call_.second) {
      n.end = v.lit_end_pos;
      n.offset = v.lit_begin;
      n.end_offset = v.lit_end;
    }
    return n;
  }

  // The value as a document node; `at` is where it is used (for values
  // written in another file).
  cfn::Node ToNode(const Value& v, SourcePos at, int depth) {
    if (depth == 0) node_budget_ = kMaxNodes;
    SourcePos pos = v.file == frame_->file && v.pos.valid() ? v.pos : at;
    if (depth > kMaxNodeDepth || node_budget_-- <= 0)
      return cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false);
    switch (v.k) {
      case K::kStr:
        return Literal(v, cfn::MakeScalar(v.text, pos, true));
      case K::kNum:
      case K::kBool:
        return Literal(v, cfn::MakeScalar(v.text, pos, false));
      case K::kNull:
      case K::kUndefined: {
        cfn::Node n;
        n.pos = pos;
        return n;
      }
      case K::kConstruct: {
        cfn::Node n = cfn::MakeScalar(std::to_string(v.index), pos, false);
        n.tag = std::string(kConstructTag);
        return n;
      }
      case K::kAttr: {
        cfn::Node n;
        n.kind = cfn::Node::Kind::kMap;
        n.tag = std::string(kAttributeTag);
        n.pos = pos;
        n.entries.emplace_back("construct", cfn::MakeScalar(std::to_string(v.index), pos, false));
        n.key_pos.push_back(pos);
        n.entries.emplace_back("attribute", cfn::MakeScalar(v.text, pos, true));
        n.key_pos.push_back(pos);
        return n;
      }
      case K::kJoin: {
        cfn::Node list;
        list.kind = cfn::Node::Kind::kSeq;
        list.pos = pos;
        for (const auto& p : v.items) list.items.push_back(ToNode(p, pos, depth + 1));
        std::vector<cfn::Node> args;
        args.push_back(cfn::MakeScalar("", pos, true));
        args.push_back(std::move(list));
        return Intrinsic("Fn::Join", std::move(args), pos);
      }
      case K::kNode:
        if (v.node) {
          cfn::Node n = *v.node;
          if (v.file != frame_->file) Relocate(&n, at);
          KeepLiteralsWithin(&n);
          return n;
        }
        break;
      case K::kObject: {
        if (!v.obj || v.obj->cls || v.obj->is_app) break;
        cfn::Node n;
        n.pos = pos;
        if (v.obj->array) {
          n.kind = cfn::Node::Kind::kSeq;
          for (const auto& f : v.obj->fields) n.items.push_back(ToNode(f.second, pos, depth + 1));
          if (!v.obj->complete) n.items.push_back(cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false));
        } else {
          n.kind = cfn::Node::Kind::kMap;
          for (size_t i = 0; i < v.obj->fields.size(); ++i) {
            const auto& f = v.obj->fields[i];
            if (f.second.k == K::kUndefined || f.second.k == K::kFunction) continue;
            SourcePos kp = v.obj->file == frame_->file && v.obj->key_pos[i].valid() ? v.obj->key_pos[i] : pos;
            n.entries.emplace_back(f.first, ToNode(f.second, kp, depth + 1));
            n.key_pos.push_back(kp);
          }
        }
        return n;
      }
      default:
        break;
    }
    return cfn::MakeScalar(std::string(aws::kUnknownMarker), pos, false);
  }

  // While a branch of an unknown condition runs: its conditions, outermost first,
  // and the object fields written meanwhile with the values they replaced.
  std::vector<std::string> branch_conds_;
  struct FieldWrite {
    std::shared_ptr<Obj> obj;
    std::string key;
    std::optional<Value> before;  // nullopt: the field was not there
  };
  std::vector<FieldWrite> field_writes_;
  const AppInput& in_;
  std::string root_;
  std::string cwd_;
  App app_;
  std::vector<std::unique_ptr<File>> files_;
  std::map<std::string, int> by_path_;
  Frame* frame_ = nullptr;
  int current_stack_ = -1;
  long steps_ = 0;
  int depth_ = 0;
  int call_depth_ = 0;
  int expr_depth_ = 0;
  bool stopped_ = false;
  long node_budget_ = 0;
  std::pair<uint32_t, uint32_t> literal_call_{0, 0};  // the construct call whose props are converted (bytes)
  std::map<std::pair<const void*, std::string>, Value> stack_instances_;  // (scope, id) -> the stack
  int open_loops_ = 0;
  std::vector<std::weak_ptr<Obj>> objects_;
  std::vector<std::weak_ptr<Scope>> scopes_;  // loops whose body runs once for all their iterations
};

}  // namespace
}  // namespace typescript

App EvaluateTypeScriptApp(const AppInput& in) { return typescript::Evaluator(in).Run(); }

}  // namespace sagelint::cdk
