#include "linter/model/workload_kinds.h"

namespace sagelint {
namespace {

using WK = WorkloadKind;
using OfferK = OfferKind;

constexpr CostControl kSpotControl{.attribute = "spot", .yes = "Spot", .no = "no Spot"};
constexpr CostControl kIdleControl{.attribute = "idle_shutdown", .yes = "idle stop", .no = "no idle stop"};

// In WorkloadKind order (checked below).
constexpr std::array<WorkloadKindTraits, kWorkloadKindCount> kKindRows = {{
    {.kind = WK::kTrainingJob,
     .name = "training_job",
     .short_name = "training",
     .offer = OfferK::kTraining,
     .launch_actions = {"CreateTrainingJob", "UpdateTrainingJob"},
     .cost_control = kSpotControl},
    {.kind = WK::kTuningJob,
     .name = "tuning_job",
     .short_name = "tuning",
     .offer = OfferK::kTraining,
     .launch_actions = {"CreateHyperParameterTuningJob"},
     .cost_control = kSpotControl},
    {.kind = WK::kProcessingJob,
     .name = "processing_job",
     .short_name = "processing",
     .offer = OfferK::kProcessing,
     .launch_actions = {"CreateProcessingJob"}},
    {.kind = WK::kTransformJob,
     .name = "transform_job",
     .short_name = "transform",
     .offer = OfferK::kTransform,
     .launch_actions = {"CreateTransformJob"}},
    {.kind = WK::kNotebookInstance,
     .name = "notebook_instance",
     .short_name = "notebook",
     .offer = OfferK::kNotebook,
     .always_on = true,
     .launch_actions = {"CreateNotebookInstance", "UpdateNotebookInstance"},
     .cost_control = kIdleControl},
    {.kind = WK::kStudioDomain,
     .name = "studio_domain",
     .short_name = "studio domain",
     .offer = OfferK::kStudioApp,
     .always_on = true,
     .launch_actions = {"CreateApp", "CreateDomain", "UpdateDomain"},
     .cost_control = kIdleControl},
    {.kind = WK::kStudioUserProfile,
     .name = "studio_user_profile",
     .short_name = "studio user",
     .offer = OfferK::kStudioApp,
     .always_on = true,
     .launch_actions = {"CreateApp", "CreateUserProfile", "UpdateUserProfile"},
     .cost_control = kIdleControl},
    {.kind = WK::kStudioSpace,
     .name = "studio_space",
     .short_name = "studio space",
     .offer = OfferK::kStudioApp,
     .always_on = true,
     .launch_actions = {"CreateApp", "CreateSpace", "UpdateSpace"},
     .cost_control = kIdleControl},
    // A serverless variant scales with its requests: no instance waits idle.
    {.kind = WK::kEndpointVariant,
     .name = "endpoint_variant",
     .short_name = "endpoint",
     .offer = OfferK::kEndpoint,
     .always_on = true,
     .launch_actions = {"CreateEndpointConfig"},
     .cost_control = {.attribute = "autoscaling", .yes = "autoscaled", .no = "not autoscaled", .serverless = true}},
    {.kind = WK::kScalableTarget, .name = "scalable_target", .short_name = "scaling"},
    // A notebook's lifecycle script runs on the notebook instance's launch.
    {.kind = WK::kLifecycleScript,
     .name = "lifecycle_script",
     .short_name = "lifecycle",
     .launch_actions = {"CreateNotebookInstance", "UpdateNotebookInstance"}},
    {.kind = WK::kIamStatement, .name = "iam_statement", .short_name = "iam_statement", .every_launch_action = true},
    {.kind = WK::kStudioApp,
     .name = "studio_app",
     .short_name = "studio app",
     .offer = OfferK::kStudioApp,
     .always_on = true,
     .launch_actions = {"CreateApp"}},
    // Copies of a model on an endpoint variant: no instances of their own.
    {.kind = WK::kInferenceComponent,
     .name = "inference_component",
     .short_name = "inference component",
     .cost_control = {.fixed = "billed on its variant"}},
    // A HyperPod cluster's instances run until the cluster is deleted.
    {.kind = WK::kHyperPodCluster,
     .name = "hyperpod_cluster",
     .short_name = "hyperpod",
     .offer = OfferK::kCluster,
     .always_on = true,
     .launch_actions = {"CreateCluster", "UpdateCluster"}},
}};

constexpr bool InKindOrder() {
  for (int i = 0; i < kWorkloadKindCount; ++i) {
    if (static_cast<int>(kKindRows[i].kind) != i) return false;
  }
  return true;
}
static_assert(InKindOrder(), "kKindRows: one row per WorkloadKind, in the enum's order");

// Counts the WorkloadKinds by naming each once: with -Werror=switch, a kind
// added to linter/model/model.h stops the build here until it is listed, and
// then until kWorkloadKindCount counts it and kKindRows has its row.
#pragma GCC diagnostic push
#pragma GCC diagnostic error "-Wswitch"
constexpr int KindsListed() {
  int listed = 0;
  for (int i = 0; i <= 255; ++i) {
    switch (static_cast<WorkloadKind>(i)) {
      case WK::kTrainingJob:
      case WK::kTuningJob:
      case WK::kProcessingJob:
      case WK::kTransformJob:
      case WK::kNotebookInstance:
      case WK::kStudioDomain:
      case WK::kStudioUserProfile:
      case WK::kStudioSpace:
      case WK::kEndpointVariant:
      case WK::kScalableTarget:
      case WK::kLifecycleScript:
      case WK::kIamStatement:
      case WK::kStudioApp:
      case WK::kInferenceComponent:
      case WK::kHyperPodCluster:
        ++listed;
        break;
    }
  }
  return listed;
}
#pragma GCC diagnostic pop
static_assert(KindsListed() == kWorkloadKindCount && kKindRows.size() == kWorkloadKindCount,
              "a WorkloadKind was added: raise kWorkloadKindCount and add its row to kKindRows");

}  // namespace

const WorkloadKindTraits& TraitsOf(WorkloadKind kind) { return kKindRows[static_cast<int>(kind)]; }

}  // namespace sagelint
