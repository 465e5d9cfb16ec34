// The rule table as text for `sagelint rules` and as markdown for the README.
#ifndef SAGELINT_LINTER_RULES_TABLE_H_
#define SAGELINT_LINTER_RULES_TABLE_H_

#include <string>

namespace sagelint {

std::string RulesText();
std::string RulesMarkdown();

}  // namespace sagelint

#endif  // SAGELINT_LINTER_RULES_TABLE_H_
