// The check functions of the built-in rules, one per rules/smNNN_*.cc file.
#ifndef SAGELINT_RULES_CHECKS_H_
#define SAGELINT_RULES_CHECKS_H_

#include "linter/rule.h"

namespace sagelint::rules {

}  // namespace sagelint::rules

#endif  // SAGELINT_RULES_CHECKS_H_
