#include "linter/cli/config.h"

#include <cctype>
#include <cmath>
#include <filesystem>

#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/base/yaml_keys.h"
#include "linter/cost/datasets.h"
#include "linter/engine/discover.h"
#include "linter/model/rule.h"

namespace sagelint {
namespace fs = std::filesystem;

std::optional<FailOn> FailOnFromName(std::string_view name) {
  if (name == "note") return FailOn::kNote;
  if (name == "warning") return FailOn::kWarning;
  if (name == "error") return FailOn::kError;
  if (name == "none") return FailOn::kNone;
  return std::nullopt;
}

std::optional<Severity> FailThreshold(FailOn level) {
  switch (level) {
    case FailOn::kNone:
      return std::nullopt;
    case FailOn::kError:
      return Severity::kError;
    case FailOn::kWarning:
      return Severity::kWarning;
    case FailOn::kNote:
      return Severity::kNote;
  }
  return std::nullopt;
}

bool FailsOn(FailOn level, Severity s) {
  std::optional<Severity> threshold = FailThreshold(level);
  return threshold && s >= *threshold;
}

namespace {

struct ConfigInvalid {
  std::string message;
};

class ConfigLoader {
 public:
  explicit ConfigLoader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void Fail(const YAML::Node& at, const std::string& what) const {
    std::string pos = path_;
    if (at.IsDefined() && at.Mark().line >= 0) pos += ":" + std::to_string(at.Mark().line + 1);
    throw ConfigInvalid{pos + ": " + what};
  }

  std::string Scalar(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) Fail(n, "'" + key + "' must be a single value");
    return n.Scalar();
  }

  std::map<std::string, std::string> StringMap(const YAML::Node& n, const std::string& key) const {
    if (n.IsNull()) return {};
    if (!n.IsMap()) Fail(n, "'" + key + "' must be a mapping");
    std::map<std::string, std::string> out;
    for (const auto& kv : n) {
      std::string k = Scalar(kv.first, key);
      out[k] = Scalar(kv.second, key + "." + k);
    }
    return out;
  }

  std::vector<std::string> StringList(const YAML::Node& n, const std::string& key) const {
    if (n.IsNull()) return {};
    if (n.IsScalar()) return {n.Scalar()};
    if (!n.IsSequence()) Fail(n, "'" + key + "' must be a list");
    std::vector<std::string> out;
    for (const auto& item : n) out.push_back(Scalar(item, key));
    return out;
  }

