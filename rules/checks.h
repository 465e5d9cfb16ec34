// The check functions of the built-in rules, one per rules/smNNN_*.cc file.
#ifndef SAGELINT_RULES_CHECKS_H_
#define SAGELINT_RULES_CHECKS_H_

#include "linter/model/rule.h"

namespace sagelint::rules {

void CheckInstanceTypeNotOffered(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckGpuForScikitLearn(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckTrainingInstanceForInference(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckAcceleratedNotebook(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckPreviousGenerationInstance(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckElasticInference(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckNotebookWithoutLifecycleConfig(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckLifecycleConfigWithoutIdleStop(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckStudioWithoutIdleShutdown(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckLongWarmPool(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckEndpointWithoutAutoscaling(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckAutoscalingCannotScale(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckNotebookEndpointNeverDeleted(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckPipeMode(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckReplicatedInputMultiInstance(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckTrainingWithoutSpot(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckSpotWithoutCheckpoint(const Workload& w, const RuleContext& ctx, Sink& sink);
void CheckSpotMaxWaitInvalid(const Workload& w, const RuleContext& ctx, Sink& sink);

}  // namespace sagelint::rules

#endif  // SAGELINT_RULES_CHECKS_H_
