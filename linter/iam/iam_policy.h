// IAM guardrails: which condition keys exist for which SageMaker actions
// (rules/data/iam_keys.json, generated from the Service Authorization
// Reference), the `iam` block of findings (the key of each rule's registry
// row), and the policy `sagelint iam-policy` prints.
#ifndef SAGELINT_LINTER_IAM_IAM_POLICY_H_
#define SAGELINT_LINTER_IAM_IAM_POLICY_H_

#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/finding.h"
#include "linter/model/model.h"

namespace sagelint {

// True when `key` ("sagemaker:InstanceTypes") exists for `action`
// ("sagemaker:CreateTrainingJob"); both compared case-insensitively, as IAM does.
bool KeyAppliesTo(std::string_view key, std::string_view action);
// The actions that launch SageMaker instances (SM501): those sagemaker:InstanceTypes
// applies to, "sagemaker:"-prefixed, in the reference's order.
const std::vector<std::string>& InstanceLaunchingActions();
// IAM action matching: case-insensitive, `*` and `?` wildcards ("sagemaker:Create*").
bool ActionMatches(std::string_view pattern, std::string_view action);

// The instance-launching actions a statement really grants (or, for a Deny,
// refuses): those its Action covers or its NotAction leaves out, on a
// resource its Resource can match or its NotResource does not exclude; in
// InstanceLaunchingActions() order; empty when an action is not known.
std::vector<std::string> CoveredLaunchActions(const IamStatement& s);
// True when the statement grants SageMaker only through a grant of every
// service: a bare "*" (or another pattern whose service part is not
// "sagemaker:"), or a NotAction that names no "sagemaker:" action. Such
// administrator grants are left to security linters.
bool AdministratorGrant(const IamStatement& s);
// True when `s` is a fully known Deny covering `action` whose condition
// limits sagemaker:InstanceTypes the way FACTS recommends for a Deny:
// ForAnyValue:StringNotLike / StringNotEquals (an allow-list) or
// ForAnyValue:StringLike / StringEquals (explicit types to refuse). SM501
// sees one statement at a time; the engine can use this to drop an SM501
// finding on an Allow whose policy (IamStatement::policy) has such a Deny
// for every action the finding's `iam.actions` names.
bool DenyGuardsInstanceTypes(const IamStatement& s, std::string_view action);

// The `iam` block for a finding of `rule_id` on a workload of `kind`: the key
// that prevents the class and the actions (for that kind) it applies to.
// nullopt when no condition key exists for the class (Spot, input mode,
// autoscaling, idle settings, …): only sagelint in CI can enforce those.
std::optional<IamHint> IamHintFor(std::string_view rule_id, WorkloadKind kind);

struct GuardrailOptions {
  double max_keep_alive_seconds = 1800;  // SM204's option
  // SM102: the training-class families to deny for endpoints and for batch
  // transform ("ml.p3.*"): those for which SM102 has an answer at every size
  // offered for the kind, computed from the accelerator and price tables
  // (linter/cost/alternatives.h). Empty: no statement for that action.
  std::vector<std::string> endpoint_deny_families;
  std::vector<std::string> transform_deny_families;
};

// What a rule's guardrail (its registry row's RuleIam::guardrail,
// linter/iam/guardrails.h) is written from.
struct GuardrailInput {
  const std::vector<std::string>& lifecycle_arns;  // approved lifecycle configuration ARNs, as below
  const GuardrailOptions& options;
};
// A rule's guardrail: Deny statements (Resource "*") and, when they hold a
// placeholder or a starting list, what the user edits before applying them.
struct Guardrail {
  std::vector<nlohmann::json> statements;
  std::string note;
};

// The guardrail statements of one finding class (Deny statements, Resource
// "*"), empty when the class has no condition key. `lifecycle_arns` are the
// approved notebook / Studio lifecycle configuration ARNs (told apart by
// their resource type); missing ones become placeholders the user fills.
std::vector<nlohmann::json> GuardrailStatementsFor(std::string_view rule_id,
                                                   const std::vector<std::string>& lifecycle_arns,
                                                   const GuardrailOptions& options = {});
// One IAM policy document (usable as an SCP): {"Version": "2012-10-17",
// "Statement": [...]}, one or two statements per finding class present, in
// rule ID order, each Sid once.
nlohmann::json BuildGuardrailPolicy(const std::vector<Finding>& findings,
                                    const std::vector<std::string>& lifecycle_arns,
                                    const GuardrailOptions& options = {});

struct CiOnlyClass {
  std::string rule;  // "SM401"
  std::string what;  // "managed Spot training: no IAM condition key exists; enforce with sagelint in CI"
};
// The classes present in `findings` that no condition key can prevent, in rule ID order.
std::vector<CiOnlyClass> ClassesWithoutConditionKey(const std::vector<Finding>& findings);
// What the user must edit before applying the policy (placeholders, starting lists).
std::vector<std::string> GuardrailNotes(const std::vector<Finding>& findings,
                                        const std::vector<std::string>& lifecycle_arns);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_IAM_IAM_POLICY_H_
