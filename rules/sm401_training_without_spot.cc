// SM401 training-without-spot: managed Spot training runs the same job on
// spare capacity at a fraction of the on-demand price.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckTrainingWithoutSpot(const Workload& w, const RuleContext&, Sink& sink) {
  auto emit = [&](const Val& spot) {
    Report r = At(spot);
    if (!r.at.valid()) r.at = w.range;
    r.message = w.label + (spot.absent() ? " does not enable" : " disables") +
                " managed Spot training: it pays the full on-demand price for every training hour";
    r.suggestion =
        "set use_spot_instances=True (EnableManagedSpotTraining: true) with max_wait >= max_run and a "
        "checkpoint_s3_uri so interrupted jobs resume";
    r.cost = WorkloadCost(w);
    if (r.cost) r.cost->spot = true;
    sink.Emit(w, std::move(r));
  };
  ForEachKnown(w.spot, [&](const Val& v) {
    if (v.boolean() == false) emit(v);
  });
  ForEachAbsent(w, w.spot, emit);
}

}  // namespace sagelint::rules
