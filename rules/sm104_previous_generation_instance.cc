// SM104 previous-generation-instance: a current family the workload's kind
// accepts runs the same work at the same or a lower price. The successor keeps
// what the work needs — vCPUs and memory, or for a GPU type vCPUs and
// accelerator memory (host memory of GPU instances is not what the job needs)
// — and the price claim is computed from the price table: when both prices
// are known the successor must cost no more. ml.m4, ml.c4 and ml.p2 are
// reported without a price too (their successors have been cheaper in every
// published SageMaker price list), with no savings figure; ml.t2 only with
// both prices, since its ml.t3 successor costs more (rules/SM104.md).
#include <algorithm>
#include <tuple>

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
    if (!use.info.vcpu || !Memory(use.info)) return;
    const PriceFigure* old_price = prices.Figure(use.type.text, component);
    // ml.t2's successor costs more: only a computed price comparison can recommend it.
    bool needs_prices = use.info.family == "t2";
    if (needs_prices && old_price == nullptr) return;
    // The cheapest priced type of a successor family, offered for this kind
    // (t3 does not host endpoints), with at least the old type's capacity;
    // without any priced one, the smallest such type.
    std::optional<PricedInstance> best;
    std::optional<std::pair<std::string, InstanceInfo>> smallest;
    for (const std::string& t : OfferedTypes(*kind)) {
      auto cand = LookupInstance(t);
      if (!cand || !cand->vcpu || !Memory(*cand) || cand->accelerated() != use.info.accelerated()) continue;
      if (std::find(use.info.successors.begin(), use.info.successors.end(), cand->family) ==
          use.info.successors.end()) {
        continue;
      }
      if (*cand->vcpu < *use.info.vcpu || *Memory(*cand) < *Memory(use.info)) continue;
      if (!smallest || std::make_tuple(*cand->vcpu, *Memory(*cand), t) <
                           std::make_tuple(*smallest->second.vcpu, *Memory(smallest->second), smallest->first)) {
        smallest = std::make_pair(t, *cand);
      }
      const PriceFigure* price = prices.Figure(t, component);
      if (price == nullptr) continue;
      if (best &&
          (price->usd > best->price.usd || (price->usd == best->price.usd && *cand->vcpu >= *best->info.vcpu))) {
        continue;
      }
      best = PricedInstance{t, *cand, *price};
    }
    std::string comp(ComponentName(component));
    std::string successor, relation;
    const InstanceInfo* successor_info = nullptr;
    bool both_priced = best && old_price != nullptr;
    if (both_priced) {
      if (best->price.usd > old_price->usd) return;
      successor = best->type;
      successor_info = &best->info;
      relation = best->price.usd == old_price->usd
                     ? "costs the same " + comp + " price (" + FormatUsd(best->price.usd) + "/h)"
                     : "costs a lower " + comp + " price (" + FormatUsd(best->price.usd) + "/h against " +
                           FormatUsd(old_price->usd) + "/h)";
      relation += " in the price table";
    } else {
      if (needs_prices || !smallest) return;
      // No comparison: the successor's own price where the table has it, and no savings figure.
      successor = best ? best->type : smallest->first;
      successor_info = best ? &best->info : &smallest->second;
      std::string unpriced = old_price == nullptr ? use.type.text : successor;
      relation = best ? "has a " + comp + " price of " + FormatUsd(best->price.usd) + "/h in the price table, where " +
                            unpriced + " has none"
                      : "has no " + comp + " price in the price table";
      if (old_price == nullptr && !best) relation += ", nor has " + use.type.text;
      relation += "; the successor families have cost less in every published SageMaker price list";
    }
    Report r = At(use.type);
    r.message = w.label + " uses " + use.type.text + ", a previous-generation instance: " + successor +
                ", a current-generation successor with at least its capacity (" + Capacity(*successor_info) +
                " against " + Capacity(use.info) + "), " + relation;
    r.suggestion = "switch to " + successor;
    r.cost = UseCost(w, use, both_priced ? successor : std::string());
    SetInstanceTypeFix(r, w, use.type, successor, Applicability::kSafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
