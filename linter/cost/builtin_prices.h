// The built-in price tables as constant data, one per region
// (rules/data/prices.json for us-east-1, rules/data/prices-<region>.json for
// the others), compiled in by scripts/price_table_cc.py so that a scan reads
// only its own region's table and parses no JSON for it (docs/cost-data.md).
#ifndef SAGELINT_LINTER_COST_BUILTIN_PRICES_H_
#define SAGELINT_LINTER_COST_BUILTIN_PRICES_H_

#include <cstdint>
#include <span>
#include <string_view>

namespace sagelint {
enum class PriceComponent : std::uint8_t;
}

namespace sagelint::builtin_prices {

struct Source {
  std::string_view id, label, date, citation;
};

// One figure; `source` is what findings name ("<label>, confirmed by S4").
struct Figure {
  std::string_view type;
  PriceComponent component;
  double usd;
  std::string_view source;
  std::string_view date;
  bool named;
};

struct Unpriced {
  std::string_view type, reason;
};

// Figures sorted by type, then component; unpriced types sorted by type.
struct Region {
  std::string_view region, as_of;
  std::span<const Source> sources;
  std::span<const Figure> figures;
  std::span<const Unpriced> unpriced;
};

// Every built-in table, sorted by region.
std::span<const Region> Regions();

}  // namespace sagelint::builtin_prices

#endif  // SAGELINT_LINTER_COST_BUILTIN_PRICES_H_
