#include "linter/rules_table.h"

#include <cstdio>

#include "linter/rule.h"

namespace sagelint {

std::string RulesText() {
  std::string out;
  char line[512];
  std::snprintf(line, sizeof line, "%-6s %-36s %-8s %s\n", "ID", "NAME", "SEVERITY", "SUMMARY");
  out += line;
  for (const RuleInfo& r : AllRules()) {
    std::snprintf(line, sizeof line, "%-6s %-36s %-8s %s\n", std::string(r.id).c_str(), std::string(r.name).c_str(),
                  std::string(SeverityName(r.severity)).c_str(), std::string(r.summary).c_str());
    out += line;
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
