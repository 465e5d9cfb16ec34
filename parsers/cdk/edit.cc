// Fixes in CDK app sources (docs/cdk.md "Fixes"): a member removed from, or
// a property inserted into, the property object or keyword arguments of a
// construct call, in Python or TypeScript. A literal's new text needs no
// editor (the engine replaces the token the evaluator recorded).
#include <algorithm>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/strings.h"
#include "parsers/aws/resources.h"
#include "parsers/cdk/front_end.h"
#include "parsers/common/tree_sitter.h"

extern "C" const TSLanguage* tree_sitter_python(void);
extern "C" const TSLanguage* tree_sitter_typescript(void);

namespace sagelint {
namespace {

bool IsPython(std::string_view path) { return path.ends_with(".py"); }

ts::Tree ParseSource(std::string_view path, std::string_view text) {
  return ts::Parse(IsPython(path) ? tree_sitter_python() : tree_sitter_typescript(), text);
}

// A node's text and type, empty for a null node (a field the grammar left out).
std::string_view TextOf(TSNode n, std::string_view text) { return ts_node_is_null(n) ? "" : ts::Text(n, text); }
std::string_view TypeOf(TSNode n) { return ts_node_is_null(n) ? "" : ts::Type(n); }

// The member (`key: value`, `key=value`) whose value starts at `at`: the
// value written directly there, nothing computed around it.
// Whether a member's key (`acceleratorType`, `accelerator_types`, "MaxWaitTimeInSeconds")
// names the setting a removal takes out.
bool RemovableMemberKey(std::string_view field, std::string_view key) {
  auto folded = [](std::string_view name) {
    std::string k;
    for (char c : name) {
      if (c != '_' && c != '"' && c != '\'') k += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return k;
  };
  std::string k = folded(key);
  for (std::string_view api : aws::RemovableKeys(field)) {
    if (folded(api) == k) return true;
  }
  return false;
}

std::optional<TSNode> MemberAt(TSNode root, std::string_view text, SourcePos at) {
  std::optional<size_t> offset = OffsetOf(text, at);
  if (!offset) return std::nullopt;
  uint32_t b = static_cast<uint32_t>(*offset);
  TSNode n = ts_node_named_descendant_for_byte_range(root, b, b);
  while (!ts_node_is_null(n) && ts_node_start_byte(n) == b) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent)) break;
    std::string_view type = ts::Type(parent);
    if (type == "pair" || type == "keyword_argument") {
      TSNode value = ts::Field(parent, "value");
      if (!ts_node_is_null(value) && ts_node_eq(value, n)) return parent;
      return std::nullopt;
    }
    // The one item of a list (a notebook's acceleratorTypes): the member goes.
    if ((type == "list" || type == "array") && ts_node_named_child_count(parent) == 1) {
      TSNode member = ts_node_parent(parent);
      if (!ts_node_is_null(member) && (ts::Type(member) == "pair" || ts::Type(member) == "keyword_argument") &&
          ts_node_eq(ts::Field(member, "value"), parent)) {
        return member;
      }
      return std::nullopt;
    }
    if (type == "list" || type == "array") return std::nullopt;
    n = parent;
  }
  return std::nullopt;
}

// Removes `member` with its separator: its whole line(s) when it stands alone
// on them, else the member and the comma after it (before it, when last).
TextEdit RemoveMember(std::string_view text, TSNode member) {
  size_t b = ts_node_start_byte(member), e = ts_node_end_byte(member);
  size_t after = e;
  while (after < text.size() && IsBlank(text[after])) ++after;
  bool comma_after = after < text.size() && text[after] == ',';
  size_t end = comma_after ? after + 1 : e;
  size_t line = LineStartOf(text, b);
  bool alone_before = std::all_of(text.begin() + static_cast<long>(line), text.begin() + static_cast<long>(b), IsBlank);
  size_t rest = end;
  while (rest < text.size() && IsBlank(text[rest])) ++rest;
  bool alone_after = rest >= text.size() || text[rest] == '\n' || text[rest] == '\r';
  if (alone_before && alone_after) {
    if (rest < text.size() && text[rest] == '\r') ++rest;
    if (rest < text.size() && text[rest] == '\n') ++rest;
    return {line, rest, ""};
  }
  if (comma_after) {
    while (end < text.size() && IsBlank(text[end])) ++end;
    return {b, end, ""};
  }
  // The last member: the comma before it goes.
  size_t before = b;
  while (before > 0 && (IsBlank(text[before - 1]) || text[before - 1] == '\n' || text[before - 1] == '\r')) --before;
  if (before > 0 && text[before - 1] == ',') return {before - 1, e, ""};
  return {b, e, ""};
}

