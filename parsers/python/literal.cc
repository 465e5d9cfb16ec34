// Literal sites (README "Fixes"): where a setting's value is written as one literal
// token that a fix may edit, and only where nothing else reads that token.
#include <algorithm>

#include "parsers/common/tree_sitter.h"
#include "parsers/python/sdk_model.h"

namespace sagelint::py {
namespace {

bool InsideDefinition(const Grammar& g, TSNode n) {
  for (TSNode p = ts_node_parent(n); !ts_node_is_null(p); p = ts_node_parent(p)) {
    N k = g.Kind(p);
    if (k == N::kFunctionDefinition || k == N::kLambda || k == N::kClassDefinition) return true;
  }
  return false;
}

bool IdentChar(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || (c & 0x80);
}

// Whether `word` occurs in `line` as a whole word.
bool HasWord(std::string_view line, std::string_view word) {
  for (size_t at = line.find(word); at != std::string_view::npos; at = line.find(word, at + 1)) {
    bool before = at > 0 && IdentChar(line[at - 1]);
    bool after = at + word.size() < line.size() && IdentChar(line[at + word.size()]);
    if (!before && !after) return true;
  }
  return false;
}

}  // namespace

// A string or number token whose text spells exactly `value` (quotes aside):
// no prefix, escape, interpolation or implicit concatenation.
bool Analyzer::PlainLiteral(TSNode token, const Value& value) const {
  N k = g_.Kind(token);
  std::string_view text = T(token);
  if (k == N::kInteger || k == N::kFloat) return value.kind == VK::kNum && text == value.text;
  if (k != N::kString || value.kind != VK::kStr) return false;
  std::string_view quote;
  for (uint32_t i = 0, n = ts_node_child_count(token); i < n; ++i) {
    TSNode c = ts_node_child(token, i);
    std::string_view type = ts_node_type(c);
    if (type == "string_start") {
      quote = T(c);
    } else if (type != "string_content" && type != "string_end") {
      return false;  // an interpolation, an escape
    } else if (type == "string_content" && ts_node_child_count(c) > 0) {
      return false;  // escapes inside the content
    }
  }
  if (quote.empty() || quote.find_first_not_of("\"'") != std::string_view::npos) return false;
  return text.size() == 2 * quote.size() + value.text.size() &&
         text.substr(quote.size(), value.text.size()) == value.text;
}

// The literal a module-level name was assigned once and is read only at
// `read`: any other mention of the name (another read or assignment, `global`,
// `del`, a parameter, a use inside a function, an IPython line naming it) and
// there is none.
TSNode Analyzer::ConstantLiteral(TSNode read) const {
  if (InsideDefinition(g_, read)) return {};
  if (!constants_) {
    constants_.emplace();
    auto& table = *constants_;
    size_t seen = 0;
    WalkTree(root_, [&](TSNode n) {
      N k = g_.Kind(n);
      if (k == N::kIdentifier && ++seen < 2'000'000) {
        TSNode parent = ts_node_parent(n);
        N pk = g_.Kind(parent);
        bool keyword = pk == N::kKeywordArgument && ts_node_eq(g_.Field(parent, g_.f_name), n);
        bool attribute = pk == N::kAttribute && ts_node_eq(g_.Field(parent, g_.f_attribute), n);
        if (!keyword && !attribute) ++table[T(n)].mentions;
      } else if (k == N::kAssignment) {
        TSNode left = g_.Field(n, g_.f_left), right = g_.Field(n, g_.f_right);
        TSNode statement = ts_node_parent(n);
        if (g_.Kind(left) == N::kIdentifier && g_.Kind(statement) == N::kExpressionStatement &&
            ts_node_eq(ts_node_parent(statement), root_) && !ts_node_is_null(right)) {
          ConstantSite& c = table[T(left)];
          ++c.assignments;
          c.literal = right;
        }
      }
      return true;
    });
  }
  std::string_view name = T(read);
  auto it = constants_->find(name);
  if (it == constants_->end() || it->second.assignments != 1 || it->second.mentions != 2) return {};
  if (nb_) {
    for (size_t i = 0; i < nb_->lines.size() && i < nb_->original.size(); ++i) {
      if (nb_->lines[i].rewritten && HasWord(nb_->original[i], name)) return {};
    }
  }
  return it->second.literal;
}

SourceRange Analyzer::TokenRange(TSNode token) const {
  SourceRange r{ts::Start(token), ts::End(token)};
  if (!nb_) return r;
  std::string_view json = file_.text;
  if (json.substr(0, 3) == "\xEF\xBB\xBF") json.remove_prefix(3);  // as the notebook was read
  auto b = ExactPosition(*nb_, json, r.begin);
  auto e = ExactPosition(*nb_, json, r.end);
  if (!b || !e || b->line != e->line) return {};
  SourceRange out = MapRange(*nb_, r);
  out.begin = *b;
  out.end = *e;
  return out;
}

SourceRange Analyzer::LiteralSite(const Ev& e) const {
  if (ts_node_is_null(lit_call_) || ts_node_is_null(e.at) || !trees_.empty() || e.at.tree != lit_call_.tree) return {};
  // Written in the call whose settings are read (not in a dict or helper
  // object bound elsewhere, which others may read too).
  if (ts_node_start_byte(e.at) < ts_node_start_byte(lit_call_) || ts_node_end_byte(e.at) > ts_node_end_byte(lit_call_))
    return {};
  TSNode token = e.at;
  if (g_.Kind(token) == N::kIdentifier) token = ConstantLiteral(token);
  if (ts_node_is_null(token) || !PlainLiteral(token, V(e.v))) return {};
  return TokenRange(token);
}

std::string SdkModel::PredictorDeleteStatement(int id, std::string* capture, SourceRange* capture_at) const {
  const Object& p = objects_[id];
  if (p.var.empty() || p.value == kUnknown || !ts_node_is_null(p.via) || a_.scopes_.empty() ||
      InsideDefinition(g_, p.call))
    return {};
  // A builder's or trainer's deploy(): SDK v3's returns an Endpoint object
  // (deleted by `.delete()`), v2's a Predictor. The file's imports tell which.
  std::string method = ".delete_endpoint()";
  int guard = 0;
  for (int s = p.source; s >= 0 && guard++ < 8; s = objects_[s].source) {
    if (objects_[s].kind != ObjKind::kModelBuilder && objects_[s].kind != ObjKind::kModelTrainer) continue;
    std::string_view text = a_.file_.text;
    bool v3 = false;
    for (std::string_view mark :
         {"sagemaker.core", "sagemaker.train", "sagemaker.serve.model_builder", "sagemaker.mlops"}) {
      v3 = v3 || text.find(mark) != std::string_view::npos;
    }
    bool v2 = text.find("sagemaker.serve.builder") != std::string_view::npos ||
              text.find("sagemaker.modules") != std::string_view::npos;
    if (v3 == v2) return {};  // neither or both: no statement is sure to work
    method = v3 ? ".delete()" : ".delete_endpoint()";
    break;
  }
  // Made in a loop: each pass deploys another endpoint. Deleted over the list
  // the loop fills (`predictors.append(predictor)`, a list the module makes
  // empty before the loop), else not by one statement.
  TSNode loop{};
  for (TSNode n = ts_node_parent(p.call); !ts_node_is_null(n); n = ts_node_parent(n)) {
    N k = g_.Kind(n);
    if (k == N::kForStatement || k == N::kWhileStatement || k == N::kListComprehension) loop = n;
  }
  if (!ts_node_is_null(loop)) return LoopListDelete(p, loop, method);
  // The name still holds this predictor when the code has run.
  const Scope& module = a_.scopes_.front();
  auto it = module.slot_of.find(p.var);
  if (it == module.slot_of.end() || static_cast<size_t>(it->second) >= module.env.size()) return {};
  if (module.env[it->second] == p.value) return p.var + method;
  // Bound again later: a module-level `name = ….deploy(…)` (no loop, branch
  // or function around it) keeps this one under a name of its own.
  if (!capture || !capture_at) return {};
  TSNode statement = p.call;
  while (!ts_node_is_null(statement) && g_.Kind(ts_node_parent(statement)) != N::kModule) {
    statement = ts_node_parent(statement);
  }
  if (ts_node_is_null(statement) || g_.Kind(statement) != N::kExpressionStatement) return {};
  TSNode assignment = ts_node_named_child(statement, 0);
  if (ts_node_named_child_count(statement) != 1 || g_.Kind(assignment) != N::kAssignment) return {};
  TSNode left = g_.Field(assignment, g_.f_left), right = g_.Field(assignment, g_.f_right);
  if (g_.Kind(left) != N::kIdentifier || a_.T(left) != p.var || ts_node_is_null(right) ||
      ts_node_start_byte(p.call) < ts_node_start_byte(right) || ts_node_end_byte(p.call) > ts_node_end_byte(right)) {
    return {};
  }
  SourceRange at = a_.R(statement);
  if (!at.valid()) return {};
  // A name nothing in the file uses yet.
  auto used = [&](const std::string& name) {
    if (capture_names_.count(name)) return true;
    std::string_view text = a_.file_.text;
    for (size_t k = text.find(name); k != std::string_view::npos; k = text.find(name, k + 1)) {
      bool before = k > 0 && IdentChar(text[k - 1]);
      bool after = k + name.size() < text.size() && IdentChar(text[k + name.size()]);
      if (!before && !after) return true;
    }
    return false;
  };
  std::string name;
  for (int n = 1; n < 1000 && (name.empty() || used(name)); ++n) name = p.var + "_" + std::to_string(n);
  if (used(name)) return {};
  capture_names_.insert(name);
  *capture = name + " = " + p.var;
  *capture_at = at;
  return name + method;
}

std::string SdkModel::LoopListDelete(const Object& p, TSNode loop, const std::string& method) const {
  if (g_.Kind(loop) == N::kListComprehension || g_.Kind(ts_node_parent(loop)) != N::kModule) return {};
  // `L.append(var)` (or of the deploy itself) in the loop, after the deploy.
  std::string list;
  WalkTree(loop, [&](TSNode n) {
    if (g_.Kind(n) != N::kCall || ts_node_start_byte(n) < ts_node_start_byte(p.call)) return true;
    TSNode fn = g_.Field(n, g_.f_function);
    TSNode args = g_.Field(n, g_.f_arguments);
    if (g_.Kind(fn) != N::kAttribute || a_.T(g_.Field(fn, g_.f_attribute)) != "append" ||
        g_.Kind(g_.Field(fn, g_.f_object)) != N::kIdentifier || ts_node_named_child_count(args) != 1) {
      return true;
    }
    TSNode arg = ts_node_named_child(args, 0);
    if ((g_.Kind(arg) == N::kIdentifier && a_.T(arg) == p.var) || ts_node_eq(arg, p.call)) {
      list = std::string(a_.T(g_.Field(fn, g_.f_object)));
      return false;
    }
    return true;
  });
  if (list.empty() || list == p.var) return {};
  // The module makes it an empty list before the loop, and binds it nowhere else.
  int empty_before = 0, bindings = 0;
  TSNode root = ts_node_parent(loop);
  for (uint32_t i = 0, n = ts_node_named_child_count(root); i < n; ++i) {
    TSNode st = ts_node_named_child(root, i);
    TSNode a = g_.Kind(st) == N::kExpressionStatement ? ts_node_named_child(st, 0) : TSNode{};
    if (ts_node_is_null(a) || g_.Kind(a) != N::kAssignment) continue;
    TSNode left = g_.Field(a, g_.f_left), right = g_.Field(a, g_.f_right);
    if (g_.Kind(left) != N::kIdentifier || a_.T(left) != list) continue;
    ++bindings;
    if (ts_node_end_byte(st) <= ts_node_start_byte(loop) && g_.Kind(right) == N::kList &&
        ts_node_named_child_count(right) == 0) {
      ++empty_before;
    }
  }
  if (bindings != 1 || empty_before != 1) return {};
  return "for " + p.var + " in " + list + ":\n    " + p.var + method;
}

std::string SdkModel::RunTimeNameDeleteStatement(TSNode call, const std::string& variable, VId value) const {
  if (variable.empty() || value == kUnknown || a_.store_.Kind(value) != VK::kOpaque || a_.scopes_.empty() ||
      !std::all_of(variable.begin(), variable.end(), IdentChar)) {
    return {};
  }
  const Scope& module = a_.scopes_.front();
  auto it = module.slot_of.find(variable);
  if (it == module.slot_of.end() || static_cast<size_t>(it->second) >= module.env.size() ||
      module.env[it->second] != value) {
    return {};
  }
  return ClientDeleteStatement(call, variable, true);
}

std::string SdkModel::ClientDeleteStatement(TSNode call, const std::string& name, bool expression) const {
  if (ts_node_is_null(call) || a_.scopes_.empty() || InsideDefinition(g_, call)) return {};
  if (name.empty() || name.find_first_of("\"\\\n\r") != std::string::npos) return {};
  // The name as written: a literal, or the variable that holds it.
  const std::string quoted = expression ? name : "\"" + name + "\"";
  TSNode fn = g_.Field(call, g_.f_function);
  if (g_.Kind(fn) != N::kAttribute) return {};
  TSNode receiver = g_.Field(fn, g_.f_object);
  std::string_view text = a_.T(receiver);
  if (g_.Kind(receiver) == N::kIdentifier) {
    // A module-level name that still holds a boto3 client.
    const Scope& module = a_.scopes_.front();
    auto it = module.slot_of.find(text);
    if (it == module.slot_of.end() || static_cast<size_t>(it->second) >= module.env.size()) return {};
    VId v = module.env[it->second];
    // sagemaker.core `Endpoint.create(...)`: the same class gets it back by name.
    if (a_.store_.Kind(v) == VK::kQual && (a_.V(v).text == "sagemaker.core.resources.Endpoint" ||
                                           a_.V(v).text.ends_with("sagemaker_core.resources.Endpoint") ||
                                           a_.V(v).text == "sagemaker_core.main.resources.Endpoint")) {
      return std::string(text) + ".get(endpoint_name=" + quoted + ").delete()";
    }
    if (!IsObject(v) || objects_[a_.V(v).ref].kind != ObjKind::kClient) return {};
  } else if (g_.Kind(receiver) != N::kAttribute || !text.ends_with(".sagemaker_client") ||
             !std::all_of(text.begin(), text.end(), [](char c) { return IdentChar(c) || c == '.'; })) {
    return {};
  }
  return std::string(text) + ".delete_endpoint(EndpointName=" + quoted + ")";
}

}  // namespace sagelint::py
