// SM104 previous-generation-instance: the current family is faster and costs
// the same or less.
#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckPreviousGenerationInstance(const Workload& w, const RuleContext&, Sink& sink) {
  ForEachInstance(w, [&](const Val& type, const InstanceInfo& info) {
    if (!info.previous_generation || info.successor.empty()) return;
    // The successor of a same-size type: t2.medium -> t3.medium; p2.xlarge -> g4dn.xlarge.
    std::string size = type.text.substr(type.text.rfind('.') + 1);
    std::string successor = "ml." + info.successor + "." + size;
    if (!LookupInstance(successor)) successor = "ml." + info.successor + ".xlarge";
    Report r = At(type);
    r.message = w.label + " uses " + type.text + ", a previous-generation instance: " + successor +
                " is faster for the same or a lower price";
    r.suggestion = "switch to " + successor;
    r.cost = CostRequest{type.text, w.instance_count.number().value_or(1), AlwaysOn(w.kind), successor};
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