// ---- insertions into a training job's request ----------------------------------

// A key's text: a string's content, an identifier as written.
std::string KeyText(std::string_view text, TSNode key) {
  std::string_view k = TextOf(key, text);
  if (TypeOf(key) == "string" && k.size() >= 2) {
    // Python prefixes (r"", u"") never hold a request key; a plain string's content only.
    char q = k.front();
    if ((q == '"' || q == '\'') && k.back() == q) return std::string(k.substr(1, k.size() - 2));
    return {};
  }
  if (TypeOf(key) == "property_identifier" || TypeOf(key) == "identifier") return std::string(k);
  return {};
}

// An object literal (TypeScript `{…}`, a Python dict display) read member by member.
struct Literal {
  TSNode node{};                                        // the object, dict or (a Python struct's call) argument list
  std::vector<std::pair<std::string, TSNode>> members;  // key, pair (keyword argument)
  bool complete = true;                                 // no spread, no computed key, no shorthand
  // A Python struct call `sagemaker.CfnDomain.JupyterLabAppSettingsProperty(…)`: its
  // class path up to the class name ("sagemaker.CfnDomain."), for the structs it gets.
  bool call = false;
  std::string prefix;
  const TSNode* Member(std::string_view key) const {
    for (const auto& [k, p] : members) {
      if (k == key) return &p;
    }
    return nullptr;
  }
};

bool IsObject(TSNode n) { return ts::Type(n) == "object" || ts::Type(n) == "dictionary"; }

std::optional<Literal> ReadLiteral(std::string_view text, TSNode n) {
  if (!ts_node_is_null(n) && ts::Type(n) == "call") {
    // A struct class called with keyword arguments only.
    std::string_view callee = TextOf(ts::Field(n, "function"), text);
    TSNode args = ts::Field(n, "arguments");
    if (!callee.ends_with("Property") || ts_node_is_null(args) || ts::Type(args) != "argument_list")
      return std::nullopt;
    Literal l;
    l.node = args;
    l.call = true;
    size_t dot = callee.rfind('.');
    l.prefix = dot == std::string_view::npos ? "" : std::string(callee.substr(0, dot + 1));
    uint32_t count = ts_node_named_child_count(args);
    for (uint32_t i = 0; i < count; ++i) {
      TSNode c = ts_node_named_child(args, i);
      if (ts::Type(c) == "comment") continue;
      if (ts::Type(c) != "keyword_argument") {
        l.complete = false;
        continue;
      }
      l.members.emplace_back(std::string(TextOf(ts::Field(c, "name"), text)), c);
    }
    return l;
  }
  if (ts_node_is_null(n) || !IsObject(n)) return std::nullopt;
  Literal l;
  l.node = n;
  uint32_t count = ts_node_named_child_count(n);
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(n, i);
    std::string_view type = ts::Type(c);
    if (type == "comment") continue;
    if (type != "pair") {
      l.complete = false;
      continue;
    }
    std::string key = KeyText(text, ts::Field(c, "key"));
    if (key.empty()) {
      l.complete = false;
      continue;
    }
    l.members.emplace_back(std::move(key), c);
  }
  return l;
}

