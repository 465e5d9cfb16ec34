// SM211 endpoint-without-autoscaling: a fixed-size endpoint is provisioned for
// peak traffic around the clock.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckEndpointWithoutAutoscaling(const Workload& w, const RuleContext&, Sink& sink) {
  if (w.serverless.present()) return;  // serverless (or possibly so): scales by itself
  if (w.managed_scaling.AnyUnknown() ||
      (w.managed_scaling.known() && w.managed_scaling.text == "ENABLED")) {
    return;
  }
  if (w.autoscaling.boolean() != false) return;
  Report r;
  r.at = w.range;
  std::string kind = w.async_inference.boolean().value_or(false) ? "asynchronous endpoint" : "real-time endpoint";
  r.message = w.label + " (" + kind +
              ") is not registered with Application Auto Scaling: it runs its initial instance count around the "
              "clock, sized for peak traffic";
  r.suggestion = "register a scalable target (service namespace sagemaker, dimension "
                 "sagemaker:variant:DesiredInstanceCount) with a target-tracking policy, or enable "
                 "ManagedInstanceScaling";
  ForEachKnown(w.instance_type, [&](const Val& t) {
    r.cost = CostRequest{t.text, w.instance_count.number().value_or(1), true, ""};
  });
  sink.Emit(w, std::move(r));
}

}  // namespace sagelint::rules
