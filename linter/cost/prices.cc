#include "linter/cost/prices.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "linter/base/embedded.h"
#include "linter/base/files.h"
#include "linter/base/json_shape.h"

namespace sagelint {
namespace {

using nlohmann::json;

constexpr PriceComponent kComponents[] = {PriceComponent::kNotebook,  PriceComponent::kStudio,
                                          PriceComponent::kTraining,  PriceComponent::kProcessing,
                                          PriceComponent::kTransform, PriceComponent::kHosting};

std::optional<PriceComponent> ComponentFromName(std::string_view name) {
  for (PriceComponent c : kComponents) {
    if (ComponentName(c) == name) return c;
  }
  return std::nullopt;
}

// The offer file spells components "Hosting", "Training", "Notebook",
// "Processing", "Batch Transform", "Studio-Notebook"; other components (Data
// Wrangler, RStudio, …) are not instance types our rules price.
std::optional<PriceComponent> ComponentFromOffer(std::string_view name) {
  std::string norm;
  for (char ch : name) {
    if (std::isalnum(static_cast<unsigned char>(ch))) norm += static_cast<char>(std::tolower(ch));
  }
  if (norm == "batchtransform" || norm == "transform") return PriceComponent::kTransform;
  if (norm == "studionotebook" || norm == "studio") return PriceComponent::kStudio;
  return ComponentFromName(norm);
}

std::optional<double> NumberFrom(const json& v) {
  if (v.is_number()) return v.get<double>();
  if (!v.is_string()) return std::nullopt;
  const std::string& s = v.get_ref<const std::string&>();
  char* end = nullptr;
  double d = std::strtod(s.c_str(), &end);
  if (s.empty() || end != s.c_str() + s.size() || !std::isfinite(d)) return std::nullopt;
  return d;
}

std::string StringField(const json& obj, const char* key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool IsHourlyUnit(std::string unit) {
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  return unit.rfind("hr", 0) == 0 || unit.rfind("hour", 0) == 0;
}

// The first hourly USD price among an on-demand term set of one SKU.
std::optional<double> OnDemandHourly(const json& terms_of_sku) {
  if (!terms_of_sku.is_object()) return std::nullopt;
  for (const auto& [term_code, term] : terms_of_sku.items()) {
    auto dims = term.find("priceDimensions");
    if (dims == term.end() || !dims->is_object()) continue;
    for (const auto& [rate_code, dim] : dims->items()) {
      if (!IsHourlyUnit(StringField(dim, "unit"))) continue;
      auto ppu = dim.find("pricePerUnit");
      if (ppu == dim.end() || !ppu->is_object() || !ppu->contains("USD")) continue;
      if (auto usd = NumberFrom(ppu->at("USD")); usd && *usd > 0) return usd;
    }
  }
  return std::nullopt;
}

}  // namespace

std::string_view ComponentName(PriceComponent c) {
  switch (c) {
    case PriceComponent::kNotebook:
      return "notebook";
    case PriceComponent::kStudio:
      return "studio";
    case PriceComponent::kTraining:
      return "training";
    case PriceComponent::kProcessing:
      return "processing";
    case PriceComponent::kTransform:
      return "transform";
    case PriceComponent::kHosting:
      return "hosting";
  }
  return "training";
}

std::optional<PriceComponent> ComponentFor(WorkloadKind kind) {
  switch (kind) {
    case WorkloadKind::kTrainingJob:
    case WorkloadKind::kTuningJob:
      return PriceComponent::kTraining;
    case WorkloadKind::kProcessingJob:
      return PriceComponent::kProcessing;
    case WorkloadKind::kTransformJob:
      return PriceComponent::kTransform;
    case WorkloadKind::kNotebookInstance:
      return PriceComponent::kNotebook;
    case WorkloadKind::kStudioDomain:
    case WorkloadKind::kStudioUserProfile:
    case WorkloadKind::kStudioSpace:
      return PriceComponent::kStudio;
    case WorkloadKind::kEndpointVariant:
      return PriceComponent::kHosting;
    case WorkloadKind::kScalableTarget:
    case WorkloadKind::kLifecycleScript:
    case WorkloadKind::kIamStatement:
      return std::nullopt;
  }
  return std::nullopt;
}

bool AlwaysOn(WorkloadKind kind) {
  auto c = ComponentFor(kind);
  return c == PriceComponent::kHosting || c == PriceComponent::kNotebook || c == PriceComponent::kStudio;
}

const PriceTable& PriceTable::BuiltIn() {
  static const PriceTable* table = [] {
    std::string error;
    auto t = Parse(Embedded("rules/data/prices.json"), "", "built-in price table", &error);
    // The embedded table is checked by tests; an empty table is the safe fallback.
    return new PriceTable(t ? std::move(*t) : PriceTable());
  }();
  return *table;
}

std::optional<PriceTable> PriceTable::Parse(std::string_view text, std::string_view region, std::string label,
                                            std::string* error) {
  // A price file named by a pull request's configuration is hostile input: its
  // nesting is checked before a tree is built (an offer file nests 6 levels).
  std::string why;
  if (!CheckJsonShape(text, 64, false, &why)) {
    *error = label + ": " + why;
    return std::nullopt;
  }
  json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded() || !doc.is_object()) {
    *error = label + ": not a JSON object";
    return std::nullopt;
  }
  PriceTable t;
  if (doc.contains("prices")) {
    const json& prices = doc.at("prices");
    t.region_ = StringField(doc, "region");
    t.as_of_ = StringField(doc, "as_of");
    if (!prices.is_object() || t.region_.empty()) {
      *error = label + ": expected \"region\" and a \"prices\" object";
      return std::nullopt;
    }
    if (!region.empty() && region != t.region_) {
      *error = label + ": prices are for " + t.region_ + ", not " + std::string(region);
      return std::nullopt;
    }
    for (const auto& [type, comps] : prices.items()) {
      if (!comps.is_object()) {
        *error = label + ": prices of " + type + " must be an object of component: USD per hour";
        return std::nullopt;
      }
      for (const auto& [comp, usd] : comps.items()) {
        auto c = ComponentFromName(comp);
        auto v = NumberFrom(usd);
        if (!c || !v || *v < 0) {
          *error = label + ": bad price " + type + "." + comp;
          return std::nullopt;
        }
        t.prices_[{type, *c}] = *v;
      }
    }
    std::string source = StringField(doc, "source");
    t.description_ = label + " (" + (source.empty() ? "" : source + ", ") + t.region_ +
                     (t.as_of_.empty() ? "" : ", as of " + t.as_of_) + ")";
    return t;
  }
  if (doc.contains("products") && doc.contains("terms")) {
    t.region_ = region.empty() ? "us-east-1" : std::string(region);
    t.as_of_ = StringField(doc, "publicationDate");
    const json& products = doc.at("products");
    const json* on_demand = nullptr;
    if (doc.at("terms").is_object() && doc.at("terms").contains("OnDemand")) {
      on_demand = &doc.at("terms").at("OnDemand");
    }
    if (!products.is_object() || on_demand == nullptr || !on_demand->is_object()) {
      *error = label + ": offer file without products or terms.OnDemand";
      return std::nullopt;
    }
    for (const auto& [sku, product] : products.items()) {
      if (StringField(product, "productFamily") != "ML Instance") continue;
      const json& attrs = product.contains("attributes") ? product.at("attributes") : json();
      if (StringField(attrs, "regionCode") != t.region_) continue;
      std::string type = StringField(attrs, "instanceName");
      auto comp = ComponentFromOffer(StringField(attrs, "component"));
      if (type.empty() || !comp || !on_demand->contains(sku)) continue;
      auto usd = OnDemandHourly(on_demand->at(sku));
      // SKUs are visited in sorted order, so a duplicate keeps a stable first price.
      if (usd) t.prices_.try_emplace({type, *comp}, *usd);
    }
    if (t.prices_.empty()) {
      *error = label + ": no ML Instance on-demand hourly prices for region " + t.region_;
      return std::nullopt;
    }
    t.description_ = "AWS Price List offer file " + label + " (" + t.region_ +
                     (t.as_of_.empty() ? "" : ", published " + t.as_of_.substr(0, 10)) + ")";
    return t;
  }
  *error = label +
           ": neither a sagelint price table (\"prices\") nor an AWS Price List offer file (\"products\", \"terms\")";
  return std::nullopt;
}

std::optional<PriceTable> PriceTable::Load(const std::string& path, std::string_view region, std::string* error,
                                           const FileSource& files) {
  std::string text, why;
  if (!files.Read(path, kMaxPriceFileBytes, &text, &why)) {
    *error = path + ": cannot read: " + why;
    return std::nullopt;
  }
  return Parse(text, region, path, error);
}

std::optional<double> PriceTable::Hourly(std::string_view instance_type, PriceComponent c) const {
  auto it = prices_.find(std::make_pair(std::string(instance_type), c));
  if (it == prices_.end()) return std::nullopt;
  return it->second;
}

std::string PriceTable::Describe() const { return description_; }

double AvoidableMonthlyUsd(const std::vector<Finding>& findings) {
  double total = 0;
  for (const Finding& f : findings) {
    if (f.cost && f.cost->monthly_savings_usd) total += *f.cost->monthly_savings_usd;
  }
  return total;
}

std::string FormatUsd(double usd) {
  char buf[64];
  if (std::fabs(usd) < 100) {
    std::snprintf(buf, sizeof buf, "$%.2f", usd);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.0f", std::fabs(usd));
  std::string digits = buf, out;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (usd < 0 ? "-$" : "$") + out;
}

CostEstimate EstimateCost(const CostRequest& request, WorkloadKind kind, const PriceTable& prices) {
  CostEstimate est;
  est.instance_type = request.instance_type;
  est.count = std::max(1, static_cast<int>(std::lround(request.count)));
  auto component = ComponentFor(kind);
  if (!component) {
    est.basis = "no instance price applies to a " + std::string(KindName(kind));
    return est;
  }
  std::string comp(ComponentName(*component));
  auto price = prices.Hourly(request.instance_type, *component);
  if (!price) {
    est.basis = "no " + comp + " price for " + request.instance_type + " in " + prices.Describe();
    return est;
  }
  est.hourly_usd = *price * est.count;
  std::string basis = comp + " on-demand " + FormatUsd(*price) + "/h";
  if (est.count > 1) basis += " × " + std::to_string(est.count);
  // A heterogeneous cluster bills every group; a group without a price is named, not guessed.
  for (const auto& [type, count] : request.other_groups) {
    int n = std::max(1, static_cast<int>(std::lround(count)));
    auto group_price = prices.Hourly(type, *component);
    if (!group_price) {
      basis += " + " + type + " (no " + comp + " price, not counted)";
      continue;
    }
    *est.hourly_usd += *group_price * n;
    basis += " + " + type + " " + FormatUsd(*group_price) + "/h";
    if (n > 1) basis += " × " + std::to_string(n);
  }
  basis += " from " + prices.Describe();
  if (request.always_on) {
    est.monthly_usd = *est.hourly_usd * kHoursPerMonth;
    basis += "; × 730 h/month while it runs";
  }
  if (!request.cheaper_instance.empty() && request.other_groups.empty()) {
    auto cheaper = prices.Hourly(request.cheaper_instance, *component);
    if (!cheaper) {
      basis += "; no " + comp + " price for " + request.cheaper_instance + ", so no savings figure";
    } else if (*cheaper < *price) {
      double hourly_saving = (*price - *cheaper) * est.count;
      if (request.always_on) {
        est.monthly_savings_usd = hourly_saving * kHoursPerMonth;
        basis += "; savings: the same count of " + request.cheaper_instance + " at " + FormatUsd(*cheaper) + "/h";
      } else {
        basis += "; " + request.cheaper_instance + " at " + FormatUsd(*cheaper) + "/h saves " +
                 FormatUsd(hourly_saving) + " per hour of use";
      }
    }
  }
  if (request.spot) {
    basis +=
        "; managed Spot typically saves 60–90% of the on-demand price (AWS quotes up to 90%; "
        "the discount varies by instance type, region and time), here about " +
        FormatUsd(*est.hourly_usd * 0.6) + "–" + FormatUsd(*est.hourly_usd * 0.9) + " per hour of training";
  }
  est.basis = std::move(basis);
  return est;
}

}  // namespace sagelint
