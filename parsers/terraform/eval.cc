#include "parsers/terraform/eval.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "parsers/common/base64.h"
#include "parsers/common/escapes.h"
#include "parsers/terraform/functions.h"

extern "C" const TSLanguage* tree_sitter_hcl(void);

namespace sagelint::tf {
namespace {

namespace fs = std::filesystem;
using K = TfVal::Kind;

constexpr size_t kMaxFileBytes = kMaxTerraformFileBytes;
constexpr size_t kMaxReadBytes = 1u << 20;  // file(), templatefile()
constexpr size_t kMaxInstances = 256;       // count / for_each instances of one resource

std::string_view Type(TSNode n) { return ts::Type(n); }
SourceRange Range(TSNode n) { return {ts::Start(n), ts::End(n)}; }

TSNode Body(TSNode root) {
  if (Type(root) == "body") return root;
  uint32_t n = ts_node_named_child_count(root);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(root, i)) == "body") return ts_node_named_child(root, i);
  }
  return TSNode{};
}

std::vector<std::string> Labels(TSNode block, const HclFile& f) {
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

TSNode BlockBody(TSNode block) {
  uint32_t n = ts_node_named_child_count(block);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(block, i)) == "body") return ts_node_named_child(block, i);
  }
  return TSNode{};
}

std::string BlockKind(TSNode block, const HclFile& f) {
  return std::string(ts::Text(ts_node_named_child(block, 0), f.text));
}

// The attribute `name` of a block body, or a null node.
TSNode AttributeExpr(TSNode body, const HclFile& f, std::string_view name) {
  if (ts_node_is_null(body)) return TSNode{};
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode a = ts_node_named_child(body, i);
    if (Type(a) == "attribute" && ts::Text(ts_node_named_child(a, 0), f.text) == name) return ts_node_named_child(a, 1);
  }
  return TSNode{};
}

TSNode InterpolationExpr(TSNode interpolation) {
  uint32_t n = ts_node_named_child_count(interpolation);
  for (uint32_t i = 0; i < n; ++i) {
    if (Type(ts_node_named_child(interpolation, i)) == "expression") return ts_node_named_child(interpolation, i);
  }
  return TSNode{};
}

std::string Dedent(const std::string& s) {
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

// A quoted template's literal text: its escapes decoded, and an escaped
// interpolation or directive ($${, %%{) the literal ${ or %{ it stands for.
std::string TemplateLiteral(std::string_view written) {
  std::string out = DecodeEscapes(written);
  for (const char* esc : {"$${", "%%{"}) {
    for (size_t p = out.find(esc); p != std::string::npos; p = out.find(esc, p + 2)) out.erase(p, 1);
  }
  return out;
}

bool ReadLimited(const FileSource& files, const fs::path& p, size_t limit, std::string* out) {
  std::string error;  // a regular file of at most `limit` bytes, or nothing
  return files.Read(p.string(), limit, out, &error);
}

bool IsNumberText(const std::string& s) {
  if (s.empty()) return false;
  char* end = nullptr;
  std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size();
}

// How Terraform writes an instance key in an address: [0] or ["key"].
std::string InstanceSuffix(const TfVal& key) {
  if (key.kind == K::kNum) return "[" + key.text + "]";
  std::string out = "[\"";
  for (char c : key.text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"]";
}

TfVal MapOf(std::vector<std::pair<std::string, TfVal>> fields) {
  TfVal v;
  v.kind = K::kMap;
  for (auto& [k, x] : fields) v.fields.emplace_back(k, std::move(x));
  return v;
}

// Plain JSON (tfvars.json, jsondecode) as values: unquoted numbers, booleans and null keep their type.
TfVal JsonValue(const cfn::Node& n, SourceRange at, int depth) {
  TfVal v;
  v.range = n.pos.valid() ? SourceRange{n.pos, n.pos} : at;
  if (depth > kMaxDepth) return v;
  switch (n.kind) {
    case cfn::Node::Kind::kNull:
      v.kind = K::kNull;
      return v;
    case cfn::Node::Kind::kSeq:
      v.kind = K::kList;
      for (const cfn::Node& i : n.items) v.items.push_back(JsonValue(i, at, depth + 1));
      return v;
    case cfn::Node::Kind::kMap:
      v.kind = K::kMap;
      for (const auto& [k, x] : n.entries) v.fields.emplace_back(k, JsonValue(x, at, depth + 1));
      return v;
    default:
      if (!n.quoted && (n.text == "true" || n.text == "false")) return MakeKnown(K::kBool, n.text, v.range);
      if (!n.quoted && IsNumberText(n.text)) return MakeKnown(K::kNum, n.text, v.range);
      if (!n.quoted && n.text == "null") return MakeNull(v.range);
      return MakeKnown(K::kStr, n.text, v.range);
  }
}

struct Nesting {
  explicit Nesting(Unit& u) : unit(u), ok(u.Enter()) {}
  ~Nesting() { unit.Leave(); }
  Unit& unit;
  bool ok;
};

// Ranges of a value a stand-in reports: only what `path` wrote keeps a position.
void SetSources(TfVal& v, const std::string& path, SourceRange src, int depth) {
  if (depth > kMaxDepth) return;
  if (v.src_path.empty()) {
    v.src_path = path;
    v.src = v.range.valid() ? v.range : src;
  }
  for (TfVal& i : v.items) SetSources(i, path, src, depth + 1);
  for (auto& f : v.fields) SetSources(f.second, path, src, depth + 1);
}

// Terraform reads strict JSON; the YAML loader that gives positions accepts more.
std::optional<ParseError> StrictJsonError(const std::string& text) {
  if (nlohmann::json::accept(text)) return std::nullopt;
  try {
    nlohmann::json doc = nlohmann::json::parse(text);
    return std::nullopt;
  } catch (const nlohmann::json::parse_error& e) {
    size_t byte = e.byte > 0 ? std::min<size_t>(e.byte - 1, text.size()) : 0;
    int line = 1, column = 1;
    for (size_t i = 0; i < byte; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    size_t colon = what.find(": ", what.find("parse error"));
    return ParseError{"invalid JSON: " + (colon == std::string::npos ? what : what.substr(colon + 2)), {line, column}};
  }
}

}  // namespace

// ---- files ------------------------------------------------------------------

bool IdentChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-'; }

// A number as Terraform shows it: 1e2 is 100.
std::string NumberValue(const std::string& written) {
  double v = std::strtod(written.c_str(), nullptr);
  char buf[64];
  if (std::isfinite(v) && v == std::floor(v) && std::fabs(v) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
  } else {
    std::snprintf(buf, sizeof buf, "%.17g", v);
  }
  return buf;
}

// Replaces each number written with an exponent but no fraction (`1e2`,
// `3E+4`; HCL's NumericLit allows them, the grammar only after a fraction)
// by zeros of the same length, outside strings, heredocs and comments, and
// records its value by offset.
void MarkExponentNumbers(HclFile* f) {
  std::string& t = f->text;
  std::vector<char> modes;  // 's' a quoted string, 'i' an interpolation inside one
  std::vector<int> braces;  // open braces of each interpolation
  for (size_t i = 0; i < t.size();) {
    char c = t[i];
    char mode = modes.empty() ? 'c' : modes.back();
    char next = i + 1 < t.size() ? t[i + 1] : '\0';
    if (mode == 's') {
      if (c == '\\') {
        i += 2;
      } else if (c == '"' || c == '\n') {
        modes.pop_back();
        ++i;
      } else if ((c == '$' || c == '%') && next == '{') {
        modes.push_back('i');
        braces.push_back(0);
        i += 2;
      } else {
        ++i;
      }
      continue;
    }
    if (mode == 'i' && (c == '{' || c == '}')) {
      if (c == '{') {
        ++braces.back();
      } else if (braces.back()-- == 0) {
        braces.pop_back();
        modes.pop_back();
      }
      ++i;
      continue;
    }
    if (c == '"') {
      modes.push_back('s');
      ++i;
    } else if (c == '#' || (c == '/' && next == '/')) {
      i = t.find('\n', i);
    } else if (c == '/' && next == '*') {
      size_t end = t.find("*/", i + 2);
      i = end == std::string::npos ? end : end + 2;
    } else if (c == '<' && next == '<' && mode == 'c') {
      // A heredoc: its lines up to the one that holds only its marker.
      size_t k = i + 2 + (i + 2 < t.size() && t[i + 2] == '-');
      size_t start = k;
      while (k < t.size() && IdentChar(t[k])) ++k;
      std::string marker = t.substr(start, k - start);
      size_t line = t.find('\n', k);
      i = k;
      if (marker.empty() || line == std::string::npos) continue;
      for (size_t p = line + 1; p < t.size();) {
        size_t end = t.find('\n', p);
        std::string_view l(t.data() + p, (end == std::string::npos ? t.size() : end) - p);
        size_t a = l.find_first_not_of(" \t"), b = l.find_last_not_of(" \t\r");
        if (a != std::string_view::npos && l.substr(a, b - a + 1) == marker) {
          i = end == std::string::npos ? t.size() : end;
          break;
        }
        if (end == std::string::npos) {
          i = t.size();
          break;
        }
        p = end + 1;
      }
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      size_t k = i;
      while (k < t.size() && std::isdigit(static_cast<unsigned char>(t[k]))) ++k;
      // Identifiers are skipped whole below, so a digit here starts a number,
      // unless it is a fraction's (1.5e3, which the grammar reads).
      bool start_of_token = i == 0 || t[i - 1] != '.';
      if (start_of_token && k < t.size() && (t[k] == 'e' || t[k] == 'E')) {
        size_t e = k + 1;
        if (e < t.size() && (t[e] == '+' || t[e] == '-')) ++e;
        size_t digits = e;
        while (e < t.size() && std::isdigit(static_cast<unsigned char>(t[e]))) ++e;
        bool ends = e == t.size() || !(std::isalnum(static_cast<unsigned char>(t[e])) || t[e] == '_');
        if (e > digits && ends) {
          f->exponent_numbers[static_cast<uint32_t>(i)] = NumberValue(t.substr(i, e - i));
          std::fill(t.begin() + static_cast<std::ptrdiff_t>(i), t.begin() + static_cast<std::ptrdiff_t>(e), '0');
          k = e;
        }
      }
      while (k < t.size() && IdentChar(t[k])) ++k;
      i = k;
    } else if (IdentChar(c)) {
      while (i < t.size() && IdentChar(t[i])) ++i;
    } else {
      ++i;
    }
  }
}

std::unique_ptr<HclFile> ParseHclFile(std::string abs, std::string display, std::string root_path, std::string text) {
  auto f = std::make_unique<HclFile>();
  f->abs = std::move(abs);
  f->path = std::move(display);
  f->root_path = std::move(root_path);
  f->text = std::move(text);
  f->vars = f->path.ends_with(".tfvars") || f->path.ends_with(".tfvars.json");
  f->json = f->path.ends_with(".tf.json") || f->path.ends_with(".tfvars.json");
  // A byte-order mark becomes spaces, so offsets and lines stay put.
  if (f->text.compare(0, 3, "\xEF\xBB\xBF") == 0) f->text.replace(0, 3, "   ");
  if (f->text.size() > kMaxFileBytes) {
    f->errors.push_back({"file larger than 4 MiB; not parsed", {1, 1}});
  } else if (f->text.find('\0') != std::string::npos) {
    f->errors.push_back({"file contains NUL bytes; not parsed", {1, 1}});
  } else if (f->json) {
    if (auto strict = StrictJsonError(f->text)) {
      f->errors.push_back(*strict);
    } else {
      std::vector<cfn::LoadError> errors;
      bool ok = cfn::LoadDocument(f->text, 0, cfn::LoadLimits{}, &f->json_root, &errors);
      for (const auto& e : errors) f->errors.push_back({e.message, e.pos});
      if (ok && !f->json_root.is_map() && f->errors.empty()) {
        f->errors.push_back({"a Terraform JSON file must hold one object",
                             f->json_root.pos.valid() ? f->json_root.pos : SourcePos{1, 1}});
      }
    }
  } else {
    if (f->text.find_first_of("eE") != std::string::npos) MarkExponentNumbers(f.get());
    f->tree = ts::Parse(tree_sitter_hcl(), f->text);
    if (!f->tree) {
      f->errors.push_back({"parsing took too long; file skipped", {1, 1}});
    } else if (auto err = ts::InnermostFirstError(ts_tree_root_node(f->tree.get()), f->text,
                                                  {{"block", "attribute", "comment", "body"},
                                                   "identifier",
                                                   {"string_lit", "identifier"},
                                                   "block_start"})) {
      f->errors.push_back({err->message, err->pos});
    }
  }
  f->broken = !f->errors.empty();
  return f;
}

std::vector<std::string> LocalModuleSources(const HclFile& f) {
  std::vector<std::string> out;
  auto local = [](const std::string& s) {
    return s.rfind("./", 0) == 0 || s.rfind("../", 0) == 0 || s == "." || s == "..";
  };
  if (f.broken || f.vars) return out;
  if (f.json) {
    const cfn::Node* modules = f.json_root.Get("module");
    if (!modules || !modules->is_map()) return out;
    for (const auto& [name, m] : modules->entries) {
      const cfn::Node* src = m.Get("source");
      if (src && src->is_scalar() && local(src->text)) out.push_back(src->text);
    }
    return out;
  }
  TSNode body = Body(ts_tree_root_node(f.tree.get()));
  if (ts_node_is_null(body)) return out;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) != "block" || BlockKind(c, f) != "module") continue;
    TSNode src = AttributeExpr(BlockBody(c), f, "source");
    if (ts_node_is_null(src)) continue;
    // A source is a literal string (Terraform requires it).
    std::string_view t = ts::Text(src, f.text);
    if (t.size() >= 2 && t.front() == '"' && t.back() == '"' && t.find("${") == std::string_view::npos) {
      std::string s(t.substr(1, t.size() - 2));
      if (local(s)) out.push_back(s);
    }
  }
  return out;
}

