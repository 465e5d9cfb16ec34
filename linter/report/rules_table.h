// The rule table as text for `sagelint rules` and as markdown for the README.
#ifndef SAGELINT_LINTER_REPORT_RULES_TABLE_H_
#define SAGELINT_LINTER_REPORT_RULES_TABLE_H_

#include <string>
#include <vector>

#include "linter/model/scan_result.h"

namespace sagelint {

// The built-in rules, then (when there are any) the custom policies under a heading of their own.
std::string RulesText(const std::vector<CustomRuleInfo>& custom = {});
std::string RulesMarkdown();

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_RULES_TABLE_H_
