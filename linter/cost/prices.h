// On-demand instance prices and the `cost` block of findings.
//
// A PriceTable maps (instance type, component) to an hourly USD figure for one
// region, each figure with where it was read and when. It comes from the
// built-in table (rules/data/prices.json, us-east-1) or from a file the user
// names (`prices:` in the config, `--prices FILE`):
//   - ours: {"source", "as_of", "region", "prices": {"ml.m5.xlarge": {"training": 0.23, ...}}}
//     (what `sagelint prices import` writes); a figure may also be an object
//     {"usd", "sources", "basis", "date"} naming entries of a "sources" table,
//     as the built-in table's figures do;
//   - the AWS Price List offer file for AmazonSageMaker, JSON or CSV
//     (linter/cost/offer_file.h reads it).
#ifndef SAGELINT_LINTER_COST_PRICES_H_
#define SAGELINT_LINTER_COST_PRICES_H_

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/cost/builtin_prices.h"
#include "linter/model/catalog.h"
#include "linter/model/finding.h"
#include "linter/model/model.h"
#include "linter/model/rule.h"

namespace sagelint {

// What SageMaker bills an instance-hour as; prices differ by component.
enum class PriceComponent : std::uint8_t { kNotebook, kStudio, kTraining, kProcessing, kTransform, kHosting };
inline constexpr PriceComponent kPriceComponents[] = {PriceComponent::kNotebook,  PriceComponent::kStudio,
                                                      PriceComponent::kTraining,  PriceComponent::kProcessing,
                                                      PriceComponent::kTransform, PriceComponent::kHosting};
std::string_view ComponentName(PriceComponent c);  // notebook|studio|training|processing|transform|hosting
std::optional<PriceComponent> ComponentFromName(std::string_view name);
// The component a workload's instances bill as; nullopt for kinds without
// instances (scalable targets, lifecycle scripts, IAM statements).
std::optional<PriceComponent> ComponentFor(WorkloadKind kind);
// The component of a kind of the API's instance lists.
PriceComponent ComponentFor(OfferKind kind);
// Whether a workload of this kind bills around the clock once created
// (notebooks, endpoints, Studio defaults): its cost is stated per month.
bool AlwaysOn(WorkloadKind kind);
// Whether this workload's cost is stated per month: its kind is always on,
// unless it is an endpoint its notebook workflow deletes (DeletedByWorkflow):
// that one bills only while the notebook runs, so it has an hourly cost only.
bool AlwaysOn(const Workload& w);

inline constexpr double kHoursPerMonth = 730;

// One hourly figure and where it comes from.
struct PriceFigure {
  double usd = 0;
  std::string source;  // where it was read: "AWS pricing-page data (Studio notebook table)"
  std::string date;    // the date of that source: "2026-07-03"
  bool named = true;   // the source gives this component's price; false: the type's one price across kinds
  // "AWS pricing-page data (Studio notebook table), 2026-07-03, same price across kinds"
  std::string Describe() const;
};

// A source of the built-in table (rules/data/prices.json `sources`).
struct PriceSource {
  std::string id;        // "P1", "S4"
  std::string label;     // what findings name
  std::string date;      // "2026-07-03"
  std::string citation;  // where exactly the figures were read
};

class PriceTable {
 public:
  PriceTable() = default;
  // The us-east-1 table compiled into the binary (rules/data/prices.json).
  static const PriceTable& BuiltIn();
  // The built-in table of `region` (rules/data/prices-<region>.json), read
  // from compiled data the first time it is asked for; nullptr when the
  // region has none.
  static const PriceTable* BuiltInFor(std::string_view region);
  // The regions that have a built-in table, sorted.
  static std::vector<std::string> BuiltInRegions();
  // Parses our format or an AWS Price List offer file (JSON or CSV). `region`
  // selects the offer file's region (empty: us-east-1); our format's `region`
  // must equal it when it is not empty. `label` names the file in bases
  // ("prices/x.json"). On failure returns nullopt and sets `*error`.
  static std::optional<PriceTable> Parse(std::string_view text, std::string_view region, std::string label,
                                         std::string* error);
  // Reads and parses the file at `path` (label = path).
  static std::optional<PriceTable> Load(const std::string& path, std::string_view region, std::string* error,
                                        const FileSource& files = DiskFiles());
  // A table of one source's figures (an imported offer file).
  static PriceTable FromFigures(std::map<std::pair<std::string, PriceComponent>, double> prices, std::string region,
                                std::string as_of, std::string source, std::string label);

