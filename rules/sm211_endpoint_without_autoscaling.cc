// SM211 endpoint-without-autoscaling: a variant that autoscaling could shrink
// — two or more real-time instances, or an asynchronous endpoint that can
// scale to zero — runs its full size around the clock without it. A
// single-instance real-time variant cannot scale below one, so autoscaling
// would save nothing there.
#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckEndpointWithoutAutoscaling(const Workload& w, const RuleContext&, Sink& sink) {
  if (w.serverless.present()) return;  // serverless (or possibly so): scales by itself
  // A notebook endpoint its workflow deletes does not run around the clock.
  if (DeletedByWorkflow(w)) return;
  if (w.managed_scaling.AnyUnknown() || (w.managed_scaling.known() && w.managed_scaling.text == "ENABLED")) {
    return;
  }
  if (w.autoscaling.boolean() != false) return;
  if (w.async_inference.AnyUnknown()) return;
  bool async = w.async_inference.boolean().value_or(false);
  // Every alternative of the count must be known to tell whether it can shrink.
  if (w.instance_count.AnyUnknown() || (!w.instance_count.known() && !w.instance_count.conditional())) return;
  w.instance_count.ForEach([&](const Val& count) {
    auto n = count.number();
    if (!n || *n < 1) return;
    if (!async && *n < 2) return;
    Report r = At(count);
    if (!r.at.valid()) r.at = w.range;
    std::string instances = count.text + (*n == 1 ? " instance" : " instances");
    r.message = async ? w.label + " (asynchronous endpoint, " + instances +
                            ") is not registered with Application Auto Scaling: it keeps its instances running "
                            "around the clock, although an asynchronous endpoint can scale to zero while its queue "
                            "is empty"
                      : w.label + " (real-time endpoint, " + instances +
                            ") is not registered with Application Auto Scaling: it runs its " + instances +
                            " around the clock, sized for peak traffic";
    r.suggestion = async ? "register a scalable target (service namespace sagemaker, dimension "
                           "sagemaker:variant:DesiredInstanceCount) with MinCapacity 0 and a policy on the "
                           "ApproximateBacklogSizePerInstance metric"
                         : "register a scalable target (service namespace sagemaker, dimension "
                           "sagemaker:variant:DesiredInstanceCount) with a target-tracking policy, or enable "
                           "ManagedInstanceScaling";
    ForEachKnown(w.instance_type, [&](const Val& t) { r.cost = Cost(t.text, *n, AlwaysOn(w)); });
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