// The value of a member as an object literal, or nullopt.
std::optional<Literal> ValueLiteral(std::string_view text, TSNode pair) {
  return ReadLiteral(text, ts::Field(pair, "value"));
}

// The object literal starting at `at`.
std::optional<Literal> LiteralAt(TSNode root, std::string_view text, SourcePos at) {
  std::optional<size_t> offset = OffsetOf(text, at);
  if (!offset) return std::nullopt;
  uint32_t b = static_cast<uint32_t>(*offset);
  for (TSNode n = ts_node_named_descendant_for_byte_range(root, b, b);
       !ts_node_is_null(n) && ts_node_start_byte(n) == b; n = ts_node_parent(n)) {
    if (IsObject(n) || ts::Type(n) == "call") return ReadLiteral(text, n);
    // A member's key stands for its value (an evaluator places an object at its key).
    if (ts::Type(n) == "pair" || ts::Type(n) == "keyword_argument") return ReadLiteral(text, ts::Field(n, "value"));
  }
  return std::nullopt;
}

std::string ScalarText(std::string_view text, TSNode pair) {
  TSNode v = ts::Field(pair, "value");
  if (ts_node_is_null(v) || ts::Type(v) != "string") return {};
  return KeyText(text, v);
}

// The request of the training job whose state or step object starts at `at`:
// a Step Functions task state (`Resource` …createTrainingJob…, `Parameters`)
// or a SageMaker Pipelines step (`Type: Training`, `Arguments`), written as
// object literals.
std::optional<Literal> TrainingRequest(TSNode root, std::string_view text, SourcePos at) {
  std::optional<Literal> job = LiteralAt(root, text, at);
  if (!job || !job->complete) return std::nullopt;
  const TSNode* req = nullptr;
  const TSNode* type = job->Member("Type");
  const TSNode* resource = job->Member("Resource");
  if (type && ScalarText(text, *type) == "Training") req = job->Member("Arguments");
  if (resource) {
    std::string r = ScalarText(text, *resource);
    if (r.find(":sagemaker:") != std::string::npos && r.find("createTrainingJob") != std::string::npos) {
      req = job->Member("Parameters");
      if (!req) req = job->Member("Arguments");
    }
  }
  if (!req) return std::nullopt;
  std::optional<Literal> out = ValueLiteral(text, *req);
  if (!out || !out->complete) return std::nullopt;
  return out;
}

// How the file writes keys and strings in this literal: the quote of its
// first quoted key (Python: always a string), the value spellings.
struct Style {
  bool python = false;
  char quote = '"';
  bool quoted_keys = true;
};

Style StyleOf(std::string_view path, std::string_view text, const Literal& l) {
  Style s;
  s.python = IsPython(path);
  s.quote = s.python ? '"' : '\'';
  bool quote_found = false;
  bool bare = false;
  for (const auto& [k, p] : l.members) {
    if (ts::Type(p) != "pair") {  // a keyword argument: its value's quotes
      TSNode v = ts::Field(p, "value");
      std::string_view t = ts_node_is_null(v) ? std::string_view() : ts::Text(v, text);
      if (!quote_found && !t.empty() && ts::Type(v) == "string" && (t.front() == '"' || t.front() == '\'')) {
        s.quote = t.front();
        quote_found = true;
      }
      continue;
    }
    for (TSNode n : {ts::Field(p, "key"), ts::Field(p, "value")}) {
      if (ts_node_is_null(n)) continue;
      std::string_view t = ts::Text(n, text);
      if (!quote_found && ts::Type(n) == "string" && !t.empty() && (t.front() == '"' || t.front() == '\'')) {
        s.quote = t.front();
        quote_found = true;
      }
    }
    bare = bare || TypeOf(ts::Field(p, "key")) == "property_identifier";
  }
  // TypeScript keys bare when the literal writes any key bare.
  s.quoted_keys = s.python || !bare;
  return s;
}

