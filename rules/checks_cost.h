// Checks of the cost-data rules (dataset sizes, IAM): SM301 and SM501.
#ifndef SAGELINT_RULES_CHECKS_COST_H_
#define SAGELINT_RULES_CHECKS_COST_H_

#include "linter/model/rule.h"

namespace sagelint::rules {

// SM301 file-mode-large-dataset (training and tuning jobs; option threshold_gb).
void CheckFileModeLargeDataset(const Workload& w, const RuleContext& ctx, Sink& sink);
// SM501 iam-unrestricted-instance-types (IAM statements).
void CheckIamUnrestrictedInstanceTypes(const Workload& w, const RuleContext& ctx, Sink& sink);

}  // namespace sagelint::rules

#endif  // SAGELINT_RULES_CHECKS_COST_H_
