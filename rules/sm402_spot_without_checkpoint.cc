// SM402 spot-without-checkpoint: an interrupted Spot job without checkpoints
// restarts from the first step, paying again for the lost hours.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckSpotWithoutCheckpoint(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachKnown(w.spot, [&](const Val& spot) {
    if (spot.boolean() != true) return;
    ForEachAbsent(w, w.checkpoint, [&](const Val& cp) {
      Report r = At(spot);
      if (!cp.condition.empty()) r.condition = cp.condition;
      r.message = w.label +
                  " uses managed Spot without a checkpoint location: an interruption restarts training from the "
                  "beginning and the lost hours are paid again";
      r.suggestion = "set checkpoint_s3_uri (CheckpointConfig.S3Uri) and save checkpoints to /opt/ml/checkpoints";
      sink.Emit(w, std::move(r));
    });
  });
}

}  // namespace sagelint::rules