std::string Quoted(std::string_view s, char quote) {
  std::string out(1, quote);
  for (char c : s) {
    if (c == quote || c == '\\') out += '\\';
    out += c;
  }
  return out + quote;
}

// A JSON scalar of a change as the language writes it.
std::optional<std::string> ScalarCode(std::string_view json, const Style& s) {
  if (json == "true") return std::string(s.python ? "True" : "true");
  if (json == "false") return std::string(s.python ? "False" : "false");
  if (json.size() >= 2 && json.front() == '"' && json.back() == '"') {
    std::string inner(json.substr(1, json.size() - 2));
    if (inner.find('\\') != std::string::npos) return std::nullopt;
    return Quoted(inner, s.quote);
  }
  if (!json.empty() && std::all_of(json.begin(), json.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return std::string(json);
  }
  return std::nullopt;
}

std::string KeyCode(const std::string& key, const Style& s) { return s.quoted_keys ? Quoted(key, s.quote) : key; }

// `key: value` (Python dict: `"key": value`), nested levels inline.
std::string MemberCode(const std::vector<std::string>& path, size_t from, const std::string& value, const Style& s) {
  std::string out = KeyCode(path[from], s) + ": ";
  if (from + 1 == path.size()) return out + value;
  std::string inner = MemberCode(path, from + 1, value, s);
  return out + (s.python ? "{" + inner + "}" : "{ " + inner + " }");
}

// `member` inserted as the last member of `l`: on a line of its own, indented
// as the members above it, in a literal written over several lines; after the
// last member in one written on one line. Trailing commas as the literal has them.
std::optional<TextEdit> AppendMember(std::string_view text, const Literal& l, const std::string& member) {
  size_t open = ts_node_start_byte(l.node), close = ts_node_end_byte(l.node);
  if (close <= open + 1 || text[close - 1] != (l.call ? ')' : '}')) return std::nullopt;
  uint32_t count = ts_node_named_child_count(l.node);
  TSNode last{};
  for (uint32_t i = 0; i < count; ++i) {
    TSNode c = ts_node_named_child(l.node, i);
    if (ts::Type(c) != "comment") last = c;
  }
  if (ts_node_is_null(last)) {
    return TextEdit{open + 1, close - 1, member};  // `{}` → `{member}`
  }
  size_t end = ts_node_end_byte(last);
  size_t after = end;
  while (after < close && IsBlank(text[after])) ++after;
  bool trailing = after < close && text[after] == ',';
  bool multiline = text.substr(open, ts_node_start_byte(last) - open).find('\n') != std::string_view::npos;
  if (!multiline) {
    if (trailing) return TextEdit{after + 1, after + 1, " " + member + ","};
    return TextEdit{end, end, ", " + member};
  }
  size_t line = LineStartOf(text, ts_node_start_byte(last));
  size_t indent_end = line;
  while (indent_end < text.size() && IsBlank(text[indent_end])) ++indent_end;
  std::string indent(text.substr(line, indent_end - line));
  std::string newline = line >= 2 && text[line - 2] == '\r' ? "\r\n" : "\n";
  // A comment after the last member stays on its line: the new member goes after it.
  size_t tail = trailing ? after + 1 : end;
  size_t eol = tail;
  while (eol < text.size() && text[eol] != '\n') ++eol;
  if (eol > tail && text[eol - 1] == '\r') --eol;
  std::string_view rest = text.substr(tail, eol - tail);
  size_t first = rest.find_first_not_of(" \t");
  bool comment =
      first != std::string_view::npos && (rest.substr(first).starts_with("#") || rest.substr(first).starts_with("//"));
  if (first != std::string_view::npos && !comment) eol = tail;  // more code on the line: right after the member
  if (trailing) return TextEdit{eol, eol, newline + indent + member + ","};
  return TextEdit{end, eol, "," + std::string(rest.substr(0, eol - tail)) + newline + indent + member};
}

std::optional<TextEdit> InsertIntoRequest(std::string_view path_of_file, std::string_view text, TSNode root,
                                          const FixChange& c) {
  std::optional<std::vector<std::string>> path = aws::TrainingRequestPath(c.field);
  if (!path) return std::nullopt;
  std::optional<Literal> at = TrainingRequest(root, text, c.range.begin);
  if (!at) return std::nullopt;
  Style style = StyleOf(path_of_file, text, *at);
  // Down the levels that exist, each an object literal; never past one Step Functions sets from its input.
  size_t depth = 0;
  for (; depth < path->size(); ++depth) {
    if (at->Member((*path)[depth] + ".$")) return std::nullopt;
    const TSNode* next = at->Member((*path)[depth]);
    if (!next) break;
    if (depth + 1 == path->size()) return std::nullopt;  // the setting is there already
    std::optional<Literal> inner = ValueLiteral(text, *next);
    if (!inner || !inner->complete) return std::nullopt;
    at = inner;
  }
  std::optional<std::string> value = ScalarCode(c.value, style);
  if (!value) return std::nullopt;
  return AppendMember(text, *at, MemberCode(*path, depth, *value, style));
}

// ---- idle settings in a Studio app's settings --------------------------------------

// An API member name as the app writes its struct keys: Python keyword
// arguments (and dicts whose keys have underscores) in snake_case, else camelCase.
std::string CdkKey(std::string_view api, bool snake) {
  std::string out;
  for (size_t i = 0; i < api.size(); ++i) {
    char c = api[i];
    bool upper = c >= 'A' && c <= 'Z';
    if (upper && i > 0 && snake) out += '_';
    out += static_cast<char>(upper && (snake || i == 0) ? c - 'A' + 'a' : c);
  }
  return out;
}

// How a settings literal writes its keys: snake_case, camelCase, or nullopt
// where its keys do not tell (a Python dict of one-word keys).
std::optional<bool> SnakeKeys(const Literal& l, bool python) {
  if (l.call) return true;
  if (!python) return false;
  for (const auto& [k, p] : l.members) {
    if (k.find('_') != std::string::npos) return true;
    if (std::any_of(k.begin(), k.end(), [](char c) { return c >= 'A' && c <= 'Z'; })) return false;
  }
  return std::nullopt;
}

// The members of an idle-settings change (a JSON object of scalars) in the app's spelling.
std::optional<std::vector<std::pair<std::string, std::string>>> IdleMembers(std::string_view json, bool snake,
                                                                            const Style& style) {
  std::vector<std::pair<std::string, std::string>> out;
  for (std::string_view key : {"LifecycleManagement", "IdleTimeoutInMinutes"}) {
    std::string quoted = "\"" + std::string(key) + "\": ";
    size_t at = json.find(quoted);
    if (at == std::string_view::npos) continue;
    size_t begin = at + quoted.size();
    size_t end = json.find_first_of(",}", begin);
    if (end == std::string_view::npos) return std::nullopt;
    std::optional<std::string> value = ScalarCode(json.substr(begin, end - begin), style);
    if (!value) return std::nullopt;
    out.emplace_back(CdkKey(key, snake), *value);
  }
  if (out.empty()) return std::nullopt;
  return out;
}

// `key: value` / `key=value` of a literal written like `l`.
std::string Written(const Literal& l, const Style& s, const std::string& key, const std::string& value) {
  if (l.call) return key + "=" + value;
  return (s.python ? Quoted(key, s.quote) : key) + ": " + value;
}

std::optional<TextEdit> InsertIdleSettings(std::string_view path_of_file, std::string_view text, TSNode root,
                                           const FixChange& c) {
  std::optional<Literal> at = LiteralAt(root, text, c.range.begin);
  if (!at || !at->complete) return std::nullopt;
  // Only a JupyterLab or Code Editor settings block (its struct class, or the key it is written under).
  std::string_view owner = at->call ? TextOf(ts::Field(ts_node_parent(at->node), "function"), text) : "";
  TSNode parent = ts_node_parent(at->node);
  if (!at->call && !ts_node_is_null(parent) && (ts::Type(parent) == "pair" || ts::Type(parent) == "keyword_argument")) {
    owner = TextOf(ts::Field(parent, ts::Type(parent) == "pair" ? "key" : "name"), text);
  }
  std::string o;
  for (char ch : owner) {
    if (ch != '_' && ch != '"' && ch != '\'') o += static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  }
  if (!o.ends_with("jupyterlabappsettings") && !o.ends_with("jupyterlabappsettingsproperty") &&
      !o.ends_with("codeeditorappsettings") && !o.ends_with("codeeditorappsettingsproperty")) {
    return std::nullopt;
  }
  bool python = IsPython(path_of_file);
  Style style = StyleOf(path_of_file, text, *at);
  std::optional<bool> snake = SnakeKeys(*at, python);
  if (!snake) return std::nullopt;
  const std::vector<std::string> path = {"AppLifecycleManagement", "IdleSettings"};
  size_t depth = 0;
  for (; depth < path.size(); ++depth) {
    const TSNode* next = at->Member(CdkKey(path[depth], at->call || *snake));
    if (!next) break;
    std::optional<Literal> inner = ValueLiteral(text, *next);
    if (!inner || !inner->complete) return std::nullopt;
    at = inner;
    style = StyleOf(path_of_file, text, *at);
  }
  bool leaf_snake = at->call || *snake;
  std::optional<std::vector<std::pair<std::string, std::string>>> members = IdleMembers(c.value, leaf_snake, style);
  if (!members) return std::nullopt;
  if (depth == path.size()) {
    // Every level is there: the missing members only, none overwritten.
    std::string code;
    for (const auto& [k, v] : *members) {
      if (at->Member(k)) continue;
      code += (code.empty() ? "" : ", ") + Written(*at, style, k, v);
    }
    if (code.empty()) return std::nullopt;
    return AppendMember(text, *at, code);
  }
  // The missing levels, inline: structs in a struct call, objects elsewhere.
  std::string inner;
  for (const auto& [k, v] : *members) {
    inner += (inner.empty() ? "" : ", ") + (at->call ? k + "=" + v : (python ? Quoted(k, style.quote) : k) + ": " + v);
  }
  for (size_t k = path.size(); k > depth + 1; --k) {
    std::string key = CdkKey(path[k - 1], at->call || *snake);
    std::string level = at->call ? at->prefix + path[k - 1] + "Property(" + inner + ")"
                                 : (python ? "{" + inner + "}" : "{ " + inner + " }");
    inner = at->call ? key + "=" + level : (python ? Quoted(key, style.quote) : key) + ": " + level;
  }
  std::string key = CdkKey(path[depth], at->call || *snake);
  std::string value = at->call ? at->prefix + path[depth] + "Property(" + inner + ")"
                               : (python ? "{" + inner + "}" : "{ " + inner + " }");
  return AppendMember(text, *at, Written(*at, style, key, value));
}

}  // namespace

