// Fix edits for Python source (README "Fixes"): see parsers/frontend.h and edit.h.
//
// The call or value a change names is found by its range in the tree-sitter
// tree. An inserted argument or dict entry goes beside its siblings: on a new
// line with the last one's indentation (and a trailing comma when the last one
// has one) where each sits on its own line, else `, kw=value` after the last.
// A removed one takes its comma along, and its line when it is alone there.
#include "parsers/python/edit.h"

#include <algorithm>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "parsers/aws/resources.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/frontend.h"
#include "parsers/python/grammar.h"

namespace sagelint {
namespace py {
namespace {

class Source {
 public:
  Source(std::string_view src) : src_(src), g_(PythonGrammar()) { tree_ = ts::Parse(g_.language, src); }
  bool ok() const { return static_cast<bool>(tree_); }
  TSNode Root() const { return ts_tree_root_node(tree_.get()); }
  std::string_view T(TSNode n) const { return ts::Text(n, src_); }
  N Kind(TSNode n) const { return g_.Kind(n); }
  const Grammar& g() const { return g_; }
  std::string_view src() const { return src_; }

  // The innermost node of `kind` spanning exactly [b, e).
  TSNode Exact(size_t b, size_t e, N kind) const {
    TSNode n = ts_node_descendant_for_byte_range(Root(), static_cast<uint32_t>(b), static_cast<uint32_t>(e));
    for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
      if (ts_node_start_byte(n) < b || ts_node_end_byte(n) > e) break;
      if (ts_node_start_byte(n) == b && ts_node_end_byte(n) == e && (kind == N::kOther || Kind(n) == kind)) return n;
    }
    return {};
  }

