// The one sorted table of built-in rules: each row holds all a rule's
// metadata (its kinds, options, IAM guardrail, fix). Add a rule with
// scripts/new-rule.py (docs/maintaining.md), which writes rules/smNNN_name.cc
// (its check), rules/SMNNN.md (its doc), its fixtures, the check's
// declaration in rules/checks.h and a row here, in ID order. A row names only
// the fields it has (designated initializers): no kinds, options, IAM,
// check or fix is the field's default.
#include <algorithm>
#include <string>

#include "linter/base/embedded.h"
#include "linter/iam/guardrails.h"
#include "linter/model/rule.h"
#include "rules/checks.h"
#include "rules/checks_cost.h"

namespace sagelint {
namespace {

using K = WorkloadKind;

const std::vector<RuleInfo>& Table() {
  static const std::vector<RuleInfo> rules = {
      {.id = "SM000",
       .name = "parse-error",
       .severity = Severity::kError,
       .summary = "A file of a recognised kind cannot be parsed, so nothing in it was checked.",
       .fix = {.none_because = "the file does not parse: what it should say is for its author to decide"},
       .always_enabled = true},
      {.id = "SM001",
       .name = "internal-error",
       .severity = Severity::kError,
       .summary = "A rule failed on a workload; the rest of the scan went on. Please report it.",
       .always_enabled = true},
      {.id = "SM002",
       .name = "suppression-unknown-rule",
       .severity = Severity::kNote,
       .summary = "A sagelint:ignore comment names a rule ID that does not exist."},
      {.id = "SM003",
       .name = "unused-suppression",
       .severity = Severity::kNote,
       .summary = "A sagelint:ignore comment suppresses nothing (reported with --report-unused-ignores)."},
      {.id = "SM004",
       .name = "unknown-instance-type",
       .severity = Severity::kNote,
       .summary = "An ml.* instance type that sagelint does not know; no instance rule could check it.",
       .fix = {.none_because =
                   "the instance type is not one sagelint knows: which type was meant is for its author to decide"}},
      {.id = "SM005",
       .name = "instance-type-not-offered",
       .severity = Severity::kError,
       .summary = "A known instance type is not offered for its kind of workload, so the create call rejects it.",
       .kinds = {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kNotebookInstance,
                 K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp, K::kEndpointVariant,
                 K::kHyperPodCluster},
       .iam = {.without_key = "an instance type the API does not offer for the kind fails at the create call anyway: "
                              "no IAM condition is "
                              "needed, and sagelint reports it before the deploy"},
       .check = rules::CheckInstanceTypeNotOffered,
       .fix = {.applicability = Applicability::kUnsafe, .caveat = FixCaveat::kNeoCompiled}},
      {.id = "SM006",
       .name = "gate-config-weakened",
       .severity = Severity::kError,
       .summary = "In diff, the change weakens the gate's own configuration (a rule off, a lower severity, a higher "
                  "fail_on, an exclude, a baseline entry, a custom policy removed or loosened).",
       .fix = {.none_because = "a weakened gate configuration is a decision to review, not a literal to change"}},
      {.id = "SM007",
       .name = "evaluation-incomplete",
       .severity = Severity::kNote,
       .summary = "A bound stopped the evaluation of a file early; what follows was read with its literal values only.",
       .fix = {.none_because = "nothing in the files is wrong: the evaluation stopped before the end of the file"},
       .always_enabled = true},
      {.id = "SM008",
       .name = "file-not-scanned",
       .severity = Severity::kWarning,
       .summary =
           "A file of a kind sagelint reads, inside the scanned paths, was not read (a link out of the repository, a "
           "directory too deep, a file over the size cap, an unreadable object, a module imported dynamically).",
       .fix = {.none_because = "nothing in the file is wrong: it was not read"}},
      {.id = "SM101",
       .name = "gpu-for-scikit-learn",
       .severity = Severity::kError,
       .summary = "A scikit-learn workload runs on an accelerated instance it cannot use.",
       .kinds = {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kEndpointVariant},
       .iam = {.without_key = "scikit-learn on accelerated instances: IAM cannot see the framework"},
       .check = rules::CheckGpuForScikitLearn,
       .fix = {.applicability = Applicability::kUnsafe, .caveat = FixCaveat::kNeoCompiled}},
      {.id = "SM102",
       .name = "training-instance-for-inference",
       .severity = Severity::kWarning,
       .summary =
           "An endpoint or batch transform uses a training-class instance where an inference instance with as much "
           "accelerator memory costs at most half as much.",
       .kinds = {K::kEndpointVariant, K::kTransformJob},
       .options = {{"allowed_types", 0, "instance type globs hosted on deliberately (\"ml.p4d.*\"): never reported",
                    RuleOption::Type::kGlobs}},
       .iam = {.condition_key = "sagemaker:InstanceTypes", .guardrail = guardrails::TrainingClassForInference},
       .check = rules::CheckTrainingInstanceForInference,
       .fix = {.applicability = Applicability::kUnsafe, .caveat = FixCaveat::kNeoCompiled}},
      {.id = "SM103",
       .name = "accelerated-notebook",
       .severity = Severity::kWarning,
       .summary =
           "A notebook instance, Studio default app or Studio app uses an accelerated instance that bills while idle.",
       .kinds = {K::kNotebookInstance, K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp},
       .iam = {.condition_key = "sagemaker:InstanceTypes", .guardrail = guardrails::AcceleratedNotebooks},
       .check = rules::CheckAcceleratedNotebook,
       .fix = {.applicability = Applicability::kUnsafe}},
      {.id = "SM104",
       .name = "previous-generation-instance",
       .severity = Severity::kNote,
       .summary = "A workload uses a previous-generation instance whose current successor costs the same or less.",
       .kinds = {K::kTrainingJob, K::kTuningJob, K::kProcessingJob, K::kTransformJob, K::kNotebookInstance,
                 K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace, K::kStudioApp, K::kEndpointVariant,
                 K::kHyperPodCluster},
       .iam = {.condition_key = "sagemaker:InstanceTypes", .guardrail = guardrails::PreviousGenerationInstances},
       .check = rules::CheckPreviousGenerationInstance,
       .fix = {.applicability = Applicability::kSafe, .caveat = FixCaveat::kNeoCompiled}},
      {.id = "SM105",
       .name = "elastic-inference",
       .severity = Severity::kError,
       .summary = "An Elastic Inference accelerator is requested; Elastic Inference is no longer available.",
       .kinds = {K::kEndpointVariant, K::kNotebookInstance},
       .iam = {.condition_key = "sagemaker:AcceleratorTypes", .guardrail = guardrails::ElasticInference},
       .check = rules::CheckElasticInference,
       .fix = {.applicability = Applicability::kSafe}},
      {.id = "SM201",
       .name = "notebook-without-lifecycle-config",
       .severity = Severity::kWarning,
       .summary = "A notebook instance has no lifecycle configuration, so nothing stops it when idle.",
       .kinds = {K::kNotebookInstance},
       .iam = {.condition_key = "sagemaker:NotebookInstanceLifecycleConfigArns",
               .guardrail = guardrails::NotebookLifecycleConfigs},
       .check = rules::CheckNotebookWithoutLifecycleConfig,
       .fix = {.none_because = "an idle-stop lifecycle configuration is a new resource with its own script; sagelint "
                               "does not create one"}},
      {.id = "SM202",
       .name = "lifecycle-config-without-idle-stop",
       .severity = Severity::kWarning,
       .summary = "A notebook's lifecycle configuration has no idle-stop logic in its on-start script.",
       .kinds = {K::kNotebookInstance},
       .iam = {.condition_key = "sagemaker:NotebookInstanceLifecycleConfigArns",
               .guardrail = guardrails::NotebookLifecycleConfigs},
       .check = rules::CheckLifecycleConfigWithoutIdleStop,
       .fix = {.none_because = "the idle-stop logic belongs in the on-start script, which sagelint does not write"}},
      {.id = "SM203",
       .name = "studio-without-idle-shutdown",
       .severity = Severity::kWarning,
       .summary = "A Studio domain, user profile or space runs JupyterLab or Code Editor without idle shutdown.",
       .kinds = {K::kStudioDomain, K::kStudioUserProfile, K::kStudioSpace},
       .iam = {.without_key = "Studio idle shutdown: no condition key covers idle settings (the policy can only "
                              "require an approved Studio "
                              "lifecycle configuration)",
               .guardrail = guardrails::StudioLifecycleConfigs},
       .check = rules::CheckStudioWithoutIdleShutdown,
       .fix = {.applicability = Applicability::kUnsafe}},
      {.id = "SM204",
       .name = "long-warm-pool",
       .severity = Severity::kNote,
       .summary = "A training warm pool is kept alive longer than the configured limit, billing while idle.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .options = {{"max_keep_alive_seconds", 1800, "longest acceptable KeepAlivePeriodInSeconds"}},
       .iam = {.condition_key = "sagemaker:KeepAlivePeriod", .guardrail = guardrails::WarmPoolKeepAlive},
       .check = rules::CheckLongWarmPool,
       .fix =
           {.none_because =
                "how long a warm pool should stay up is the author's trade-off between start-up time and idle cost"}},
      {.id = "SM211",
       .name = "endpoint-without-autoscaling",
       .severity = Severity::kWarning,
       .summary = "An endpoint variant that autoscaling could shrink (two or more instances, or asynchronous) has no "
                  "autoscaling.",
       .kinds = {K::kEndpointVariant},
       .iam = {.without_key = "endpoint autoscaling: no condition key exists"},
       .check = rules::CheckEndpointWithoutAutoscaling,
       .fix = {.none_because =
                   "autoscaling is a scalable target and a policy, new resources that sagelint does not create"}},
      {.id = "SM212",
       .name = "autoscaling-cannot-scale",
       .severity = Severity::kNote,
       .summary = "A SageMaker scalable target has MinCapacity equal to MaxCapacity, so it never scales.",
       .kinds = {K::kScalableTarget},
       .iam = {.without_key = "autoscaling capacity range: no condition key exists"},
       .check = rules::CheckAutoscalingCannotScale,
       .fix = {.none_because = "whether to lower the minimum or raise the maximum capacity is the author's choice"}},
      {.id = "SM213",
       .name = "notebook-endpoint-never-deleted",
       .severity = Severity::kWarning,
       .summary = "A notebook deploys an endpoint and no cell deletes it, so it bills around the clock after the "
                  "notebook closes.",
       .kinds = {K::kEndpointVariant},
       .iam = {.without_key = "deleting a notebook's endpoints: no condition key exists"},
       .check = rules::CheckNotebookEndpointNeverDeleted,
       .fix = {.applicability = Applicability::kUnsafe}},
      {.id = "SM301",
       .name = "file-mode-large-dataset",
       .severity = Severity::kWarning,
       .summary = "A training channel in File mode reads a large dataset that is copied in full before the first step.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .options = {{"threshold_gb", 50, "dataset size (GB) from which File mode is reported"}},
       .iam = {.without_key = "channel input mode: no condition key exists"},
       .check = rules::CheckFileModeLargeDataset,
       .fix = {.applicability = Applicability::kUnsafe}},
      {.id = "SM302",
       .name = "pipe-mode",
       .severity = Severity::kNote,
       .summary = "A training channel uses Pipe mode where FastFile streams the same data with a plain file interface.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .iam = {.without_key = "channel input mode: no condition key exists"},
       .check = rules::CheckPipeMode,
       .fix = {.applicability = Applicability::kUnsafe, .caveat = FixCaveat::kPipeModeReader}},
      {.id = "SM303",
       .name = "replicated-input-multi-instance",
       .severity = Severity::kNote,
       .summary =
           "A multi-instance processing job reads an S3 input FullyReplicated, so every instance downloads everything.",
       .kinds = {K::kProcessingJob},
       .iam = {.without_key = "S3 input distribution: no condition key exists"},
       .check = rules::CheckReplicatedInputMultiInstance,
       .fix = {.none_because =
                   "ShardedByS3Key changes which objects each instance reads: the processing code must expect it"}},
      {.id = "SM401",
       .name = "training-without-spot",
       .severity = Severity::kWarning,
       .summary = "A training or tuning job does not use managed Spot training.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .iam = {.without_key = "managed Spot training: no condition key exists"},
       .check = rules::CheckTrainingWithoutSpot,
       .fix = {.applicability = Applicability::kUnsafe, .caveat = FixCaveat::kStepFunctionsTask}},
      {.id = "SM402",
       .name = "spot-without-checkpoint",
       .severity = Severity::kWarning,
       .summary = "A Spot training job has no checkpoint location, so an interruption restarts it from scratch.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .iam = {.without_key = "checkpoint configuration: no condition key exists"},
       .check = rules::CheckSpotWithoutCheckpoint,
       .fix = {.none_because =
                   "a checkpoint location is a bucket and prefix the job may write: the author chooses it"}},
      {.id = "SM403",
       .name = "spot-max-wait-invalid",
       .severity = Severity::kError,
       .summary =
           "Spot without a max wait, a max wait below the max runtime, or a max wait without Spot: the API rejects it.",
       .kinds = {K::kTrainingJob, K::kTuningJob},
       .iam = {.without_key = "Spot max wait: no condition key exists"},
       .check = rules::CheckSpotMaxWaitInvalid,
       .fix = {.applicability = Applicability::kSafe}},
      {.id = "SM501",
       .name = "iam-unrestricted-instance-types",
       .severity = Severity::kWarning,
       .summary =
           "An IAM policy allows an instance-launching SageMaker action without a sagemaker:InstanceTypes condition.",
       .kinds = {K::kIamStatement},
       .iam = {.condition_key = "sagemaker:InstanceTypes", .guardrail = guardrails::UnapprovedInstanceTypes},
       .check = rules::CheckIamUnrestrictedInstanceTypes,
       .fix = {.none_because = "which instance types a role may launch is the organisation's choice (sagelint "
                               "iam-policy writes one)"}},
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
  const RuleInfo* r = FindRule(id);
  return r ? r->fix.applicability : std::nullopt;
}

}  // namespace sagelint
