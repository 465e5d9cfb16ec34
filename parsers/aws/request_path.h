// Where a fix writes a training job's setting in a request written in the
// API's own names (README "Fixes"): a CloudFormation or CDK state machine
// task's `Parameters`, a pipeline step's `Arguments`.
#ifndef SAGELINT_PARSERS_AWS_REQUEST_PATH_H_
#define SAGELINT_PARSERS_AWS_REQUEST_PATH_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint::aws {

// The key path under the request of a fix's field ("max_wait_seconds" →
// StoppingCondition.MaxWaitTimeInSeconds), or nullopt for a field no request holds.
inline std::optional<std::vector<std::string>> TrainingRequestPath(std::string_view field) {
  if (field == "max_wait_seconds") return std::vector<std::string>{"StoppingCondition", "MaxWaitTimeInSeconds"};
  if (field == "spot") return std::vector<std::string>{"EnableManagedSpotTraining"};
  if (field == "checkpoint") return std::vector<std::string>{"CheckpointConfig", "S3Uri"};
  if (field == "input_mode") return std::vector<std::string>{"AlgorithmSpecification", "TrainingInputMode"};
  return std::nullopt;
}

}  // namespace sagelint::aws

#endif  // SAGELINT_PARSERS_AWS_REQUEST_PATH_H_
