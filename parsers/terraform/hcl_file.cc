// Files of a Terraform module (eval.h): HCL and JSON files read and parsed,
// numbers with an exponent that the grammar does not read, the local module
// sources a file names; and the evaluation unit every module shares, with
// its budget (docs/security.md, "Size and time budgets").
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "linter/base/paths.h"
#include "parsers/terraform/eval.h"
#include "parsers/terraform/eval_shared.h"
#include "parsers/terraform/functions.h"

namespace sagelint::tf {
namespace {

namespace fs = std::filesystem;

constexpr size_t kMaxFileBytes = kMaxTerraformFileBytes;

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

}  // namespace sagelint::tf
