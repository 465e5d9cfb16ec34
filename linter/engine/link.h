// Cross-file linking and derived attributes, run once over all workloads of a
// scan before the rules: scalable targets -> endpoint variants, lifecycle
// configurations -> notebooks, image URIs -> frameworks, Studio idle shutdown.
#ifndef SAGELINT_LINTER_ENGINE_LINK_H_
#define SAGELINT_LINTER_ENGINE_LINK_H_

#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

void LinkWorkloads(std::vector<Workload*>& workloads);

// The framework a container image URI implies ("sklearn" for the SageMaker
// scikit-learn container), or empty.
std::string FrameworkFromImage(std::string_view image);

// True if a lifecycle script contains idle-stop logic.
bool HasIdleStopLogic(std::string_view script);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_LINK_H_
