// `sagelint prices update`: AWS's public offer files for AmazonSageMaker,
// downloaded through `curl`, imported, and kept as compact tables in the
// user cache, where later scans of that region find them (docs/cost-data.md).
#ifndef SAGELINT_LINTER_COST_PRICE_UPDATE_H_
#define SAGELINT_LINTER_COST_PRICE_UPDATE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/cost/prices.h"

namespace sagelint {

// A cached table older than this is used with a note.
inline constexpr int kStalePriceDays = 90;

// $XDG_CACHE_HOME/sagelint/prices, else $HOME/.cache/sagelint/prices; empty
// when neither is set.
std::string PriceCacheDir();
// The cached table's path for `region` (empty without a cache directory).
std::string CachedPricePath(std::string_view region);

// The offer file's address: $SAGELINT_PRICE_LIST_URL (a mirror, or a test
// server) or https://pricing.us-east-1.amazonaws.com, then
// /offers/v1.0/aws/AmazonSageMaker/current/<region>/index.json.
std::string OfferFileUrl(std::string_view region);

// The commercial regions `--all-regions` downloads: those with a built-in table
// outside GovCloud, whose offer files are not on the public endpoint.
std::vector<std::string> UpdateRegions();

struct PriceUpdate {
  std::string region;
  std::string url;
  std::string path;       // the cached table written
  std::string published;  // the offer file's publication date
  size_t prices = 0;      // figures imported
};

// Downloads `region`'s offer file with curl (connect and total timeouts, a
// minimum speed; standard output counted and cut off at `max_bytes`),
// imports it and writes the compact table to CachedPricePath(region) through
// a temporary file renamed over it: on any failure the previous table stays
// as it was. False with `error` naming the URL and the reason.
bool UpdatePrices(std::string_view region, std::uint64_t max_bytes, PriceUpdate* out, std::string* error);

// The cached table of `region`, if there is one and it reads; a broken cache
// file is an error. `today` ("2026-11-28"; empty: the system's date) decides
// whether the table is stale: then `note` says so.
std::optional<PriceTable> LoadCachedPrices(std::string_view region, std::string_view today, std::string* note,
                                           std::string* error);

// Today's date, "YYYY-MM-DD" ($SAGELINT_TODAY when set, for tests).
std::string TodayIso();
// Whole days from `from` to `to` (both "YYYY-MM-DD"); nullopt for a bad date.
std::optional<int> DaysBetween(std::string_view from, std::string_view to);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_PRICE_UPDATE_H_
