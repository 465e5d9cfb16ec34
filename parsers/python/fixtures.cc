// pytest fixtures: a test function's parameter named as a fixture is what
// that fixture returns or yields, as pytest resolves it (docs/python.md
// "pytest fixtures"): a fixture of the test's own module first, then those of
// the `conftest.py` files of its directory and of each parent directory up to
// the scan root, nearest first. A fixture's value is known only when every
// `return` / `yield` of its body gives a literal (a string, a number, a
// boolean, None) or a call that makes an instance of a library's class (the
// library says which: Library::Makes, the SDK model's sessions); anything else
// leaves the parameter unknown, never guessed. The conftest files are read through the
// scan's FileSource, so a warm scan's cache sees a change to them.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <functional>

#include "linter/base/file_source.h"
#include "linter/base/paths.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/analyzer.h"

namespace sagelint::py {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxConftestBytes = 1u << 20;  // a conftest.py larger than 1 MiB is not read
constexpr int kMaxConftests = 16;               // directories walked up from the test file

std::string_view Text(TSNode n, std::string_view src) { return ts::Text(n, src); }

// The module-level imports of a file: local name -> dotted name.
std::map<std::string, std::string, std::less<>> Imports(const Grammar& g, TSNode root, std::string_view src) {
  std::map<std::string, std::string, std::less<>> out;
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode s = ts_node_named_child(root, i);
    N k = g.Kind(s);
    if (k != N::kImportStatement && k != N::kImportFromStatement) continue;
    std::string module;
    if (k == N::kImportFromStatement) {
      TSNode m = g.Field(s, g.f_module_name);
      if (g.Kind(m) != N::kDottedName) continue;  // a relative import names no library
      module = std::string(Text(m, src));
    }
    uint32_t n = ts_node_named_child_count(s);
    for (uint32_t j = 0; j < n; ++j) {
      TSNode c = ts_node_named_child(s, j);
      if (k == N::kImportFromStatement && ts_node_eq(c, g.Field(s, g.f_module_name))) continue;
      std::string name, local;
      if (g.Kind(c) == N::kDottedName) {
        name = std::string(Text(c, src));
        local = k == N::kImportFromStatement ? name : name.substr(0, name.find('.'));
        if (k == N::kImportStatement) name = local;
      } else if (g.Kind(c) == N::kAliasedImport) {
        name = std::string(Text(g.Field(c, g.f_name), src));
        local = std::string(Text(g.Field(c, g.f_alias), src));
      } else {
        continue;
      }
      out[local] = k == N::kImportFromStatement ? module + "." + name : name;
    }
  }
  return out;
}

// A dotted callee (`LocalPipelineSession`, `pipeline_context.LocalPipelineSession`)
// through the file's imports; empty when its first name is not imported.
std::string Qualified(const Grammar& g, TSNode callee, std::string_view src,
                      const std::map<std::string, std::string, std::less<>>& imports) {
  N k = g.Kind(callee);
  if (k != N::kIdentifier && k != N::kAttribute) return {};
  std::string text(Text(callee, src));
  for (char c : text) {
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.')) return {};
  }
  std::string first = text.substr(0, text.find('.'));
  auto it = imports.find(first);
  if (it == imports.end()) return {};
  return it->second + text.substr(first.size());
}

// A plain string literal's content: no f-/b-prefix, no interpolation, no escape.
std::optional<std::string> PlainString(TSNode n, std::string_view src) {
  std::string out;
  uint32_t count = ts_node_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_child(n, i);
    std::string_view type = ts_node_type(c);
    if (type == "string_start") {
      if (Text(c, src).find_first_of("fFbB") != std::string_view::npos) return std::nullopt;
    } else if (type == "string_content") {
      if (ts_node_named_child_count(c) > 0) return std::nullopt;  // an escape sequence
      out += Text(c, src);
    } else if (type != "string_end") {
      return std::nullopt;  // an interpolation, an escape sequence
    }
  }
  if (out.find('\\') != std::string::npos) return std::nullopt;
  return out;
}