Unit::Unit(const ResolveOptions& opts) : opts_(opts) {
  if (!opts.root.empty()) root_ = opts.files->WeaklyCanonical(opts.root).value_or("");
}

std::optional<fs::path> Unit::Inside(const fs::path& p) const {
  auto canonical = opts_.files->WeaklyCanonical(p.string());
  if (!canonical) return std::nullopt;
  if (root_.empty() || PathBelow(*canonical, root_.string())) return fs::path(*canonical);
  return std::nullopt;
}

bool Unit::Step(long n) {
  steps_ += n;
  if (steps_ < max_steps_) return true;
  Spent("it needs more than 4,000,000 evaluation steps");
  return steps_ < max_steps_;
}

bool Unit::Charge(const ValueSize& size, SourceRange at) {
  if (Oversized(size)) {
    TooLarge(at);
    return false;
  }
  if (nodes_ + size.nodes > max_nodes_ || bytes_ + size.bytes > max_bytes_) {
    Spent("the values it builds exceed the budget (250,000 values or 64 MiB of text)");
    if (nodes_ + size.nodes > max_nodes_ || bytes_ + size.bytes > max_bytes_) return false;
  }
  nodes_ += size.nodes;
  bytes_ += size.bytes;
  return true;
}

// The budget is spent: say where, and read on with literal values, on a
// reserve of a quarter of the budget. Past the reserve nothing more is said.
void Unit::Spent(const std::string& why) {
  if (literal_) return;
  literal_ = true;
  max_steps_ = std::max(max_steps_, steps_) + kMaxSteps / 4;
  max_nodes_ = std::max(max_nodes_, nodes_) + kMaxNodes / 4;
  max_bytes_ = std::max(max_bytes_, bytes_) + kMaxBytes / 4;
  if (!at_file_) return;
  bounds.push_back({at_file_->path,
                    {"sagelint stopped evaluating this module here: " + why +
                         "; every value after this point that is not written literally (a reference to a variable, "
                         "local, resource, module output or iterator) is unknown",
                     at_.valid() ? at_ : SourcePos{1, 1}}});
}

void Unit::TooLarge(SourceRange at) {
  if (!at_file_ || !too_large_in_.insert(at_file_->path).second) return;
  bounds.push_back({at_file_->path,
                    {"sagelint stopped evaluating a value here: it is larger than one value may be (25,000 values or "
                     "4 MiB of text), so it and what is computed from it are unknown",
                     at.begin.valid() ? at.begin
                     : at_.valid()    ? at_
                                      : SourcePos{1, 1}}});
}

std::string Unit::RootRelative(const fs::path& abs) const {
  auto canonical = opts_.files->WeaklyCanonical(abs.string());
  if (!canonical) return DisplayPath(abs.string());
  return PathBelow(*canonical, root_.string()).value_or(DisplayPath(abs.string()));
}