  RuleSetting Rule(const std::string& id, const YAML::Node& n) const {
    const RuleInfo* rule = FindRule(id);
    RuleSetting s;
    auto severity = [&](const YAML::Node& v) {
      std::string level = Scalar(v, "rules." + id);
      if (level == "off") {
        s.off = true;
      } else if (auto sev = SeverityFromName(level)) {
        s.severity = sev;
      } else {
        Fail(v, "rules." + id + ": '" + level + "' is not one of off, note, warning, error");
      }
    };
    if (n.IsScalar()) {
      severity(n);
      return s;
    }
    if (!n.IsMap()) Fail(n, "rules." + id + " must be a level (off|note|warning|error) or a mapping");
    for (const auto& kv : n) {
      std::string key = Scalar(kv.first, "rules." + id);
      if (key == "severity") {
        severity(kv.second);
        continue;
      }
      std::vector<std::string> names;
      const RuleOption* option = nullptr;
      if (rule) {
        for (const RuleOption& o : rule->options) {
          names.emplace_back(o.name);
          if (o.name == key) option = &o;
        }
      }
      if (!option) {
        Fail(kv.first, "rules." + id + ": unknown option '" + key + "'" + DidYouMeanSuffix(key, names) +
                           (names.empty() ? " (this rule has no options)" : ""));
      }
      if (option->type == RuleOption::Type::kGlobs) {
        s.lists[key] = StringList(kv.second, "rules." + id + "." + key);
        continue;
      }
      std::string text = Scalar(kv.second, "rules." + id + "." + key);
      try {
        // stod also reads "nan", "inf" and hexadecimal: an option is a plain decimal number.
        if (text.empty() || text.find_first_not_of("0123456789.eE+-") != std::string::npos ||
            !(std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.')) {
          throw std::invalid_argument(text);
        }
        size_t used = 0;
        double v = std::stod(text, &used);
        if (used != text.size() || !std::isfinite(v) || v < 0) throw std::invalid_argument(text);
        s.options[key] = v;
      } catch (const std::exception&) {
        Fail(kv.second, "rules." + id + "." + key + ": '" + text + "' is not a non-negative number");
      }
    }
    return s;
  }

  Config Load(const YAML::Node& root) const {
    Config c;
    c.path = path_;
    c.dir = fs::path(path_).parent_path().string();
    if (root.IsNull() || !root.IsDefined()) return c;
    if (!root.IsMap()) Fail(root, "the configuration must be a mapping of settings");
    static const std::vector<std::string> kKeys = {"fail_on",   "exclude",  "region",       "prices",
                                                   "rules",     "datasets", "parameters",   "parameter_files",
                                                   "variables", "policies", "policy_files", "baseline"};
    std::vector<std::string> rule_keys;
    for (const RuleInfo& r : AllRules()) {
      rule_keys.emplace_back(r.id);
      rule_keys.emplace_back(r.name);
    }
    auto line = [](const YAML::Node& n) { return n.Mark().line >= 0 ? n.Mark().line + 1 : 1; };
    for (const auto& kv : root) {
      std::string key = Scalar(kv.first, "key");
      const YAML::Node& v = kv.second;
      c.lines[key] = line(kv.first);
      if (key == "fail_on") {
        std::string level = Scalar(v, key);
        c.fail_on = FailOnFromName(level);
        if (!c.fail_on) Fail(v, "fail_on: '" + level + "' is not one of error, warning, note, none");
      } else if (key == "exclude") {
        c.exclude = StringList(v, key);
        if (v.IsSequence()) {
          for (const auto& item : v) c.lines.try_emplace("exclude:" + item.Scalar(), line(item));
        } else if (v.IsScalar()) {
          c.lines.try_emplace("exclude:" + v.Scalar(), line(v));
        }
      } else if (key == "region") {
        c.region = Scalar(v, key);
      } else if (key == "prices") {
        c.prices = Scalar(v, key);
      } else if (key == "rules") {
        if (v.IsNull()) continue;
        if (!v.IsMap()) Fail(v, "'rules' must be a mapping of rule IDs");
        for (const auto& r : v) {
          std::string id = Scalar(r.first, "rules");
          // A rule's name works as well as its ID: `previous-generation-instance: off`.
          if (const RuleInfo* named = FindRuleByName(id)) id = std::string(named->id);
          if (!FindRule(id) && (id.rfind("SM", 0) == 0 || id.find('-') != std::string::npos)) {
            Fail(r.first, std::string(id.rfind("SM", 0) == 0 ? "rules: unknown rule ID '" : "rules: unknown rule '") +
                              id + "'" + DidYouMeanSuffix(id, rule_keys));
          }
          if (c.rules.count(id)) Fail(r.first, "rules: " + id + " is given twice (by its ID and its name)");
          c.rules[id] = Rule(id, r.second);
          c.lines["rules." + id] = line(r.first);
        }
      } else if (key == "datasets") {
        c.datasets = StringMap(v, key);
        for (const auto& d : v) {
          std::string uri = d.first.Scalar();
          if (uri.rfind("s3://", 0) != 0) Fail(d.first, "datasets: '" + uri + "' is not an s3:// URI");
          if (!ParseSize(d.second.Scalar())) {
            Fail(d.second, "datasets." + uri + ": '" + d.second.Scalar() + "' is not a size such as 1.2TB or 500GB");
          }
        }
      } else if (key == "parameters") {
        c.parameters = StringMap(v, key);
      } else if (key == "parameter_files") {
        if (v.IsNull()) continue;
        if (!v.IsMap()) Fail(v, "'parameter_files' must be a mapping from template globs to files");
        for (const auto& kv2 : v) {
          std::string glob = Scalar(kv2.first, key);
          std::vector<std::string> files = StringList(kv2.second, key + "." + glob);
          if (files.empty()) Fail(kv2.second, key + "." + glob + ": name one or more parameter files");
          c.parameter_files.emplace_back(glob, std::move(files));
        }
      } else if (key == "variables") {
        c.variables = StringMap(v, key);
      } else if (key == "policies") {
        if (!v.IsNull() && !v.IsSequence()) Fail(v, "'policies' must be a list");
        c.policies = v;
      } else if (key == "policy_files") {
        c.policy_files = StringList(v, key);
      } else if (key == "baseline") {
        c.baseline = Scalar(v, key);
        if (c.baseline.empty()) Fail(v, "baseline: name a baseline file");
      } else {
        Fail(kv.first, "unknown key '" + key + "'" + DidYouMeanSuffix(key, kKeys));
      }
    }
    return c;
  }

 private:
  std::string path_;
};

}  // namespace

std::optional<Config> ParseConfig(const std::string& text, const std::string& path, ConfigError* error) {
  try {
    YAML::Node root = YAML::Load(text);
    std::string dup;
    if (!CheckYamlKeys(root, path, &dup)) throw ConfigInvalid{dup};
    return ConfigLoader(path).Load(root);
  } catch (const ConfigInvalid& e) {
    error->message = e.message;
  } catch (const YAML::Exception& e) {
    error->message = path + ":" + std::to_string(e.mark.line + 1) + ": " + e.msg;
  }
  return std::nullopt;
}

std::optional<Config> LoadConfig(const std::string& path, ConfigError* error, const FileSource& files) {
  std::string text, why;
  if (!files.Read(path, kMaxConfigBytes, &text, &why)) {
    error->message = path + ": cannot read the configuration file: " + why;
    return std::nullopt;
  }
  return ParseConfig(text, path, error);
}

std::string FindConfig(const std::string& start, const FileSource& files) {
  fs::path root = ScanRootOf(start, files);
  for (const char* name : {".sagelint.yaml", ".sagelint.yml"}) {
    if (files.IsRegularFile((root / name).string())) return (root / name).string();
  }
  return {};
}

}  // namespace sagelint