 private:
  std::string_view src_;
  const Grammar& g_;
  ts::Tree tree_;
};

// A container's elements (arguments, dict entries), comments aside.
std::vector<TSNode> Elements(const Source& s, TSNode container) {
  std::vector<TSNode> out;
  for (uint32_t i = 0, n = ts_node_named_child_count(container); i < n; ++i) {
    TSNode c = ts_node_named_child(container, i);
    if (s.Kind(c) != N::kComment) out.push_back(c);
  }
  return out;
}

// The `,` right after `element` inside its container (comments skipped), or null.
TSNode CommaAfter(const Source& s, TSNode element) {
  for (TSNode n = ts_node_next_sibling(element); !ts_node_is_null(n); n = ts_node_next_sibling(n)) {
    if (s.Kind(n) == N::kComment) continue;
    return s.T(n) == "," && !ts_node_is_named(n) ? n : TSNode{};
  }
  return {};
}

size_t LineEnd(std::string_view src, size_t at) {
  size_t nl = src.find('\n', at);
  return nl == std::string_view::npos ? src.size() : nl;
}
bool BlankText(std::string_view s) { return s.find_first_not_of(" \t\r") == std::string_view::npos; }
// Whitespace, then perhaps a comment, to the end of the line.
bool BlankOrComment(std::string_view s) {
  size_t at = s.find_first_not_of(" \t\r");
  return at == std::string_view::npos || s[at] == '#';
}

// The new element `text` added to `container` (an argument list or a dict)
// beside its last element. Always a pure insertion, so that several of one
// fix at the same place read in order.
std::optional<TextEdit> InsertElement(const Source& s, TSNode container, const std::string& text) {
  std::string_view src = s.src();
  std::vector<TSNode> elements = Elements(s, container);
  size_t open = ts_node_start_byte(container) + 1;
  if (elements.empty()) {
    // `f()` / `{}`: the only element, inside the brackets.
    if (ts_node_end_byte(container) < open + 1) return std::nullopt;
    return TextEdit{open, open, text};
  }
  TSNode last = elements.back();
  size_t start = ts_node_start_byte(last), end = ts_node_end_byte(last);
  size_t line = LineStartOf(src, start);
  bool own_line = BlankText(src.substr(line, start - line)) && line >= open;
  TSNode comma = CommaAfter(s, last);
  if (!own_line) return TextEdit{end, end, ", " + text};
  std::string indent(src.substr(line, start - line));
  size_t line_end = LineEnd(src, start);
  const std::string nl = line_end > 0 && line_end < src.size() && src[line_end - 1] == '\r' ? "\r\n" : "\n";
  size_t close = ts_node_end_byte(container) - 1;
  if (!ts_node_is_null(comma)) {
    size_t after = ts_node_end_byte(comma);
    size_t eol = LineEnd(src, after);
    if (eol < close && BlankOrComment(src.substr(after, eol - after))) {
      // `last,` ends its line (a comment may follow): the new element on a line of its own.
      size_t at = eol > after && src[eol - 1] == '\r' ? eol - 1 : eol;
      return TextEdit{at, at, nl + indent + text + ","};
    }
    return TextEdit{after, after, " " + text + ","};
  }
  // A comment after the last element stays with it: the new one goes beside it.
  size_t eol = LineEnd(src, end);
  if (src.substr(end, eol - end).find('#') != std::string_view::npos) return TextEdit{end, end, ", " + text};
  return TextEdit{end, end, "," + nl + indent + text};
}

// `element` (an argument or a dict entry) removed from its container with its comma.
std::optional<TextEdit> RemoveElement(const Source& s, TSNode container, TSNode element) {
  std::string_view src = s.src();
  std::vector<TSNode> elements = Elements(s, container);
  size_t index = 0;
  while (index < elements.size() && !ts_node_eq(elements[index], element)) ++index;
  if (index == elements.size()) return std::nullopt;
  size_t start = ts_node_start_byte(element), end = ts_node_end_byte(element);
  TSNode comma = CommaAfter(s, element);
  size_t stop = ts_node_is_null(comma) ? end : ts_node_end_byte(comma);
  size_t line = LineStartOf(src, start), eol = LineEnd(src, stop);
  size_t close = ts_node_end_byte(container) - 1;
  // Alone on its line(s): the lines go.
  if (BlankText(src.substr(line, start - line)) && eol < close && BlankOrComment(src.substr(stop, eol - stop)) &&
      line > ts_node_start_byte(container)) {
    bool other_on_line = false;
    for (TSNode e : elements) {
      if (ts_node_eq(e, element)) continue;
      size_t b = ts_node_start_byte(e), f = ts_node_end_byte(e);
      if ((b >= line && b <= eol) || (f >= line && f <= eol)) other_on_line = true;
    }
    if (!other_on_line) return TextEdit{line, eol + 1, ""};
  }
  if (!ts_node_is_null(comma)) {
    size_t after = stop;
    while (after < src.size() && (src[after] == ' ' || src[after] == '\t')) ++after;
    return TextEdit{start, after, ""};
  }
  if (index > 0) return TextEdit{ts_node_end_byte(elements[index - 1]), end, ""};
  return TextEdit{start, end, ""};
}

// The quote the code's strings use near `n` (its first plain string), else ".
char QuoteOf(const Source& s, TSNode n) {
  TSTreeCursor cur = ts_tree_cursor_new(n);
  char quote = '"';
  for (bool more = true; more;) {
    TSNode c = ts_tree_cursor_current_node(&cur);
    if (s.Kind(c) == N::kString) {
      std::string_view t = s.T(c);
      if (!t.empty() && (t[0] == '"' || t[0] == '\'')) {
        quote = t[0];
        break;
      }
    }
    if (ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (!ts_tree_cursor_goto_parent(&cur) || ts_node_eq(ts_tree_cursor_current_node(&cur), n)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cur);
  return quote;
}

std::string PyString(const std::string& text, char quote) {
  std::string out(1, quote);
  for (char c : text) {
    if (c == '\\' || c == quote) out += '\\';
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out += c;
  }
  return out + quote;
}

// A JSON value as a Python literal; nullopt for anything but a scalar.
std::optional<std::string> PyValue(const std::string& json, char quote) {
  nlohmann::json v = nlohmann::json::parse(json, nullptr, false);
  if (v.is_discarded()) return std::nullopt;
  if (v.is_boolean()) return v.get<bool>() ? "True" : "False";
  if (v.is_number_integer() || v.is_number_unsigned()) return v.dump();
  if (v.is_number_float()) return v.dump();
  if (v.is_string()) return PyString(v.get<std::string>(), quote);
  return std::nullopt;
}

// The name a call's function ends with: `PyTorch` in `sagemaker.pytorch.PyTorch(`.
std::string_view CalleeName(const Source& s, TSNode call) {
  TSNode fn = s.g().Field(call, s.g().f_function);
  if (s.Kind(fn) == N::kIdentifier) return s.T(fn);
  if (s.Kind(fn) == N::kAttribute) return s.T(s.g().Field(fn, s.g().f_attribute));
  return {};
}

// The SDK class a local name stands for: itself, or what `from sagemaker… import X as name` imports.
std::string_view ImportedClass(const Source& s, std::string_view name) {
  if (IsEstimatorClassName(name)) return name;
  TSNode root = s.Root();
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode st = ts_node_named_child(root, i);
    if (s.Kind(st) != N::kImportFromStatement) continue;
    if (!s.T(s.g().Field(st, s.g().f_module_name)).starts_with("sagemaker")) continue;
    for (uint32_t k = 0, m = ts_node_named_child_count(st); k < m; ++k) {
      TSNode a = ts_node_named_child(st, k);
      if (s.Kind(a) != N::kAliasedImport) continue;
      if (s.T(s.g().Field(a, s.g().f_alias)) == name) return s.T(s.g().Field(a, s.g().f_name));
    }
  }
  return name;
}

// The keyword argument `name` of an argument list, or null.
TSNode Keyword(const Source& s, TSNode args, std::string_view name) {
  for (TSNode e : Elements(s, args)) {
    if (s.Kind(e) == N::kKeywordArgument && s.T(s.g().Field(e, s.g().f_name)) == name) return e;
  }
  return {};
}
bool HasSpread(const Source& s, TSNode args) {
  for (TSNode e : Elements(s, args)) {
    if (s.Kind(e) == N::kDictionarySplat) return true;
  }
  return false;
}

// A dict literal's entry whose key is the string `key`, or null.
TSNode DictEntry(const Source& s, TSNode dict, std::string_view key) {
  for (TSNode e : Elements(s, dict)) {
    if (s.Kind(e) != N::kPair) continue;
    std::string_view k = s.T(s.g().Field(e, s.g().f_key));
    if (k.size() >= 2 && (k[0] == '"' || k[0] == '\'') && k.substr(1, k.size() - 2) == key) return e;
  }
  return {};
}

// The innermost function definition around `n`, or null at module level.
TSNode EnclosingFunction(const Source& s, TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    if (s.Kind(p) == N::kFunctionDefinition) return p;
  }
  return {};
}

// An expression that can stand inside an f-string's braces as written: one
// line, no quotes, braces or backslashes.
bool Interpolable(std::string_view e) { return e.find_first_of("\"'{}\\\n\r#") == std::string_view::npos; }

// The last `X.default_bucket()` call written before `before` that `before`
// can see (at module level, or in the function around it): its text.
std::string DefaultBucketCall(const Source& s, TSNode before) {
  std::string found;
  TSNode scope = EnclosingFunction(s, before);
  size_t limit = ts_node_start_byte(before);
  TSTreeCursor cur = ts_tree_cursor_new(s.Root());
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cur);
    bool descend = ts_node_start_byte(n) < limit;
    if (descend && s.Kind(n) == N::kCall && ts_node_end_byte(n) <= limit) {
      TSNode fn = s.g().Field(n, s.g().f_function);
      TSNode args = s.g().Field(n, s.g().f_arguments);
      TSNode around = EnclosingFunction(s, n);
      if (s.Kind(fn) == N::kAttribute && s.T(s.g().Field(fn, s.g().f_attribute)) == "default_bucket" &&
          Elements(s, args).empty() && Interpolable(s.T(n)) &&
          (ts_node_is_null(around) || (!ts_node_is_null(scope) && ts_node_eq(around, scope)))) {
        found = std::string(s.T(n));
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cur)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cur)) {
      if (!ts_tree_cursor_goto_parent(&cur)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cur);
  return found;
}

// Whether a module-level import binds `name` under its own name: `import name`
// (no `from`), or `from M import name` where M starts with `from`.
bool ImportsName(const Source& s, std::string_view name, std::optional<std::string_view> from = std::nullopt) {
  TSNode root = s.Root();
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode st = ts_node_named_child(root, i);
    if (s.Kind(st) != (from ? N::kImportFromStatement : N::kImportStatement)) continue;
    TSNode module = from ? s.g().Field(st, s.g().f_module_name) : TSNode{};
    if (from && !s.T(module).starts_with(*from)) continue;
    for (TSNode e : Elements(s, st)) {
      if (!(from && ts_node_eq(e, module)) && s.Kind(e) == N::kDottedName && s.T(e) == name) return true;
    }
  }
  return false;
}

