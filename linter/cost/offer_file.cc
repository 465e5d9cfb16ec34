#include "linter/cost/offer_file.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "linter/base/json_shape.h"

namespace sagelint {
namespace {

using nlohmann::json;

// Lower-case letters and digits only: "Region Code", "regionCode" and
// "region_code" are one name; so are "Studio-Notebook" and "Studio Notebook".
std::string Norm(std::string_view s) {
  std::string out;
  for (char ch : s) {
    if (std::isalnum(static_cast<unsigned char>(ch))) out += static_cast<char>(std::tolower(ch));
  }
  return out;
}

bool ContainsWord(std::string_view text, std::string_view word) { return Norm(text).find(word) != std::string::npos; }

// The one table from the file's component names (and usage type words) to
// the components sagelint prices. Names are compared normalised (Norm).
struct ComponentAlias {
  std::string_view name;
  PriceComponent component;
};
constexpr ComponentAlias kComponents[] = {
    {"notebook", PriceComponent::kNotebook},
    {"notebookinstance", PriceComponent::kNotebook},
    {"notebk", PriceComponent::kNotebook},
    {"studio", PriceComponent::kStudio},
    {"studionotebook", PriceComponent::kStudio},
    {"studiojupyterlab", PriceComponent::kStudio},
    {"jupyterlab", PriceComponent::kStudio},
    {"studiocodeeditor", PriceComponent::kStudio},
    {"codeeditor", PriceComponent::kStudio},
    {"training", PriceComponent::kTraining},
    {"train", PriceComponent::kTraining},
    {"processing", PriceComponent::kProcessing},
    {"batchtransform", PriceComponent::kTransform},
    {"transform", PriceComponent::kTransform},
    {"hosting", PriceComponent::kHosting},
    {"host", PriceComponent::kHosting},
    {"realtimeinference", PriceComponent::kHosting},
};

// An `ml.<family>.<size>` name at `pos` of `text` ("ml.m5.large-Hosting" -> "ml.m5.large").
std::string MlNameAt(std::string_view text, size_t pos) {
  if (text.substr(pos, 3) != "ml.") return {};
  size_t i = pos + 3, family_start = i;
  while (i < text.size() && (std::isalnum(static_cast<unsigned char>(text[i])) || text[i] == '-')) ++i;
  if (i == family_start || i >= text.size() || text[i] != '.') return {};
  size_t size_start = ++i;
  while (i < text.size() && std::isalnum(static_cast<unsigned char>(text[i]))) ++i;
  if (i == size_start) return {};
  return std::string(text.substr(pos, i - pos));
}

// The instance type of a row: instanceName, else the name instanceType starts
// with, else the `ml.…` token of the usage type.
std::string InstanceTypeOf(std::string_view instance_name, std::string_view instance_type, std::string_view usage) {
  if (std::string t = MlNameAt(instance_name, 0); !t.empty() && t.size() == instance_name.size()) return t;
  if (std::string t = MlNameAt(instance_type, 0); !t.empty()) return t;
  for (size_t pos = usage.find("ml."); pos != std::string_view::npos; pos = usage.find("ml.", pos + 1)) {
    bool starts_token = pos == 0 || !std::isalnum(static_cast<unsigned char>(usage[pos - 1]));
    if (std::string t = MlNameAt(usage, pos); starts_token && !t.empty()) return t;
  }
  return {};
}

// The usage type's word after the region prefix: "USE1-Host:ml.m5.large" -> "Host".
std::string UsageWord(std::string_view usage) {
  size_t colon = usage.find(':');
  std::string_view head = usage.substr(0, colon);
  size_t dash = head.find('-');
  return std::string(dash == std::string_view::npos ? head : head.substr(dash + 1));
}

bool IsHourlyUnit(std::string_view unit) {
  std::string u = Norm(unit);
  return u.rfind("hr", 0) == 0 || u.rfind("hour", 0) == 0;
}

// No SageMaker instance costs anywhere near this per hour: a larger figure is
// a broken file (a price in cents, a misplaced column), not a price.
constexpr double kMaxHourlyUsd = 10000;

// A price as the offer file writes it: a plain decimal number of USD
// ("0.2300000000"). Hexadecimal ("0x10"), signs ("-0", "+1"), exponents,
// "inf"/"nan" and figures above kMaxHourlyUsd are not prices.
std::optional<double> Number(std::string_view s) {
  size_t digits = 0, dots = 0;
  for (char c : s) {
    if (c >= '0' && c <= '9') {
      ++digits;
    } else if (c == '.') {
      ++dots;
    } else {
      return std::nullopt;
    }
  }
  if (digits == 0 || dots > 1) return std::nullopt;
  std::string text(s);
  double d = std::strtod(text.c_str(), nullptr);
  if (!std::isfinite(d) || d > kMaxHourlyUsd) return std::nullopt;
  return d;
}

// One price row as the two formats give it.
struct Row {
  std::string family, region, component, usage, operation, instance_name, instance_type, term, unit, currency;
  std::optional<double> price;
  std::string price_text;  // as the file writes it, when it is not a price (for the error)
  std::string where;       // "line 12", "product ABCD1234" (for the error)
};

constexpr std::string_view kSpot = "Spot and managed Spot training";
constexpr std::string_view kNotOnDemand = "savings plans, reserved and other non-on-demand terms";
constexpr std::string_view kOtherFamily = "other product families (storage, data processing, …)";
constexpr std::string_view kOtherRegion = "other regions";
constexpr std::string_view kNoRegion = "no region code";
constexpr std::string_view kNotHourly = "not priced per instance-hour in USD";
constexpr std::string_view kNoType = "no ml.* instance type";
constexpr std::string_view kUnmapped = "components that are not an instance kind sagelint prices";
constexpr std::string_view kDuplicate = "a second price for the same type and kind (the first is kept)";

class Importer {
 public:
  Importer(std::string_view region, OfferImport* out) : region_(region), out_(out) {}

