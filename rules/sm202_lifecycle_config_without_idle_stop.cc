// SM202 lifecycle-config-without-idle-stop: a lifecycle configuration that does
// not stop the instance when idle leaves it billing around the clock.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckLifecycleConfigWithoutIdleStop(const Workload& w, const RuleContext&, Sink& sink) {
  if (w.idle_stop.boolean() != false) return;
  Report r = At(w.lifecycle_config);
  if (!r.at.valid()) r.at = w.range;
  std::string name = w.lifecycle_config.known() ? " '" + w.lifecycle_config.text + "'" : "";
  r.message = w.label + " uses the lifecycle configuration" + name +
              " whose on-start script has no idle-stop logic: the instance never stops when idle";
  r.suggestion =
      "add an idle check to the on-start script (a cron job that calls StopNotebookInstance after "
      "IDLE_TIME seconds without kernel activity)";
  r.cost = WorkloadCost(w);
  sink.Emit(w, std::move(r));
}

}  // namespace sagelint::rules