// The checkpoint location of a Spot fix as a Python expression, from what the
// code has (rules/SM401.md): `spec` is {"under": "output_path"|"default_bucket",
// "suffix": "checkpoints"}. Empty where the code offers nothing to build it from.
std::string CheckpointExpr(const Source& s, TSNode call, TSNode args, const nlohmann::json& spec, char quote) {
  std::string suffix = spec.value("suffix", std::string("checkpoints"));
  std::string under = spec.value("under", std::string());
  if (under == "output_path" || under == "default_bucket") {
    // The estimator's `output_path=`, or ModelTrainer's `output_data_config=OutputDataConfig(s3_output_path=…)`,
    // or a boto3 request's `OutputDataConfig={"S3OutputPath": …}` (an argument, or a member of its dict).
    TSNode kw = s.Kind(args) == N::kArgumentList ? Keyword(s, args, "output_path") : TSNode{};
    TSNode request_output =
        s.Kind(args) == N::kDictionary ? DictEntry(s, args, "OutputDataConfig") : Keyword(s, args, "OutputDataConfig");
    if (TSNode v = ts_node_is_null(request_output) ? TSNode{} : s.g().Field(request_output, s.g().f_value);
        ts_node_is_null(kw) && s.Kind(v) == N::kDictionary) {
      kw = DictEntry(s, v, "S3OutputPath");
    }
    if (TSNode config = s.Kind(args) == N::kArgumentList ? Keyword(s, args, "output_data_config") : TSNode{};
        ts_node_is_null(kw) && !ts_node_is_null(config)) {
      TSNode v = s.g().Field(config, s.g().f_value);
      TSNode cargs = s.Kind(v) == N::kCall ? s.g().Field(v, s.g().f_arguments) : TSNode{};
      if (!ts_node_is_null(cargs) && s.Kind(cargs) == N::kArgumentList) kw = Keyword(s, cargs, "s3_output_path");
      if (s.Kind(v) == N::kDictionary) kw = DictEntry(s, v, "s3_output_path");  // a dict ModelTrainer validates
    }
    if (!ts_node_is_null(kw)) {
      TSNode v = s.g().Field(kw, s.g().f_value);
      std::string_view e = s.T(v);
      if (s.Kind(v) == N::kString && e.size() >= 2 && (e[0] == '"' || e[0] == '\'') && e.back() == e[0] &&
          e.find_first_of("\\\n") == std::string_view::npos &&
          e.substr(1, e.size() - 2).find(e[0]) == std::string_view::npos) {
        // A plain one-line string: the path written out with the suffix.
        std::string path(e.substr(1, e.size() - 2));
        while (!path.empty() && path.back() == '/') path.pop_back();
        if (path.starts_with("s3://")) return PyString(path + "/" + suffix, e[0]);
      }
      if (s.Kind(v) == N::kString && e.size() >= 3 && (e[0] == 'f' || e[0] == 'F') && (e[1] == '"' || e[1] == '\'')) {
        // An f-string on one line: the suffix goes inside it.
        if (e.find('\n') == std::string_view::npos && e.substr(1, 3) != "\"\"\"" && e.substr(1, 3) != "'''") {
          std::string body(e.substr(0, e.size() - 1));
          return body + (body.back() == '/' ? "" : "/") + suffix + e.back();
        }
      }
      if (s.Kind(v) == N::kIdentifier || s.Kind(v) == N::kAttribute || s.Kind(v) == N::kSubscript ||
          s.Kind(v) == N::kCall) {
        if (Interpolable(e)) return std::string("f") + quote + "{" + std::string(e) + "}/" + suffix + quote;
        if (e.find('\n') == std::string_view::npos) return std::string(e) + " + " + quote + "/" + suffix + quote;
      }
      if (s.Kind(v) == N::kBinaryOperator && s.T(s.g().Field(v, s.g().f_operator)) == "+" &&
          e.find('\n') == std::string_view::npos) {
        // A concatenation of strings; one that ends in a slash takes the suffix alone.
        bool slash = e.size() >= 2 && (e.back() == '"' || e.back() == '\'') && e[e.size() - 2] == '/';
        return std::string(e) + " + " + quote + (slash ? "" : "/") + suffix + quote;
      }
    }
    under = "default_bucket";  // set elsewhere: checkpoints under the session's bucket
  }
  if (under == "default_bucket") {
    // The session the job itself is given, else one the code asks before it.
    std::string bucket;
    if (TSNode kw = s.Kind(args) == N::kArgumentList ? Keyword(s, args, "sagemaker_session") : TSNode{};
        !ts_node_is_null(kw)) {
      TSNode v = s.g().Field(kw, s.g().f_value);
      if ((s.Kind(v) == N::kIdentifier || s.Kind(v) == N::kAttribute) && Interpolable(s.T(v))) {
        bucket = std::string(s.T(v)) + ".default_bucket()";
      }
    }
    if (bucket.empty()) bucket = DefaultBucketCall(s, call);
    if (bucket.empty() && ImportsName(s, "sagemaker")) bucket = "sagemaker.Session().default_bucket()";
    if (bucket.empty()) return {};
    return std::string("f") + quote + "s3://{" + bucket + "}/" + suffix + quote;
  }
  return {};
}

