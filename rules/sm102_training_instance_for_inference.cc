// SM102 training-instance-for-inference: a training-class instance (p3, p4d,
// p5, trn1 …) serving a model that an inference-class instance of the same
// accelerator stack holds as well, for at most half the price. What the model
// needs is its accelerator memory, so the suggestion keeps the total; where
// no inference instance holds as much (a 70B model on p4d/p5), or a price is
// unknown, nothing is reported: serving a large model on p4d/p5 is not waste.
#include <cmath>

#include "linter/base/strings.h"
#include "linter/cost/alternatives.h"
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

// "1 × NVIDIA V100, 16 GiB": the accelerators and their memory together.
std::string Accelerators(const InstanceInfo& info) {
  return std::to_string(*info.accelerator_count) + " × " + info.accelerator_name + ", " +
         FormatGib(*info.total_accelerator_memory_gib());
}

}  // namespace

void CheckTrainingInstanceForInference(const Workload& w, const RuleContext& ctx, Sink& sink) {
  if (w.serverless.boolean().value_or(false)) return;
  std::optional<OfferKind> kind = OfferKindFor(w.kind);
  if (!kind) return;
  const PriceTable& prices = Prices(ctx);
  ForEachInstance(w, [&](const InstanceUse& use) {
    if (!use.info.training_class) return;
    for (const std::string& pattern : ctx.List("allowed_types")) {
      if (GlobMatch(pattern, use.type.text)) return;  // hosted on deliberately
    }
    std::optional<PricedInstance> current;
    auto alt = InferenceAlternative(use.type.text, *kind, prices, &current);
    if (!alt || !current) return;
    std::string comp(ComponentName(ComponentFor(*kind)));
    int percent = static_cast<int>(std::lround(100 * alt->price.usd / current->price.usd));
    Report r = At(use.type);
    r.message = w.label + " serves inference on " + use.type.text + " (" + Accelerators(current->info) +
                "), a training-class instance: " + alt->type + " (" + Accelerators(alt->info) +
                ") holds as much accelerator memory for " + std::to_string(percent) + "% of the " + comp + " price (" +
                FormatUsd(alt->price.usd) + "/h against " + FormatUsd(current->price.usd) + "/h)";
    r.suggestion = "use " + alt->type + ", the cheapest inference instance offered for " +
                   std::string(OfferKindDescription(*kind)) + " with at least " +
                   FormatGib(*current->info.total_accelerator_memory_gib()) +
                   " of accelerator memory (check the model's latency on it); if the model needs " + use.type.text +
                   ", list it under allowed_types of SM102";
    r.cost = UseCost(w, use, alt->type);
    SetInstanceTypeFix(r, w, use.type, alt->type, Applicability::kUnsafe);
    sink.Emit(w, std::move(r));
  });
}

}  // namespace sagelint::rules