HclFile* Unit::File(const fs::path& canonical) {
  std::string key = canonical.string();
  auto it = files_.find(key);
  if (it != files_.end()) return it->second.get();
  std::string text;
  std::unique_ptr<HclFile> f;
  if (ReadLimited(*opts_.files, canonical, kMaxFileBytes, &text)) {
    f = ParseHclFile(key, DisplayPath(key), RootRelative(canonical), std::move(text));
  }
  HclFile* out = f.get();
  files_[key] = std::move(f);
  return out;
}

// ---- types ------------------------------------------------------------------

struct Module::TypeSpec {
  enum class T { kAny, kString, kNumber, kBool, kList, kSet, kMap, kObject, kTuple };
  T t = T::kAny;
  std::vector<std::unique_ptr<TypeSpec>> elems;
  struct Attr {
    std::string name;
    std::unique_ptr<TypeSpec> type;
    bool has_default = false;
    TfVal def;
  };
  std::vector<Attr> attrs;
};

struct Module::Call {
  std::string suffix;
  std::map<std::string, TfVal> inputs;
  std::unique_ptr<Module> module;
};

std::unique_ptr<Module::TypeSpec> Module::ParseType(TSNode n, const HclFile& f, int depth) {
  auto spec = std::make_unique<TypeSpec>();
  while (!ts_node_is_null(n) && (Type(n) == "expression" || Type(n) == "collection_value") &&
         ts_node_named_child_count(n) == 1) {
    n = ts_node_named_child(n, 0);
  }
  if (ts_node_is_null(n) || depth > kMaxDepth) return spec;
  if (Type(n) == "variable_expr") {
    std::string_view name = ts::Text(n, f.text);
    if (name == "string") spec->t = TypeSpec::T::kString;
    if (name == "number") spec->t = TypeSpec::T::kNumber;
    if (name == "bool") spec->t = TypeSpec::T::kBool;
    return spec;
  }
  if (Type(n) != "function_call") return spec;
  std::string name(ts::Text(ts_node_named_child(n, 0), f.text));
  std::vector<TSNode> args;
  if (ts_node_named_child_count(n) > 1) {
    TSNode list = ts_node_named_child(n, 1);
    for (uint32_t i = 0; i < ts_node_named_child_count(list); ++i) {
      if (Type(ts_node_named_child(list, i)) == "expression") args.push_back(ts_node_named_child(list, i));
    }
  }
  if ((name == "list" || name == "set" || name == "map") && args.size() == 1) {
    spec->t = name == "list" ? TypeSpec::T::kList : name == "set" ? TypeSpec::T::kSet : TypeSpec::T::kMap;
    spec->elems.push_back(ParseType(args[0], f, depth + 1));
  } else if (name == "tuple" && args.size() == 1) {
    spec->t = TypeSpec::T::kTuple;
    TSNode t = args[0];
    while (!ts_node_is_null(t) && Type(t) != "tuple" && ts_node_named_child_count(t) == 1)
      t = ts_node_named_child(t, 0);
    if (!ts_node_is_null(t) && Type(t) == "tuple") {
      for (uint32_t i = 0; i < ts_node_named_child_count(t); ++i) {
        TSNode c = ts_node_named_child(t, i);
        if (Type(c) == "expression") spec->elems.push_back(ParseType(c, f, depth + 1));
      }
    }
  } else if (name == "object" && args.size() == 1) {
    spec->t = TypeSpec::T::kObject;
    TSNode o = args[0];
    while (!ts_node_is_null(o) && Type(o) != "object" && ts_node_named_child_count(o) == 1)
      o = ts_node_named_child(o, 0);
    if (ts_node_is_null(o) || Type(o) != "object") return spec;
    for (uint32_t i = 0; i < ts_node_named_child_count(o); ++i) {
      TSNode e = ts_node_named_child(o, i);
      if (Type(e) != "object_elem") continue;
      TypeSpec::Attr a;
      std::string key(ts::Text(ts::Field(e, "key"), f.text));
      if (key.size() >= 2 && key.front() == '"' && key.back() == '"') key = key.substr(1, key.size() - 2);
      a.name = key;
      TSNode val = ts::Field(e, "val");
      TSNode call = val;
      while (!ts_node_is_null(call) && Type(call) == "expression" && ts_node_named_child_count(call) == 1) {
        call = ts_node_named_child(call, 0);
      }
      if (!ts_node_is_null(call) && Type(call) == "function_call" &&
          ts::Text(ts_node_named_child(call, 0), f.text) == "optional" && ts_node_named_child_count(call) > 1) {
        TSNode list = ts_node_named_child(call, 1);
        std::vector<TSNode> oargs;
        for (uint32_t j = 0; j < ts_node_named_child_count(list); ++j) {
          if (Type(ts_node_named_child(list, j)) == "expression") oargs.push_back(ts_node_named_child(list, j));
        }
        a.type = oargs.empty() ? std::make_unique<TypeSpec>() : ParseType(oargs[0], f, depth + 1);
        if (oargs.size() > 1) {
          a.has_default = true;
          a.def = Eval(oargs[1], f, depth + 1);
        }
      } else {
        a.type = ParseType(val, f, depth + 1);
      }
      spec->attrs.push_back(std::move(a));
    }
  }
  return spec;
}

TfVal Module::ApplyType(TfVal v, const TypeSpec& t, int depth) {
  if (depth > kMaxDepth || v.error || v.kind == K::kNull || v.kind == K::kUnknown || v.kind == K::kCond) return v;
  switch (t.t) {
    case TypeSpec::T::kString:
      if (v.known()) v.kind = K::kStr;
      break;
    case TypeSpec::T::kNumber:
      if (v.known() && IsNumberText(v.text)) v.kind = K::kNum;
      break;
    case TypeSpec::T::kBool:
      if (v.known() && (v.text == "true" || v.text == "false")) v.kind = K::kBool;
      break;
    case TypeSpec::T::kList:
    case TypeSpec::T::kSet:
      if (v.kind == K::kList && !t.elems.empty()) {
        for (TfVal& i : v.items) i = ApplyType(std::move(i), *t.elems[0], depth + 1);
      }
      break;
    case TypeSpec::T::kTuple:
      if (v.kind == K::kList) {
        for (size_t i = 0; i < v.items.size() && i < t.elems.size(); ++i) {
          v.items[i] = ApplyType(std::move(v.items[i]), *t.elems[i], depth + 1);
        }
      }
      break;
    case TypeSpec::T::kMap:
      if (v.kind == K::kMap && !t.elems.empty()) {
        for (auto& fld : v.fields) fld.second = ApplyType(std::move(fld.second), *t.elems[0], depth + 1);
      }
      break;
    case TypeSpec::T::kObject:
      if (v.kind != K::kMap || v.dynamic) break;
      // Attributes the value leaves out are null, or their optional() default.
      for (const TypeSpec::Attr& a : t.attrs) {
        auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == a.name; });
        if (it != v.fields.end()) {
          if (it->second.is_null() && a.has_default) it->second = a.def;
          it->second = ApplyType(std::move(it->second), *a.type, depth + 1);
        } else {
          TfVal def = a.has_default ? ApplyType(a.def, *a.type, depth + 1) : MakeNull(v.range);
          v.fields.emplace_back(a.name, std::move(def));
        }
      }
      break;
    default:
      break;
  }
  return v;
}

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

std::vector<std::pair<std::string, TfVal>> Module::VarFileValues(HclFile& f) {
  std::vector<std::pair<std::string, TfVal>> out;
  if (f.json) {
    if (!f.json_root.is_map()) return out;
    for (size_t i = 0; i < f.json_root.entries.size(); ++i) {
      const auto& [name, node] = f.json_root.entries[i];
      TfVal v = JsonValue(node, {f.json_root.key_pos[i], f.json_root.key_pos[i]}, 0);
      SetSources(v, f.path, v.range, 0);
      v.origin = "variable " + name + " (" + f.root_path + ")";
      out.emplace_back(name, std::move(v));
    }
    return out;
  }
  TSNode body = Body(ts_tree_root_node(f.tree.get()));
  if (ts_node_is_null(body)) return out;
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) != "attribute") continue;
    std::string name(ts::Text(ts_node_named_child(c, 0), f.text));
    TfVal v = Eval(ts_node_named_child(c, 1), f, 0);
    v.origin = "variable " + name + " (" + f.root_path + ")";
    out.emplace_back(name, std::move(v));
  }
  return out;
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

