#include "linter/cost/prices.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "linter/base/embedded.h"
#include "linter/base/files.h"
#include "linter/base/json_shape.h"
#include "linter/cost/offer_file.h"
#include "linter/model/workload_kinds.h"

namespace sagelint {
namespace {

using nlohmann::json;

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

constexpr std::string_view kAcrossKinds = "same price across kinds";

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

std::optional<PriceComponent> ComponentFromName(std::string_view name) {
  for (PriceComponent c : kPriceComponents) {
    if (ComponentName(c) == name) return c;
  }
  return std::nullopt;
}

std::optional<PriceComponent> ComponentFor(WorkloadKind kind) {
  // A workload bills as the kind whose instance list it is checked against.
  std::optional<OfferKind> offer = OfferKindFor(kind);
  if (!offer) return std::nullopt;
  return ComponentFor(*offer);
}

PriceComponent ComponentFor(OfferKind kind) {
  switch (kind) {
    case OfferKind::kNotebook:
      return PriceComponent::kNotebook;
    case OfferKind::kTraining:
      return PriceComponent::kTraining;
    case OfferKind::kProcessing:
      return PriceComponent::kProcessing;
    case OfferKind::kTransform:
      return PriceComponent::kTransform;
    case OfferKind::kEndpoint:
      return PriceComponent::kHosting;
    case OfferKind::kStudioApp:
      return PriceComponent::kStudio;
    case OfferKind::kCluster:
      // No HyperPod figure has been sourced for the built-in table (nor has
      // the offer file's HyperPod component been read): a cluster's groups are
      // priced at the type's training figure, and the cost basis says so.
      return PriceComponent::kTraining;
  }
  return PriceComponent::kTraining;
}

bool AlwaysOn(WorkloadKind kind) { return TraitsOf(kind).always_on; }

std::string PriceFigure::Describe() const {
  std::string out = source;
  if (!date.empty()) out += (out.empty() ? "" : ", ") + date;
  if (!named) out += (out.empty() ? "" : ", ") + std::string(kAcrossKinds);
  return out;
}

bool AlwaysOn(const Workload& w) { return AlwaysOn(w.kind) && !DeletedByWorkflow(w); }

const PriceTable& PriceTable::BuiltIn() {
  static const PriceTable* table = BuiltInFor("us-east-1");
  return *table;
}

const PriceTable* PriceTable::BuiltInFor(std::string_view region) {
  // One table per region, built on first use from the compiled data (a scan
  // uses one region: the others are never touched).
  static std::mutex mu;
  static std::map<std::string, std::unique_ptr<PriceTable>, std::less<>> tables;
  std::lock_guard<std::mutex> lock(mu);
  auto it = tables.find(region);
  if (it != tables.end()) return it->second.get();
  for (const builtin_prices::Region& r : builtin_prices::Regions()) {
    if (r.region != region) continue;
    auto t = std::unique_ptr<PriceTable>(new PriceTable(r));
    return tables.emplace(std::string(region), std::move(t)).first->second.get();
  }
  return nullptr;
}

std::vector<std::string> PriceTable::BuiltInRegions() {
  std::vector<std::string> out;
  for (const builtin_prices::Region& r : builtin_prices::Regions()) out.emplace_back(r.region);
  return out;
}

PriceTable::PriceTable(const builtin_prices::Region& data)
    : data_(&data), region_(data.region), as_of_(data.as_of), label_("built-in price table"), built_in_(true) {
  listing_ = std::make_shared<Listing>();
  listing_->figures.resize(data.figures.size());
  for (const builtin_prices::Source& s : data.sources) {
    sources_.push_back(
        PriceSource{std::string(s.id), std::string(s.label), std::string(s.date), std::string(s.citation)});
  }
}

const std::map<std::pair<std::string, PriceComponent>, PriceFigure, std::less<>>& PriceTable::figures() const {
  if (!data_) return prices_;
  std::call_once(listing_->once, [this] { FillListing(); });
  return listing_->prices;
}

const std::map<std::string, std::vector<std::string>>& PriceTable::unpriced() const {
  if (!data_) return unpriced_by_reason_;
  std::call_once(listing_->once, [this] { FillListing(); });
  return listing_->unpriced;
}

const PriceFigure* PriceTable::FigureAt(size_t i) const {
  // A figure becomes a PriceFigure the first time a rule asks for it: a scan
  // looks up a few types, never the whole table.
  std::lock_guard<std::mutex> lock(listing_->mu);
  std::unique_ptr<PriceFigure>& slot = listing_->figures[i];
  if (!slot) {
    const builtin_prices::Figure& f = data_->figures[i];
    slot = std::make_unique<PriceFigure>(PriceFigure{f.usd, std::string(f.source), std::string(f.date), f.named});
  }
  return slot.get();
}

void PriceTable::FillListing() const {
  for (size_t i = 0; i < data_->figures.size(); ++i) {
    const builtin_prices::Figure& f = data_->figures[i];
    listing_->prices.emplace(std::make_pair(std::string(f.type), f.component), *FigureAt(i));
  }
  for (const builtin_prices::Unpriced& u : data_->unpriced) {
    listing_->unpriced[std::string(u.reason)].emplace_back(u.type);
  }
}

PriceTable PriceTable::FromFigures(std::map<std::pair<std::string, PriceComponent>, double> prices, std::string region,
                                   std::string as_of, std::string source, std::string label) {
  PriceTable t;
  t.region_ = std::move(region);
  t.as_of_ = std::move(as_of);
  t.label_ = std::move(label);
  for (auto& [key, usd] : prices) t.prices_[key] = PriceFigure{usd, source, t.as_of_, true};
  return t;
}

std::optional<PriceTable> PriceTable::Parse(std::string_view text, std::string_view region, std::string label,
                                            std::string* error) {
  if (LooksLikeOfferFile(text)) {
    OfferImport offer;
    std::string why;
    if (!ImportOffer(text, region.empty() ? "us-east-1" : region, &offer, &why)) {
      *error = label + ": " + why;
      return std::nullopt;
    }
    std::string date = offer.published.substr(0, 10);
    return FromFigures(std::move(offer.prices), offer.region, date,
                       "AWS Price List offer file" + (date.empty() ? "" : " published " + date), std::move(label));
  }
  // A price file named by a pull request's configuration is hostile input: its
  // nesting is checked before a tree is built.
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
  if (!doc.contains("prices")) {
    *error = label +
             ": neither a sagelint price table (\"prices\") nor an AWS Price List offer file (JSON \"products\" and "
             "\"terms\", or CSV)";
    return std::nullopt;
  }
  PriceTable t;
  t.label_ = label;
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
  // Sources a figure may name (the built-in table); a plain number is the file's own source and date.
  std::map<std::string, const PriceSource*> by_id;
  if (doc.contains("sources")) {
    if (!doc.at("sources").is_object()) {
      *error = label + ": \"sources\" must be an object";
      return std::nullopt;
    }
    for (const auto& [id, s] : doc.at("sources").items()) {
      t.sources_.push_back(
          PriceSource{id, StringField(s, "label"), StringField(s, "date"), StringField(s, "citation")});
    }
    for (const PriceSource& s : t.sources_) by_id[s.id] = &s;
  }
  std::string file_source = StringField(doc, "source");
  if (file_source.empty()) file_source = label;
  for (const auto& [type, comps] : prices.items()) {
    if (!comps.is_object()) {
      *error = label + ": prices of " + type + " must be an object of component: USD per hour";
      return std::nullopt;
    }
    for (const auto& [comp, value] : comps.items()) {
      auto c = ComponentFromName(comp);
      PriceFigure figure{0, file_source, t.as_of_, true};
      std::optional<double> usd;
      if (value.is_object()) {
        usd = value.contains("usd") ? NumberFrom(value.at("usd")) : std::nullopt;
        std::string basis = StringField(value, "basis");
        figure.named = basis != kAcrossKinds;
        figure.date = StringField(value, "date");
        std::vector<std::string> ids;
        if (value.contains("sources") && value.at("sources").is_array()) {
          for (const auto& id : value.at("sources")) {
            if (!id.is_string() || !by_id.contains(id.get<std::string>())) {
              *error = label + ": price " + type + "." + comp + " names a source not in \"sources\"";
              return std::nullopt;
            }
            ids.push_back(id.get<std::string>());
          }
        }
        if (ids.empty() || (basis != "named" && basis != kAcrossKinds)) {
          *error = label + ": price " + type + "." + comp +
                   " needs \"sources\" and a \"basis\" of \"named\" or \"same price across kinds\"";
          return std::nullopt;
        }
        // The figure is the first source's; the others agree with it.
        figure.source = by_id.at(ids[0])->label;
        for (size_t i = 1; i < ids.size(); ++i) figure.source += (i == 1 ? ", confirmed by " : " and ") + ids[i];
      } else {
        usd = NumberFrom(value);
      }
      if (!c || !usd || *usd < 0) {
        *error = label + ": bad price " + type + "." + comp;
        return std::nullopt;
      }
      figure.usd = *usd;
      t.prices_[{type, *c}] = std::move(figure);
    }
  }
  if (doc.contains("unpriced")) {
    for (const auto& group : doc.at("unpriced")) {
      std::string reason = StringField(group, "reason");
      if (!group.is_object() || reason.empty() || !group.contains("types") || !group.at("types").is_object()) {
        *error = label + ": each \"unpriced\" entry needs a \"reason\" and \"types\"";
        return std::nullopt;
      }
      for (const auto& [type, kinds] : group.at("types").items()) {
        t.unpriced_[type] = reason;
        t.unpriced_by_reason_[reason].push_back(type);
      }
    }
  }
  return t;
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

const PriceFigure* PriceTable::Figure(std::string_view instance_type, PriceComponent c) const {
  if (data_) {
    auto figures = data_->figures;
    auto it =
        std::lower_bound(figures.begin(), figures.end(), std::make_pair(instance_type, c),
                         [](const builtin_prices::Figure& f, const std::pair<std::string_view, PriceComponent>& k) {
                           return f.type != k.first ? f.type < k.first : f.component < k.second;
                         });
    if (it == figures.end() || it->type != instance_type || it->component != c) return nullptr;
    return FigureAt(static_cast<size_t>(it - figures.begin()));
  }
  auto it = prices_.find(std::make_pair(std::string(instance_type), c));
  return it == prices_.end() ? nullptr : &it->second;
}

std::optional<double> PriceTable::Hourly(std::string_view instance_type, PriceComponent c) const {
  const PriceFigure* f = Figure(instance_type, c);
  if (f == nullptr) return std::nullopt;
  return f->usd;
}

const std::string& PriceTable::UnpricedReason(std::string_view instance_type) const {
  static const std::string kNone;
  if (data_) {
    auto list = data_->unpriced;
    auto u = std::lower_bound(list.begin(), list.end(), instance_type,
                              [](const builtin_prices::Unpriced& e, std::string_view t) { return e.type < t; });
    if (u == list.end() || u->type != instance_type) return kNone;
    // The reasons are few: each is turned into a string once.
    static std::mutex mu;
    static std::map<std::string_view, std::string> reasons;
    std::lock_guard<std::mutex> lock(mu);
    auto [r, added] = reasons.try_emplace(u->reason);
    if (added) r->second = std::string(u->reason);
    return r->second;
  }
  auto it = unpriced_.find(instance_type);
  return it == unpriced_.end() ? kNone : it->second;
}

std::string PriceTable::Unpriced(std::string_view instance_type, PriceComponent c) const {
  if (!IsKnownInstanceType(instance_type)) {
    return std::string(instance_type) + " is not an instance type sagelint knows, so it has no price";
  }
  // A type the kind does not offer has no price for it in any table.
  for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                      OfferKind::kEndpoint, OfferKind::kStudioApp}) {
    if (ComponentFor(k) == c && !IsOffered(instance_type, k)) {
      return std::string(instance_type) + " is not offered for " + std::string(OfferKindDescription(k)) +
             ", so it has no " + std::string(ComponentName(c)) + " price";
    }
  }
  std::string out = std::string(instance_type) + " has no " + std::string(ComponentName(c)) + " price in " +
                    (built_in_ ? "the " : "") + Describe();
  const std::string& reason = UnpricedReason(instance_type);
  if (!reason.empty()) out += ": " + reason;
  if (built_in_) out += "; `sagelint prices update --region " + region_ + "` downloads AWS's complete figures";
  return out;
}

std::string PriceTable::Describe() const {
  std::string where = region_ + (as_of_.empty() ? "" : (built_in_ ? ", " : ", as of ") + as_of_);
  return label_ + " (" + where + ")";
}

std::string WorkloadKeyOf(const Finding& f) {
  // A workload is one resource or call: its file, its range and its label
  // (a construct's instances share one finding, so one key).
  return f.root_path + "\n" + f.path + "\n" + std::to_string(f.resource_range.begin.line) + ":" +
         std::to_string(f.resource_range.begin.column) + "\n" + f.resource;
}

std::map<std::string, const Finding*> LargestSavings(const std::vector<Finding>& findings) {
  std::map<std::string, const Finding*> best;
  for (const Finding& f : findings) {
    if (!f.cost || !f.cost->monthly_savings_usd || *f.cost->monthly_savings_usd <= 0) continue;
    const Finding*& b = best[WorkloadKeyOf(f)];
    if (b == nullptr || *f.cost->monthly_savings_usd > *b->cost->monthly_savings_usd) b = &f;
  }
  return best;
}

double AvoidableMonthlyUsd(const std::vector<Finding>& findings) {
  // Two findings on one workload are two ways to save the same money: the largest counts, never the sum.
  double total = 0;
  for (const auto& [key, f] : LargestSavings(findings)) total += RoundCents(*f->cost->monthly_savings_usd);
  return RoundCents(total);
}

double RoundCents(double usd) { return std::round(usd * 100) / 100; }

void CountDeletionAsSaving(CostEstimate* cost) {
  if (!cost->monthly_usd) return;
  cost->monthly_savings_usd = cost->monthly_usd;
  cost->basis += "; deleting the endpoint saves all of it";
}

int UnpricedFindings(const std::vector<Finding>& findings) {
  int n = 0;
  for (const Finding& f : findings) {
    if (f.cost && !f.cost->hourly_usd) ++n;
  }
  return n;
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
  const PriceFigure* figure = prices.Figure(request.instance_type, *component);
  if (figure == nullptr) {
    est.basis = prices.Unpriced(request.instance_type, *component);
    return est;
  }
  double price = figure->usd;
  est.hourly_usd = price * est.count;
  est.price_source = figure->source;
  est.price_date = figure->date;
  std::string basis = comp + " on-demand " + FormatUsd(price) + "/h";
  if (kind == WorkloadKind::kHyperPodCluster) basis = "no HyperPod price sourced, so the " + basis;
  if (est.count > 1) basis += " × " + std::to_string(est.count);
  basis += " (" + figure->Describe() + ")";
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
  basis += " from " + std::string(prices.built_in() ? "the " : "") + prices.Describe();
  if (request.always_on) {
    est.monthly_usd = *est.hourly_usd * kHoursPerMonth;
    basis += "; × 730 h/month while it runs";
  }
  if (!request.cheaper_instance.empty() && request.other_groups.empty()) {
    const PriceFigure* cheaper = prices.Figure(request.cheaper_instance, *component);
    if (cheaper == nullptr) {
      basis += "; no " + comp + " price for " + request.cheaper_instance + ", so no savings figure";
    } else if (cheaper->usd < price) {
      double hourly_saving = (price - cheaper->usd) * est.count;
      std::string at = request.cheaper_instance + " at " + FormatUsd(cheaper->usd) + "/h";
      if (cheaper->source != figure->source || cheaper->date != figure->date) at += " (" + cheaper->Describe() + ")";
      if (request.always_on) {
        est.monthly_savings_usd = hourly_saving * kHoursPerMonth;
        basis += "; savings: the same count of " + at;
      } else {
        basis += "; " + at + " saves " + FormatUsd(hourly_saving) + " per hour of use";
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
