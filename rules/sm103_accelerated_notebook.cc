// SM103 accelerated-notebook: interactive instances sit idle most of the time;
// an accelerated one bills GPU prices for typing and reading.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckAcceleratedNotebook(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachInstance(w, [&](const Val& type, const InstanceInfo& info) {
    if (!info.accelerated()) return;
    Report r = At(type);
    r.message = w.label + " uses " + type.text +
                " for interactive work: an accelerated instance bills its full price while it sits idle";
    r.suggestion =
        "use a CPU instance such as ml.t3.medium for the notebook and run GPU work as training or processing jobs";
    r.cost = CostRequest{type.text, 1, true, "ml.t3.medium"};
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
