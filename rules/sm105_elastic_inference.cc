// SM105 elastic-inference: Elastic Inference is no longer available; a request
// for it fails or keeps a retired, billed attachment alive.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckElasticInference(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachKnown(w.accelerator_type, [&](const Val& acc) {
    if (acc.text.empty()) return;
    Report r = At(acc);
    r.message = w.label + " requests the Elastic Inference accelerator " + acc.text +
                ": Elastic Inference is no longer available, so the request fails or pins a retired setup";
    r.suggestion =
        "remove the accelerator; serve from a CPU instance, ml.inf2 (AWS Inferentia) or a small GPU "
        "instance such as ml.g4dn.xlarge";
    // The whole setting goes; one of several alternatives is not removed alone.
    if (&acc == &w.accelerator_type) {
      if (std::optional<FixChange> c = RemoveChange(acc, "accelerator_type")) {
        r.fix = MakeFix(Applicability::kSafe, "remove the Elastic Inference accelerator " + acc.text, {std::move(*c)});
      }
    }
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
