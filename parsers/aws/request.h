// SageMaker API requests written in PascalCase (CreateTrainingJob and kin), as
// they appear in Step Functions task parameters and SageMaker Pipeline step
// arguments, mapped onto workloads.
#ifndef SAGELINT_PARSERS_AWS_REQUEST_H_
#define SAGELINT_PARSERS_AWS_REQUEST_H_

#include <functional>
#include <string_view>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/node.h"

namespace sagelint::aws {

// Resolves one value node of the request (intrinsics, pipeline parameters…).
using ValueFn = std::function<Val(const cfn::Node*)>;

// Front ends that build request trees from their own values write an unknown
// scalar as this marker; PlainValue reads it back as unknown.
inline constexpr std::string_view kUnknownMarker = "__sagelint_unknown__";
// A request tree's scalar as a Val: the marker (anywhere in it) is unknown, a
// null or missing node is absent, a structure is unknown. A scalar's tag
// carries its origin.
Val PlainValue(const cfn::Node* n);

// The API call a Step Functions task resource or a pipeline step type stands for.
enum class RequestKind { kNone, kTraining, kTuning, kProcessing, kTransform };
RequestKind RequestKindOfTaskResource(
    std::string_view resource);                                // "arn:aws:states:::sagemaker:createTrainingJob.sync"
RequestKind RequestKindOfPipelineStep(std::string_view type);  // "Training", "Tuning", ...

// Appends the workloads a request describes (one; a tuning request with
// several training job definitions gives one each) to `out`. `base` supplies
// path, name, label and range.
void MapRequest(RequestKind kind, const cfn::Node& request, const ValueFn& value, const Workload& base,
                std::vector<Workload>* out);

// Whether a processing input carries the job's code or configuration rather
// than data (rules/SM303.md): named as the SDK names the inputs it makes for a
// script and its dependencies (`code`, `entrypoint`, the PySpark processor's
// `py-files`, `jars`, `files`, `conf`, Data Wrangler's `flow`), or placed in one
// of their directories (`/opt/ml/processing/input/code`, …). Every instance
// needs all of such an input, so FullyReplicated is right for it.
bool IsCodeInput(const Val& name, const Val& local_path);

// "training job", "tuning job", …: how labels name a request's workload.
std::string_view RequestKindLabel(RequestKind kind);

// The SageMaker tasks of a Step Functions definition (States, including
// Parallel branches and Map iterators): one request each.
void MapStateMachine(const cfn::Node& definition, const ValueFn& value, const Workload& base,
                     std::vector<Workload>* out);

// The AWS service principals a role's trust policy (AssumeRolePolicyDocument)
// lets assume it, when they are all it lets: every Allow names only `Service`
// principals, all known. Empty otherwise (an account, a user, a federated
// principal, "*", a NotPrincipal, anything unresolved). Sorted, each once.
std::vector<std::string> TrustedServices(const cfn::Node& trust_policy, const ValueFn& value);

// The statements of an IAM policy document (`Statement` object or list), one
// iam_statement workload each, labelled "<noun> '<policy>' statement N".
void MapPolicyDocument(const cfn::Node& document, const ValueFn& value, const Workload& base, const std::string& policy,
                       std::vector<Workload>* out, std::string_view noun = "IAM policy");

}  // namespace sagelint::aws

#endif  // SAGELINT_PARSERS_AWS_REQUEST_H_