namespace {

// Mentions of var.x and local.y in a JSON file's strings ("${var.x}"): every
// `var.` or `local.` that does not continue a longer name.
void CountJsonUses(const std::string& text, std::map<std::string, int>* uses) {
  for (std::string_view root : {"var.", "local."}) {
    for (size_t at = text.find(root); at != std::string::npos; at = text.find(root, at + 1)) {
      if (at > 0 && (IdentChar(text[at - 1]) || text[at - 1] == '.')) continue;
      size_t end = at + root.size();
      while (end < text.size() && IdentChar(text[end])) ++end;
      if (end > at + root.size()) ++(*uses)[text.substr(at, end - at)];
    }
  }
}

// Mentions in an HCL tree: a `var` or `local` variable followed by an attribute.
void CountHclUses(const HclFile& f, std::map<std::string, int>* uses) {
  TSTreeCursor cursor = ts_tree_cursor_new(ts_tree_root_node(f.tree.get()));
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (Type(n) == "variable_expr") {
      std::string_view root = ts::Text(n, f.text);
      TSNode next = ts_node_next_named_sibling(n);
      if ((root == "var" || root == "local") && !ts_node_is_null(next) && Type(next) == "get_attr" &&
          ts_node_named_child_count(next) > 0) {
        ++(*uses)[std::string(root) + "." + std::string(ts::Text(ts_node_named_child(next, 0), f.text))];
      }
    }
    if (ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

}  // namespace

int Module::Uses(std::string_view root, const std::string& name) {
  if (!uses_) {
    uses_.emplace();
    for (const HclFile* f : files_) {
      if (f->broken || f->vars) continue;
      if (f->json) {
        CountJsonUses(f->text, &*uses_);
      } else if (f->tree) {
        CountHclUses(*f, &*uses_);
      }
    }
  }
  auto it = uses_->find(std::string(root) + "." + name);
  return it == uses_->end() ? 0 : it->second;
}

TfVal Module::Variable(const std::string& name, SourceRange at) {
  auto memo = variable_memo_.find(name);
  if (memo == variable_memo_.end()) {
    Nesting nesting(unit_);
    if (!nesting.ok) return Unknown(at);
    TfVal v;
    bool set = false;
    if (inputs_) {
      if (auto in = inputs_->find(name); in != inputs_->end()) {
        v = in->second;
        set = true;
      }
    } else if (auto it = var_values_.find(name); it != var_values_.end()) {
      v = it->second;
      set = true;
    }
    // A module argument or a variable file's value is not this module's to edit.
    if (set) ClearLiteral(v);
    std::unique_ptr<TypeSpec> type;
    std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
    scope_.clear();
    if (auto decl = variables_.find(name); decl != variables_.end()) {
      const HclFile& f = *decl->second.first;
      TSNode type_expr = AttributeExpr(decl->second.second, f, "type");
      if (!ts_node_is_null(type_expr)) type = ParseType(type_expr, f, 1);
      TSNode def = AttributeExpr(decl->second.second, f, "default");
      if (!set && !ts_node_is_null(def)) {
        v = Eval(def, f, 1);
        if (v.known()) v.origin = "variable " + name + " default";
        if (Uses("var", name) != 1) ClearLiteral(v);
        set = true;
      }
    } else if (auto j = json_variables_.find(name); j != json_variables_.end() && !set) {
      if (const cfn::Node* def = j->second.second->Get("default")) {
        v = JsonValue(*def, {def->pos, def->pos}, 0);
        SetSources(v, j->second.first->path, v.range, 0);
        if (v.known()) v.origin = "variable " + name + " default";
        set = true;
      }
    }
    scope_ = std::move(saved);
    if (!set) v.origin = "variable " + name + " has no value";
    if (type) v = ApplyType(std::move(v), *type, 0);
    memo = variable_memo_.emplace(name, std::move(v)).first;
  }
  return Moved(memo->second, at);
}

TfVal Module::Local(const std::string& name, SourceRange at) {
  auto memo = local_memo_.find(name);
  if (memo == local_memo_.end()) {
    Nesting nesting(unit_);
    if (!nesting.ok || evaluating_.count("local." + name)) return Unknown(at);
    evaluating_.insert("local." + name);
    std::vector<std::pair<std::string, TfVal>> saved = std::move(scope_);
    scope_.clear();
    TfVal v;
    if (auto it = locals_.find(name); it != locals_.end()) {
      v = Eval(ts_node_named_child(it->second.second, 1), *it->second.first, 1);
    } else if (auto j = json_locals_.find(name); j != json_locals_.end()) {
      v = FromJson(*j->second.second, *j->second.first, 1, true);
    } else {
      v = MakeError(at, "no local " + name);
    }
    scope_ = std::move(saved);
    evaluating_.erase("local." + name);
    if (v.known() && v.origin.empty()) v.origin = "local " + name;
    if (Uses("local", name) != 1) ClearLiteral(v);
    memo = local_memo_.emplace(name, std::move(v)).first;
  }
  return Moved(memo->second, at);
}

TfVal Module::Eval(TSNode n, const HclFile& f, int depth) {
  if (ts_node_is_null(n)) return TfVal{};
  if (!f.snippet) unit_.At(&f, ts::Start(n));
  // Each expression is one step and one value of its own; what it copies or
  // builds is charged where that happens.
  if (depth > kMaxDepth || !unit_.Step() || !unit_.Charge({1, 0}, Range(n))) return Unknown(Range(n));
  TfVal v = EvalInner(n, f, depth);
  // What a function, condition, operator or for expression gives is no token
  // of the file, even when it is one of its operands.
  // jsonencode of an object or a tuple keeps its elements' tokens: a request
  // written as `jsonencode({...})` says each value where it is written.
  static const std::set<std::string_view> kComputed = {"function_call", "conditional", "operation", "for_expr"};
  bool encoded = Type(n) == "function_call" && (v.kind == K::kMap || v.kind == K::kList) &&
                 ts::Text(ts_node_named_child(n, 0), f.text) == "jsonencode";
  if (kComputed.count(Type(n)) && !encoded) ClearLiteral(v);
  if (v.src_path.empty()) {
    v.src_path = f.path;
    v.src = v.range.valid() ? v.range : Range(n);
  }
  return v;
}

TfVal Module::EvalInner(TSNode n, const HclFile& f, int depth) {
  SourceRange r = Range(n);
  std::string_view type = Type(n);
  if (type == "expression") return Chain(n, 0, ts_node_named_child_count(n), f, depth);
  if (type == "variable_expr") {
    uint32_t next = 0;
    return Traversal(n, 0, &next, f, depth);
  }
  if (type == "literal_value" || type == "template_expr" || type == "collection_value") {
    return Eval(ts_node_named_child(n, 0), f, depth + 1);
  }
  if (type == "numeric_lit") {
    auto exp = f.exponent_numbers.find(ts_node_start_byte(n));
    if (exp != f.exponent_numbers.end()) return MakeKnown(K::kNum, exp->second, r);
    TfVal v = MakeKnown(K::kNum, std::string(ts::Text(n, f.text)), r);
    v.literal = true;
    return v;
  }
  if (type == "bool_lit") {
    TfVal v = MakeKnown(K::kBool, std::string(ts::Text(n, f.text)), r);
    v.literal = true;
    return v;
  }
  if (type == "null_lit") return MakeNull(r);
  if (type == "string_lit" || type == "quoted_template") return Template(n, f, depth, false);
  if (type == "heredoc_template") return Template(n, f, depth, true);
  if (type == "tuple") {
    TfVal v;
    v.kind = K::kList;
    v.range = r;
    uint32_t count = ts_node_named_child_count(n);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) == "expression") v.items.push_back(Eval(c, f, depth + 1));
    }
    return v;
  }
  if (type == "object") {
    TfVal v;
    v.kind = K::kMap;
    v.range = r;
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
      TfVal val = Eval(ts::Field(c, "val"), f, depth + 1);
      auto it = std::find_if(v.fields.begin(), v.fields.end(), [&](const auto& x) { return x.first == k; });
      if (it != v.fields.end())
        it->second = std::move(val);
      else
        v.fields.emplace_back(k, std::move(val));
    }
    return v;
  }
  if (type == "function_call") return Function(n, f, depth);
  if (type == "conditional") return Conditional(n, f, depth);
  if (type == "operation") return Operation(ts_node_named_child(n, 0), f, depth);
  if (type == "for_expr") return ForExpr(n, f, depth);
  return Unknown(r);
}