// Spot for SDK v3's ModelTrainer (rules/SM401.md): into its `compute=Compute(…)`,
// `stopping_condition=StoppingCondition(…)` and a new `checkpoint_config=`,
// each only where the class it needs is imported under its own name.
std::optional<TextEdit> InsertIntoModelTrainer(const Source& s, TSNode args, const FixChange& c,
                                               const std::string& value, char quote) {
  auto config_call = [&](std::string_view kw, std::string_view cls) -> TSNode {
    TSNode k = Keyword(s, args, kw);
    if (ts_node_is_null(k)) return {};
    TSNode v = s.g().Field(k, s.g().f_value);
    return s.Kind(v) == N::kCall && CalleeName(s, v) == cls ? v : TSNode{};
  };
  auto into = [&](TSNode config, std::string_view kw) -> std::optional<TextEdit> {
    TSNode cargs = s.g().Field(config, s.g().f_arguments);
    if (s.Kind(cargs) != N::kArgumentList || !ts_node_is_null(Keyword(s, cargs, kw)) || HasSpread(s, cargs)) {
      return std::nullopt;
    }
    return InsertElement(s, cargs, std::string(kw) + "=" + value);
  };
  if (HasSpread(s, args)) return std::nullopt;
  if (c.field == "spot") {
    TSNode compute = config_call("compute", "Compute");
    if (!ts_node_is_null(compute)) return into(compute, "enable_managed_spot_training");
    if (!ts_node_is_null(Keyword(s, args, "compute"))) return std::nullopt;
    // No compute: ModelTrainer's default (ml.m5.xlarge × 1, FACTS) written out, with Spot.
    auto q = [&](const char* k) { return PyString(k, quote); };
    std::string settings =
        "instance_type=" + q("ml.m5.xlarge") + ", instance_count=1, enable_managed_spot_training=" + value;
    if (ImportsName(s, "Compute", "sagemaker")) return InsertElement(s, args, "compute=Compute(" + settings + ")");
    return InsertElement(s, args,
                         "compute={" + q("instance_type") + ": " + q("ml.m5.xlarge") + ", " + q("instance_count") +
                             ": 1, " + q("enable_managed_spot_training") + ": " + value + "}");
  }
  if (c.field == "max_wait_seconds") {
    if (TSNode stop = config_call("stopping_condition", "StoppingCondition"); !ts_node_is_null(stop)) {
      return into(stop, "max_wait_time_in_seconds");
    }
    if (!ts_node_is_null(Keyword(s, args, "stopping_condition"))) return std::nullopt;
    if (!ImportsName(s, "StoppingCondition", "sagemaker")) {
      // ModelTrainer validates a dict into the configuration; its default max run stays.
      return InsertElement(s, args,
                           "stopping_condition={" + PyString("max_wait_time_in_seconds", quote) + ": " + value + "}");
    }
    // ModelTrainer's own default max run is one hour (FACTS): kept as it is.
    constexpr int kModelTrainerMaxRun = 3600;
    // The fix's value is the literal a rule computed; anything else is not inserted.
    char* end = nullptr;
    double seconds = std::strtod(value.c_str(), &end);
    if (value.empty() || end != value.c_str() + value.size() || seconds < kModelTrainerMaxRun) return std::nullopt;
    return InsertElement(s, args,
                         "stopping_condition=StoppingCondition(max_runtime_in_seconds=" +
                             std::to_string(kModelTrainerMaxRun) + ", max_wait_time_in_seconds=" + value + ")");
  }
  if (c.field == "checkpoint") {
    if (!ts_node_is_null(Keyword(s, args, "checkpoint_config"))) return std::nullopt;
    if (!ImportsName(s, "CheckpointConfig", "sagemaker")) {
      return InsertElement(s, args, "checkpoint_config={" + PyString("s3_uri", quote) + ": " + value + "}");
    }
    return InsertElement(s, args, "checkpoint_config=CheckpointConfig(s3_uri=" + value + ")");
  }
  return std::nullopt;
}

