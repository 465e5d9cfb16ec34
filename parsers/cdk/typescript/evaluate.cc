// The TypeScript/JavaScript evaluator of CDK apps (docs/architecture.md "CDK apps"): runs the entry
// file and the files it imports within the scan root, parsed with the
// TypeScript grammar, and records the constructs the app creates, the
// methods it calls on them and its stacks (parsers/cdk/app.h).
//
// This file holds the entry point, the evaluator's life (its values freed
// when it is over) and its budgets, and the helpers its files share
// (evaluator.h). Modules, statements, expressions, member access, calls,
// classes, CDK constructs and the values handed over to the app model each
// have a file of their own.
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/paths.h"
#include "parsers/cdk/typescript/evaluator.h"
#include "parsers/common/escapes.h"

namespace sagelint::cdk::typescript {
namespace {

namespace fs = std::filesystem;

}  // namespace

// Two values the same: the same scalar, or the same object, construct, function.
bool SameBinding(const Value& a, const Value& b, int depth) {
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

Value Unknown(SourcePos at, int file) {
  Value v;
  v.pos = at;
  v.file = file;
  return v;
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

Evaluator::Evaluator(const AppInput& in) : in_(in) {
  if (in.opts && !in.opts->root.empty()) root_ = in.opts->files->WeaklyCanonical(in.opts->root).value_or("");
}

// Values refer to each other in cycles (a class in a scope closes over
// that scope; `this.self = this`): when the evaluation is over, every scope
// and object it made is emptied, so the cycles free.
Evaluator::~Evaluator() {
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

App Evaluator::Run() {
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

std::shared_ptr<Obj> Evaluator::NewObj() {
  auto o = std::make_shared<Obj>();
  objects_.push_back(o);
  return o;
}

std::shared_ptr<Scope> Evaluator::NewScope() {
  auto sc = std::make_shared<Scope>();
  scopes_.push_back(sc);
  return sc;
}

bool Evaluator::Inside(const std::string& canonical) const {
  return root_.empty() ? false : PathBelow(canonical, root_).has_value();
}

void Evaluator::Stop(int file, SourcePos at, const std::string& why) {
  if (stopped_) return;
  stopped_ = true;
  app_.budgets.push_back({file < 0 ? 0 : file, ParseError{why, at.valid() ? at : SourcePos{1, 1}}});
}

bool Evaluator::Step(TSNode n) {
  if (stopped_) return false;
  if (++steps_ > kMaxSteps) {
    Stop(frame_->file, ts::Start(n), "CDK app evaluation stopped after " + std::to_string(kMaxSteps) + " steps");
    return false;
  }
  return true;
}

}  // namespace sagelint::cdk::typescript

namespace sagelint::cdk {

App EvaluateTypeScriptApp(const AppInput& in) { return typescript::Evaluator(in).Run(); }

}  // namespace sagelint::cdk
