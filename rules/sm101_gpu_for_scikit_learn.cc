// SM101 gpu-for-scikit-learn: scikit-learn cannot use an accelerator, so an
// accelerated instance is paid for and idle.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckGpuForScikitLearn(const Workload& w, const RuleContext&, Sink& sink) {
  if (!w.framework.known() || w.framework.text != "sklearn") return;
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.accelerated()) return;
    // A general-purpose CPU instance of the same size, as the workload's kind accepts it.
    std::string cpu = NearestOffered(kind, "m5", SizeOf(use.type.text));
    if (cpu.empty()) cpu = NearestOffered(kind, "c5", SizeOf(use.type.text));
    Report r = At(use.type);
    r.message = w.label + " runs scikit-learn on " + use.type.text + ", an instance with " +
                AcceleratorDisplayName(use.info.accelerator) +
                " accelerators: scikit-learn runs on CPU only, so the accelerators are paid for and never used";
    r.suggestion =
        cpu.empty() ? "use a CPU instance" : "use a CPU instance such as " + cpu + " (or ml.c5 for compute-bound jobs)";
    r.cost = UseCost(w, use, cpu);
    SetInstanceTypeFix(r, w, use.type, cpu, Applicability::kUnsafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