// Spot for a function run remotely (`@remote(...)`, `@step(...)`, RemoteExecutor):
// its own keywords; it has no checkpoint setting.
std::optional<TextEdit> InsertIntoRemote(const Source& s, TSNode args, const FixChange& c, const std::string& value) {
  std::string kw = c.field == "spot"               ? "use_spot_instances"
                   : c.field == "max_wait_seconds" ? "max_wait_time_in_seconds"
                                                   : "";
  if (kw.empty() || !ts_node_is_null(Keyword(s, args, kw)) || HasSpread(s, args)) return std::nullopt;
  return InsertElement(s, args, kw + "=" + value);
}

// A boto3 request's setting (rules/SM401.md), in the API's PascalCase names:
// `members` are a call's keyword arguments (`create_training_job(…)`) or a
// dict's entries (a tuning job's training job definition).
std::optional<TextEdit> InsertIntoRequest(const Source& s, TSNode members, const FixChange& c, const std::string& value,
                                          char quote) {
  bool dict = s.Kind(members) == N::kDictionary;
  auto q = [&](std::string_view k) { return PyString(std::string(k), quote); };
  auto member = [&](std::string_view k) { return dict ? DictEntry(s, members, k) : Keyword(s, members, k); };
  auto add = [&](std::string_view k, const std::string& v) -> std::optional<TextEdit> {
    if (!ts_node_is_null(member(k)) || HasSpread(s, members)) return std::nullopt;
    return InsertElement(s, members, (dict ? q(k) + ": " : std::string(k) + "=") + v);
  };
  auto into_dict = [&](std::string_view m, std::string_view key) -> std::optional<TextEdit> {
    TSNode e = member(m);
    if (ts_node_is_null(e)) return std::nullopt;
    TSNode d = s.g().Field(e, s.g().f_value);
    if (s.Kind(d) != N::kDictionary || !ts_node_is_null(DictEntry(s, d, key)) || HasSpread(s, d)) return std::nullopt;
    return InsertElement(s, d, q(key) + ": " + value);
  };
  std::optional<std::vector<std::string>> path = aws::TrainingRequestPath(c.field);
  if (!path) return std::nullopt;
  if (path->size() == 1) return add(path->front(), value);
  const std::string &parent = (*path)[0], &key = (*path)[1];
  // Into the object that is there (an input mode only so), else the object
  // with the setting (a checkpoint configuration only where none is written).
  if (c.field == "input_mode" || (c.field != "checkpoint" && !ts_node_is_null(member(parent)))) {
    return into_dict(parent, key);
  }
  return add(parent, "{" + q(key) + ": " + value + "}");
}

