// SM204 long-warm-pool: a warm pool keeps the training instances billing while
// they wait for the next job.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckLongWarmPool(const Workload& w, const RuleContext& ctx, Sink& sink) {
  double limit = ctx.Option("max_keep_alive_seconds");
  ForEachKnown(w.keep_alive_seconds, [&](const Val& v) {
    auto seconds = v.number();
    if (!seconds || *seconds <= limit) return;
    Report r = At(v);
    r.message = w.label + " keeps its warm pool alive for " + v.text + " s (limit " + WholeSeconds(limit) +
                " s): warm-pool instances bill for every idle second";
    r.suggestion =
        "lower KeepAlivePeriodInSeconds (keep_alive_period_in_seconds) to the gap you expect "
        "between jobs, at most " +
        WholeSeconds(limit) + " s";
    r.cost = WorkloadCost(w);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