// What one `return` / `yield` expression gives, when it is a literal or an
// instance one of `libraries` makes (Library::Makes).
std::optional<Analyzer::FixtureReturn> ReturnValue(const Grammar& g, TSNode e, std::string_view src,
                                                   const std::map<std::string, std::string, std::less<>>& imports,
                                                   const std::vector<Library*>& libraries) {
  Analyzer::FixtureReturn r;
  r.line = static_cast<int>(ts_node_start_point(e).row) + 1;
  while (g.Kind(e) == N::kParenthesizedExpression && ts_node_named_child_count(e) == 1) e = ts_node_named_child(e, 0);
  switch (g.Kind(e)) {
    case N::kString: {
      auto s = PlainString(e, src);
      if (!s) return std::nullopt;
      r.kind = VK::kStr;
      r.text = std::move(*s);
      return r;
    }
    case N::kInteger:
    case N::kFloat: {
      std::string_view t = Text(e, src);
      if (t.find_first_not_of("0123456789.") != std::string_view::npos) return std::nullopt;
      r.kind = VK::kNum;
      r.text = std::string(t);
      return r;
    }
    case N::kTrue:
    case N::kFalse:
      r.kind = VK::kBool;
      r.text = g.Kind(e) == N::kTrue ? "true" : "false";
      return r;
    case N::kNone:
      r.kind = VK::kNone;
      return r;
    case N::kCall: {
      std::string q = Qualified(g, g.Field(e, g.f_function), src, imports);
      if (std::none_of(libraries.begin(), libraries.end(), [&](Library* lib) { return lib->Makes(q); })) {
        return std::nullopt;
      }
      r.kind = VK::kQual;
      r.text = std::move(q);
      return r;
    }
    default:
      return std::nullopt;
  }
}

// Every `return` / `yield` of a function body (not of the functions, lambdas
// and classes it defines): what it gives, or unknown (false) when one of them
// gives something else.
bool Returns(const Grammar& g, TSNode n, std::string_view src,
             const std::map<std::string, std::string, std::less<>>& imports, const std::vector<Library*>& libraries,
             std::vector<Analyzer::FixtureReturn>* out, int depth) {
  if (depth > 64) return false;
  N k = g.Kind(n);
  if (k == N::kFunctionDefinition || k == N::kClassDefinition || k == N::kLambda || k == N::kDecoratedDefinition) {
    return true;
  }
  if (k == N::kReturnStatement || k == N::kYield) {
    if (k == N::kYield) {
      std::string_view rest = Text(n, src).substr(5);
      rest.remove_prefix(std::min(rest.size(), rest.find_first_not_of(" \t\\\n")));
      if (rest.starts_with("from") && (rest.size() == 4 || !std::isalnum(static_cast<unsigned char>(rest[4])))) {
        return false;  // `yield from`: whatever another generator yields
      }
    }
    Analyzer::FixtureReturn none;
    none.kind = VK::kNone;
    none.line = static_cast<int>(ts_node_start_point(n).row) + 1;
    if (ts_node_named_child_count(n) == 0) {
      out->push_back(none);
      return true;
    }
    auto r = ReturnValue(g, ts_node_named_child(n, 0), src, imports, libraries);
    if (!r) return false;
    out->push_back(std::move(*r));
    return true;
  }
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    if (!Returns(g, ts_node_named_child(n, i), src, imports, libraries, out, depth + 1)) return false;
  }
  return true;
}

}  // namespace

// The fixtures a module defines at its top level (`@pytest.fixture`,
// `@pytest.fixture(scope=…, name=…)`, `@fixture` imported from pytest), by the
// name pytest knows them by.
Analyzer::FixtureTable Analyzer::ReadFixtures(TSNode root, std::string_view src, const std::string& where) const {
  FixtureTable out;
  auto imports = Imports(g_, root, src);
  uint32_t count = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode s = ts_node_named_child(root, i);
    if (g_.Kind(s) != N::kDecoratedDefinition) continue;
    TSNode def = g_.Field(s, g_.f_definition);
    if (g_.Kind(def) != N::kFunctionDefinition) continue;
    std::optional<std::string> name;
    uint32_t n = ts_node_named_child_count(s);
    for (uint32_t j = 0; j < n; ++j) {
      TSNode d = ts_node_named_child(s, j);
      if (g_.Kind(d) != N::kDecorator || ts_node_named_child_count(d) == 0) continue;
      TSNode e = ts_node_named_child(d, 0);
      TSNode callee = g_.Kind(e) == N::kCall ? g_.Field(e, g_.f_function) : e;
      std::string q = Qualified(g_, callee, src, imports);
      if (q != "pytest.fixture") continue;
      name = std::string(Text(g_.Field(def, g_.f_name), src));
      if (g_.Kind(e) != N::kCall) continue;
      TSNode args = g_.Field(e, g_.f_arguments);
      uint32_t m = ts_node_named_child_count(args);
      for (uint32_t a = 0; a < m; ++a) {
        TSNode kw = ts_node_named_child(args, a);
        if (g_.Kind(kw) != N::kKeywordArgument || Text(g_.Field(kw, g_.f_name), src) != "name") continue;
        TSNode v = g_.Field(kw, g_.f_value);
        auto literal = g_.Kind(v) == N::kString ? PlainString(v, src) : std::nullopt;
        name = literal ? *literal : std::string();  // a name computed at run time: no fixture we can name
      }
    }
    if (!name || name->empty()) continue;
    Fixture f;
    f.where = where;
    f.known = Returns(g_, g_.Field(def, g_.f_body), src, imports, libraries_, &f.returns, 0);
    out[*name] = std::move(f);  // a later definition of the name replaces an earlier one, as in Python
  }
  return out;
}

