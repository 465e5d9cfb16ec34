// SM104 previous-generation-instance: a current family the workload's kind
// accepts runs the same work at the same or a lower price. The price claim is
// computed from the price table; without both prices, or when the successor
// costs more, the rule says nothing.
#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {

void CheckPreviousGenerationInstance(const Workload& w, const RuleContext& ctx, Sink& sink) {
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  std::optional<PriceComponent> component = ComponentFor(w.kind);
  if (!component) return;
  const PriceTable& prices = Prices(ctx);
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.previous_generation || use.info.successor.empty()) return;
    // The successor of the same size (t2.medium -> t3.medium), or of the
    // nearest size with as many accelerators (p2.xlarge -> g4dn.xlarge), as
    // this kind of workload accepts it: t3 does not host endpoints.
    std::optional<int> accelerators;
    if (use.info.accelerated()) accelerators = use.info.accelerator_count;
    std::string successor = NearestOffered(kind, use.info.successor, SizeOf(use.type.text), accelerators);
    if (successor.empty()) return;
    auto old_price = prices.Hourly(use.type.text, *component);
    auto new_price = prices.Hourly(successor, *component);
    if (!old_price || !new_price || *new_price > *old_price) return;
    std::string comp(ComponentName(*component));
    std::string relation = *new_price == *old_price ? "the same " + comp + " price (" + FormatUsd(*new_price) + "/h)"
                                                    : "a lower " + comp + " price (" + FormatUsd(*new_price) +
                                                          "/h against " + FormatUsd(*old_price) + "/h)";
    Report r = At(use.type);
    r.message = w.label + " uses " + use.type.text + ", a previous-generation instance: " + successor +
                ", its current-generation successor, costs " + relation + " in the price table";
    r.suggestion = "switch to " + successor;
    r.cost = UseCost(w, use, successor);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