  std::optional<double> Hourly(std::string_view instance_type, PriceComponent c) const;
  const PriceFigure* Figure(std::string_view instance_type, PriceComponent c) const;
  // Why `instance_type` has no `c` price: "ml.g7e.2xlarge has no hosting
  // price in the built-in table (us-east-1, 2026-09): <reason>; …".
  std::string Unpriced(std::string_view instance_type, PriceComponent c) const;
  // The reason the built-in table gives for leaving the type unpriced; empty when it gives none.
  const std::string& UnpricedReason(std::string_view instance_type) const;

  size_t size() const { return data_ ? data_->figures.size() : prices_.size(); }
  const std::string& region() const { return region_; }
  const std::string& as_of() const { return as_of_; }
  bool built_in() const { return built_in_; }
  // "built-in price table (us-east-1, 2026-09)", "prices/eu.json (eu-west-1, as of 2025-03-01)".
  std::string Describe() const;
  const std::vector<PriceSource>& sources() const { return sources_; }
  const std::map<std::pair<std::string, PriceComponent>, PriceFigure, std::less<>>& figures() const;
  // Unpriced reason -> types, as the table lists them (the built-in table).
  const std::map<std::string, std::vector<std::string>>& unpriced() const;
  // What Describe() names the table as ("cached price table").
  void set_label(std::string label) { label_ = std::move(label); }

 private:
  explicit PriceTable(const builtin_prices::Region& data);
  // A built-in table: its figures stay in the compiled data (looked up by
  // binary search); the maps above are filled only when a report lists them.
  const builtin_prices::Region* data_ = nullptr;
  struct Listing {
    std::mutex mu;
    std::vector<std::unique_ptr<PriceFigure>> figures;  // parallel to data_->figures, made when first asked for
    std::once_flag once;
    std::map<std::pair<std::string, PriceComponent>, PriceFigure, std::less<>> prices;
    std::map<std::string, std::vector<std::string>> unpriced;
  };
  std::shared_ptr<Listing> listing_;
  void FillListing() const;
  const PriceFigure* FigureAt(size_t i) const;
  std::map<std::pair<std::string, PriceComponent>, PriceFigure, std::less<>> prices_;
  std::vector<PriceSource> sources_;
  std::map<std::string, std::string, std::less<>> unpriced_;  // type -> reason
  std::map<std::string, std::vector<std::string>> unpriced_by_reason_;
  std::string region_;
  std::string as_of_;
  std::string label_;
  bool built_in_ = false;
};

// Prices a rule's request: hourly = price × count, monthly (730 h) only when
// `always_on`, monthly savings only when always on and `cheaper_instance` is
// priced and cheaper (the same count of it), Spot savings stated as a range
// in `basis`. The estimate names the figure's source and date
// (`price_source`, `price_date`); without a price the figures stay empty and
// the basis says why.
CostEstimate EstimateCost(const CostRequest& request, WorkloadKind kind, const PriceTable& prices);

// The estimated avoidable monthly spend of a scan: the sum over workloads of
// each workload's largest monthly saving, never the sum of its findings'
// savings (SM101 and SM102 on one endpoint are two ways to save the same
// money; docs/cost-data.md). Rounded to cents. For the summary line and the
// markdown cost table.
double AvoidableMonthlyUsd(const std::vector<Finding>& findings);
// The finding that carries each workload's largest saving, by workload.
std::map<std::string, const Finding*> LargestSavings(const std::vector<Finding>& findings);
// The workload a finding is about: its file, resource range and label.
std::string WorkloadKeyOf(const Finding& f);
// Money as JSON, CSV and the inventory write it: rounded to cents.
double RoundCents(double usd);
// SM213: deleting the forgotten endpoint is the fix, so its saving is the
// endpoint's monthly cost.
void CountDeletionAsSaving(CostEstimate* cost);
// How many findings are about an instance that has no price (summary.unpriced).
int UnpricedFindings(const std::vector<Finding>& findings);

// "$0.20", "$3.83", "$146", "$2,310": two decimals below $100, whole dollars above.
std::string FormatUsd(double usd);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_COST_PRICES_H_
