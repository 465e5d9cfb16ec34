#include "linter/report/rules_table.h"

#include <algorithm>
#include <string_view>

#include "linter/model/rule.h"

namespace sagelint {

namespace {

std::string Row(std::string_view id, std::string_view name, std::string_view severity, std::string_view summary) {
  std::string row(id);
  row.resize(std::max<size_t>(row.size(), 6), ' ');
  row += ' ';
  row += name;
  row.resize(std::max<size_t>(row.size(), 6 + 1 + 36), ' ');
  row += ' ';
  row += severity;
  row.resize(std::max<size_t>(row.size(), 6 + 1 + 36 + 1 + 8), ' ');
  row += ' ';
  row += summary;
  row += '\n';
  return row;
}

}  // namespace

std::string RulesText(const std::vector<CustomRuleInfo>& custom) {
  std::string out = Row("ID", "NAME", "SEVERITY", "SUMMARY");
  for (const RuleInfo& r : AllRules()) out += Row(r.id, r.name, SeverityName(r.severity), r.summary);
  if (!custom.empty()) {
    out += "\nCustom policies:\n";
    for (const CustomRuleInfo& p : custom) out += Row(p.id, p.id, SeverityName(p.severity), p.message);
  }
  return out;
}

std::string RulesMarkdown() {
  std::string out = "| ID | name | default | what it finds | IAM guard |\n|---|---|---|---|---|\n";
  for (const RuleInfo& r : AllRules()) {
    std::string id(r.id);
    out += "| [" + id + "](rules/" + id + ".md) | `" + std::string(r.name) + "` | " +
           std::string(SeverityName(r.severity)) + " | " + std::string(r.summary) + " | " +
           (r.iam_key.empty() ? "—" : "`" + std::string(r.iam_key) + "`") + " |\n";
  }
  return out;
}

}  // namespace sagelint
