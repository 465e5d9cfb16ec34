// SageMaker API requests written in PascalCase (CreateTrainingJob and kin), as
// they appear in Step Functions task parameters and SageMaker Pipeline step
// arguments, mapped onto workloads.
#ifndef SAGELINT_PARSERS_CLOUDFORMATION_REQUEST_H_
#define SAGELINT_PARSERS_CLOUDFORMATION_REQUEST_H_

#include <functional>
#include <vector>

#include "linter/model.h"
#include "parsers/cloudformation/node.h"

namespace sagelint::cfn {

// Resolves one value node of the request (intrinsics, pipeline parameters…).
using ValueFn = std::function<Val(const Node*)>;

// The API call a Step Functions task resource or a pipeline step type stands for.
enum class RequestKind { kNone, kTraining, kTuning, kProcessing, kTransform };
RequestKind RequestKindOfTaskResource(std::string_view resource);  // "arn:aws:states:::sagemaker:createTrainingJob.sync"
RequestKind RequestKindOfPipelineStep(std::string_view type);      // "Training", "Tuning", ...

// Appends the workloads a request describes (one; a tuning request with
// several training job definitions gives one each) to `out`. `base` supplies
// path, name, label and range.
void MapRequest(RequestKind kind, const Node& request, const ValueFn& value, const Workload& base,
                std::vector<Workload>* out);

}  // namespace sagelint::cfn

#endif  // SAGELINT_PARSERS_CLOUDFORMATION_REQUEST_H_
