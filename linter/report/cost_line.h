// The `cost:` line of a finding as the text report prints it (README "Usage"), which
// the editor server puts into a diagnostic's message as well.
#ifndef SAGELINT_LINTER_REPORT_COST_LINE_H_
#define SAGELINT_LINTER_REPORT_COST_LINE_H_

#include <string>

#include "linter/model/finding.h"

namespace sagelint {

// "ml.t3.xlarge ≈ $0.20/h, ≈ $146/month while running", or why there is no price.
std::string CostLine(const CostEstimate& c);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_COST_LINE_H_
