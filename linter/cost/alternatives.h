// Cheaper instances that can do the same job, computed from the instance
// catalog, the accelerator table and a price table — never asserted.
#ifndef SAGELINT_LINTER_COST_ALTERNATIVES_H_
#define SAGELINT_LINTER_COST_ALTERNATIVES_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/cost/prices.h"
#include "linter/model/catalog.h"

namespace sagelint {

struct PricedInstance {
  std::string type;
  InstanceInfo info;
  PriceFigure price;
};

// SM102: for a training-class `type` serving `kind` (endpoint variants, batch
// transform), the cheapest inference-class instance of the same accelerator
// stack (NVIDIA GPU -> the NVIDIA inference families; Trainium ->
// Inferentia2) offered for `kind` with at least the same total accelerator
// memory and at most half the hourly price, both from `prices`. nullopt when
// `type` is not training-class, its memory or price is unknown, or no
// instance qualifies (a model that needs 8 × 80 GB has no such alternative).
// `current` receives the type's own price and catalog entry when known.
std::optional<PricedInstance> InferenceAlternative(std::string_view type, OfferKind kind, const PriceTable& prices,
                                                   std::optional<PricedInstance>* current = nullptr);

// The training-class families that InferenceAlternative answers at every size
// offered for `kind` ("ml.p3.*"), sorted: the ones a "no training-class
// instances for inference" guardrail can deny without blocking a model that
// needs them.
std::vector<std::string> TrainingFamiliesWithInferenceAlternative(const PriceTable& prices, OfferKind kind);

// "16 GiB", "89.4 GiB", "22.35 GiB".
std::string FormatGib(double gib);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_ALTERNATIVES_H_
