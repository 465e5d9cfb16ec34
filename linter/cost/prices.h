// On-demand instance prices and the `cost` block of findings.
//
// A PriceTable maps (instance type, component) to an hourly USD price for one
// region. It comes from the built-in table (rules/data/prices.json, us-east-1,
// approximate) or from a file the user names (`prices:` in the config,
// `--prices FILE`) in either of two formats:
//   - ours: {"source", "as_of", "region", "prices": {"ml.m5.xlarge": {"training": 0.23, ...}}}
//   - the AWS Price List offer file for AmazonSageMaker: products whose
//     productFamily is "ML Instance" (attributes instanceName, component,
//     regionCode) and terms.OnDemand[sku][term].priceDimensions[..].pricePerUnit.USD.
#ifndef SAGELINT_LINTER_COST_PRICES_H_
#define SAGELINT_LINTER_COST_PRICES_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/finding.h"
#include "linter/model/model.h"
#include "linter/model/rule.h"

namespace sagelint {

// What SageMaker bills an instance-hour as; prices differ by component.
enum class PriceComponent : std::uint8_t { kNotebook, kStudio, kTraining, kProcessing, kTransform, kHosting };
std::string_view ComponentName(PriceComponent c);  // notebook|studio|training|processing|transform|hosting
// The component a workload's instances bill as; nullopt for kinds without
// instances (scalable targets, lifecycle scripts, IAM statements).
std::optional<PriceComponent> ComponentFor(WorkloadKind kind);
// Whether a workload of this kind bills around the clock once created
// (notebooks, endpoints, Studio defaults): its cost is stated per month.
bool AlwaysOn(WorkloadKind kind);

inline constexpr double kHoursPerMonth = 730;

class PriceTable {
 public:
  // The table compiled into the binary (rules/data/prices.json).
  static const PriceTable& BuiltIn();
  // Parses either format. `region` selects the offer file's region (ignored
  // for our format, whose `region` field is used, but then it must match
  // when `region` is not empty). `label` names the file in bases ("prices/x.json").
  // On failure returns nullopt and sets `*error`.
  static std::optional<PriceTable> Parse(std::string_view text, std::string_view region, std::string label,
                                         std::string* error);
  // Reads and parses the file at `path` (label = path).
  static std::optional<PriceTable> Load(const std::string& path, std::string_view region, std::string* error,
                                        const FileSource& files = DiskFiles());

  std::optional<double> Hourly(std::string_view instance_type, PriceComponent c) const;
  size_t size() const { return prices_.size(); }
  const std::string& region() const { return region_; }
  const std::string& as_of() const { return as_of_; }
  // One line for bases and `sagelint explain`: where the figures come from.
  // "built-in price table (…source…, us-east-1, as of 2026-11-22)" or
  // "AWS Price List offer file prices.json (eu-west-1, published 2025-…)".
  std::string Describe() const;

 private:
  std::map<std::pair<std::string, PriceComponent>, double, std::less<>> prices_;
  std::string region_;
  std::string as_of_;
  std::string description_;
};

// Prices a rule's request: hourly = price × count, monthly (730 h) only when
// `always_on`, monthly savings only when always on and `cheaper_instance` is
// priced (the same count of it), Spot savings stated as a range in `basis`.
// The basis names the price source. Without a price the figures stay empty and
// the basis says why.
CostEstimate EstimateCost(const CostRequest& request, WorkloadKind kind, const PriceTable& prices);

// The estimated avoidable monthly spend of a scan: the sum of the findings'
// monthly savings (only findings naming a concrete cheaper always-on instance
// have one). For the summary line and the markdown cost table.
double AvoidableMonthlyUsd(const std::vector<Finding>& findings);

// "$0.20", "$3.83", "$146", "$2,310": two decimals below $100, whole dollars above.
std::string FormatUsd(double usd);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_PRICES_H_
