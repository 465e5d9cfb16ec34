// SM302 pipe-mode: Pipe mode needs code written for a stream; FastFile streams
// the same data on demand behind an ordinary file interface. Augmented
// manifest channels require Pipe mode, so they are exempt.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// Why the algorithm itself may accept only Pipe (README "Fixes"): a Marketplace
// algorithm (AlgorithmEstimator) declares its own input modes, and the
// built-in algorithms' estimators read their channels with the algorithm's
// reader, not a script that a switch of mode leaves working.
std::string AlgorithmReadsPipe(const Workload& w) {
  if (w.label.rfind("AlgorithmEstimator", 0) == 0) {
    return "an AlgorithmEstimator's algorithm declares the input modes it supports, which the code does not show: "
           "switching to FastFile can make the job fail to start";
  }
  for (std::string_view builtin : {"KMeans ", "PCA ", "LinearLearner ", "FactorizationMachines ", "NTM ", "LDA ",
                                   "RandomCutForest ", "KNN ", "IPInsights ", "Object2Vec "}) {
    if (w.label.rfind(builtin, 0) == 0) {
      return "the built-in " + std::string(builtin.substr(0, builtin.size() - 1)) +
             " algorithm reads its channels with its own reader, which the code does not show accepting FastFile: "
             "the switch is left to the author";
    }
  }
  // A job that runs its image's own program (a request, not an SDK script):
  // working in Pipe mode, that program reads the channel as a stream, unless
  // the image is a framework container that hands a script its files.
  bool request = w.format == Format::kCloudFormation || w.format == Format::kTerraform ||
                 w.label.starts_with("boto3 ") || w.label.starts_with("TrainingJob.create");
  if (request && !w.framework.known()) {
    return "the job runs its image's own program, which reads the channel as a Pipe stream today; whether it also "
           "reads files is not in the code, so the switch to FastFile is left to the author";
  }
  return {};
}

void Emit(const Workload& w, const Val& mode, const std::string& what, bool fixable, Sink& sink) {
  Report r = At(mode);
  if (std::string why = AlgorithmReadsPipe(w); !why.empty()) {
    r.fix_unavailable = why;
  } else if (!fixable) {
    r.fix_unavailable =
        "the mode is one of several alternatives, or a channel inheriting it needs Pipe (an augmented manifest)";
  } else if (std::optional<FixChange> c = ReplaceChange(mode, "FastFile")) {
    r.fix = MakeFix(Applicability::kUnsafe, "switch the input mode from Pipe to FastFile", {std::move(*c)});
  } else {
    r.fix_unavailable = NoReplaceReason(mode);
  }
  r.message = w.label + " reads " + what +
              " in Pipe mode: FastFile streams the same S3 data on demand with a plain file interface, so "
              "the script needs no Pipe-specific reader";
  r.suggestion = "use input_mode=\"FastFile\" (TrainingInputMode / InputMode: FastFile)";
  sink.Emit(w, std::move(r));
}

bool IsPipe(const Val& v) { return v.known() && v.text == "Pipe"; }

// An AugmentedManifestFile channel (or one that may be) must use Pipe mode.
bool NeedsPipe(const Channel& c) {
  bool needs = c.s3_data_type.AnyUnknown();
  c.s3_data_type.ForEach([&](const Val& t) { needs = needs || (t.known() && t.text == "AugmentedManifestFile"); });
  return needs;
}

}  // namespace

void CheckPipeMode(const Workload& w, const RuleContext&, Sink& sink) {
  bool job_pipe_used = w.channels.empty();
  // The job's mode is changed only when no channel inheriting it needs Pipe.
  bool job_fixable = true;
  for (const Channel& c : w.channels) {
    if (c.input_mode.absent() && !c.file_system && NeedsPipe(c)) job_fixable = false;
  }
  for (const Channel& c : w.channels) {
    if (c.file_system || NeedsPipe(c)) continue;
    if (IsPipe(c.input_mode)) {
      Emit(w, c.input_mode, "channel '" + c.name + "'", true, sink);
    } else if (c.input_mode.absent()) {
      job_pipe_used = true;
    }
  }
  if (job_pipe_used) {
    ForEachKnown(w.input_mode, [&](const Val& m) {
      if (IsPipe(m)) Emit(w, m, "its input", job_fixable && &m == &w.input_mode, sink);
    });
  }
}

}  // namespace sagelint::rules
