#include "linter/report/prices_report.h"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <vector>

#include "linter/model/catalog.h"

namespace sagelint {
namespace {

constexpr OfferKind kKinds[] = {OfferKind::kNotebook,  OfferKind::kTraining, OfferKind::kProcessing,
                                OfferKind::kTransform, OfferKind::kEndpoint, OfferKind::kStudioApp};

struct KindStats {
  OfferKind kind;
  int offered = 0, named = 0, across = 0;
  std::vector<std::string> unpriced;
  int priced() const { return named + across; }
};

struct SourceStats {
  int named = 0, across = 0;
  std::set<std::string> dates;
};

struct Stats {
  std::vector<KindStats> kinds;
  std::map<std::string, SourceStats> sources;  // by the source each figure is from
  std::string first_date, last_date;
};

Stats Collect(const PriceTable& table) {
  Stats s;
  for (OfferKind k : kKinds) {
    KindStats ks{k, 0, 0, 0, {}};
    PriceComponent c = ComponentFor(k);
    for (const std::string& t : OfferedTypes(k)) {
      ++ks.offered;
      const PriceFigure* f = table.Figure(t, c);
      if (f == nullptr) {
        ks.unpriced.push_back(t);
        continue;
      }
      ++(f->named ? ks.named : ks.across);
      // By the source the figure is from; the sources that confirm it are in the table's citations.
      SourceStats& src = s.sources[f->source.substr(0, f->source.find(", confirmed by "))];
      ++(f->named ? src.named : src.across);
      if (!f->date.empty()) {
        src.dates.insert(f->date);
        if (s.first_date.empty() || f->date < s.first_date) s.first_date = f->date;
        if (f->date > s.last_date) s.last_date = f->date;
      }
    }
    s.kinds.push_back(std::move(ks));
  }
  return s;
}

std::string Dates(const std::set<std::string>& dates) {
  if (dates.empty()) return "undated";
  if (dates.size() == 1) return *dates.begin();
  return *dates.begin() + " to " + *dates.rbegin();
}

std::string Pad(std::string s, size_t width) {
  // Widths count characters; the texts here are ASCII.
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

std::string Num(int n, size_t width) {
  std::string s = std::to_string(n);
  return std::string(s.size() < width ? width - s.size() : 0, ' ') + s;
}

}  // namespace

std::string PricesText(const PriceTable& table) {
  Stats s = Collect(table);
  std::string out = "Prices in use: " + std::string(table.built_in() ? "the " : "") + table.Describe() + "\n";
  if (!s.first_date.empty()) {
    out += "Figures dated " + (s.first_date == s.last_date ? s.first_date : s.first_date + " to " + s.last_date) +
           ", USD per instance-hour, on-demand\n";
  }
  out += "\n" + Pad("kind", 22) + "offered  priced  named  across kinds  unpriced\n";
  for (const KindStats& k : s.kinds) {
    out += Pad(std::string(OfferKindDescription(k.kind)), 22) + Num(k.offered, 7) + Num(k.priced(), 8) +
           Num(k.named, 7) + Num(k.across, 14) + Num(static_cast<int>(k.unpriced.size()), 10) + "\n";
  }
  out +=
      "\n`named`: the source gives the price of that kind; `across kinds`: the type's one price, which SageMaker\n"
      "lists for every kind of current families.\n\nSources (figures named / across kinds, dates):\n";
  for (const auto& [source, src] : s.sources) {
    out += "  " + source + ": " + std::to_string(src.named) + " / " + std::to_string(src.across) + ", " +
           Dates(src.dates) + "\n";
  }
  if (table.built_in() && !table.sources().empty()) {
    out += "\nWhere each source was read:\n";
    for (const PriceSource& p : table.sources()) out += "  " + p.id + " (" + p.date + "): " + p.citation + "\n";
  }
  if (!table.unpriced().empty()) {
    out += "\nOffered types without a price, by reason:\n";
    for (const auto& [reason, types] : table.unpriced()) {
      out += "  " + std::to_string(types.size()) + (types.size() == 1 ? " type: " : " types: ") + reason + "\n    ";
      for (size_t i = 0; i < types.size(); ++i) out += (i ? ", " : "") + types[i];
      out += "\n";
    }
  }
  std::vector<std::string> regions = PriceTable::BuiltInRegions();
  out +=
      "\nBuilt-in tables (" + std::to_string(regions.size()) + " regions, select one with --region or `region:`):\n ";
  size_t col = 1;
  for (const std::string& r : regions) {
    if (col + r.size() + 1 > 100) {
      out += "\n ";
      col = 1;
    }
    out += " " + r;
    col += r.size() + 1;
  }
  out +=
      "\n\nFor exact and complete figures, `sagelint prices update --region R` downloads AWS's offer file for\n"
      "AmazonSageMaker into the user cache, where later scans of that region find it; `sagelint prices import\n"
      "OFFER [--region R] [-o FILE]` converts a downloaded one for `prices:` in .sagelint.yaml or --prices.\n";
  return out;
}

std::string PricesJson(const PriceTable& table) {
  using json = nlohmann::ordered_json;
  Stats s = Collect(table);
  json kinds = json::array();
  for (const KindStats& k : s.kinds) {
    kinds.push_back({{"kind", OfferKindDescription(k.kind)},
                     {"component", ComponentName(ComponentFor(k.kind))},
                     {"offered", k.offered},
                     {"priced", k.priced()},
                     {"named", k.named},
                     {"across_kinds", k.across},
                     {"unpriced", k.unpriced}});
  }
  json sources = json::array();
  for (const auto& [source, src] : s.sources) {
    sources.push_back({{"source", source},
                       {"named", src.named},
                       {"across_kinds", src.across},
                       {"dates", std::vector<std::string>(src.dates.begin(), src.dates.end())}});
  }
  json reasons = json::array();
  for (const auto& [reason, types] : table.unpriced()) reasons.push_back({{"reason", reason}, {"types", types}});
  json doc = {{"schema_version", 1},      {"table", table.Describe()},  {"built_in", table.built_in()},
              {"region", table.region()}, {"as_of", table.as_of()},     {"kinds", kinds},
              {"sources", sources},       {"unpriced_reasons", reasons}};
  doc["built_in_regions"] = PriceTable::BuiltInRegions();
  return doc.dump(2, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace sagelint