bool Analyzer::IsTestFunction(const Function& f) const {
  if (nb_ || !opts_ || !f.name.starts_with("test")) return false;
  std::string_view base = file_.path;
  if (size_t slash = base.rfind('/'); slash != std::string_view::npos) base = base.substr(slash + 1);
  if (!(base.starts_with("test_") && base.ends_with(".py")) && !base.ends_with("_test.py")) return false;
  const Scope* p = f.parent;
  return p && (p->kind == Scope::kModule || (p->kind == Scope::kClass && f.method));
}

void Analyzer::LoadConftests() {
  conftests_loaded_ = true;
  own_fixtures_ = ReadFixtures(root_, src_, file_.path);
  const FileSource& files = *opts_->files;
  std::string root = opts_->root;
  fs::path abs = file_.abs_path.empty() ? fs::path(root) / file_.path : fs::path(file_.abs_path);
  fs::path dir = abs.lexically_normal().parent_path();
  fs::path top = fs::path(root).lexically_normal();
  for (int up = 0; up < kMaxConftests; ++up) {
    fs::path conftest = dir / "conftest.py";
    std::string rel = conftest.lexically_relative(top).generic_string();
    if (files.IsRegularFile(conftest.string())) {
      std::string text, error;
      if (files.Read(conftest.string(), kMaxConftestBytes, &text, &error)) {
        if (ts::Tree tree = ts::Parse(PythonGrammar().language, text)) {
          conftests_.push_back(ReadFixtures(ts_tree_root_node(tree.get()), text, rel));
        }
      }
    }
    // Up to the scan root, never past it.
    if (root.empty() || dir == top || dir == dir.parent_path()) break;
    std::string d = dir.string(), t = top.string();
    if (d.size() <= t.size() || d.compare(0, t.size(), t) != 0) break;
    dir = dir.parent_path();
  }
}

VId Analyzer::FixtureValue(std::string_view name) {
  if (!conftests_loaded_) LoadConftests();
  const Fixture* f = nullptr;
  if (auto it = own_fixtures_->find(name); it != own_fixtures_->end()) f = &it->second;
  for (size_t i = 0; !f && i < conftests_.size(); ++i) {
    if (auto it = conftests_[i].find(name); it != conftests_[i].end()) f = &it->second;
  }
  if (!f || !f->known || f->returns.empty()) return kUnknown;
  std::string origin = "fixture " + std::string(name);
  std::vector<Alt> alts;
  for (const FixtureReturn& r : f->returns) {
    VId v = kUnknown;
    switch (r.kind) {
      case VK::kStr:
        v = store_.Str(r.text, origin);
        break;
      case VK::kNum:
        v = store_.Num(r.text, origin);
        break;
      case VK::kBool:
        v = store_.Scalar(VK::kBool, r.text, origin);
        break;
      case VK::kNone:
        v = store_.None();
        break;
      default: {  // an instance of a library's class (Library::Makes)
        std::string saved = std::move(pending_var_);
        pending_var_ = std::string(name);
        for (Library* lib : libraries_) {
          if (lib->Made(*this, r.text, &v)) break;
        }
        pending_var_ = std::move(saved);
        break;
      }
    }
    alts.push_back(
        {"fixture `" + std::string(name) + "` returns at " + f->where + ":" + std::to_string(r.line), Ev{v, TSNode{}}});
  }
  return store_.OneOf(std::move(alts));
}

}  // namespace sagelint::py
