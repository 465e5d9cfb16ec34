// SM212 autoscaling-cannot-scale: a scalable target whose minimum equals its
// maximum never changes the instance count.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckAutoscalingCannotScale(const Workload& w, const RuleContext&, Sink& sink) {
  if (!w.service_namespace.known() || w.service_namespace.text != "sagemaker") return;
  ForEachKnown(w.min_capacity, [&](const Val& lo) {
    ForEachKnown(w.max_capacity, [&](const Val& hi) {
      if (!lo.number() || lo.number() != hi.number()) return;
      Report r = At(hi);
      if (!lo.condition.empty() && !hi.condition.empty() && lo.condition != hi.condition) {
        r.condition = lo.condition + " and " + hi.condition;
      } else if (r.condition.empty()) {
        r.condition = lo.condition;
      }
      r.message =
          w.label + " has MinCapacity equal to MaxCapacity (" + hi.text + "): the endpoint can never scale in or out";
      r.suggestion = *hi.number() <= 1
                         ? "raise MaxCapacity above MinCapacity so the policy can add instances under load"
                         : "lower MinCapacity to what off-peak traffic needs (1 for most endpoints) so the policy can "
                           "scale in";
      sink.Emit(w, std::move(r));
    });
  });
}

}  // namespace sagelint::rules
