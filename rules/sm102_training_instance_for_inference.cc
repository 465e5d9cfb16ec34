// SM102 training-instance-for-inference: training-class instances (p3, p4d,
// p5, trn1 …) cost several times an inference instance of similar throughput.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckTrainingInstanceForInference(const Workload& w, const RuleContext&, Sink& sink) {
  if (w.serverless.boolean().value_or(false)) return;
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.training_class) return;
    std::string_view size = SizeOf(use.type.text);
    // An inference instance the workload's kind accepts: Inferentia for
    // Trainium, else a g5 (then g6, g4dn) of the nearest size.
    std::string cheaper;
    if (use.info.accelerator == Accelerator::kTrainium) cheaper = FirstOffered(kind, {"ml.inf2.xlarge"});
    for (std::string_view family : {"g5", "g6", "g4dn"}) {
      if (cheaper.empty()) cheaper = NearestOffered(kind, family, size);
    }
    Report r = At(use.type);
    r.message = w.label + " serves inference on " + use.type.text +
                ", a training-class instance: it costs several times an inference instance of similar throughput";
    r.suggestion =
        (cheaper.empty() ? std::string("use an inference instance") : "use an inference instance such as " + cheaper) +
        " (ml.g4dn, ml.g5, ml.g6 and ml.inf2 are built for inference), or a CPU instance";
    r.cost = UseCost(w, use, cheaper);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