// Named children [first, last) of `parent`: a base and the attributes,
// indexes and splats that follow it.
TfVal Module::Chain(TSNode parent, uint32_t first, uint32_t last, const HclFile& f, int depth) {
  if (first >= last) return TfVal{};
  TSNode base = ts_node_named_child(parent, first);
  SourceRange whole{ts::Start(base), ts::End(ts_node_named_child(parent, last - 1))};
  TfVal v;
  uint32_t i = first + 1;
  if (Type(base) == "variable_expr") {
    v = Traversal(parent, first, &i, f, depth);
  } else {
    v = Eval(base, f, depth + 1);
  }
  bool suffixed = i < last;
  for (; i < last; ++i) {
    TSNode s = ts_node_named_child(parent, i);
    if (Type(s) == "comment") continue;
    v = Suffix(std::move(v), s, f, depth);
  }
  if (suffixed) {
    v.range = whole;
    ClearLiteral(v);  // an element or attribute of a collection
  }
  return v;
}

// var.x, local.y, aws_x.name.attr, data.t.n.attr, path.module, each.*,
// count.index, module.m.out, and the variables of for expressions and
// dynamic blocks. `*next` is set to the first child not consumed.
TfVal Module::Traversal(TSNode parent, uint32_t first, uint32_t* next, const HclFile& f, int depth) {
  (void)depth;
  std::vector<std::string> parts;
  uint32_t count = ts_node_named_child_count(parent);
  if (Type(parent) == "variable_expr") count = 1;
  uint32_t i = first;
  TSNode last{};
  for (; i < count; ++i) {
    TSNode c = Type(parent) == "variable_expr" ? parent : ts_node_named_child(parent, i);
    if ((i == first && Type(c) == "variable_expr") || (i > first && Type(c) == "get_attr")) {
      parts.emplace_back(ts::Text(ts_node_named_child(c, 0), f.text));
      last = c;
    } else {
      break;
    }
  }
  *next = i;
  if (parts.empty()) return TfVal{};
  SourceRange at{ts::Start(Type(parent) == "variable_expr" ? parent : ts_node_named_child(parent, first)),
                 ts::End(last)};
  const std::string& root = parts[0];
  size_t used = 1;
  TfVal v;
  // Past the budget only what is written literally is read.
  if (unit_.literal()) return Unknown(at);
  if (const TfVal* s = Lookup(root)) {
    v = Moved(*s, at);
    ClearLiteral(v);  // each.value, a for or dynamic iterator: one value per instance
  } else if (root == "var" && parts.size() > 1) {
    v = Variable(parts[1], at);
    used = 2;
  } else if (root == "local" && parts.size() > 1) {
    v = Local(parts[1], at);
    used = 2;
  } else if (root == "path" && parts.size() > 1) {
    // path.module is this module's directory; path.root and path.cwd the root module's.
    std::string dir = dir_.string();
    v = MakeKnown(K::kStr, parts[1] == "module" ? dir : unit_.root_dir.empty() ? dir : unit_.root_dir, at);
    used = 2;
  } else if (root == "module" && parts.size() > 1) {
    v = Unknown(at);
    v.ref = "module." + parts[1];
    used = 2;
  } else if (root == "each" || root == "count" || root == "self" || root == "terraform") {
    return Unknown(at);
  } else {
    bool data = root == "data";
    size_t base = data ? 1 : 0;
    if (parts.size() < base + 2) return Unknown(at);
    std::string address = (data ? "data." : "") + parts[base] + "." + parts[base + 1];
    if (!decls_.count(address)) return Unknown(at);
    v = Unknown(at);
    v.ref = address;
    v.link = std::string(1, kRefMark) + prefix_ + address + kRefMark;
    used = base + 2;
  }
  for (size_t k = used; k < parts.size(); ++k) v = GetAttr(v, parts[k], at);
  if (used < parts.size()) ClearLiteral(v);
  return v;
}

TfVal Module::Suffix(TfVal base, TSNode s, const HclFile& f, int depth) {
  SourceRange at = Range(s);
  std::string_view t = Type(s);
  if (t == "get_attr") return GetAttr(base, std::string(ts::Text(ts_node_named_child(s, 0), f.text)), at);
  if (t == "index") {
    TSNode idx = ts_node_named_child(s, 0);
    TfVal key;
    if (Type(idx) == "legacy_index") {
      std::string_view text = ts::Text(idx, f.text);
      while (!text.empty() && (text.front() == '.' || text.front() == ' ')) text.remove_prefix(1);
      key = MakeKnown(K::kNum, std::string(text), at);
    } else {
      key = Eval(ts_node_named_child(idx, 0), f, depth + 1);
    }
    return Index(base, key, at);
  }
  if (t == "splat") {
    TSNode inner = ts_node_named_child(s, 0);
    if (base.error) return base;
    std::vector<TfVal> elems;
    if (!base.ref.empty() && base.ref.find('[') == std::string::npos && base.ref.rfind("module.", 0) != 0) {
      for (const Instance& inst : Instances(base.ref)) {
        TfVal e = base;
        e.ref = base.ref + inst.suffix;
        e.link = std::string(1, kRefMark) + prefix_ + e.ref + kRefMark;
        elems.push_back(std::move(e));
      }
    } else if (base.kind == K::kList) {
      elems = base.items;
    } else if (base.kind == K::kNull) {
    } else if (base.kind == K::kUnknown || base.kind == K::kCond) {
      return Unknown(at);
    } else {
      elems.push_back(base);
    }
    TfVal out;
    out.kind = K::kList;
    out.range = at;
    for (TfVal& e : elems) {
      for (uint32_t i = 0; i < ts_node_named_child_count(inner); ++i)
        e = Suffix(std::move(e), ts_node_named_child(inner, i), f, depth);
      out.items.push_back(std::move(e));
    }
    return out;
  }
  return Unknown(at);
}

TfVal Module::GetAttr(const TfVal& base, const std::string& name, SourceRange at) {
  if (base.error) return base;
  if (!base.ref.empty()) {
    return base.ref.rfind("module.", 0) == 0 ? ModuleAttr(base, name, at) : RefAttr(base, name, at);
  }
  switch (base.kind) {
    case K::kMap:
      if (const TfVal* x = base.Get(name)) return *x;
      if (base.dynamic) return Unknown(at);
      return MakeError(at, "no attribute " + name);
    case K::kNull:
      return MakeError(at, "attribute " + name + " of null");
    case K::kCond: {
      TfVal v = base;
      for (TfVal& i : v.items) i = GetAttr(i, name, at);
      return v;
    }
    case K::kUnknown:
      return Unknown(at);
    default:
      return MakeError(at, "attribute " + name + " of a " + (base.kind == K::kList ? "list" : "scalar"));
  }
}

TfVal Module::Index(const TfVal& base, const TfVal& key, SourceRange at) {
  if (base.error) return base;
  if (key.error) return key;
  if (!base.ref.empty() && base.ref.find('[') == std::string::npos) {
    if (!key.known()) return base;  // an unknown instance: links to the resource as a whole
    TfVal v = base;
    v.ref = base.ref + InstanceSuffix(key);
    if (base.ref.rfind("module.", 0) != 0) {
      const auto& insts = Instances(base.ref);
      bool unexpanded = insts.size() == 1 && insts[0].suffix.empty();
      if (unexpanded) return base;
      if (std::none_of(insts.begin(), insts.end(),
                       [&](const Instance& i) { return i.suffix == InstanceSuffix(key); })) {
        return MakeError(at, "no instance " + v.ref);
      }
      v.link = std::string(1, kRefMark) + prefix_ + v.ref + kRefMark;
    }
    return v;
  }
  switch (base.kind) {
    case K::kList:
      if (key.known() && IsNumberText(key.text)) {
        double d = std::atof(key.text.c_str());
        if (d >= 0 && d < static_cast<double>(base.items.size())) return base.items[static_cast<size_t>(d)];
        return MakeError(at, "index out of range");
      }
      return Unknown(at);
    case K::kMap:
      if (!key.known()) return Unknown(at);
      if (const TfVal* x = base.Get(key.text)) return *x;
      if (base.dynamic) return Unknown(at);
      return MakeError(at, "no key " + key.text);
    case K::kNull:
      return MakeError(at, "index of null");
    case K::kCond: {
      TfVal v = base;
      for (TfVal& i : v.items) i = Index(i, key, at);
      return v;
    }
    default:
      return Unknown(at);
  }
}

