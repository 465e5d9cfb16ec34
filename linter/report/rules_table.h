// The rule table as text for `sagelint rules`, as JSON for tools, and as markdown for the README.
#ifndef SAGELINT_LINTER_REPORT_RULES_TABLE_H_
#define SAGELINT_LINTER_REPORT_RULES_TABLE_H_

#include <string>
#include <vector>

#include "linter/model/scan_result.h"

namespace sagelint {

// The built-in rules, then (when there are any) the custom policies under a heading of their own.
std::string RulesText(const std::vector<CustomRuleInfo>& custom = {});
std::string RulesMarkdown();
// `sagelint rules --format json`: {"schema_version": 1, "rules": [{id, name, severity, summary,
// workloads, options: [{name, default, help}], iam_condition_key}], "custom_policies": [{id, severity, message}]}.
std::string RulesJson(const std::vector<CustomRuleInfo>& custom = {});

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_RULES_TABLE_H_
