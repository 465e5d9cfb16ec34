// SM302 pipe-mode: Pipe mode needs code written for a stream; FastFile streams
// the same data on demand behind an ordinary file interface. Augmented
// manifest channels require Pipe mode, so they are exempt.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

void Emit(const Workload& w, const Val& mode, const std::string& what, Sink& sink) {
  Report r = At(mode);
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
  for (const Channel& c : w.channels) {
    if (c.file_system || NeedsPipe(c)) continue;
    if (IsPipe(c.input_mode)) {
      Emit(w, c.input_mode, "channel '" + c.name + "'", sink);
    } else if (c.input_mode.absent()) {
      job_pipe_used = true;
    }
  }
  if (job_pipe_used) {
    ForEachKnown(w.input_mode, [&](const Val& m) {
      if (IsPipe(m)) Emit(w, m, "its input", sink);
    });
  }
}

}  // namespace sagelint::rules
