#include "linter/cost/alternatives.h"

#include <cmath>
#include <cstdio>
#include <set>

namespace sagelint {
namespace {

// Whether an inference-class instance runs what `from` runs: the same
// accelerator software stack.
bool SameStack(const InstanceInfo& from, const InstanceInfo& to) {
  if (!to.inference_class) return false;
  switch (from.accelerator) {
    case Accelerator::kGpu:
      return to.accelerator == Accelerator::kGpu;
    case Accelerator::kTrainium:
      // Trainium and Inferentia2 share the Neuron SDK (Inferentia1 does not).
      return to.family == "inf2";
    default:
      return false;
  }
}

}  // namespace

std::optional<PricedInstance> InferenceAlternative(std::string_view type, OfferKind kind, const PriceTable& prices,
                                                   std::optional<PricedInstance>* current) {
  auto info = LookupInstance(type);
  if (!info || !info->training_class) return std::nullopt;
  PriceComponent component = ComponentFor(kind);
  const PriceFigure* price = prices.Figure(type, component);
  if (current != nullptr && price != nullptr) *current = PricedInstance{std::string(type), *info, *price};
  auto memory = info->total_accelerator_memory_gib();
  if (price == nullptr || !memory) return std::nullopt;
  std::optional<PricedInstance> best;
  for (const std::string& t : OfferedTypes(kind)) {
    auto cand = LookupInstance(t);
    if (!cand || !SameStack(*info, *cand)) continue;
    auto cand_memory = cand->total_accelerator_memory_gib();
    const PriceFigure* cand_price = prices.Figure(t, component);
    if (!cand_memory || *cand_memory < *memory || cand_price == nullptr) continue;
    if (cand_price->usd > price->usd / 2) continue;
    if (best && (cand_price->usd > best->price.usd ||
                 (cand_price->usd == best->price.usd && *cand_memory >= *best->info.total_accelerator_memory_gib()))) {
      continue;
    }
    best = PricedInstance{t, *cand, *cand_price};
  }
  return best;
}

std::vector<std::string> TrainingFamiliesWithInferenceAlternative(const PriceTable& prices, OfferKind kind) {
  std::set<std::string> answered, unanswered;
  for (const std::string& t : OfferedTypes(kind)) {
    auto info = LookupInstance(t);
    if (!info || !info->training_class) continue;
    (InferenceAlternative(t, kind, prices) ? answered : unanswered).insert(info->family);
  }
  std::vector<std::string> out;
  for (const std::string& f : answered) {
    if (!unanswered.contains(f)) out.push_back("ml." + f + ".*");
  }
  return out;
}

std::string FormatGib(double gib) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f", gib);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s + " GiB";
}

}  // namespace sagelint
