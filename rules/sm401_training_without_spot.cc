// SM401 training-without-spot: managed Spot training runs the same job on
// spare capacity at a fraction of the on-demand price.
#include <algorithm>
#include <nlohmann/json.hpp>

#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// The longest max wait a fix sets: the API's 28-day limit on a training job
// (rules/SM401.md).
constexpr double kMaxWaitLimitSeconds = 28 * 86400;

// The checkpoint location a fix sets, as a JSON value (README "Fixes"): under
// the job's output path where it is a known literal; in Python, an object the
// editor turns into an expression of what the code has — the output path
// argument, else the session's default_bucket() the code already calls, else
// sagemaker.Session().default_bucket(). Empty, with `why`, where there is none.
std::string CheckpointValue(const Workload& w, std::string* why) {
  if (w.output_path.known()) {
    if (w.output_path.text.rfind("s3://", 0) != 0) {
      *why = "the job's output path " + w.output_path.text + " is not an S3 location to put checkpoints under";
      return {};
    }
    std::string path = w.output_path.text;
    while (!path.empty() && path.back() == '/') path.pop_back();
    return nlohmann::json(path + "/checkpoints").dump();
  }
  if (w.format != Format::kPython && w.format != Format::kNotebook) {
    *why = "the job's output path is not a known literal, so no checkpoint location can be derived from it";
    return {};
  }
  if (w.output_path.conditional()) {
    *why = "the job's output path differs between alternatives, so no one checkpoint location serves them";
    return {};
  }
  if (w.output_path.origin.find("arameter") != std::string::npos) {
    *why = "the job's output path is a pipeline parameter, which a checkpoint location cannot be built from in code";
    return {};
  }
  return nlohmann::json{{"under", w.output_path.absent() ? "default_bucket" : "output_path"}, {"suffix", "checkpoints"}}
      .dump();
}

// Managed Spot switched on (README "Fixes"): max wait twice the max run where
// none is set (at most the API's limit), and a checkpoint location where none
// is set. Nullopt, with `why`, where the fix cannot be stated.
std::optional<Fix> SpotFix(const Workload& w, std::string* why) {
  // Where the settings go: the job's call or request; for a tuning job in
  // Python, the estimator (or ModelTrainer) the tuner runs, where its call is
  // written in the same file (its training job definition in a request).
  SourceRange target = w.range;
  bool sdk_tuner = w.kind == WorkloadKind::kTuningJob && w.label.starts_with("HyperparameterTuner");
  if (sdk_tuner) {
    if (!w.spot.literal.valid()) {
      *why =
          "a tuning job's Spot setting is its estimator's, and the estimator this tuner runs is not made by one "
          "call written in this file (a helper, another module or a parameter makes it): set Spot where it is made";
      return std::nullopt;
    }
    target = w.spot.literal;
  }
  std::optional<double> run = MaxRunSeconds(w);
  if (!run) {
    *why = "the max run is not known, so no max wait can be set";
    return std::nullopt;
  }
  if (w.max_wait_seconds.AnyUnknown() || w.checkpoint.AnyUnknown()) {
    *why = "the max wait or checkpoint location is not known from the files";
    return std::nullopt;
  }
  std::vector<FixChange> changes = {InsertChange(target, "spot", "true")};
  if (w.max_wait_seconds.absent()) {
    double wait = std::min(2 * *run, std::max(kMaxWaitLimitSeconds, *run));
    // In a YAML block whose last member is the stopping condition, the max wait
    // (inside it) and the new members go in at one place: the nested one first.
    bool nested = w.format == Format::kCloudFormation && w.max_run_seconds.present();
    auto at = nested ? changes.begin() : changes.end();
    changes.insert(at, InsertChange(target, "max_wait_seconds", WholeSeconds(wait)));
  }
  // A function run remotely (`@remote`, `@step`) has no checkpoint setting of its own.
  bool remote = w.label.starts_with("@remote") || w.label.starts_with("@step") || w.label.starts_with("RemoteExecutor");
  if (w.checkpoint.absent() && !remote) {
    std::string value = CheckpointValue(w, why);
    if (value.empty()) return std::nullopt;
    changes.push_back(InsertChange(target, "checkpoint", std::move(value)));
  }
  return MakeFix(Applicability::kUnsafe,
                 sdk_tuner ? "enable managed Spot training on the estimator the tuner runs, with a max wait and "
                             "checkpoints"
                           : "enable managed Spot training with a max wait and checkpoints",
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
    if (spot.absent() && &spot == &w.spot) {
      r.fix = SpotFix(w, &r.fix_unavailable);
    } else {
      r.fix_unavailable = spot.absent() ? "the Spot setting differs between alternatives"
                                        : "Spot is switched off explicitly: the author decides to switch it on";
    }
    sink.Emit(w, std::move(r));
  };
  ForEachKnown(w.spot, [&](const Val& v) {
    if (v.boolean() == false) emit(v);
  });
  ForEachAbsent(w, w.spot, emit);
}

}  // namespace sagelint::rules
