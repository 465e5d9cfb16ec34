// SM401 training-without-spot: managed Spot training runs the same job on
// spare capacity at a fraction of the on-demand price.
#include <nlohmann/json.hpp>

#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// Managed Spot switched on (README "Fixes"): max wait twice the max run where none
// is set, and a checkpoint location under the job's output path where none is
// set — offered only where that path is known.
std::optional<Fix> SpotFix(const Workload& w) {
  if (w.kind != WorkloadKind::kTrainingJob) return std::nullopt;
  bool has_output = w.output_path.known() && w.output_path.text.rfind("s3://", 0) == 0;
  if (w.checkpoint.absent() && !has_output) return std::nullopt;
  std::optional<double> run = MaxRunSeconds(w);
  if (!run || w.max_wait_seconds.AnyUnknown() || w.checkpoint.AnyUnknown()) return std::nullopt;
  std::vector<FixChange> changes = {InsertChange(w.range, "spot", "true")};
  if (w.max_wait_seconds.absent()) {
    changes.push_back(InsertChange(w.range, "max_wait_seconds", WholeSeconds(2 * *run)));
  }
  if (w.checkpoint.absent()) {
    std::string path = w.output_path.text;
    while (!path.empty() && path.back() == '/') path.pop_back();
    changes.push_back(InsertChange(w.range, "checkpoint", nlohmann::json(path + "/checkpoints").dump()));
  }
  return MakeFix(Applicability::kUnsafe, "enable managed Spot training with a max wait and checkpoints",
                 std::move(changes));
}

}  // namespace

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
    if (spot.absent() && &spot == &w.spot) r.fix = SpotFix(w);
    sink.Emit(w, std::move(r));
  };
  ForEachKnown(w.spot, [&](const Val& v) {
    if (v.boolean() == false) emit(v);
  });
  ForEachAbsent(w, w.spot, emit);
}

}  // namespace sagelint::rules
