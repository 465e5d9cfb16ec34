#include "linter/policy/policy.h"

#include <re2/re2.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <filesystem>
#include <set>

#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/base/yaml_keys.h"

namespace sagelint {
namespace {

struct Invalid {
  std::string message;
};

// What the policies of one configuration share: their IDs and the regular
// expressions' budget.
struct Shared {
  std::set<std::string> ids;
  int regex_size = 0;  // RE2 program instructions so far
};

// A pattern as an error message quotes it (a hostile one can be long).
std::string ShownPattern(const std::string& p) { return p.size() > 80 ? p.substr(0, 80) + "…" : p; }

class Loader {
 public:
  Loader(std::string file, Shared* shared) : file_(std::move(file)), shared_(shared) {}

  [[noreturn]] void Fail(const YAML::Node& at, const std::string& id, const std::string& what) const {
    std::string pos = file_;
    if (at.IsDefined() && at.Mark().line >= 0) pos += ":" + std::to_string(at.Mark().line + 1);
    throw Invalid{pos + ": " + (id.empty() ? "" : "policy " + id + ": ") + what};
  }

  std::string Scalar(const YAML::Node& n, const std::string& id, const std::string& key) const {
    if (!n.IsScalar()) Fail(n, id, "'" + key + "' must be a single value");
    return n.Scalar();
  }

  void List(const YAML::Node& list, std::vector<Policy>* out) {
    if (!list.IsDefined() || list.IsNull()) return;
    if (!list.IsSequence()) Fail(list, "", "'policies' must be a list");
    for (const auto& item : list) out->push_back(One(item));
  }

 private:
  Policy One(const YAML::Node& n) {
    if (!n.IsMap()) Fail(n, "", "a policy must be a mapping with id, workload, where and message");
    Policy p;
    p.file = file_;
    p.line = n.Mark().line + 1;
    const YAML::Node id = n["id"];
    if (!id) Fail(n, "", "a policy needs an 'id'");
    p.id = Scalar(id, "", "id");
    if (p.id.empty() || p.id.rfind("SM", 0) == 0)
      Fail(id, p.id, "IDs starting with SM are reserved for built-in rules");
    for (char c : p.id) {
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '-') {
        Fail(id, p.id, "an ID may hold letters, digits, '-' and '_' only");
      }
    }
    if (!shared_->ids.insert(p.id).second) Fail(id, p.id, "duplicate policy ID");
    static const std::vector<std::string> kKeys = {"id", "severity", "workload", "where", "message"};
    for (const auto& kv : n) {
      std::string key = Scalar(kv.first, p.id, "key");
      if (std::find(kKeys.begin(), kKeys.end(), key) == kKeys.end()) {
        Fail(kv.first, p.id, "unknown key '" + key + "'" + DidYouMeanSuffix(key, kKeys));
      }
    }
    if (const YAML::Node s = n["severity"]) {
      auto sev = SeverityFromName(Scalar(s, p.id, "severity"));
      if (!sev) Fail(s, p.id, "severity must be note, warning or error");
      p.severity = *sev;
    }
    const YAML::Node kinds = n["workload"];
    if (!kinds) Fail(n, p.id, "a policy needs 'workload' (a kind or a list of kinds)");
    std::vector<std::string> kind_names;
    for (int i = 0; i < kWorkloadKindCount; ++i) kind_names.emplace_back(KindName(static_cast<WorkloadKind>(i)));
    auto add_kind = [&](const YAML::Node& k) {
      std::string name = Scalar(k, p.id, "workload");
      auto kind = KindFromName(name);
      if (!kind) Fail(k, p.id, "unknown workload kind '" + name + "'" + DidYouMeanSuffix(name, kind_names));
      p.kinds.push_back(*kind);
    };
    if (kinds.IsSequence()) {
      for (const auto& k : kinds) add_kind(k);
    } else {
      add_kind(kinds);
    }
    const YAML::Node where = n["where"];
    if (where && !where.IsNull()) {
      if (!where.IsMap()) Fail(where, p.id, "'where' must map attributes to conditions");
      for (const auto& kv : where) p.conditions.push_back(Condition(p.id, kv.first, kv.second));
    }
    const YAML::Node msg = n["message"];
    if (!msg) Fail(n, p.id, "a policy needs a 'message'");
    p.message = Scalar(msg, p.id, "message");
    return p;
  }