// An attribute of a resource (instance): its argument when known (names,
// ARNs written out, resource IDs), a rendered template, or else a link to it.
TfVal Module::RefAttr(const TfVal& base, const std::string& attr, SourceRange at) {
  std::string address = base.ref;
  std::string decl = address.substr(0, address.find('['));
  TfVal link = Unknown(at);
  link.link = std::string(1, kRefMark) + prefix_ + address + kRefMark;
  auto d = decls_.find(decl);
  if (d == decls_.end() || evaluating_.count(address)) return link;
  const Instance* inst = nullptr;
  for (const Instance& i : Instances(decl)) {
    if (decl + i.suffix == address) inst = &i;
  }
  if (!inst) return link;
  const TfVal& body = Evaluated(address, *inst);
  const std::string& type = d->second.type;
  bool data = d->second.mode == "data";
  if (data && type == "template_file" && attr == "rendered") {
    const TfVal* tmpl = body.Get("template");
    if (!tmpl || !tmpl->known()) return link;
    TfVal out = RenderTemplate(tmpl->text, body.Get("vars"), at);
    if (out.known()) out.origin = "template of " + prefix_ + address;
    return out;
  }
  if (data && type == "aws_iam_policy" && attr == "arn" && !body.Get("arn")) {
    const TfVal* name = body.Get("name");
    if (name && name->known()) {
      TfVal out = link;
      out.shape = std::string("arn:") + kHole + ":iam::aws:policy/" + name->text;
      return out;
    }
  }
  std::string key = attr == "id" && type.rfind("aws_sagemaker_", 0) == 0 ? "name" : attr;
  if (const TfVal* x = body.Get(key)) {
    if (x->known() || x->kind == K::kList || x->kind == K::kMap) {
      TfVal out = Moved(*x, at);
      if (out.known()) out.origin = (key == "name" ? "name of " : attr + " of ") + prefix_ + address;
      if (!out.known()) out.link = link.link;
      return out;
    }
    if (!x->shape.empty()) link.shape = x->shape;
  }
  return link;
}

TfVal Module::BodyValue(TSNode body, const HclFile& f, int depth, bool resource) {
  TfVal m;
  m.kind = K::kMap;
  if (ts_node_is_null(body) || depth > kMaxDepth) return m;
  m.range = {ts::Start(body), ts::Start(body)};
  m.src_path = f.path;
  m.src = m.range;
  static const std::set<std::string_view> kMetaAttrs = {"count", "for_each", "depends_on", "provider"};
  static const std::set<std::string_view> kMetaBlocks = {"lifecycle", "provisioner", "connection"};
  auto append = [&](const std::string& key, TfVal child) {
    auto it = std::find_if(m.fields.begin(), m.fields.end(), [&](const auto& kv) { return kv.first == key; });
    if (it == m.fields.end()) {
      TfVal list;
      list.kind = K::kList;
      list.range = child.range;
      list.items.push_back(std::move(child));
      m.fields.emplace_back(key, std::move(list));
    } else {
      it->second.items.push_back(std::move(child));
    }
  };
  uint32_t n = ts_node_named_child_count(body);
  for (uint32_t i = 0; i < n; ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) == "attribute") {
      std::string key(ts::Text(ts_node_named_child(c, 0), f.text));
      if (resource && kMetaAttrs.count(key)) continue;
      m.fields.emplace_back(key, Eval(ts_node_named_child(c, 1), f, depth + 1));
    } else if (Type(c) == "block") {
      std::string key = BlockKind(c, f);
      if (resource && kMetaBlocks.count(key)) continue;
      if (key == "dynamic") {
        TfVal blocks;
        DynamicBlock(c, f, depth, &blocks);
        m.AddDynamic(blocks);
        for (auto& [name, list] : blocks.fields) {
          for (TfVal& item : list.items) append(name, std::move(item));
        }
        continue;
      }
      TfVal child = BodyValue(BlockBody(c), f, depth + 1, false);
      child.range = {ts::Start(c), ts::Start(c)};
      child.block = Range(c);
      append(key, std::move(child));
    }
  }
  return m;
}

// `dynamic "name" { for_each = …, iterator = it, content { … } }`: one block per
// element of a known collection; an unknown collection leaves the body incomplete.
void Module::DynamicBlock(TSNode block, const HclFile& f, int depth, TfVal* into) {
  into->kind = K::kMap;
  std::vector<std::string> labels = Labels(block, f);
  TSNode body = BlockBody(block);
  if (labels.empty() || ts_node_is_null(body)) {
    into->dynamic = true;
    return;
  }
  const std::string& name = labels[0];
  TSNode content{};
  for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) == "block" && BlockKind(c, f) == "content") content = c;
  }
  std::string iterator = name;
  TSNode it = AttributeExpr(body, f, "iterator");
  if (!ts_node_is_null(it)) iterator = std::string(ts::Text(it, f.text));
  TfVal collection = Eval(AttributeExpr(body, f, "for_each"), f, depth + 1);
  auto els = collection.error ? std::nullopt : Elements(collection);
  if (!els || ts_node_is_null(content)) {
    into->dynamic = true;
    into->dynamic_blocks = {name};  // only blocks of its name
    return;
  }
  TfVal list;
  list.kind = K::kList;
  for (auto& [k, v] : *els) {
    if (unit_.literal()) {  // past the budget: what the blocks would add is unknown
      into->dynamic = true;
      into->dynamic_blocks = {name};
      return;
    }
    TfVal key = collection.kind == K::kList && v.known() ? v : k;
    scope_.emplace_back(iterator, MapOf({{"key", key}, {"value", v}}));
    TfVal child = BodyValue(BlockBody(content), f, depth + 1, false);
    child.range = {ts::Start(block), ts::Start(block)};
    scope_.pop_back();
    list.items.push_back(std::move(child));
  }
  into->fields.emplace_back(name, std::move(list));
}

TfVal Module::FromJson(const cfn::Node& n, const HclFile& f, int depth, bool interpolate) {
  TfVal v;
  v.range = {n.pos, n.pos};
  if (depth > kMaxDepth) return v;
  switch (n.kind) {
    case cfn::Node::Kind::kNull:
      v.kind = K::kNull;
      break;
    case cfn::Node::Kind::kSeq:
      v.kind = K::kList;
      for (const cfn::Node& i : n.items) v.items.push_back(FromJson(i, f, depth + 1, interpolate));
      break;
    case cfn::Node::Kind::kMap:
      v.kind = K::kMap;
      for (const auto& [k, x] : n.entries) {
        if (k == "dynamic") {
          // `"dynamic": {"name": {…}}` adds only blocks of the names it lists.
          TfVal blocks;
          blocks.dynamic = true;
          if (x.is_map()) {
            for (const auto& entry : x.entries) blocks.dynamic_blocks.push_back(entry.first);
          }
          v.AddDynamic(blocks);
          continue;
        }
        v.fields.emplace_back(k, FromJson(x, f, depth + 1, interpolate));
      }
      break;
    default:
      if (interpolate && n.text.find("${") != std::string::npos) {
        v = Interpolated(n.text, v.range, depth, f);
      } else if (!n.quoted && (n.text == "true" || n.text == "false")) {
        v = MakeKnown(K::kBool, n.text, v.range);
      } else if (!n.quoted && IsNumberText(n.text)) {
        v = MakeKnown(K::kNum, n.text, v.range);
      } else {
        v = MakeKnown(K::kStr, n.text, v.range);
      }
  }
  v.src_path = f.path;
  v.src = v.range;
  return v;
}

// A JSON string with ${…} interpolations, evaluated as an HCL template.
TfVal Module::Interpolated(const std::string& text, SourceRange at, int depth, const HclFile& from) {
  auto f = std::make_unique<HclFile>();
  f->path = from.path;
  f->abs = from.abs;
  f->root_path = from.root_path;
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
  f->snippet = true;
  unit_.At(&from, at.begin);
  f->tree = ts::Parse(tree_sitter_hcl(), f->text);
  TfVal v = Unknown(at);
  if (!f->tree) return v;
  TSNode body = Body(ts_tree_root_node(f->tree.get()));
  if (ts_node_is_null(body) || ts_node_named_child_count(body) == 0) return v;
  TSNode attr = ts_node_named_child(body, 0);
  v = Rehome(Eval(ts_node_named_child(attr, 1), *f, depth + 1), at);
  v.src = at;
  ClearLiteral(v);  // *.tf.json is not edited
  owned_.push_back(std::move(f));
  return v;
}

