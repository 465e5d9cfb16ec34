// SM104 previous-generation-instance: a current family the workload's kind
// accepts runs the same work at the same or a lower price. The successor keeps
// what the work needs — vCPUs and memory, or for a GPU type vCPUs and
// accelerator memory (host memory of GPU instances is not what the job needs)
// — and the price claim is computed from the price table: without both
// prices, or when the successor costs more, the rule says nothing.
#include <algorithm>

#include "linter/cost/alternatives.h"
#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// The memory a successor must keep: accelerator memory for accelerated types, else host memory.
std::optional<double> Memory(const InstanceInfo& info) {
  return info.accelerated() ? info.total_accelerator_memory_gib() : info.memory_gib;
}

std::string Capacity(const InstanceInfo& info) {
  return std::to_string(*info.vcpu) + " vCPUs, " + FormatGib(*Memory(info)) +
         (info.accelerated() ? " of accelerator memory" : " of memory");
}

}  // namespace

void CheckPreviousGenerationInstance(const Workload& w, const RuleContext& ctx, Sink& sink) {
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  if (!kind) return;
  PriceComponent component = ComponentFor(*kind);
  const PriceTable& prices = Prices(ctx);
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.previous_generation || use.info.successors.empty()) return;
    const PriceFigure* old_price = prices.Figure(use.type.text, component);
    if (old_price == nullptr || !use.info.vcpu || !Memory(use.info)) return;
    // The cheapest type of a successor family, offered for this kind (t3
    // does not host endpoints), with at least the old type's capacity.
    std::optional<PricedInstance> best;
    for (const std::string& t : OfferedTypes(*kind)) {
      auto cand = LookupInstance(t);
      if (!cand || !cand->vcpu || !Memory(*cand) || cand->accelerated() != use.info.accelerated()) continue;
      if (std::find(use.info.successors.begin(), use.info.successors.end(), cand->family) ==
          use.info.successors.end()) {
        continue;
      }
      if (*cand->vcpu < *use.info.vcpu || *Memory(*cand) < *Memory(use.info)) continue;
      const PriceFigure* price = prices.Figure(t, component);
      if (price == nullptr) continue;
      if (best &&
          (price->usd > best->price.usd || (price->usd == best->price.usd && *cand->vcpu >= *best->info.vcpu))) {
        continue;
      }
      best = PricedInstance{t, *cand, *price};
    }
    if (!best || best->price.usd > old_price->usd) return;
    std::string comp(ComponentName(component));
    std::string relation = best->price.usd == old_price->usd
                               ? "the same " + comp + " price (" + FormatUsd(best->price.usd) + "/h)"
                               : "a lower " + comp + " price (" + FormatUsd(best->price.usd) + "/h against " +
                                     FormatUsd(old_price->usd) + "/h)";
    Report r = At(use.type);
    r.message = w.label + " uses " + use.type.text + ", a previous-generation instance: " + best->type +
                ", a current-generation successor with at least its capacity (" + Capacity(best->info) + " against " +
                Capacity(use.info) + "), costs " + relation + " in the price table";
    r.suggestion = "switch to " + best->type;
    r.cost = UseCost(w, use, best->type);
    r.fix = InstanceTypeFix(use.type, best->type, Applicability::kSafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