  PolicyCondition Condition(const std::string& id, const YAML::Node& key, const YAML::Node& value) {
    PolicyCondition c;
    c.attribute = Scalar(key, id, "attribute");
    const AttrInfo* attr = FindAttribute(c.attribute);
    if (!attr) {
      std::vector<std::string> names;
      for (const AttrInfo& a : Attributes()) names.emplace_back(a.name);
      Fail(key, id, "unknown attribute '" + c.attribute + "'" + DidYouMeanSuffix(c.attribute, names));
    }
    if (!value.IsMap()) {
      c.op = "equals";
      c.values.push_back(Typed(id, *attr, value));
      return c;
    }
    if (value.size() != 1) Fail(value, id, c.attribute + ": one operator per attribute");
    auto op = *value.begin();
    c.op = Scalar(op.first, id, "operator");
    const YAML::Node& arg = op.second;
    static const std::vector<std::string> kOps = {"in", "not_in", "matches", "not_matches", "gt",
                                                  "ge", "lt",     "le",      "exists"};
    if (c.op == "in" || c.op == "not_in") {
      if (!arg.IsSequence()) Fail(arg, id, c.attribute + ": '" + c.op + "' takes a list");
      for (const auto& v : arg) c.values.push_back(Typed(id, *attr, v));
    } else if (c.op == "matches" || c.op == "not_matches") {
      std::string pattern = Scalar(arg, id, c.op);
      RE2::Options options(RE2::Quiet);
      options.set_max_mem(kPolicyRegexMaxMem);
      c.regex = std::make_shared<RE2>(pattern, options);
      if (!c.regex->ok()) {
        Fail(arg, id,
             c.attribute + ": bad regular expression '" + ShownPattern(pattern) + "': " + c.regex->error() +
                 (c.regex->error_code() == RE2::ErrorPatternTooLarge
                      ? " (larger than " + std::to_string(kPolicyRegexMaxMem >> 20) + " MiB compiled)"
                      : ""));
      }
      shared_->regex_size += c.regex->ProgramSize();
      if (shared_->regex_size > kPolicyRegexBudget) {
        Fail(arg, id,
             c.attribute + ": the custom policies' regular expressions together compile to more than " +
                 std::to_string(kPolicyRegexBudget) + " RE2 instructions ('" + ShownPattern(pattern) +
                 "' brings them to " + std::to_string(shared_->regex_size) + "); simplify them");
      }
    } else if (c.op == "gt" || c.op == "ge" || c.op == "lt" || c.op == "le") {
      if (attr->type != AttrType::kNumber) Fail(arg, id, c.attribute + ": '" + c.op + "' needs a numeric attribute");
      std::string text = Scalar(arg, id, c.op);
      try {
        size_t used = 0;
        c.number = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(c.number)) throw std::invalid_argument(text);
      } catch (const std::exception&) {
        Fail(arg, id, c.attribute + ": '" + text + "' is not a number");
      }
    } else if (c.op == "exists") {
      std::string text = Scalar(arg, id, "exists");
      if (text != "true" && text != "false") Fail(arg, id, c.attribute + ": exists takes true or false");
      c.flag = text == "true";
    } else {
      Fail(op.first, id, "unknown operator '" + c.op + "'" + DidYouMeanSuffix(c.op, kOps));
    }
    return c;
  }

  // A value compared with an attribute must fit its type.
  std::string Typed(const std::string& id, const AttrInfo& attr, const YAML::Node& v) {
    std::string text = Scalar(v, id, std::string(attr.name));
    if (attr.type == AttrType::kBool && text != "true" && text != "false") {
      Fail(v, id, std::string(attr.name) + ": '" + text + "' is not true or false");
    }
    if (attr.type == AttrType::kNumber) {
      try {
        size_t used = 0;
        double v = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(v)) throw std::invalid_argument(text);
      } catch (const std::exception&) {
        Fail(v, id, std::string(attr.name) + ": '" + text + "' is not a number");
      }
    }
    if (attr.name == "accelerator") {
      static const std::vector<std::string> kKinds = {"none", "gpu", "inferentia", "trainium", "gaudi"};
      if (std::find(kKinds.begin(), kKinds.end(), text) == kKinds.end()) {
        Fail(v, id, "accelerator: '" + text + "' is not one of none, gpu, inferentia, trainium, gaudi");
      }
    }
    return text;
  }

  std::string file_;
  Shared* shared_;
};