// The dict literal a name is bound to, where that binding is the name's only
// one and the name is read nowhere but at `use` (so that editing the dict
// changes nothing else); else null.
TSNode DictOnlyUsedAt(const Source& s, TSNode use) {
  std::string_view name = s.T(use);
  TSNode dict{};
  int bindings = 0, reads = 0;
  WalkTree(s.Root(), [&](TSNode n) {
    if (s.Kind(n) != N::kIdentifier || s.T(n) != name) return true;
    TSNode p = ts_node_parent(n);
    if (s.Kind(p) == N::kAttribute && ts_node_eq(s.g().Field(p, s.g().f_attribute), n)) return true;   // `x.name`
    if (s.Kind(p) == N::kKeywordArgument && ts_node_eq(s.g().Field(p, s.g().f_name), n)) return true;  // `name=`
    if (s.Kind(p) == N::kAssignment && ts_node_eq(s.g().Field(p, s.g().f_left), n)) {
      ++bindings;
      TSNode right = s.g().Field(p, s.g().f_right);
      dict = s.Kind(right) == N::kDictionary ? right : TSNode{};
    } else if (!ts_node_eq(n, use)) {
      ++reads;
    }
    return true;
  });
  if (bindings != 1 || reads != 0 || ts_node_is_null(dict) || ts_node_start_byte(dict) > ts_node_start_byte(use)) {
    return {};
  }
  return dict;
}

