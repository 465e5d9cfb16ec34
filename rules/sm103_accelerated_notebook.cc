// SM103 accelerated-notebook: interactive instances sit idle most of the time;
// an accelerated one bills GPU prices for typing and reading.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckAcceleratedNotebook(const Workload& w, const RuleContext&, Sink& sink) {
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  std::string cpu = FirstOffered(kind, {"ml.t3.medium", "ml.m5.large", "ml.m5.xlarge"});
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.accelerated()) return;
    Report r = At(use.type);
    r.message = w.label + " uses " + use.type.text +
                " for interactive work: an accelerated instance bills its full price while it sits idle";
    r.suggestion = "use a CPU instance" + (cpu.empty() ? std::string() : " such as " + cpu) +
                   " for the notebook and run GPU work as training or processing jobs";
    r.cost = UseCost(w, use, cpu);
    SetInstanceTypeFix(r, w, use.type, cpu, Applicability::kUnsafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