TfVal Module::Template(TSNode n, const HclFile& f, int depth, bool heredoc) {
  TfVal v = Unknown(Range(n));
  std::string text, link, shape;
  bool known = true, linkable = true, failed = false, plain = true;
  // A string past one value's limit stops growing: it is unknown.
  auto fits = [&](const std::string& a, const std::string& b, const std::string& c) {
    if (a.size() <= kMaxValueBytes && b.size() <= kMaxValueBytes && c.size() <= kMaxValueBytes) return true;
    unit_.TooLarge(v.range);
    return false;
  };
  auto append = [&](const TfVal& part) {
    if (part.error) failed = true;
    if (part.known()) {
      text += part.text;
      link += part.text;
      shape += part.text;
    } else {
      known = false;
      if (part.link.empty()) linkable = false;
      link += part.link;
      shape += part.shape.empty() ? std::string(1, kHole) : part.shape;
    }
  };
  uint32_t count = ts_node_named_child_count(n);
  if (!heredoc) {
    // "${x}" alone is x itself, of whatever type.
    std::vector<TSNode> parts;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      std::string_view t = Type(c);
      if (t == "template_literal" || t == "template_interpolation" || t == "template_directive") parts.push_back(c);
    }
    if (parts.size() == 1 && Type(parts[0]) == "template_interpolation") {
      TfVal x = Eval(InterpolationExpr(parts[0]), f, depth + 1);
      if (!x.range.valid()) x.range = v.range;
      ClearLiteral(x);
      return x;
    }
    for (TSNode c : parts) {
      std::string_view t = Type(c);
      if (t != "template_literal") plain = false;
      if (t == "template_literal") {
        std::string lit = TemplateLiteral(ts::Text(c, f.text));
        text += lit;
        link += lit;
        shape += lit;
      } else if (t == "template_interpolation") {
        append(Eval(InterpolationExpr(c), f, depth + 1));
      } else {
        known = linkable = false;
        shape += kHole;
      }
      if (!fits(text, link, shape)) return v;
    }
  } else {
    // The raw text between the two identifiers, with interpolations spliced in.
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
    std::string raw, raw_shape;
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(n, i);
      if (Type(c) == "template_interpolation" || Type(c) == "template_directive") {
        if (ts_node_start_byte(c) < pos) continue;
        raw.append(f.text, pos, ts_node_start_byte(c) - pos);
        raw_shape.append(f.text, pos, ts_node_start_byte(c) - pos);
        if (Type(c) == "template_directive") {
          known = linkable = false;
          raw_shape += kHole;
        } else {
          TfVal part = Eval(InterpolationExpr(c), f, depth + 1);
          if (part.error) failed = true;
          if (part.known()) {
            raw += part.text;
            raw_shape += part.text;
          } else {
            known = false;
            raw += part.link;
            raw_shape += kHole;
          }
          plain = false;
        }
        pos = ts_node_end_byte(c);
        if (!fits(raw, {}, raw_shape)) return v;
      }
    }
    if (end > pos) {
      raw.append(f.text, pos, end - pos);
      raw_shape.append(f.text, pos, end - pos);
    }
    // Drop the closing identifier's indentation line.
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t')) raw.pop_back();
    if (indent) raw = Dedent(raw);
    // An escaped interpolation ($${x}, %%{x}) is literal text.
    for (std::string* s : {&raw, &raw_shape}) {
      for (const char* esc : {"$${", "%%{"}) {
        for (size_t p = s->find(esc); p != std::string::npos; p = s->find(esc, p + 2)) s->erase(p, 1);
      }
    }
    text = link = raw;
    shape = raw_shape;
  }
  if (failed) return MakeError(v.range, "a template part failed");
  // A string built from interpolations is new text (a literal one is the file's).
  if (!plain && !unit_.Charge({0, text.size() + link.size() + shape.size()}, v.range)) return v;
  TfVal out = v;
  if (known) {
    out = MakeKnown(K::kStr, text, v.range);
    out.literal = !heredoc && plain;
  } else {
    if (linkable) out.link = link;
    out.shape = shape;
  }
  if (heredoc) {
    // Its text begins on the line after the opening marker: documents parsed from it keep their lines.
    out.src_path = f.path;
    out.src = {{v.range.begin.line + 1, 1}, v.range.end};
  }
  return out;
}

TfVal Module::Conditional(TSNode n, const HclFile& f, int depth) {
  TSNode c = ts_node_named_child(n, 0), a = ts_node_named_child(n, 1), b = ts_node_named_child(n, 2);
  TfVal cond = Eval(c, f, depth + 1);
  if (cond.error) return cond;
  if (cond.kind == K::kBool) return Eval(cond.text == "true" ? a : b, f, depth + 1);
  if (cond.is_null()) return MakeError(Range(n), "null condition");
  TfVal v;
  v.kind = K::kCond;
  v.range = Range(n);
  v.condition = std::string(ts::Text(c, f.text));
  v.items = {Eval(a, f, depth + 1), Eval(b, f, depth + 1)};
  return v;
}

TfVal Module::Operation(TSNode op, const HclFile& f, int depth) {
  SourceRange at = Range(op);
  uint32_t named = ts_node_named_child_count(op);
  if (Type(op) == "unary_operation") {
    std::string sym;
    for (uint32_t i = 0; i < ts_node_child_count(op); ++i) {
      TSNode c = ts_node_child(op, i);
      if (!ts_node_is_named(c)) {
        sym = std::string(Type(c));
        break;
      }
    }
    TfVal x = Chain(op, 0, named, f, depth + 1);
    if (x.error) return x;
    if (sym == "!" && x.kind == K::kBool) return MakeKnown(K::kBool, x.text == "true" ? "false" : "true", at);
    if (sym == "-" && x.known() && IsNumberText(x.text))
      return MakeKnown(K::kNum, NumText(-std::atof(x.text.c_str())), at);
    return Unknown(at);
  }
  if (Type(op) != "binary_operation") return Unknown(at);
  // The operands are runs of named children around the one anonymous operator.
  std::string sym;
  uint32_t left = 0;
  for (uint32_t i = 0; i < ts_node_child_count(op); ++i) {
    TSNode c = ts_node_child(op, i);
    if (ts_node_is_named(c)) {
      if (sym.empty() && Type(c) != "comment") ++left;
    } else if (sym.empty()) {
      sym = std::string(Type(c));
    }
  }
  if (sym.empty() || left == 0 || left >= named) return Unknown(at);
  TfVal a = Chain(op, 0, left, f, depth + 1);
  TfVal b = Chain(op, left, named, f, depth + 1);
  auto boolean = [&](bool x) { return MakeKnown(K::kBool, x ? "true" : "false", at); };
  if (sym == "&&" || sym == "||") {
    bool and_op = sym == "&&";
    // false && anything is false, true || anything is true.
    for (const TfVal* x : {&a, &b}) {
      if (x->kind == K::kBool && (x->text == "true") != and_op) return boolean(!and_op);
    }
    if (a.error) return a;
    if (b.error) return b;
    if (a.kind == K::kBool && b.kind == K::kBool) return boolean(and_op);
    return Unknown(at);
  }
  if (a.error) return a;
  if (b.error) return b;
  if (sym == "==" || sym == "!=") {
    auto e = Equal(a, b);
    if (!e) return Unknown(at);
    return boolean(*e == (sym == "=="));
  }
  if (!a.known() || !b.known() || !IsNumberText(a.text) || !IsNumberText(b.text)) return Unknown(at);
  double x = std::atof(a.text.c_str()), y = std::atof(b.text.c_str());
  if (sym == "+") return MakeKnown(K::kNum, NumText(x + y), at);
  if (sym == "-") return MakeKnown(K::kNum, NumText(x - y), at);
  if (sym == "*") return MakeKnown(K::kNum, NumText(x * y), at);
  if (sym == "/" && y != 0) return MakeKnown(K::kNum, NumText(x / y), at);
  if (sym == "%" && y != 0) return MakeKnown(K::kNum, NumText(std::fmod(x, y)), at);
  if (sym == ">") return boolean(x > y);
  if (sym == "<") return boolean(x < y);
  if (sym == ">=") return boolean(x >= y);
  if (sym == "<=") return boolean(x <= y);
  return Unknown(at);
}

