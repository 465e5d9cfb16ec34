// Fix edits for Terraform HCL (README "Fixes"): see parsers/frontend.h. The file is
// read with the evaluator's parser; an edit touches only the bytes of the
// member it removes or the lines it inserts, in the file's own indentation
// and line endings.
#include <algorithm>
#include <cctype>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "parsers/aws/resources.h"
#include "parsers/frontend.h"
#include "parsers/terraform/eval.h"

namespace sagelint {
namespace {

using tf::HclFile;

std::string_view Type(TSNode n) { return ts::Type(n); }

std::unique_ptr<HclFile> Parse(std::string_view text) {
  auto f = tf::ParseHclFile("", "edit.tf", "edit.tf", std::string(text));
  if (f->broken || !f->tree) return nullptr;
  return f;
}

bool Blank(std::string_view s) { return s.find_first_not_of(" \t") == std::string_view::npos; }

// The whitespace that starts the line holding `at`.
std::string_view IndentAt(std::string_view text, size_t at) {
  size_t start = LineStartOf(text, at);
  size_t end = start;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return text.substr(start, end - start);
}

// The line ending the file uses on the line holding `at`.
std::string LineEnding(std::string_view text, size_t at) {
  size_t nl = text.find('\n', at);
  if (nl == std::string_view::npos) nl = text.find('\n');
  return nl != std::string_view::npos && nl > 0 && text[nl - 1] == '\r' ? "\r\n" : "\n";
}

// The innermost node of `types` holding the byte at `at`.
TSNode Enclosing(const HclFile& f, size_t at, const std::set<std::string_view>& types) {
  TSNode root = ts_tree_root_node(f.tree.get());
  auto b = static_cast<uint32_t>(at);
  TSNode n = ts_node_descendant_for_byte_range(root, b, b);
  for (; !ts_node_is_null(n); n = ts_node_parent(n)) {
    if (types.count(Type(n))) return n;
  }
  return TSNode{};
}

std::string Unquoted(std::string_view s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  return std::string(s);
}

// The names a setting of the model is written under in HCL: resource
// arguments (snake_case) and API request objects (PascalCase).
std::set<std::string> KeysOf(const std::string& field) {
  std::set<std::string> keys;
  for (std::string_view api : aws::RemovableKeys(field)) {
    keys.emplace(api);
    keys.insert(aws::SnakeCase(api));
  }
  return keys;
}

// `key = value` (a block's attribute or an object's element): its whole
// line(s) when it stands alone on them (with a comment after it); in an
// object written on one line, the element and the comma that separates it.
std::optional<TextEdit> Remove(std::string_view text, const FixChange& change) {
  std::optional<size_t> at = OffsetOf(text, change.range.begin);
  std::set<std::string> keys = KeysOf(change.field);
  if (!at || keys.empty() || *at >= text.size()) return std::nullopt;
  auto f = Parse(text);
  if (!f) return std::nullopt;
  TSNode member = Enclosing(*f, *at, {"attribute", "object_elem"});
  if (ts_node_is_null(member)) return std::nullopt;
  bool elem = Type(member) == "object_elem";
  TSNode key = elem ? ts::Field(member, "key") : ts_node_named_child(member, 0);
  if (ts_node_is_null(key) || !keys.count(Unquoted(ts::Text(key, text)))) return std::nullopt;
  size_t begin = ts_node_start_byte(member), end = ts_node_end_byte(member);
  size_t line = LineStartOf(text, begin);
  size_t after = end;
  auto skip_blanks = [&] {
    while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  };
  skip_blanks();
  if (elem && after < text.size() && text[after] == ',') {
    ++after;
    skip_blanks();
  }
  bool comment = text.substr(after, 1) == "#" || text.substr(after, 2) == "//";
  if (comment) after = std::min(text.find('\n', after), text.size());
  if (after < text.size() && text[after] == '\r') ++after;
  bool line_end = after == text.size() || text[after] == '\n';
  if (Blank(text.substr(line, begin - line)) && line_end) {
    if (after < text.size()) ++after;
    return TextEdit{line, after, ""};
  }
  if (!elem) return std::nullopt;
  // `{ A = 1, B = 2 }`: the element with the comma after it, or the one before it.
  size_t next = end;
  while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
  if (next < text.size() && text[next] == ',') {
    ++next;
    while (next < text.size() && (text[next] == ' ' || text[next] == '\t')) ++next;
    return TextEdit{begin, next, ""};
  }
  size_t prev = begin;
  while (prev > 0 && (text[prev - 1] == ' ' || text[prev - 1] == '\t')) --prev;
  if (prev > 0 && text[prev - 1] == ',') return TextEdit{prev - 1, end, ""};
  return std::nullopt;
}

// ---- insertion --------------------------------------------------------------

std::string BlockType(TSNode block, std::string_view text) {
  return std::string(ts::Text(ts_node_named_child(block, 0), text));
}

TSNode BlockBody(TSNode block) {
  for (uint32_t i = 0; i < ts_node_named_child_count(block); ++i) {
    if (Type(ts_node_named_child(block, i)) == "body") return ts_node_named_child(block, i);
  }
  return TSNode{};
}

TSNode BlockPart(TSNode block, std::string_view type) {
  for (uint32_t i = 0; i < ts_node_named_child_count(block); ++i) {
    if (Type(ts_node_named_child(block, i)) == type) return ts_node_named_child(block, i);
  }
  return TSNode{};
}

// What a block's body says about `name`: the one nested block of that name,
// or `ambiguous` (an attribute of that name, a dynamic block, the block twice).
struct HclMember {
  TSNode block{};
  bool attribute = false;
  bool ambiguous = false;
};
HclMember Find(TSNode block, std::string_view text, std::string_view name) {
  HclMember m;
  TSNode body = BlockBody(block);
  if (ts_node_is_null(body)) return m;
  for (uint32_t i = 0; i < ts_node_named_child_count(body); ++i) {
    TSNode c = ts_node_named_child(body, i);
    if (Type(c) == "attribute" && ts::Text(ts_node_named_child(c, 0), text) == name) {
      m.attribute = true;
    } else if (Type(c) == "block") {
      std::string type = BlockType(c, text);
      if (type == "dynamic") {
        TSNode label = ts_node_named_child(c, 1);
        if (!ts_node_is_null(label) && Unquoted(ts::Text(label, text)) == name) m.ambiguous = true;
      } else if (type == name) {
        if (!ts_node_is_null(m.block)) m.ambiguous = true;
        m.block = c;
      }
    }
  }
  return m;
}

// One line to insert: its depth below the block it goes into, and its text.
struct Line {
  int depth;
  std::string text;
};

// `lines` added at the end of `block`'s body, each indented one step per
// depth below the block's own indentation (the step its members use, else
// two spaces).
std::optional<TextEdit> AppendToBlock(std::string_view text, TSNode block, const std::vector<Line>& lines) {
  TSNode open = BlockPart(block, "block_start"), close = BlockPart(block, "block_end");
  if (ts_node_is_null(open) || ts_node_is_null(close)) return std::nullopt;
  size_t start = ts_node_start_byte(block), close_at = ts_node_start_byte(close);
  size_t block_line = LineStartOf(text, start);
  if (!Blank(text.substr(block_line, start - block_line))) return std::nullopt;
  std::string indent(IndentAt(text, start));
  std::string step = "  ";
  TSNode body = BlockBody(block);
  for (uint32_t i = 0; !ts_node_is_null(body) && i < ts_node_named_child_count(body); ++i) {
    size_t child = ts_node_start_byte(ts_node_named_child(body, i));
    size_t line = LineStartOf(text, child);
    std::string_view child_indent = IndentAt(text, child);
    if (line > block_line && Blank(text.substr(line, child - line)) && child_indent.size() > indent.size() &&
        child_indent.substr(0, indent.size()) == indent) {
      step = std::string(child_indent.substr(indent.size()));
      break;
    }
  }
  std::string nl = LineEnding(text, start);
  std::string added;
  for (const Line& l : lines) {
    added += indent;
    for (int d = 0; d <= l.depth; ++d) added += step;
    added += l.text + nl;
  }
  size_t close_line = LineStartOf(text, close_at);
  if (close_line > block_line && Blank(text.substr(close_line, close_at - close_line))) {
    return TextEdit{close_line, close_line, added};
  }
  // `name {}` on one line: the body opens onto lines of its own.
  size_t open_end = ts_node_end_byte(open);
  if (Blank(text.substr(open_end, close_at - open_end))) return TextEdit{open_end, close_at, nl + added + indent};
  return std::nullopt;
}

// A JSON scalar as an HCL literal.
std::optional<std::string> HclLiteral(const nlohmann::ordered_json& v) {
  if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
  if (v.is_number()) return v.dump();
  if (!v.is_string()) return std::nullopt;
  std::string out = "\"";
  const std::string s = v.get<std::string>();
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else if ((c == '$' || c == '%') && i + 1 < s.size() && s[i + 1] == '{') {
      out += c;
      out += c;  // $${ is a literal ${
    } else {
      out += c;
    }
  }
  return out + "\"";
}

// `key = value` lines, their `=` aligned as `terraform fmt` aligns them.
std::vector<Line> Attributes(const std::vector<std::pair<std::string, std::string>>& attrs, int depth) {
  size_t width = 0;
  for (const auto& [k, v] : attrs) width = std::max(width, k.size());
  std::vector<Line> out;
  for (const auto& [k, v] : attrs) out.push_back({depth, k + std::string(width - k.size(), ' ') + " = " + v});
  return out;
}

// idle_settings: `app_lifecycle_management { idle_settings { … } }` in a
// Studio app's settings block, creating only the levels that are missing
// and never changing an attribute that is there.
std::optional<TextEdit> InsertHclIdleSettings(std::string_view text, const FixChange& change) {
  std::optional<size_t> at = OffsetOf(text, change.range.begin);
  if (!at || *at >= text.size()) return std::nullopt;
  nlohmann::ordered_json value = nlohmann::ordered_json::parse(change.value, nullptr, false);
  if (!value.is_object() || value.empty()) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> attrs;
  for (const auto& [k, v] : value.items()) {
    std::optional<std::string> lit = HclLiteral(v);
    if (!lit) return std::nullopt;
    attrs.emplace_back(aws::SnakeCase(k), *lit);
  }
  auto f = Parse(text);
  if (!f) return std::nullopt;
  TSNode settings = Enclosing(*f, *at, {"block"});
  if (ts_node_is_null(settings) || ts_node_start_byte(settings) != *at) return std::nullopt;
  if (!BlockType(settings, text).ends_with("_app_settings")) return std::nullopt;
  HclMember alm = Find(settings, text, "app_lifecycle_management");
  if (alm.ambiguous || alm.attribute) return std::nullopt;
  if (ts_node_is_null(alm.block)) {
    std::vector<Line> lines{{0, "app_lifecycle_management {"}, {1, "idle_settings {"}};
    for (Line& l : Attributes(attrs, 2)) lines.push_back(std::move(l));
    lines.push_back({1, "}"});
    lines.push_back({0, "}"});
    return AppendToBlock(text, settings, lines);
  }
  HclMember idle = Find(alm.block, text, "idle_settings");
  if (idle.ambiguous || idle.attribute) return std::nullopt;
  if (ts_node_is_null(idle.block)) {
    std::vector<Line> lines{{0, "idle_settings {"}};
    for (Line& l : Attributes(attrs, 1)) lines.push_back(std::move(l));
    lines.push_back({0, "}"});
    return AppendToBlock(text, alm.block, lines);
  }
  std::vector<std::pair<std::string, std::string>> missing;
  for (const auto& a : attrs) {
    HclMember m = Find(idle.block, text, a.first);
    if (!m.attribute && ts_node_is_null(m.block) && !m.ambiguous) missing.push_back(a);
  }
  if (missing.empty()) return std::nullopt;
  std::vector<Line> lines;
  for (const auto& [k, v] : missing) lines.push_back({0, k + " = " + v});
  return AppendToBlock(text, idle.block, lines);
}

// ---- training jobs ----------------------------------------------------------

// The object an expression is written as (`{ … }`, through the expression
// and collection wrappers), or a null node.
TSNode ObjectOf(TSNode n) {
  while (!ts_node_is_null(n) && Type(n) != "object") {
    if (Type(n) != "expression" && Type(n) != "collection_value") return TSNode{};
    if (ts_node_named_child_count(n) != 1) return TSNode{};
    n = ts_node_named_child(n, 0);
  }
  return n;
}

// The one object of a tuple written as `[{ … }]`, or a null node.
TSNode OnlyObjectOf(TSNode n) {
  while (!ts_node_is_null(n) && Type(n) != "tuple") {
    if (Type(n) != "expression" && Type(n) != "collection_value") return TSNode{};
    if (ts_node_named_child_count(n) != 1) return TSNode{};
    n = ts_node_named_child(n, 0);
  }
  if (ts_node_is_null(n)) return TSNode{};
  TSNode only{};
  for (uint32_t i = 0; i < ts_node_named_child_count(n); ++i) {
    TSNode c = ts_node_named_child(n, i);
    if (Type(c) == "tuple_start" || Type(c) == "tuple_end" || Type(c) == "comment") continue;
    if (!ts_node_is_null(only)) return TSNode{};
    only = c;
  }
  return ObjectOf(only);
}

std::vector<TSNode> Elements(TSNode object) {
  std::vector<TSNode> out;
  for (uint32_t i = 0; i < ts_node_named_child_count(object); ++i) {
    TSNode c = ts_node_named_child(object, i);
    if (Type(c) == "object_elem") out.push_back(c);
  }
  return out;
}

std::string KeyOf(TSNode elem, std::string_view text) { return Unquoted(ts::Text(ts::Field(elem, "key"), text)); }

// What an object says about `key`: absent, its element (`elem`), or written
// so that nothing may be added (twice, or as Step Functions' `"key.$"`).
struct Elem {
  TSNode elem{};
  bool blocked = false;
};
Elem ElemOf(TSNode object, std::string_view text, const std::string& key) {
  Elem e;
  for (TSNode c : Elements(object)) {
    std::string k = KeyOf(c, text);
    if (k == key + ".$" || (k == key && !ts_node_is_null(e.elem))) e.blocked = true;
    if (k == key) e.elem = c;
  }
  return e;
}

// How an object writes its elements: keys quoted or not, the separator
// between key and value as written (" = ", ": ", "=").
struct HclStyle {
  bool quoted = false;
  std::string sep = " = ";
};
HclStyle HclStyleOf(TSNode object, std::string_view text) {
  HclStyle s;
  std::vector<TSNode> elems = Elements(object);
  if (elems.empty()) return s;
  TSNode key = ts::Field(elems[0], "key"), val = ts::Field(elems[0], "val");
  if (ts_node_is_null(key) || ts_node_is_null(val)) return s;
  s.quoted = ts::Text(key, text).starts_with("\"");
  // The separator without the alignment padding before it: `Type     = "Task"` gives " = ".
  std::string_view between = text.substr(ts_node_end_byte(key), ts_node_start_byte(val) - ts_node_end_byte(key));
  size_t mark = between.find_first_of("=:");
  if (mark == std::string_view::npos || between.find('\n') != std::string_view::npos) return s;
  s.sep = std::string(mark > 0 ? " " : "") + between[mark] + (mark + 1 < between.size() ? " " : "");
  return s;
}

std::string ElemText(const HclStyle& s, const std::string& key, const std::string& value) {
  return (s.quoted ? "\"" + key + "\"" : key) + s.sep + value;
}

// `member` added after the object's last element: on a line of its own in
// the last element's indentation when the object spans lines, separated by
// a comma as its elements are; `, member` when it is written on one line.
std::optional<TextEdit> AppendToObject(std::string_view text, TSNode object, const std::string& member) {
  std::vector<TSNode> elems = Elements(object);
  size_t open = ts_node_start_byte(object), close = ts_node_end_byte(object);
  if (close <= open || text[close - 1] != '}') return std::nullopt;
  if (elems.empty()) {
    if (!Blank(text.substr(open + 1, close - 1 - open - 1))) return std::nullopt;
    return TextEdit{open + 1, close - 1, " " + member + " "};
  }
  auto comma_after = [&](TSNode e) {
    size_t at = ts_node_end_byte(e);
    while (at < text.size() && (text[at] == ' ' || text[at] == '\t')) ++at;
    return at < text.size() && text[at] == ',' ? at : std::string_view::npos;
  };
  TSNode last = elems.back();
  size_t last_end = ts_node_end_byte(last);
  if (LineStartOf(text, last_end) == LineStartOf(text, close - 1)) {
    if (LineStartOf(text, open) != LineStartOf(text, close - 1)) return std::nullopt;  // `  A = 1 }` closing a block
    return TextEdit{last_end, last_end, ", " + member};
  }
  size_t begin = ts_node_start_byte(last);
  size_t line = LineStartOf(text, begin);
  if (!Blank(text.substr(line, begin - line))) return std::nullopt;
  std::string indent(IndentAt(text, begin));
  std::string nl = LineEnding(text, begin);
  size_t comma = comma_after(last);
  bool commas = comma != std::string_view::npos;
  for (size_t i = 0; i + 1 < elems.size() && !commas; ++i) commas = comma_after(elems[i]) != std::string_view::npos;
  size_t after = comma != std::string_view::npos ? comma + 1 : last_end;
  while (after < text.size() && (text[after] == ' ' || text[after] == '\t')) ++after;
  bool comment = text.substr(after, 1) == "#" || text.substr(after, 2) == "//";
  if (comma == std::string_view::npos && commas) {
    // `A = 1,` above and `B = 2` last: the comma goes after B, the member below it.
    if (comment || (after < text.size() && text[after] != '\r' && text[after] != '\n')) return std::nullopt;
    return TextEdit{last_end, last_end, "," + nl + indent + member};
  }
  if (comment) after = std::min(text.find('\n', after), text.size());
  if (after < text.size() && text[after] == '\r') ++after;
  if (after >= text.size() || text[after] != '\n') return std::nullopt;
  ++after;
  return TextEdit{after, after, indent + member + (commas ? "," : "") + nl};
}

// A request object's setting (README "Fixes"): `field` of the model with its
// JSON value, in the API's names and the object's own style.
std::optional<TextEdit> InsertIntoHclRequest(std::string_view text, TSNode req, const std::string& field,
                                             const nlohmann::ordered_json& value) {
  std::optional<std::string> lit = HclLiteral(value);
  if (!lit) return std::nullopt;
  HclStyle style = HclStyleOf(req, text);
  // The setting `key` inside the object `parent` (created with it when absent).
  auto nested = [&](const std::string& parent, const std::string& key, bool create) -> std::optional<TextEdit> {
    Elem p = ElemOf(req, text, parent);
    if (p.blocked) return std::nullopt;
    if (ts_node_is_null(p.elem)) {
      if (!create) return std::nullopt;
      return AppendToObject(text, req, ElemText(style, parent, "{ " + ElemText(style, key, *lit) + " }"));
    }
    TSNode obj = ObjectOf(ts::Field(p.elem, "val"));
    if (ts_node_is_null(obj)) return std::nullopt;
    Elem k = ElemOf(obj, text, key);
    if (k.blocked || !ts_node_is_null(k.elem)) return std::nullopt;
    HclStyle inner = Elements(obj).empty() ? style : HclStyleOf(obj, text);
    return AppendToObject(text, obj, ElemText(inner, key, *lit));
  };
  std::optional<std::vector<std::string>> path = aws::TrainingRequestPath(field);
  if (!path) return std::nullopt;
  // A top-level setting, or the setting under its object; a checkpoint only
  // where no configuration is written, an input mode only into an algorithm
  // specification that is there.
  Elem top = ElemOf(req, text, path->front());
  bool whole = path->size() == 1 || field == "checkpoint";
  if (whole && (top.blocked || !ts_node_is_null(top.elem))) return std::nullopt;
  if (path->size() == 1) return AppendToObject(text, req, ElemText(style, path->front(), *lit));
  return nested((*path)[0], (*path)[1], field != "input_mode");
}

// The same setting as a training job resource's argument or nested block.
std::optional<TextEdit> InsertIntoResource(std::string_view text, TSNode block, const std::string& field,
                                           const nlohmann::ordered_json& value) {
  std::optional<std::string> lit = HclLiteral(value);
  if (!lit) return std::nullopt;
  auto absent = [&](TSNode in, std::string_view name) {
    HclMember m = Find(in, text, name);
    return !m.attribute && !m.ambiguous && ts_node_is_null(m.block);
  };
  auto nested = [&](std::string_view name, const std::string& key, bool create) -> std::optional<TextEdit> {
    HclMember m = Find(block, text, name);
    if (m.attribute || m.ambiguous) return std::nullopt;
    if (ts_node_is_null(m.block)) {
      if (!create) return std::nullopt;
      return AppendToBlock(text, block, {{0, std::string(name) + " {"}, {1, key + " = " + *lit}, {0, "}"}});
    }
    if (!absent(m.block, key)) return std::nullopt;
    return AppendToBlock(text, m.block, {{0, key + " = " + *lit}});
  };
  std::optional<std::vector<std::string>> path = aws::TrainingRequestPath(field);
  if (!path) return std::nullopt;
  std::vector<std::string> names;  // the resource's arguments: the API's names in snake_case
  for (const std::string& key : *path) names.push_back(aws::SnakeCase(key));
  bool whole = path->size() == 1 || field == "checkpoint";
  if (whole && !absent(block, names.front())) return std::nullopt;
  if (names.size() == 1) return AppendToBlock(text, block, {{0, names.front() + " = " + *lit}});
  return nested(names[0], names[1], field != "input_mode");
}

// spot, max_wait_seconds, checkpoint, input_mode: into the training job the
// workload's range starts — a `resource "aws_sagemaker_training_job"` block,
// or a Step Functions state written as an object whose `Parameters`
// (`Arguments`) object is the request.
std::optional<TextEdit> InsertTrainingSetting(std::string_view text, const FixChange& change) {
  std::optional<size_t> at = OffsetOf(text, change.range.begin);
  if (!at || *at >= text.size()) return std::nullopt;
  nlohmann::ordered_json value = nlohmann::ordered_json::parse(change.value, nullptr, false);
  if (value.is_discarded()) return std::nullopt;
  auto f = Parse(text);
  if (!f) return std::nullopt;
  TSNode n = Enclosing(*f, *at, {"block", "object"});
  if (ts_node_is_null(n) || ts_node_start_byte(n) != *at) return std::nullopt;
  if (Type(n) == "block") {
    TSNode label = ts_node_named_child(n, 1);
    std::string type = ts_node_is_null(label) ? std::string() : Unquoted(ts::Text(label, text));
    if (BlockType(n, text) != "resource") return std::nullopt;
    if (type == "aws_sagemaker_training_job") return InsertIntoResource(text, n, change.field, value);
    if (type != "aws_sagemaker_hyper_parameter_tuning_job") return std::nullopt;
    // A tuning job: into its one training job definition.
    HclMember def = Find(n, text, "training_job_definition");
    if (def.attribute || def.ambiguous || ts_node_is_null(def.block)) return std::nullopt;
    return InsertIntoResource(text, def.block, change.field, value);
  }
  Elem params = ElemOf(n, text, "Parameters");
  Elem args = ElemOf(n, text, "Arguments");
  if (params.blocked || args.blocked || ts_node_is_null(params.elem) == ts_node_is_null(args.elem)) return std::nullopt;
  TSNode req = ObjectOf(ts::Field(ts_node_is_null(params.elem) ? args.elem : params.elem, "val"));
  if (ts_node_is_null(req)) return std::nullopt;
  // A tuning job's request: into its one training job definition.
  Elem one = ElemOf(req, text, "TrainingJobDefinition");
  Elem many = ElemOf(req, text, "TrainingJobDefinitions");
  if (one.blocked || many.blocked || (!ts_node_is_null(one.elem) && !ts_node_is_null(many.elem))) return std::nullopt;
  if (!ts_node_is_null(one.elem)) {
    req = ObjectOf(ts::Field(one.elem, "val"));
  } else if (!ts_node_is_null(many.elem)) {
    req = OnlyObjectOf(ts::Field(many.elem, "val"));
  }
  if (ts_node_is_null(req)) return std::nullopt;
  return InsertIntoHclRequest(text, req, change.field, value);
}

}  // namespace

std::optional<TextEdit> EditTerraform(std::string_view text, const FixChange& change) {
  if (change.op == FixChange::Op::kRemove) return Remove(text, change);
  if (change.op == FixChange::Op::kInsert && change.field == "idle_settings")
    return InsertHclIdleSettings(text, change);
  static const std::set<std::string> kTraining = {"spot", "max_wait_seconds", "checkpoint", "input_mode"};
  if (change.op == FixChange::Op::kInsert && kTraining.count(change.field)) return InsertTrainingSetting(text, change);
  return std::nullopt;
}

}  // namespace sagelint
