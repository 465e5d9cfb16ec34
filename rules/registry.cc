// The one sorted table of built-in rules. Add a rule: write rules/smNNN_name.cc
// (its check), rules/SMNNN.md (its doc), declare the check in rules/checks.h,
// and add a row here, in ID order.
#include <algorithm>
#include <string>

#include "linter/base/embedded.h"
#include "linter/model/rule.h"
#include "rules/checks.h"
#include "rules/checks_cost.h"

namespace sagelint {
namespace {

using K = WorkloadKind;

const std::vector<RuleInfo>& Table() {
  static const std::vector<RuleInfo> rules = {
      {"SM000",
       "parse-error",
       Severity::kError,
       "A file of a recognised kind cannot be parsed, so nothing in it was checked.",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM001",
       "internal-error",
       Severity::kError,
       "A rule failed on a workload; the rest of the scan went on. Please report it.",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM002",
       "suppression-unknown-rule",
       Severity::kNote,
       "A sagelint:ignore comment names a rule ID that does not exist.",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM003",
       "unused-suppression",
       Severity::kNote,
       "A sagelint:ignore comment suppresses nothing (reported with --report-unused-ignores).",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM004",
       "unknown-instance-type",
       Severity::kNote,
       "An ml.* instance type that sagelint does not know; no instance rule could check it.",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM005",
       "instance-type-not-offered",
       Severity::kError,
       "A known instance type is not offered for its kind of workload, so the create call rejects it.",
       {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kNotebookInstance, K::kStudioDomain,
        K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp, K::kEndpointVariant, K::kHyperPodCluster},
       {},
       {"",
        "an instance type the API does not offer for the kind fails at the create call anyway: no IAM condition is "
        "needed, and sagelint reports it before the deploy"},
       rules::CheckInstanceTypeNotOffered},
      {"SM006",
       "gate-config-weakened",
       Severity::kError,
       "In diff, the change weakens the gate's own configuration (a rule off, a lower severity, a higher "
       "fail_on, an exclude, a baseline entry, a custom policy removed or loosened).",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM007",
       "evaluation-incomplete",
       Severity::kNote,
       "A bound stopped the evaluation of a file early; what follows was read with its literal values only.",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM008",
       "file-not-scanned",
       Severity::kWarning,
       "A file of a kind sagelint reads, inside the scanned paths, was not read (a link out of the repository, a "
       "directory too deep, a file over the size cap, an unreadable object, a module imported dynamically).",
       {},
       {},
       {"", ""},
       nullptr},
      {"SM101",
       "gpu-for-scikit-learn",
       Severity::kError,
       "A scikit-learn workload runs on an accelerated instance it cannot use.",
       {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kEndpointVariant},
       {},
       {"", "scikit-learn on accelerated instances: IAM cannot see the framework"},
       rules::CheckGpuForScikitLearn},
      {"SM102",
       "training-instance-for-inference",
       Severity::kWarning,
       "An endpoint or batch transform uses a training-class instance where an inference instance with as much "
       "accelerator memory costs at most half as much.",
       {K::kEndpointVariant, K::kTransformJob},
       {{"allowed_types", 0, "instance type globs hosted on deliberately (\"ml.p4d.*\"): never reported",
         RuleOption::Type::kGlobs}},
       {"sagemaker:InstanceTypes", ""},
       rules::CheckTrainingInstanceForInference},
      {"SM103",
       "accelerated-notebook",
       Severity::kWarning,
       "A notebook instance, Studio default app or Studio app uses an accelerated instance that bills while idle.",
       {K::kNotebookInstance, K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp},
       {},
       {"sagemaker:InstanceTypes", ""},
       rules::CheckAcceleratedNotebook},
      {"SM104",
       "previous-generation-instance",
       Severity::kNote,
       "A workload uses a previous-generation instance whose current successor costs the same or less.",
       {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kNotebookInstance, K::kStudioDomain,
        K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp, K::kEndpointVariant, K::kHyperPodCluster},
       {},
       {"sagemaker:InstanceTypes", ""},
       rules::CheckPreviousGenerationInstance},
      {"SM105",
       "elastic-inference",
       Severity::kError,
       "An Elastic Inference accelerator is requested; Elastic Inference is no longer available.",
       {K::kEndpointVariant, K::kNotebookInstance},
       {},
       {"sagemaker:AcceleratorTypes", ""},
       rules::CheckElasticInference},
      {"SM201",
       "notebook-without-lifecycle-config",
       Severity::kWarning,
       "A notebook instance has no lifecycle configuration, so nothing stops it when idle.",
       {K::kNotebookInstance},
       {},
       {"sagemaker:NotebookInstanceLifecycleConfigArns", ""},
       rules::CheckNotebookWithoutLifecycleConfig},
      {"SM202",
       "lifecycle-config-without-idle-stop",
       Severity::kWarning,
       "A notebook's lifecycle configuration has no idle-stop logic in its on-start script.",
       {K::kNotebookInstance},
       {},
       {"sagemaker:NotebookInstanceLifecycleConfigArns", ""},
       rules::CheckLifecycleConfigWithoutIdleStop},
      {"SM203",
       "studio-without-idle-shutdown",
       Severity::kWarning,
       "A Studio domain, user profile or space runs JupyterLab or Code Editor without idle shutdown.",
       {K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace},
       {},
       {"",
        "Studio idle shutdown: no condition key covers idle settings (the policy can only require an approved Studio "
        "lifecycle configuration)"},
       rules::CheckStudioWithoutIdleShutdown},
      {"SM204",
       "long-warm-pool",
       Severity::kNote,
       "A training warm pool is kept alive longer than the configured limit, billing while idle.",
       {K::kTrainingJob, K::kTuningJob},
       {{"max_keep_alive_seconds", 1800, "longest acceptable KeepAlivePeriodInSeconds"}},
       {"sagemaker:KeepAlivePeriod", ""},
       rules::CheckLongWarmPool},
      {"SM211",
       "endpoint-without-autoscaling",
       Severity::kWarning,
       "An endpoint variant that autoscaling could shrink (two or more instances, or asynchronous) has no autoscaling.",
       {K::kEndpointVariant},
       {},
       {"", "endpoint autoscaling: no condition key exists"},
       rules::CheckEndpointWithoutAutoscaling},
      {"SM212",
       "autoscaling-cannot-scale",
       Severity::kNote,
       "A SageMaker scalable target has MinCapacity equal to MaxCapacity, so it never scales.",
       {K::kScalableTarget},
       {},
       {"", "autoscaling capacity range: no condition key exists"},
       rules::CheckAutoscalingCannotScale},
      {"SM213",
       "notebook-endpoint-never-deleted",
       Severity::kWarning,
       "A notebook deploys an endpoint and no cell deletes it, so it bills around the clock after the notebook closes.",
       {K::kEndpointVariant},
       {},
       {"", "deleting a notebook's endpoints: no condition key exists"},
       rules::CheckNotebookEndpointNeverDeleted},
      {"SM301",
       "file-mode-large-dataset",
       Severity::kWarning,
       "A training channel in File mode reads a large dataset that is copied in full before the first step.",
       {K::kTrainingJob, K::kTuningJob},
       {{"threshold_gb", 50, "dataset size (GB) from which File mode is reported"}},
       {"", "channel input mode: no condition key exists"},
       rules::CheckFileModeLargeDataset},
      {"SM302",
       "pipe-mode",
       Severity::kNote,
       "A training channel uses Pipe mode where FastFile streams the same data with a plain file interface.",
       {K::kTrainingJob, K::kTuningJob},
       {},
       {"", "channel input mode: no condition key exists"},
       rules::CheckPipeMode},
      {"SM303",
       "replicated-input-multi-instance",
       Severity::kNote,
       "A multi-instance processing job reads an S3 input FullyReplicated, so every instance downloads everything.",
       {K::kProcessingJob},
       {},
       {"", "S3 input distribution: no condition key exists"},
       rules::CheckReplicatedInputMultiInstance},
      {"SM401",
       "training-without-spot",
       Severity::kWarning,
       "A training or tuning job does not use managed Spot training.",
       {K::kTrainingJob, K::kTuningJob},
       {},
       {"", "managed Spot training: no condition key exists"},
       rules::CheckTrainingWithoutSpot},
      {"SM402",
       "spot-without-checkpoint",
       Severity::kWarning,
       "A Spot training job has no checkpoint location, so an interruption restarts it from scratch.",
       {K::kTrainingJob, K::kTuningJob},
       {},
       {"", "checkpoint configuration: no condition key exists"},
       rules::CheckSpotWithoutCheckpoint},
      {"SM403",
       "spot-max-wait-invalid",
       Severity::kError,
       "Spot without a max wait, a max wait below the max runtime, or a max wait without Spot: the API rejects it.",
       {K::kTrainingJob, K::kTuningJob},
       {},
       {"", "Spot max wait: no condition key exists"},
       rules::CheckSpotMaxWaitInvalid},
      {"SM501",
       "iam-unrestricted-instance-types",
       Severity::kWarning,
       "An IAM policy allows an instance-launching SageMaker action without a sagemaker:InstanceTypes condition.",
       {K::kIamStatement},
       {},
       {"sagemaker:InstanceTypes", ""},
       rules::CheckIamUnrestrictedInstanceTypes},
  };
  return rules;
}

}  // namespace

std::span<const RuleInfo> AllRules() { return Table(); }

const RuleInfo* FindRule(std::string_view id) {
  const auto& t = Table();
  auto it = std::lower_bound(t.begin(), t.end(), id, [](const RuleInfo& r, std::string_view x) { return r.id < x; });
  return it != t.end() && it->id == id ? &*it : nullptr;
}

const RuleInfo* FindRuleByName(std::string_view name) {
  for (const RuleInfo& r : Table()) {
    if (r.name == name) return &r;
  }
  return nullptr;
}

std::string_view RuleDoc(std::string_view id) { return Embedded("rules/" + std::string(id) + ".md"); }

double RuleContext::Option(std::string_view name) const {
  auto it = options.find(std::string(name));
  return it == options.end() ? 0 : it->second;
}

const std::vector<std::string>& RuleContext::List(std::string_view name) const {
  static const std::vector<std::string> kNone;
  auto it = lists.find(std::string(name));
  return it == lists.end() ? kNone : it->second;
}

std::optional<Applicability> RuleFix(std::string_view id) {
  static constexpr std::string_view kSafe[] = {"SM104", "SM105", "SM403"};
  static constexpr std::string_view kUnsafe[] = {"SM005", "SM101", "SM102", "SM103", "SM203",
                                                 "SM213", "SM301", "SM302", "SM401"};
  for (std::string_view s : kSafe) {
    if (s == id) return Applicability::kSafe;
  }
  for (std::string_view s : kUnsafe) {
    if (s == id) return Applicability::kUnsafe;
  }
  return std::nullopt;
}

}  // namespace sagelint
