// SM201 notebook-without-lifecycle-config: without an on-start script nothing
// stops the instance when idle; it bills around the clock.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckNotebookWithoutLifecycleConfig(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachAbsent(w, w.lifecycle_config, [&](const Val& lc) {
    Report r = At(lc);
    if (!r.at.valid()) r.at = w.range;
    r.message = w.label + " has no lifecycle configuration: it never stops when idle";
    r.suggestion = "attach a lifecycle configuration whose on-start script stops the instance after IDLE_TIME";
    r.cost = WorkloadCost(w);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