// The training job definition of a `create_hyper_parameter_tuning_job` call
// that a fix can edit: `TrainingJobDefinition=` (or a one-item
// `TrainingJobDefinitions=[…]`) written as a dict, in the call or bound to a
// name only the call reads.
TSNode TuningDefinition(const Source& s, TSNode args) {
  TSNode one = Keyword(s, args, "TrainingJobDefinition");
  TSNode many = Keyword(s, args, "TrainingJobDefinitions");
  if (ts_node_is_null(one) == ts_node_is_null(many) || HasSpread(s, args)) return {};
  TSNode v = s.g().Field(ts_node_is_null(one) ? many : one, s.g().f_value);
  if (!ts_node_is_null(many)) {
    if (s.Kind(v) != N::kList || Elements(s, v).size() != 1) return {};
    v = Elements(s, v)[0];
  }
  if (s.Kind(v) == N::kIdentifier) v = DictOnlyUsedAt(s, v);
  return s.Kind(v) == N::kDictionary ? v : TSNode{};
}

std::optional<TextEdit> InsertIntoCall(const Source& s, TSNode call, const FixChange& c) {
  TSNode args = s.g().Field(call, s.g().f_arguments);
  if (s.Kind(args) != N::kArgumentList) return std::nullopt;
  std::string_view callee = CalleeName(s, call);
  // Where the settings are written: the call's arguments, or a tuning job's definition.
  TSNode members = args;
  if (callee == "create_hyper_parameter_tuning_job") {
    members = TuningDefinition(s, args);
    if (ts_node_is_null(members)) return std::nullopt;
  }
  char quote = QuoteOf(s, args);
  std::optional<std::string> value = PyValue(c.value, quote);
  if (!value && c.field == "checkpoint") {
    nlohmann::json spec = nlohmann::json::parse(c.value, nullptr, false);
    if (spec.is_object()) {
      std::string e = CheckpointExpr(s, call, members, spec, quote);
      if (!e.empty()) value = e;
    }
  }
  if (!value) return std::nullopt;
  if (ImportedClass(s, callee) == "ModelTrainer") return InsertIntoModelTrainer(s, args, c, *value, quote);
  if (callee == "remote" || callee == "step" || callee == "RemoteExecutor") return InsertIntoRemote(s, args, c, *value);
  auto keyword = [&](std::string_view k) { return !ts_node_is_null(Keyword(s, args, k)); };
  if (callee == "create_training_job") return InsertIntoRequest(s, args, c, *value, quote);
  if (callee == "create_hyper_parameter_tuning_job") return InsertIntoRequest(s, members, c, *value, quote);
  if (!IsEstimatorClassName(ImportedClass(s, callee))) return std::nullopt;
  // SDK v1 spelled some of them with a `train_` prefix.
  bool v1 = keyword("train_instance_type") || keyword("train_instance_count");
  std::string kw = c.field == "max_wait_seconds" ? "max_wait"
                   : c.field == "spot"           ? "use_spot_instances"
                   : c.field == "checkpoint"     ? "checkpoint_s3_uri"
                   : c.field == "input_mode"     ? "input_mode"
                                                 : "";
  if (kw.empty() || keyword(kw) || keyword("train_" + kw) || HasSpread(s, args)) return std::nullopt;
  if (v1 && (kw == "max_wait" || kw == "use_spot_instances")) kw = "train_" + kw;
  return InsertElement(s, args, kw + "=" + *value);
}

bool RemovableName(const std::string& field, std::string_view name) {
  // The SDK's own keywords, and the API's names as requests and the SDK's v3 shapes write them.
  if (field == "max_wait_seconds" && (name == "max_wait" || name == "train_max_wait")) return true;
  for (std::string_view api : aws::RemovableKeys(field)) {
    if (name == api || name == aws::SnakeCase(api)) return true;
  }
  return false;
}