  // Every row of the file passes here once, in file order.
  void Add(const Row& r) {
    ++out_->rows;
    if (Norm(r.family) != "mlinstance") {
      Skip(kOtherFamily);
      ++out_->other_families[r.family.empty() ? "(none)" : r.family];
      return;
    }
    if (!r.price && !r.price_text.empty() && error_.empty()) {
      // A broken figure is never skipped silently: the import fails naming the row.
      error_ = r.where + ": \"" + r.price_text.substr(0, 40) +
               "\" is not a price (a plain decimal number of USD, at most " + std::to_string(int(kMaxHourlyUsd)) +
               " per hour)";
    }
    if (ContainsWord(r.usage, "spot") || ContainsWord(r.component, "spot") || ContainsWord(r.operation, "spot") ||
        ContainsWord(r.instance_type, "spot")) {
      Skip(kSpot);
      return;
    }
    if (!r.term.empty() && Norm(r.term) != "ondemand") {
      Skip(kNotOnDemand);
      return;
    }
    if (ContainsWord(r.usage, "savingsplan") || ContainsWord(r.component, "savingsplan")) {
      Skip(kNotOnDemand);
      return;
    }
    if (r.region.empty()) {
      Skip(kNoRegion);
      return;
    }
    if (!r.price || !IsHourlyUnit(r.unit) || (!r.currency.empty() && Norm(r.currency) != "usd")) {
      Skip(kNotHourly);
      return;
    }
    out_->regions.insert(r.region);
    rows_.push_back(r);
  }

  // Imports the rows of the chosen region.
  bool Finish(std::string* error) {
    if (!error_.empty()) {
      *error = error_;
      return false;
    }
    std::string region(region_);
    if (region.empty()) {
      if (out_->regions.size() != 1) {
        *error = out_->regions.empty() ? "no on-demand ML instance-hour prices in the file"
                                       : "the file holds prices for " + std::to_string(out_->regions.size()) +
                                             " regions (" + RegionList() + "): choose one with --region";
        return false;
      }
      region = *out_->regions.begin();
    }
    out_->region = region;
    for (const Row& r : rows_) {
      if (r.region != region) {
        Skip(kOtherRegion);
        continue;
      }
      std::string type = InstanceTypeOf(r.instance_name, r.instance_type, r.usage);
      if (type.empty()) {
        Skip(kNoType);
        continue;
      }
      std::string name = r.component.empty() ? UsageWord(r.usage) : r.component;
      auto component = ComponentFromOffer(name);
      if (!component && !r.component.empty()) component = ComponentFromOffer(UsageWord(r.usage));
      if (!component) {
        Skip(kUnmapped);
        ++out_->unmapped_components[name.empty() ? "(none)" : name];
        continue;
      }
      if (!out_->prices.try_emplace({type, *component}, *r.price).second) Skip(kDuplicate);
    }
    if (out_->prices.empty()) {
      *error = "no on-demand ML instance-hour prices for region " + region +
               (out_->regions.empty() ? "" : " (the file has them for " + RegionList() + ")");
      return false;
    }
    return true;
  }

