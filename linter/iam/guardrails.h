// The guardrail of each rule class whose IAM condition key can prevent it:
// the Deny statements `sagelint iam-policy` writes (README "Costs and IAM
// guardrails"). Each is the `guardrail` of its rule's registry row
// (rules/registry.cc); GuardrailInput and Guardrail are in
// linter/iam/iam_policy.h.
#ifndef SAGELINT_LINTER_IAM_GUARDRAILS_H_
#define SAGELINT_LINTER_IAM_GUARDRAILS_H_

#include "linter/model/rule.h"

namespace sagelint::guardrails {

// SM102: training-class families for endpoints and batch transform (the
// options' deny lists; none when empty).
void TrainingClassForInference(const GuardrailInput& in, Guardrail* out);
// SM103: accelerated families for notebook instances and Studio apps.
void AcceleratedNotebooks(const GuardrailInput& in, Guardrail* out);
// SM104: previous-generation families for every instance-launching action.
void PreviousGenerationInstances(const GuardrailInput& in, Guardrail* out);
// SM105: Elastic Inference accelerators.
void ElasticInference(const GuardrailInput& in, Guardrail* out);
// SM201, SM202: a notebook lifecycle configuration, and an approved one.
void NotebookLifecycleConfigs(const GuardrailInput& in, Guardrail* out);
// SM203: an approved Studio lifecycle configuration.
void StudioLifecycleConfigs(const GuardrailInput& in, Guardrail* out);
// SM204: a warm pool's keep-alive period above the option.
void WarmPoolKeepAlive(const GuardrailInput& in, Guardrail* out);
// SM501: instance types outside a starting allow-list the user completes.
void UnapprovedInstanceTypes(const GuardrailInput& in, Guardrail* out);

}  // namespace sagelint::guardrails

#endif  // SAGELINT_LINTER_IAM_GUARDRAILS_H_
