// The AWS Price List offer file for AmazonSageMaker, JSON or CSV, as anyone
// can download it from the Price List bulk API
// (…/offers/v1.0/aws/AmazonSageMaker/current/<region>/index.json or .csv).
//
// The importer reads what the file holds rather than a fixed list:
//   - JSON: `products[sku]` (`productFamily`, `attributes`) and
//     `terms.OnDemand[sku][term].priceDimensions[rate]` (`unit`, `pricePerUnit.USD`);
//   - CSV: metadata rows (format version, disclaimer, publication date, …)
//     before the header, whose columns mix display names (`SKU`, `TermType`,
//     `PricePerUnit`, `Unit`, `Product Family`, `Region Code`, `Instance
//     Type`) and camelCase ones (`usageType`, `operation`); column names match
//     case- and space-insensitively.
// The instance type is `instanceName`, else the `ml.…` name at the start of
// `instanceType` (`ml.m5.large-Hosting`), else the `ml.…` token of the usage
// type (`USE1-Studio:JupyterLab-ml.r6i.4xlarge`). Components (`component`,
// else the usage type's word after the region prefix: `Host`, `Notebk`) map
// to price components through one table; every row the importer could not use
// is counted by why, and components it could not map are named.
#ifndef SAGELINT_LINTER_COST_OFFER_FILE_H_
#define SAGELINT_LINTER_COST_OFFER_FILE_H_

#include <cstddef>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/cost/prices.h"

namespace sagelint {

struct OfferImport {
  std::string format;     // "JSON" or "CSV"
  std::string region;     // the region imported
  std::string published;  // the file's publication date, as it states it ("2025-03-01T00:00:00Z")
  std::string version;    // the offer's version, when stated
  std::map<std::pair<std::string, PriceComponent>, double> prices;  // USD per instance-hour
  size_t rows = 0;                                                  // products (JSON) or price rows (CSV) read
  // Rows not imported, by why ("Spot", "other regions", …), and the detail
  // of two of them: product families and components that are not ours.
  std::map<std::string, size_t> skipped;
  std::map<std::string, size_t> other_families;
  std::map<std::string, size_t> unmapped_components;
  std::set<std::string> regions;  // regions that have on-demand instance-hour rows
  // What to tell the user: what was imported and what was skipped, one line each.
  std::vector<std::string> Report() const;
};

// True when `text` looks like an offer file (JSON with `products` and
// `terms`, or CSV with `SKU` and `PricePerUnit` columns) rather than our format.
bool LooksLikeOfferFile(std::string_view text);

// Reads an offer file. `region` empty: the file's only region, an error when
// it holds several. False with `*error` set when the file cannot be read or
// holds no on-demand instance-hour price for the region.
bool ImportOffer(std::string_view text, std::string_view region, OfferImport* out, std::string* error);

// The compact price table of an import, in our format (what `prices:` and
// `--prices` read): {"source", "as_of", "region", "currency", "prices": {type:
// {component: USD}}}. `file_name` names the offer file in "source".
std::string CompactTable(const OfferImport& offer, std::string_view file_name);

// The component a name from the file maps to (`Hosting`, `Studio-Notebook`,
// `Notebk`, `Batch Transform`, …); nullopt for one that is not an instance
// kind sagelint prices.
std::optional<PriceComponent> ComponentFromOffer(std::string_view name);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_OFFER_FILE_H_
