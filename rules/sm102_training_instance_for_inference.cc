// SM102 training-instance-for-inference: training-class instances (p3, p4d,
// p5, trn1 …) cost several times an inference instance of similar throughput.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckTrainingInstanceForInference(const Workload& w, const RuleContext&, Sink& sink) {
  if (w.serverless.boolean().value_or(false)) return;
  ForEachKnown(w.instance_type, [&](const Val& type) {
    auto info = LookupInstance(type.text);
    if (!info || !info->training_class) return;
    std::string cheaper = info->accelerator == Accelerator::kTrainium
                              ? "ml.inf2.xlarge"
                              : SameSize(type.text, "g5", {"xlarge", "2xlarge", "4xlarge", "8xlarge",
                                                           "12xlarge", "16xlarge", "24xlarge"},
                                         "xlarge");
    Report r = At(type);
    r.message = w.label + " serves inference on " + type.text +
                ", a training-class instance: it costs several times an inference instance of similar throughput";
    r.suggestion = "use an inference instance such as " + cheaper +
                   " (ml.g4dn, ml.g5, ml.g6 and ml.inf2 are built for inference), or a CPU instance";
    r.cost = CostRequest{type.text, w.instance_count.number().value_or(1),
                         w.kind == WorkloadKind::kEndpointVariant, cheaper};
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
