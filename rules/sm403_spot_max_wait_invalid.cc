// SM403 spot-max-wait-invalid: the training API rejects a Spot job without a
// max wait, a max wait below the max runtime, and a max wait without Spot.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// A training job's missing max wait, set to its max run (README "Fixes").
std::optional<Fix> MaxWaitFix(const Workload& w) {
  std::optional<double> run = MaxRunSeconds(w);
  if (w.kind != WorkloadKind::kTrainingJob || !run || !w.max_wait_seconds.absent() ||
      w.max_wait_seconds.conditional()) {
    return std::nullopt;
  }
  std::string seconds = WholeSeconds(*run);
  return MakeFix(Applicability::kSafe, "set the max wait to " + seconds + " s (the max run)",
                 {InsertChange(w.range, "max_wait_seconds", seconds)});
}

}  // namespace

void CheckSpotMaxWaitInvalid(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachKnown(w.spot, [&](const Val& spot) {
    if (spot.boolean() != true) return;
    ForEachAbsent(w, w.max_wait_seconds, [&](const Val&) {
      Report r = At(spot);
      r.message = w.label + " enables managed Spot without a max wait: the API rejects the job";
      r.suggestion = "set max_wait (StoppingCondition.MaxWaitTimeInSeconds) to at least max_run";
      r.fix = MaxWaitFix(w);
      sink.Emit(w, std::move(r));
    });
    ForEachKnown(w.max_wait_seconds, [&](const Val& wait) {
      auto wait_s = wait.number();
      if (!wait_s) return;
      std::optional<double> run_s;
      std::string run_cond;
      if (w.max_run_seconds.absent()) run_s = kDefaultMaxRunSeconds;
      ForEachKnown(w.max_run_seconds, [&](const Val& run) {
        if (!run_s && run.number()) {
          run_s = run.number();
          run_cond = run.condition;
        }
      });
      if (!run_s || *wait_s >= *run_s) return;
      Report r = At(wait);
      if (r.condition.empty()) r.condition = run_cond;
      r.message = w.label + " sets max wait " + WholeSeconds(*wait_s) + " s below its max runtime " +
                  WholeSeconds(*run_s) + " s" + (w.max_run_seconds.absent() ? " (the default)" : "") +
                  ": the API rejects the job";
      r.suggestion = "raise max_wait to at least max_run (it covers the Spot wait plus the training time)";
      sink.Emit(w, std::move(r));
    });
  });
  // A max wait without Spot is rejected as well.
  if (w.max_wait_seconds.known()) {
    auto without_spot = [&](const Val& spot) {
      Report r = At(w.max_wait_seconds);
      if (!spot.condition.empty()) r.condition = spot.condition;
      r.message = w.label + " sets a max wait without managed Spot training: the API rejects the job";
      r.suggestion = "enable use_spot_instances=True, or remove max_wait (MaxWaitTimeInSeconds)";
      if (std::optional<FixChange> c = RemoveChange(w.max_wait_seconds, "max_wait_seconds"); c && spot.absent()) {
        r.fix = MakeFix(Applicability::kSafe, "remove the max wait", {std::move(*c)});
      }
      sink.Emit(w, std::move(r));
    };
    ForEachKnown(w.spot, [&](const Val& spot) {
      if (spot.boolean() == false) without_spot(spot);
    });
    ForEachAbsent(w, w.spot, without_spot);
  }
}

}  // namespace sagelint::rules
