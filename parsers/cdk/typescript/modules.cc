// Modules of the CDK app evaluator (evaluator.h): the files an app imports
// within the scan root, read and run once; `import`, `require` and `export`;
// and JSON files read as values.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/paths.h"
#include "parsers/cdk/typescript/evaluator.h"

extern "C" const TSLanguage* tree_sitter_typescript(void);

namespace sagelint::cdk::typescript {
namespace {

namespace fs = std::filesystem;

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

}  // namespace

// Parses file `index` (once) and runs its top level.
void Evaluator::LoadModule(int index) {
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
std::optional<int> Evaluator::ImportFile(const std::string& spec, SourcePos at) {
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
      app_.notes.push_back({frame_->file, ParseError{"import '" + spec + "' is outside the scan root; not read", at}});
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

Value Evaluator::ModuleValue(int index) {
  File& f = *files_[index];
  if (f.module_exports.k != K::kUndefined) return f.module_exports;
  Value v;
  v.k = K::kObject;
  v.obj = f.exports;
  return v;
}

// A JSON file of the scan root read as a value.
Value Evaluator::ReadJson(const std::string& path, SourcePos at) {
  fs::path p = path;
  if (p.is_relative()) p = fs::path(cwd_) / p;
  auto canon = Files().WeaklyCanonical(p.lexically_normal().string());
  if (!canon || !Inside(*canon)) return Unknown(at, frame_->file);
  std::string text, error;
  if (!Files().Read(*canon, kMaxFileBytes, &text, &error)) return Unknown(at, frame_->file);
  return ParseJson(text, at);
}

Value Evaluator::ParseJson(const std::string& text, SourcePos at) {
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  if (!cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors)) return Unknown(at, frame_->file);
  return FromNode(doc, 0);
}

Value Evaluator::FromNode(const cfn::Node& n, int depth) {
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

void Evaluator::Import(TSNode s, const std::shared_ptr<Scope>& scope) {
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

// What `require(spec)` / `import … from spec` gives.
Value Evaluator::Require(const std::string& spec, SourcePos at) {
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

void Evaluator::Export(TSNode s, const std::shared_ptr<Scope>& scope) {
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

}  // namespace sagelint::cdk::typescript
