// SM005 instance-type-not-offered: the SageMaker API accepts a different list
// of instance types for each kind of workload (the request's instance type
// enum); a type outside its kind's list fails at the create call, minutes
// into a pipeline or a deploy.
#include <cmath>

#include "linter/cost/prices.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// How far apart two machines are: vCPU and memory ratios, on a log scale.
double Distance(const InstanceInfo& a, const InstanceInfo& b) {
  return std::fabs(std::log(static_cast<double>(*a.vcpu) / *b.vcpu)) +
         std::fabs(std::log(*a.memory_gib / *b.memory_gib));
}

bool SameAcceleration(const InstanceInfo& a, const InstanceInfo& b) {
  if (!a.accelerated() || !b.accelerated()) return a.accelerated() == b.accelerated();
  return a.accelerator == b.accelerator && a.accelerator_count == b.accelerator_count;
}

// The reference price of a type the kind does not sell: its price for the
// workload's component, else its lowest price for any component.
std::optional<double> ReferencePrice(const PriceTable& prices, const std::string& type, PriceComponent component) {
  if (auto p = prices.Hourly(type, component)) return p;
  std::optional<double> low;
  for (PriceComponent c : {PriceComponent::kNotebook, PriceComponent::kStudio, PriceComponent::kTraining,
                           PriceComponent::kProcessing, PriceComponent::kTransform, PriceComponent::kHosting}) {
    if (auto p = prices.Hourly(type, c); p && (!low || *p < *low)) low = p;
  }
  return low;
}

struct Suggestion {
  std::string type;
  std::optional<double> price;      // its price for the workload's component
  std::optional<double> reference;  // the rejected type's reference price
};

// The offered type nearest to `info` in vCPU and memory, with the same
// accelerators (current generations only), preferring one whose price is the
// same or lower than the rejected type's; then the nearest of any price.
Suggestion Nearest(const InstanceInfo& info, const std::string& type, OfferKind kind, PriceComponent component,
                   const PriceTable& prices) {
  Suggestion s;
  s.reference = ReferencePrice(prices, type, component);
  if (!info.vcpu || !info.memory_gib) return s;
  struct Best {
    std::string type;
    double distance = 0;
    std::optional<double> price;
  };
  std::optional<Best> cheaper, any;
  auto better = [](const std::optional<Best>& b, double d, const std::optional<double>& p) {
    if (!b) return true;
    if (std::fabs(d - b->distance) > 1e-9) return d < b->distance;
    if (p && b->price) return *p < *b->price;
    return p.has_value() && !b->price.has_value();
  };
  for (const std::string& t : OfferedTypes(kind)) {
    auto cand = LookupInstance(t);
    // Only current-generation types with a known size are suggested.
    if (!cand || !cand->vcpu || !cand->memory_gib || cand->previous_generation) continue;
    if (!SameAcceleration(info, *cand)) continue;
    double d = Distance(info, *cand);
    auto p = prices.Hourly(t, component);
    if (better(any, d, p)) any = Best{t, d, p};
    if (p && s.reference && *p <= *s.reference && better(cheaper, d, p)) cheaper = Best{t, d, p};
  }
  if (cheaper) {
    s.type = cheaper->type;
    s.price = cheaper->price;
  } else if (any) {
    s.type = any->type;
    s.price = any->price;
  }
  return s;
}

}  // namespace

void CheckInstanceTypeNotOffered(const Workload& w, const RuleContext& ctx, Sink& sink) {
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  std::optional<PriceComponent> component = ComponentFor(w.kind);
  if (!kind || !component) return;
  const PriceTable& prices = Prices(ctx);
  ForEachInstance(w, [&](const InstanceUse& use) {
    // SM004 reports types the catalog does not know; SM005 only judges known ones.
    if (!IsKnownInstanceType(use.type.text) || IsOffered(use.type.text, *kind)) return;
    Suggestion s = Nearest(use.info, use.type.text, *kind, *component, prices);
    Report r = At(use.type);
    r.message = w.label + " uses " + use.type.text +
                (use.group.empty() ? "" : " in instance group '" + use.group + "'") + ", which is not offered for " +
                std::string(OfferKindDescription(*kind)) + ": " + std::string(OfferKindAction(*kind)) + " rejects it";
    if (s.type.empty()) {
      r.suggestion = "choose an instance type the API lists for " + std::string(OfferKindDescription(*kind));
    } else {
      std::string comp(ComponentName(*component));
      std::string price;
      if (s.price && s.reference) {
        price = *s.price < *s.reference ? ", at a lower price (" + FormatUsd(*s.price) + "/h " + comp + " against " +
                                              FormatUsd(*s.reference) + "/h)"
                : *s.price == *s.reference
                    ? ", at the same price (" + FormatUsd(*s.price) + "/h)"
                    : ", at a higher price (" + FormatUsd(*s.price) + "/h " + comp + " against " +
                          FormatUsd(*s.reference) +
                          "/h): no current-generation type of this size offered for them costs the same or less";
      } else if (s.price) {
        price = " (" + FormatUsd(*s.price) + "/h " + comp + ")";
      }
      r.suggestion =
          "use " + s.type + ", the nearest type offered for " + std::string(OfferKindDescription(*kind)) + price;
    }
    r.cost = UseCost(w, use, s.type);
    SetInstanceTypeFix(r, w, use.type, s.type, Applicability::kUnsafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