std::optional<TextEdit> RemoveAt(const Source& s, TSNode value, const FixChange& c) {
  TSNode member = ts_node_parent(value);
  const Grammar& g = s.g();
  if (s.Kind(member) == N::kKeywordArgument && ts_node_eq(g.Field(member, g.f_value), value)) {
    if (!RemovableName(c.field, s.T(g.Field(member, g.f_name)))) return std::nullopt;
    TSNode args = ts_node_parent(member), call = ts_node_parent(args);
    if (s.Kind(args) != N::kArgumentList || s.Kind(call) != N::kCall || CalleeName(s, call) == "dict") {
      return std::nullopt;  // a dict() of arguments may be shared
    }
    return RemoveElement(s, args, member);
  }
  if (s.Kind(member) == N::kPair && ts_node_eq(g.Field(member, g.f_value), value)) {
    std::string_view key = s.T(g.Field(member, g.f_key));
    if (key.size() < 2 || (key[0] != '"' && key[0] != '\'') || !RemovableName(c.field, key.substr(1, key.size() - 2)))
      return std::nullopt;
    TSNode dict = ts_node_parent(member);
    if (Elements(s, dict).size() < 2) return std::nullopt;  // the dict would be left empty
    // The dict is written in a call's arguments (not bound to a name others may read).
    TSNode up = ts_node_parent(dict);
    while (!ts_node_is_null(up) && (s.Kind(up) == N::kPair || s.Kind(up) == N::kDictionary || s.Kind(up) == N::kList))
      up = ts_node_parent(up);
    if (s.Kind(up) != N::kKeywordArgument || s.Kind(ts_node_parent(up)) != N::kArgumentList ||
        CalleeName(s, ts_node_parent(ts_node_parent(up))) == "dict") {
      return std::nullopt;
    }
    return RemoveElement(s, dict, member);
  }
  return std::nullopt;
}

// A module-level statement `line` on a line of its own after the statement
// that spans [b, e) (after a comment that ends its line).
std::optional<TextEdit> InsertStatementAfter(const Source& s, size_t b, size_t e, const std::string& line) {
  TSNode n = s.Exact(b, e, N::kOther);
  while (!ts_node_is_null(n) && s.Kind(ts_node_parent(n)) != N::kModule) n = ts_node_parent(n);
  if (ts_node_is_null(n) || ts_node_start_byte(n) != b || ts_node_end_byte(n) != e || line.empty() ||
      line.find('\n') != std::string::npos) {
    return std::nullopt;
  }
  std::string_view src = s.src();
  size_t eol = LineEnd(src, e);
  if (!BlankOrComment(src.substr(e, eol - e))) return std::nullopt;  // `a = f(); b = 1`
  bool cr = eol > 0 && eol <= src.size() && eol > e && src[eol - 1] == '\r';
  size_t at = cr ? eol - 1 : eol;
  return TextEdit{at, at, std::string(cr ? "\r\n" : "\n") + line};
}

}  // namespace

std::optional<TextEdit> EditSource(std::string_view src, const FixChange& c) {
  std::optional<size_t> b = OffsetOf(src, c.range.begin), e = OffsetOf(src, c.range.end);
  if (!b || !e || *e < *b) return std::nullopt;
  Source s(src);
  if (!s.ok()) return std::nullopt;
  if (c.op == FixChange::Op::kInsert && c.field == "statement_after") return InsertStatementAfter(s, *b, *e, c.value);
  if (c.op == FixChange::Op::kInsert) {
    TSNode call = s.Exact(*b, *e, N::kCall);
    if (ts_node_is_null(call)) return std::nullopt;
    return InsertIntoCall(s, call, c);
  }
  if (c.op == FixChange::Op::kRemove) {
    // The value of an argument or entry that starts there (and ends there,
    // where the range has an end: request values are placed at their start).
    TSNode n = ts_node_descendant_for_byte_range(s.Root(), static_cast<uint32_t>(*b),
                                                 static_cast<uint32_t>(std::max(*e, *b + 1)));
    for (; !ts_node_is_null(n) && ts_node_start_byte(n) == *b; n = ts_node_parent(n)) {
      TSNode p = ts_node_parent(n);
      N pk = s.Kind(p);
      if ((pk == N::kKeywordArgument || pk == N::kPair) && ts_node_eq(s.g().Field(p, s.g().f_value), n)) {
        if (*e != *b && ts_node_end_byte(n) != *e) return std::nullopt;
        return RemoveAt(s, n, c);
      }
    }
    return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace py

std::optional<TextEdit> EditPython(std::string_view text, const FixChange& change) {
  // Positions count the bytes as stored; a byte-order mark is not Python.
  if (text.substr(0, 3) != "\xEF\xBB\xBF") return py::EditSource(text, change);
  FixChange c = change;
  if (c.range.begin.line == 1) c.range.begin.column -= 3;
  if (c.range.end.line == 1) c.range.end.column -= 3;
  std::optional<TextEdit> e = py::EditSource(text.substr(3), c);
  if (e) e->begin += 3, e->end += 3;
  return e;
}

}  // namespace sagelint
