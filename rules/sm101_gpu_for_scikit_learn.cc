// SM101 gpu-for-scikit-learn: scikit-learn cannot use an accelerator, so an
// accelerated instance is paid for and idle.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckGpuForScikitLearn(const Workload& w, const RuleContext&, Sink& sink) {
  if (!w.framework.known() || w.framework.text != "sklearn") return;
  ForEachInstance(w, [&](const Val& type, const InstanceInfo& info) {
    if (!info.accelerated()) return;
    std::string cpu = SameSize(type.text, "m5", {"large", "xlarge", "2xlarge", "4xlarge", "12xlarge", "24xlarge"},
                               "xlarge");
    Report r = At(type);
    r.message = w.label + " runs scikit-learn on " + type.text + ", an instance with " +
                AcceleratorDisplayName(info.accelerator) +
                " accelerators: scikit-learn runs on CPU only, so the accelerators are paid for and never used";
    r.suggestion = "use a CPU instance such as " + cpu + " (or ml.c5 for compute-bound jobs)";
    r.cost = CostRequest{type.text, w.instance_count.number().value_or(1),
                         w.kind == WorkloadKind::kEndpointVariant, cpu};
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
