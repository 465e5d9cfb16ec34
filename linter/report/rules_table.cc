#include "linter/report/rules_table.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <string_view>

#include "linter/base/strings.h"
#include "linter/model/fix.h"
#include "linter/model/rule.h"

namespace sagelint {

namespace {

std::string Row(std::string_view id, std::string_view name, std::string_view severity, std::string_view fix,
                std::string_view summary) {
  std::string row(id);
  row.resize(std::max<size_t>(row.size(), 6), ' ');
  row += ' ';
  row += name;
  row.resize(std::max<size_t>(row.size(), 6 + 1 + 36), ' ');
  row += ' ';
  row += severity;
  row.resize(std::max<size_t>(row.size(), 6 + 1 + 36 + 1 + 8), ' ');
  row += ' ';
  row += fix;
  row.resize(std::max<size_t>(row.size(), 6 + 1 + 36 + 1 + 8 + 1 + 6), ' ');
  row += ' ';
  row += summary;
  row += '\n';
  return row;
}

// Whether the rule's findings carry a fix (README "Fixes"): "safe", "unsafe" or `none`.
std::string_view FixName(std::string_view id, std::string_view none) {
  std::optional<Applicability> fix = RuleFix(id);
  return fix ? ApplicabilityName(*fix) : none;
}

}  // namespace

std::string RulesText(const std::vector<CustomRuleInfo>& custom) {
  std::string out = Row("ID", "NAME", "SEVERITY", "FIX", "SUMMARY");
  for (const RuleInfo& r : AllRules())
    out += Row(r.id, r.name, SeverityName(r.severity), FixName(r.id, "-"), r.summary);
  if (!custom.empty()) {
    out += "\nCustom policies:\n";
    // Custom policies come from the scanned repository's configuration: printed inert.
    for (const CustomRuleInfo& p : custom) {
      out += Row(Printable(p.id), "(custom policy)", SeverityName(p.severity), "-", Printable(p.message));
    }
  }
  return out;
}

std::string RulesJson(const std::vector<CustomRuleInfo>& custom) {
  using json = nlohmann::ordered_json;
  json rules = json::array();
  for (const RuleInfo& r : AllRules()) {
    json kinds = json::array();
    for (WorkloadKind k : r.kinds) kinds.push_back(KindName(k));
    json options = json::array();
    for (const RuleOption& o : r.options) {
      json default_value = o.type == RuleOption::Type::kGlobs ? json::array() : json(o.default_value);
      options.push_back({{"name", o.name}, {"default", default_value}, {"help", o.help}});
    }
    rules.push_back({{"id", r.id},
                     {"name", r.name},
                     {"severity", SeverityName(r.severity)},
                     {"summary", r.summary},
                     {"fix", RuleFix(r.id) ? json(FixName(r.id, "")) : json(nullptr)},
                     {"workloads", kinds},
                     {"options", options},
                     {"iam_condition_key", r.iam.condition_key.empty() ? json(nullptr) : json(r.iam.condition_key)}});
  }
  json policies = json::array();
  for (const CustomRuleInfo& p : custom) {
    policies.push_back({{"id", p.id}, {"severity", SeverityName(p.severity)}, {"message", p.message}});
  }
  json doc = {{"schema_version", 1}, {"rules", rules}, {"custom_policies", policies}};
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

std::string RulesMarkdown() {
  std::string out = "| ID | name | default | fix | what it finds | IAM guard |\n|---|---|---|---|---|---|\n";
  for (const RuleInfo& r : AllRules()) {
    std::string id(r.id);
    out += "| [" + id + "](rules/" + id + ".md) | `" + std::string(r.name) + "` | " +
           std::string(SeverityName(r.severity)) + " | " + std::string(FixName(r.id, "—")) + " | " +
           std::string(r.summary) + " | " +
           (r.iam.condition_key.empty() ? "—" : "`" + std::string(r.iam.condition_key) + "`") + " |\n";
  }
  return out;
}

}  // namespace sagelint