bool Equal(const AttrValue& v, const std::string& want) {
  if (v.type == AttrType::kNumber) return v.number == std::stod(want);
  if (v.type == AttrType::kList) return std::find(v.list.begin(), v.list.end(), want) != v.list.end();
  return v.text == want;
}

bool Holds(const PolicyCondition& c, const AttrValue& v) {
  if (c.op == "exists") return c.flag ? v.known() : !v.known();
  if (!v.known()) return false;
  std::vector<std::string> texts = v.type == AttrType::kList ? v.list : std::vector<std::string>{v.text};
  if (c.op == "equals") return Equal(v, c.values[0]);
  if (c.op == "in" || c.op == "not_in") {
    bool any = false;
    for (const std::string& want : c.values) any = any || Equal(v, want);
    return c.op == "in" ? any : !any;
  }
  if (c.op == "matches" || c.op == "not_matches") {
    bool any = false;
    for (const std::string& t : texts) any = any || RE2::PartialMatch(t, *c.regex);
    return c.op == "matches" ? any : !any;
  }
  if (c.op == "gt") return v.number > c.number;
  if (c.op == "ge") return v.number >= c.number;
  if (c.op == "lt") return v.number < c.number;
  if (c.op == "le") return v.number <= c.number;
  return false;
}

}  // namespace

bool LoadPolicies(const YAML::Node& policies, const std::string& config_path,
                  const std::vector<std::string>& policy_files, const std::string& config_dir, std::vector<Policy>* out,
                  std::string* error, const FileSource& files, const std::string& root) {
  Shared shared;
  try {
    Loader(config_path, &shared).List(policies, out);
    for (const std::string& rel : policy_files) {
      std::filesystem::path p = std::filesystem::path(rel).is_absolute() ? std::filesystem::path(rel)
                                                                         : std::filesystem::path(config_dir) / rel;
      // Inside the scan root only, checked before the file is opened: the
      // message says nothing of whether a file outside exists.
      std::string path = p.string();
      if (!root.empty()) {
        auto inside = ResolveInside(files, path, root);
        if (!inside) throw Invalid{config_path + ": policy_files: " + rel + " is outside the scan root " + root};
        path = *inside;
      }
      std::string text, why;
      if (!files.Read(path, kMaxConfigBytes, &text, &why)) {
        throw Invalid{config_path + ": policy_files: cannot read " + rel + ": " + why};
      }
      YAML::Node doc;
      try {
        doc = YAML::Load(text);
      } catch (const YAML::Exception& e) {
        throw Invalid{rel + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg};
      }
      std::string dup;
      if (!CheckYamlKeys(doc, rel, &dup)) throw Invalid{dup};
      if (!doc.IsMap() || !doc["policies"]) throw Invalid{rel + ": a policy file holds a 'policies:' list"};
      Loader(rel, &shared).List(doc["policies"], out);
    }
  } catch (const Invalid& e) {
    *error = e.message;
    return false;
  }
  return true;
}

bool PolicyMatches(const Policy& p, const Workload& w, const PriceTable* prices, SourceRange* at) {
  if (std::find(p.kinds.begin(), p.kinds.end(), w.kind) == p.kinds.end()) return false;
  bool first = true;
  for (const PolicyCondition& c : p.conditions) {
    AttrValue v = Attribute(w, c.attribute, prices);
    if (!Holds(c, v)) return false;
    if (first && v.range.valid()) *at = v.range;
    first = false;
  }
  return true;
}

std::string DescribePolicy(const Policy& p) {
  std::string kinds;
  for (WorkloadKind k : p.kinds) kinds += (kinds.empty() ? "" : ", ") + std::string(KindName(k));
  std::string where;
  for (const PolicyCondition& c : p.conditions) {
    where += (where.empty() ? "" : " and ") + c.attribute + " " + c.op;
    if (c.op == "exists")
      where += std::string(" ") + (c.flag ? "true" : "false");
    else if (c.regex)
      where += " /" + c.regex->pattern() + "/";
    else if (c.op == "gt" || c.op == "ge" || c.op == "lt" || c.op == "le")
      where += " " + FormatNumber(c.number);
    else
      for (const std::string& v : c.values) where += " " + v;
  }
  return p.id + " (" + std::string(SeverityName(p.severity)) + ", " + p.file + ":" + std::to_string(p.line) +
         "): " + p.message + "\n  applies to: " + kinds + (where.empty() ? "" : "\n  when: " + where) + "\n";
}

}  // namespace sagelint