std::optional<TextEdit> EditCdk(std::string_view text, const FixChange& change) {
  ts::Tree tree = ParseSource(change.path, text);
  if (!tree) return std::nullopt;
  TSNode root = ts_tree_root_node(tree.get());
  if (change.op == FixChange::Op::kRemove) {
    std::optional<TSNode> member = MemberAt(root, text, change.range.begin);
    if (!member) return std::nullopt;
    TSNode key = ts::Field(*member, ts::Type(*member) == "pair" ? "key" : "name");
    if (ts_node_is_null(key) || !RemovableMemberKey(change.field, ts::Text(key, text))) return std::nullopt;
    return RemoveMember(text, *member);
  }
  if (change.op == FixChange::Op::kInsert && change.field == "idle_settings") {
    return InsertIdleSettings(change.path, text, root, change);
  }
  if (change.op == FixChange::Op::kInsert) return InsertIntoRequest(change.path, text, root, change);
  return std::nullopt;
}

std::string CdkTaskSpotReason(std::string_view path, std::string_view text, SourcePos at) {
  ts::Tree tree = ParseSource(path, text);
  std::optional<size_t> offset = tree ? OffsetOf(text, at) : std::nullopt;
  if (!offset) return {};
  uint32_t b = static_cast<uint32_t>(*offset);
  for (TSNode n = ts_node_named_descendant_for_byte_range(ts_tree_root_node(tree.get()), b, b); !ts_node_is_null(n);
       n = ts_node_parent(n)) {
    std::string_view type = ts::Type(n);
    if (type != "call" && type != "new_expression") continue;
    TSNode callee = ts::Field(n, type == "call" ? "function" : "constructor");
    if (TextOf(callee, text).ends_with("SageMakerCreateTrainingJob")) {
      return "aws-cdk-lib's SageMakerCreateTrainingJob task has no property for managed Spot training, a max wait or "
             "a checkpoint location: the state takes them only when written as the CreateTrainingJob request "
             "itself (a CustomState or a state machine definition), a change left to the author";
    }
    return {};
  }
  return {};
}

