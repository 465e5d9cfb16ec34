// `sagelint prices`, `prices update` and `prices import`.
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/offer_file.h"
#include "linter/cost/price_update.h"
#include "linter/cost/prices.h"
#include "linter/model/rule.h"
#include "linter/report/prices_report.h"

namespace sagelint::cli {
namespace {

// `sagelint prices update [--region R ...|--all-regions]`: AWS's offer files
// into the user cache (docs/cost-data.md). Exit 1 when a region failed; its
// previous cached table is kept.
int CommandPricesUpdate(const CliOptions& o) {
  if (o.args.size() != 1) throw UsageError{"prices update takes no path: sagelint prices update [--region R ...]"};
  if (o.all_regions && !o.regions.empty()) throw UsageError{"prices update: --region or --all-regions, not both"};
  std::vector<std::string> regions = o.all_regions ? UpdateRegions() : o.regions;
  // Without --region: the region the configuration of this directory names
  // (a region with no table yet is exactly what an update is for).
  if (regions.empty()) {
    CliOptions here = o;
    here.args.clear();
    regions.push_back(LoadConfigFor(here, DiskFiles(), ".").region);
  }
  std::uint64_t cap = kMaxPriceFileBytes;
  // Tests stand in a smaller cap for the 512 MiB one.
  if (const char* v = std::getenv("SAGELINT_PRICE_LIST_MAX_BYTES")) {
    if (auto n = StrictInt(v); n && *n > 0) cap = static_cast<std::uint64_t>(*n);
  }
  int failed = 0;
  for (const std::string& region : regions) {
    PriceUpdate update;
    std::string error;
    if (!UpdatePrices(region, cap, &update, &error)) {
      std::cerr << "sagelint: prices update: " << Printable(error) << "\n";
      ++failed;
      continue;
    }
    std::cout << region << ": " << update.prices << " prices, published "
              << (update.published.empty() ? "(no date)" : update.published) << " -> " << Printable(update.path)
              << "\n";
  }
  return failed ? 1 : 0;
}

}  // namespace

// `sagelint prices`: the table in use; `sagelint prices import OFFER`: an
// offer file -> our compact table, with what was skipped on standard error.
int CommandPrices(const CliOptions& o) {
  if (!o.args.empty() && o.args[0] == "import") {
    if (o.args.size() != 2) {
      throw UsageError{"prices import expects one offer file: sagelint prices import OFFER [--region R] [-o FILE]"};
    }
    const std::string& path = o.args[1];
    std::string text, why;
    if (!ReadFileCapped(path, kMaxPriceFileBytes, &text, &why)) throw UsageError{path + ": cannot read: " + why};
    OfferImport offer;
    if (!ImportOffer(text, o.region, &offer, &why)) throw UsageError{path + ": " + why};
    WriteOutput(o.output, CompactTable(offer, std::filesystem::path(path).filename().string()));
    for (const std::string& line : offer.Report()) std::cerr << "sagelint: " << Printable(line) << "\n";
    if (!o.output.empty()) std::cerr << "sagelint: wrote " << Printable(o.output) << "\n";
    return 0;
  }
  if (!o.args.empty() && o.args[0] == "update") return CommandPricesUpdate(o);
  if (!o.args.empty())
    throw UsageError{"prices takes no path; did you mean `sagelint prices import " + o.args[0] + "`?"};
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  bool json = !o.outputs.empty() && o.outputs.front().format == "json";
  WriteOutput(o.outputs.empty() ? "" : o.outputs.front().file, json ? PricesJson(table) : PricesText(table));
  return 0;
}

}  // namespace sagelint::cli