// [for x in c : v if cond] and {for k, v in c : key => value... if cond}.
TfVal Module::ForExpr(TSNode n, const HclFile& f, int depth) {
  SourceRange at = Range(n);
  TSNode inner = ts_node_named_child(n, 0);
  bool object = Type(inner) == "for_object_expr";
  TSNode intro{}, cond{};
  std::vector<TSNode> exprs;
  bool group = false;
  for (uint32_t i = 0; i < ts_node_named_child_count(inner); ++i) {
    TSNode c = ts_node_named_child(inner, i);
    std::string_view t = Type(c);
    if (t == "for_intro")
      intro = c;
    else if (t == "for_cond")
      cond = ts_node_named_child(c, 0);
    else if (t == "expression")
      exprs.push_back(c);
    else if (t == "ellipsis")
      group = true;
  }
  if (ts_node_is_null(intro) || exprs.size() != (object ? 2u : 1u)) return Unknown(at);
  std::vector<std::string> names;
  TSNode collection_expr{};
  for (uint32_t i = 0; i < ts_node_named_child_count(intro); ++i) {
    TSNode c = ts_node_named_child(intro, i);
    if (Type(c) == "identifier")
      names.emplace_back(ts::Text(c, f.text));
    else if (Type(c) == "expression")
      collection_expr = c;
  }
  if (names.empty() || names.size() > 2) return Unknown(at);
  TfVal collection = Eval(collection_expr, f, depth + 1);
  if (collection.error) return collection;
  if (collection.is_null()) return MakeError(at, "for over null");
  auto els = Elements(collection);
  if (!els) return Unknown(at);
  TfVal out;
  out.kind = object ? K::kMap : K::kList;
  out.range = at;
  for (auto& [k, v] : *els) {
    // Past the budget a loop stops: its result is unknown.
    if (unit_.literal()) return Unknown(at);
    size_t pushed = 0;
    if (names.size() == 2) {
      scope_.emplace_back(names[0], k);
      ++pushed;
    }
    scope_.emplace_back(names.back(), v);
    ++pushed;
    auto pop = [&] { scope_.resize(scope_.size() - pushed); };
    if (!ts_node_is_null(cond)) {
      TfVal c = Eval(cond, f, depth + 1);
      if (c.error || c.kind != K::kBool) {
        pop();
        return c.error ? c : Unknown(at);
      }
      if (c.text == "false") {
        pop();
        continue;
      }
    }
    if (!object) {
      out.items.push_back(Eval(exprs[0], f, depth + 1));
      pop();
      continue;
    }
    TfVal key = Eval(exprs[0], f, depth + 1);
    TfVal value = Eval(exprs[1], f, depth + 1);
    pop();
    if (key.error) return key;
    if (!key.known()) {
      out.dynamic = true;
      continue;
    }
    auto it = std::find_if(out.fields.begin(), out.fields.end(), [&](const auto& x) { return x.first == key.text; });
    if (group) {
      if (it == out.fields.end()) {
        TfVal list;
        list.kind = K::kList;
        list.range = at;
        out.fields.emplace_back(key.text, std::move(list));
        it = out.fields.end() - 1;
      }
      it->second.items.push_back(std::move(value));
    } else if (it != out.fields.end()) {
      return MakeError(at, "duplicate key " + key.text);
    } else {
      out.fields.emplace_back(key.text, std::move(value));
    }
  }
  return out;
}

TfVal Module::Function(TSNode n, const HclFile& f, int depth) {
  SourceRange at = Range(n);
  std::string name(ts::Text(ts_node_named_child(n, 0), f.text));
  std::vector<TfVal> args;
  bool spread = false;
  if (ts_node_named_child_count(n) > 1) {
    TSNode list = ts_node_named_child(n, 1);
    uint32_t count = ts_node_named_child_count(list);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(list, i);
      if (Type(c) == "expression") args.push_back(Eval(c, f, depth + 1));
      if (Type(c) == "ellipsis") spread = true;
    }
  }
  if (spread) {
    // f(a, list...): the list's elements are the last arguments.
    if (args.empty() || args.back().kind != K::kList) return Unknown(at);
    TfVal last = std::move(args.back());
    args.pop_back();
    for (TfVal& i : last.items) args.push_back(std::move(i));
  }
  if (name == "file" || name == "filebase64" || name == "templatefile" || name == "fileexists") {
    return FileFunction(name, args, at, f);
  }
  if (name == "jsondecode" || name == "yamldecode") {
    if (args.empty() || !args[0].known()) return args.empty() || !args[0].error ? Unknown(at) : args[0];
    cfn::Node doc;
    std::vector<cfn::LoadError> errors;
    if (!cfn::LoadDocument(args[0].text, 0, cfn::LoadLimits{}, &doc, &errors)) return MakeError(at, name + " failed");
    TfVal decoded = Rehome(JsonValue(doc, at, 0), at);
    if (!unit_.Charge(SizeOf(decoded, kMaxValueNodes), at)) return Unknown(at);
    return decoded;
  }
  CallCost cost;
  std::optional<TfVal> r = CallBuiltin(name, args, at, &cost);
  if (cost.too_large) unit_.TooLarge(at);
  // A comparison costs about a sixty-fourth of an evaluation step.
  if (cost.work >= 64 && !unit_.Step(cost.work / 64)) return Unknown(at);
  // What a call returns is a new value, or a copy of its arguments' parts.
  if (r && !unit_.Charge(SizeOf(*r, kMaxValueNodes), at)) return Unknown(at);
  if (r) {
    // An encoding of one value was written where that value was (pre-commit attribution).
    static const std::set<std::string> kSameValue = {"base64encode", "base64decode", "trimspace", "lower",     "upper",
                                                     "tostring",     "tonumber",     "tobool",    "jsonencode"};
    if (kSameValue.count(name) && args.size() == 1 && r->src_path.empty()) {
      r->src_path = args[0].src_path;
      r->src = args[0].src;
    }
    return *r;
  }
  for (const TfVal& a : args) {
    if (a.error) return MakeError(at, name + ": an argument failed");
  }
  return Unknown(at);
}

TfVal Module::FileFunction(const std::string& name, const std::vector<TfVal>& args, SourceRange at, const HclFile& f) {
  if (args.empty() || !args[0].known()) return args.empty() || !args[0].error ? Unknown(at) : args[0];
  std::string content, shown;
  if (name == "fileexists") {
    fs::path p = args[0].text;
    if (p.is_relative()) p = fs::path(f.abs).parent_path() / p;
    auto inside = unit_.Inside(p);
    if (!inside) return Unknown(at);
    return MakeKnown(K::kBool, unit_.opts().files->IsRegularFile(inside->string()) ? "true" : "false", at);
  }
  if (!ReadModuleFile(args[0].text, f, &content, &shown)) return Unknown(at);
  if (name == "templatefile") {
    TfVal out = RenderTemplate(content, args.size() > 1 ? &args[1] : nullptr, at);
    if (!unit_.Charge(SizeOf(out), at)) return Unknown(at);
    if (out.known()) out.origin = "file " + shown;
    return out;
  }
  if (name == "filebase64") content = Base64Encode(content);
  if (!unit_.Charge({1, content.size()}, at)) return Unknown(at);
  return MakeKnown(K::kStr, content, at, "file " + shown);
}

// ${name} placeholders filled from `vars` ($${ is a literal ${); directives are not evaluated.
TfVal Module::RenderTemplate(const std::string& content, const TfVal* vars, SourceRange at) {
  std::string out;
  for (size_t i = 0; i < content.size();) {
    if (content.compare(i, 3, "$${") == 0 || content.compare(i, 3, "%%{") == 0) {
      out += content.substr(i + 1, 2);
      i += 3;
    } else if (content.compare(i, 2, "${") == 0) {
      size_t close = content.find('}', i + 2);
      if (close == std::string::npos) return Unknown(at);
      std::string key = content.substr(i + 2, close - i - 2);
      key.erase(0, key.find_first_not_of(' '));
      key.erase(key.find_last_not_of(' ') + 1);
      const TfVal* x = vars && vars->kind == K::kMap ? vars->Get(key) : nullptr;
      if (!x || !x->known()) return Unknown(at);
      out += x->text;
      if (out.size() > kMaxValueBytes) {
        unit_.TooLarge(at);
        return Unknown(at);
      }
      i = close + 1;
    } else if (content.compare(i, 2, "%{") == 0) {
      return Unknown(at);
    } else {
      out += content[i++];
    }
  }
  return MakeKnown(K::kStr, out, at);
}

// A file a function reads: relative paths from the directory of the file
// that names it (paths usually start with path.module), and never outside the scan root.
bool Module::ReadModuleFile(const std::string& path, const HclFile& f, std::string* out, std::string* shown) {
  fs::path p = path;
  if (p.is_relative()) p = fs::path(f.abs).parent_path() / p;
  auto inside = unit_.Inside(p);
  if (!inside) return false;
  *shown = unit_.RootRelative(*inside);
  return ReadLimited(*unit_.opts().files, *inside, kMaxReadBytes, out);
}

}  // namespace sagelint::tf