std::string CdkValueReason(std::string_view path, std::string_view text, SourcePos at) {
  ts::Tree tree = ParseSource(path, text);
  std::optional<size_t> offset = tree ? OffsetOf(text, at) : std::nullopt;
  if (!offset) return {};
  uint32_t b = static_cast<uint32_t>(*offset);
  TSNode n = ts_node_named_descendant_for_byte_range(ts_tree_root_node(tree.get()), b, b);
  // The largest expression that starts there (`a.b` rather than `a`).
  while (!ts_node_is_null(n)) {
    TSNode parent = ts_node_parent(n);
    if (ts_node_is_null(parent) || ts_node_start_byte(parent) != b || ts::Type(parent) == "pair" ||
        ts::Type(parent) == "keyword_argument" || ts::Type(parent).ends_with("statement") ||
        ts::Type(parent).ends_with("declarator") || ts::Type(parent) == "assignment") {
      break;
    }
    n = parent;
  }
  if (ts_node_is_null(n)) return {};
  std::string line = "line " + std::to_string(at.line);
  std::string_view type = ts::Type(n);
  std::string code(ts::Text(n, text).substr(0, 60));
  for (char& c : code) c = c == '\n' ? ' ' : c;
  if (type == "string" || type == "number" || type == "integer" || type == "float" || type == "true" ||
      type == "false") {
    return "the value is the literal at " + line +
           ", written outside the construct's props (a variable or constant other code may read too): a fix edits "
           "only a literal written at the construct's property";
  }
  if (type == "identifier" || type == "attribute" || type == "member_expression" || type == "subscript" ||
      type == "subscript_expression") {
    return "the value comes from `" + code + "` (" + line +
           "), not a literal at the construct's property: it may be set in several places or read by other code";
  }
  if (type == "conditional_expression" || type == "ternary_expression") {
    return "the value is chosen by a conditional expression (" + line + "): no one literal serves every case";
  }
  if (type == "call" || type == "new_expression" || type == "call_expression") {
    // A Step Functions SageMaker task placed at its call: a value it does not write is the task's default.
    std::string_view callee = TextOf(ts::Field(n, type == "new_expression" ? "constructor" : "function"), text);
    if (callee.find("SageMakerCreate") != std::string_view::npos) {
      return "the value is not written in the task's props (" + line +
             ": the task's default, or a value from another file): the setting is added to them by hand";
    }
    return "the value is computed by a call (" + line + "), not written as one literal at the construct's property";
  }
  return "the value is computed (" + line + "), not written as one literal at the construct's property";
}

std::optional<size_t> CdkSyntaxErrors(std::string_view path, std::string_view text) {
  ts::Tree tree = ParseSource(path, text);
  if (!tree) return std::nullopt;
  return ts::FirstError(ts_tree_root_node(tree.get()), text) ? 1 : 0;
}

}  // namespace sagelint