 private:
  void Skip(std::string_view why) { ++out_->skipped[std::string(why)]; }

  std::string RegionList() const {
    std::string list;
    size_t shown = 0;
    for (const std::string& r : out_->regions) {
      if (shown == 8) {
        list += ", …";
        break;
      }
      list += (shown++ ? ", " : "") + r;
    }
    return list;
  }

  std::string_view region_;
  OfferImport* out_;
  std::vector<Row> rows_;
  std::string error_;  // the first price that is not one
};

std::string Str(const json& obj, const char* key) {
  if (!obj.is_object()) return {};
  auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool ImportJson(const json& doc, Importer& importer, OfferImport* out, std::string* error) {
  const json& products = doc.at("products");
  const json& terms = doc.at("terms");
  if (!products.is_object() || !terms.is_object()) {
    *error = "\"products\" and \"terms\" must be objects";
    return false;
  }
  out->published = Str(doc, "publicationDate");
  out->version = Str(doc, "version");
  const json* on_demand =
      terms.contains("OnDemand") && terms.at("OnDemand").is_object() ? &terms.at("OnDemand") : nullptr;
  // Products priced only under other terms (savings plans, reserved).
  auto other_terms = [&](const std::string& sku) {
    for (const auto& [name, set] : terms.items()) {
      if (name != "OnDemand" && set.is_object() && set.contains(sku)) return true;
    }
    return false;
  };
  for (const auto& [sku, product] : products.items()) {
    const json& attrs = product.is_object() && product.contains("attributes") ? product.at("attributes") : json();
    Row base;
    base.family = Str(product, "productFamily");
    base.region = Str(attrs, "regionCode");
    base.component = Str(attrs, "component");
    base.usage = Str(attrs, "usagetype");
    base.operation = Str(attrs, "operation");
    base.instance_name = Str(attrs, "instanceName");
    base.instance_type = Str(attrs, "instanceType");
    const json* sku_terms = on_demand && on_demand->contains(sku) ? &on_demand->at(sku) : nullptr;
    if (sku_terms == nullptr || !sku_terms->is_object()) {
      Row r = base;
      r.term = other_terms(sku) ? "other" : "";
      importer.Add(r);  // counted as the family, Spot, or a term that is not on-demand
      continue;
    }
    // One row per price dimension, as the CSV has them.
    bool any = false;
    for (const auto& [term_code, term] : sku_terms->items()) {
      const json* dims = term.is_object() && term.contains("priceDimensions") ? &term.at("priceDimensions") : nullptr;
      if (dims == nullptr || !dims->is_object()) continue;
      for (const auto& [rate, dim] : dims->items()) {
        Row r = base;
        r.term = "OnDemand";
        r.unit = Str(dim, "unit");
        const json& ppu = dim.is_object() && dim.contains("pricePerUnit") ? dim.at("pricePerUnit") : json();
        if (ppu.is_object() && ppu.contains("USD")) {
          const json& usd = ppu.at("USD");
          r.currency = "USD";
          r.price_text = usd.is_string() ? usd.get<std::string>() : usd.dump();
          r.price = Number(r.price_text);
          r.where = "product " + sku;
        }
        importer.Add(r);
        any = true;
      }
    }
    if (!any) importer.Add(base);  // an on-demand term without a price: not hourly
  }
  return importer.Finish(error);
}

// RFC 4180 fields of one record starting at `*pos`; advances past its line end.
std::vector<std::string> CsvRecord(std::string_view text, size_t* pos) {
  std::vector<std::string> fields;
  std::string field;
  bool quoted = false, at_start = true;
  size_t i = *pos;
  for (; i < text.size(); ++i) {
    char c = text[i];
    if (quoted) {
      if (c == '"') {
        if (i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else {
          quoted = false;
        }
      } else {
        field += c;
      }
      continue;
    }
    if (c == '"' && at_start) {
      quoted = true;
      at_start = false;
    } else if (c == ',') {
      fields.push_back(std::move(field));
      field.clear();
      at_start = true;
    } else if (c == '\n' || c == '\r') {
      if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
      ++i;
      break;
    } else {
      field += c;
      at_start = false;
    }
  }
  fields.push_back(std::move(field));
  *pos = i;
  return fields;
}

bool IsCsvHeader(const std::vector<std::string>& fields) {
  bool sku = false, price = false;
  for (const std::string& f : fields) {
    sku = sku || Norm(f) == "sku";
    price = price || Norm(f) == "priceperunit";
  }
  return sku && price;
}

bool ImportCsv(std::string_view text, Importer& importer, OfferImport* out, std::string* error) {
  size_t pos = 0;
  if (text.substr(0, 3) == "\xEF\xBB\xBF") pos = 3;
  std::vector<std::string> header;
  // Metadata rows ("Publication Date","2025-03-01T00:00:00Z") come before the header.
  while (pos < text.size()) {
    std::vector<std::string> fields = CsvRecord(text, &pos);
    if (IsCsvHeader(fields)) {
      header = std::move(fields);
      break;
    }
    if (fields.size() >= 2) {
      std::string key = Norm(fields[0]);
      if (key == "publicationdate") out->published = fields[1];
      if (key == "version") out->version = fields[1];
    }
  }
  if (header.empty()) {
    *error = "no header row with SKU and PricePerUnit columns";
    return false;
  }
  std::map<std::string, size_t> column;
  for (size_t i = 0; i < header.size(); ++i) column.try_emplace(Norm(header[i]), i);
  auto index = [&](std::initializer_list<std::string_view> names) -> std::optional<size_t> {
    for (std::string_view n : names) {
      if (auto it = column.find(std::string(n)); it != column.end()) return it->second;
    }
    return std::nullopt;
  };
  auto c_family = index({"productfamily"}), c_region = index({"regioncode"}), c_component = index({"component"});
  auto c_usage = index({"usagetype"}), c_operation = index({"operation"}), c_name = index({"instancename"});
  auto c_type = index({"instancetype"}), c_term = index({"termtype"}), c_unit = index({"unit"});
  auto c_currency = index({"currency"}), c_price = index({"priceperunit"});
  if (!c_region) {
    *error = "no Region Code column";
    return false;
  }
  auto get = [](const std::vector<std::string>& f, std::optional<size_t> c) -> std::string {
    return c && *c < f.size() ? f[*c] : std::string();
  };
  // The line a record starts on, for errors (a quoted field may span lines).
  size_t line =
      1 + static_cast<size_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
  while (pos < text.size()) {
    size_t start = pos;
    std::vector<std::string> f = CsvRecord(text, &pos);
    size_t record_line = line;
    line += static_cast<size_t>(std::count(text.begin() + static_cast<std::ptrdiff_t>(start),
                                           text.begin() + static_cast<std::ptrdiff_t>(pos), '\n'));
    if (f.size() == 1 && f[0].empty()) continue;  // a blank line
    Row r;
    r.family = get(f, c_family);
    r.region = get(f, c_region);
    r.component = get(f, c_component);
    r.usage = get(f, c_usage);
    r.operation = get(f, c_operation);
    r.instance_name = get(f, c_name);
    r.instance_type = get(f, c_type);
    r.term = get(f, c_term);
    r.unit = get(f, c_unit);
    r.currency = get(f, c_currency);
    r.price_text = get(f, c_price);
    r.price = Number(r.price_text);
    r.where = "line " + std::to_string(record_line);
    importer.Add(r);
  }
  return importer.Finish(error);
}

}  // namespace

std::optional<PriceComponent> ComponentFromOffer(std::string_view name) {
  std::string n = Norm(name);
  for (const ComponentAlias& c : kComponents) {
    if (c.name == n) return c.component;
  }
  return std::nullopt;
}

bool LooksLikeOfferFile(std::string_view text) {
  size_t start = text.substr(0, 3) == "\xEF\xBB\xBF" ? 3 : 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  if (start < text.size() && text[start] == '{') {
    // Our format has "prices"; the offer file "products" and "terms" (read whole only when it is one).
    std::string_view head = text.substr(0, 4096);
    return head.find("\"products\"") != std::string_view::npos ||
           (head.find("\"offerCode\"") != std::string_view::npos && head.find("\"prices\"") == std::string_view::npos);
  }
  // CSV: a header with SKU and PricePerUnit among the first lines.
  size_t pos = start;
  for (int line = 0; line < 20 && pos < text.size(); ++line) {
    if (IsCsvHeader(CsvRecord(text, &pos))) return true;
  }
  return false;
}

bool ImportOffer(std::string_view text, std::string_view region, OfferImport* out, std::string* error) {
  *out = OfferImport{};
  Importer importer(region, out);
  size_t start = 0;
  while (start < text.size() && std::isspace(static_cast<unsigned char>(text[start]))) ++start;
  if (start < text.size() && text[start] == '{') {
    out->format = "JSON";
    // An offer file nests six levels; a hostile one is refused before a tree is built.
    if (!CheckJsonShape(text, 64, false, error)) return false;
    json doc = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (doc.is_discarded() || !doc.is_object()) {
      *error = "not valid JSON";
      return false;
    }
    std::string offer = Str(doc, "offerCode");
    if (!offer.empty() && offer != "AmazonSageMaker") {
      *error = "an offer file for " + offer + ", not AmazonSageMaker";
      return false;
    }
    if (!doc.contains("products") || !doc.contains("terms")) {
      *error = "an offer file without \"products\" and \"terms\"";
      return false;
    }
    return ImportJson(doc, importer, out, error);
  }
  out->format = "CSV";
  return ImportCsv(text, importer, out, error);
}

std::string CompactTable(const OfferImport& offer, std::string_view file_name) {
  using ordered = nlohmann::ordered_json;
  std::string source = "AWS Price List offer file " + std::string(file_name) + " (AmazonSageMaker";
  if (!offer.published.empty()) source += ", published " + offer.published;
  if (!offer.version.empty()) source += ", version " + offer.version;
  source += ")";
  // An ordered object looks keys up one by one: each type's object is built
  // apart and appended once (the map is sorted by type), so the table is
  // written in time linear in the number of types.
  ordered prices = ordered::object();
  ordered type_prices = ordered::object();
  std::string current;
  auto flush = [&] {
    if (!current.empty()) prices.emplace(current, std::move(type_prices));
    type_prices = ordered::object();
  };
  for (const auto& [key, usd] : offer.prices) {
    if (key.first != current) {
      flush();
      current = key.first;
    }
    type_prices.emplace(std::string(ComponentName(key.second)), usd);
  }
  flush();
  ordered doc = {{"source", source},
                 {"as_of", offer.published.substr(0, 10)},
                 {"region", offer.region},
                 {"currency", "USD"},
                 {"prices", prices}};
  return doc.dump(1, ' ', false, ordered::error_handler_t::replace) + "\n";
}

std::vector<std::string> OfferImport::Report() const {
  std::vector<std::string> lines;
  std::set<std::string> types;
  for (const auto& [key, usd] : prices) types.insert(key.first);
  lines.push_back("imported " + std::to_string(prices.size()) + " prices of " + std::to_string(types.size()) +
                  " instance types for " + region + " from " + std::to_string(rows) + " " +
                  (format == "CSV" ? "rows" : "price rows") + " (" + format +
                  (published.empty() ? "" : ", published " + published) + ")");
  for (const auto& [why, n] : skipped) {
    std::string line = "skipped " + std::to_string(n) + (n == 1 ? " row: " : " rows: ") + why;
    const std::map<std::string, size_t>* detail = why == kOtherFamily ? &other_families
                                                  : why == kUnmapped  ? &unmapped_components
                                                                      : nullptr;
    if (detail != nullptr) {
      std::string list;
      for (const auto& [name, count] : *detail) list += (list.empty() ? "" : ", ") + name + " " + std::to_string(count);
      line += " (" + list + ")";
    }
    lines.push_back(line);
  }
  return lines;
}

}  // namespace sagelint
