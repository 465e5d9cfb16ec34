// One row of facts per kind of workload (WorkloadKind): its name, the
// instance list it is checked and priced against, the IAM actions that
// launch it, and what the inventory shows of it. A new kind is one row here
// (linter/model/workload_kinds.cc); the build fails while a kind has none.
#ifndef SAGELINT_LINTER_MODEL_WORKLOAD_KINDS_H_
#define SAGELINT_LINTER_MODEL_WORKLOAD_KINDS_H_

#include <array>
#include <optional>
#include <string_view>

#include "linter/model/catalog.h"
#include "linter/model/model.h"

namespace sagelint {

// The inventory's one setting that decides what a workload of the kind costs
// when nobody watches it (README "Costs and IAM guardrails"): an attribute read as yes / no.
struct CostControl {
  std::string_view attribute = {};  // "spot"; empty: `fixed` (or "-") for every workload of the kind
  std::string_view yes = {};        // "Spot"
  std::string_view no = {};         // "no Spot"
  std::string_view fixed = {};      // "billed on its variant"
  bool serverless = false;          // a serverless endpoint variant says "serverless" before the attribute
};

struct WorkloadKindTraits {
  WorkloadKind kind;
  std::string_view name;        // training_job: the policies' and reports' name (docs/policies.md)
  std::string_view short_name;  // training: the compact inventory table's kind column
  // The instance list the kind is checked against, which also gives its price
  // component (linter/cost/prices.h); nullopt for kinds without instances of
  // their own. Studio domains, user profiles and spaces give their apps'.
  std::optional<OfferKind> offer = std::nullopt;
  bool always_on = false;  // its instances bill until deleted: a monthly figure, not an hourly one
  // The actions that create or change a workload of the kind with its
  // instances, without the "sagemaker:" prefix; unused entries empty.
  std::array<std::string_view, 3> launch_actions = {};
  bool every_launch_action = false;  // an IAM statement: every instance-launching action instead
  CostControl cost_control = {};
};

// The row of `kind`.
const WorkloadKindTraits& TraitsOf(WorkloadKind kind);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_WORKLOAD_KINDS_H_
