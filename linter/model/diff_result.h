// What `sagelint diff` reports (README "Adopting it"): the findings a change adds and
// resolves, and how it changes SageMaker spend, workload by workload.
#ifndef SAGELINT_LINTER_MODEL_DIFF_RESULT_H_
#define SAGELINT_LINTER_MODEL_DIFF_RESULT_H_

#include <optional>
#include <string>
#include <vector>

#include "linter/model/finding.h"
#include "linter/model/scan_result.h"

namespace sagelint {

// A workload's spend-relevant settings on one side of the change.
struct SpendState {
  std::string instance_type;  // "ml.g5.2xlarge", "?" when unknown
  std::string instance_count;
  std::string spot;                   // "true"/"false"/"?"/"" where it does not apply
  std::string idle_stop;              // notebooks and Studio
  std::string autoscaling;            // endpoint variants
  std::optional<double> hourly_usd;   // price × count; nullopt when unknown
  std::optional<double> monthly_usd;  // always-on workloads only
};

struct SpendChange {
  enum class Kind { kAdded, kRemoved, kChanged };
  Kind change = Kind::kChanged;
  std::string resource;  // the workload's label
  std::string kind;      // training_job, endpoint_variant, …
  std::string path;      // as displayed (the work tree's path; the base's for a removed file)
  int line = 0;          // in the work tree (0 for a removed workload)
  bool always_on = false;
  std::optional<SpendState> before, after;
  // Change in always-on monthly spend; nullopt when a price is unknown or the
  // workload is not always on (its hourly figures say what a run costs).
  std::optional<double> monthly_usd_delta;
  bool price_unknown = false;  // a side's price is unknown: never counted as zero
};

struct DiffResult {
  std::string base_ref;
  std::string base_commit;
  ScanResult head;                 // the work tree's scan (findings after baseline and suppressions)
  std::vector<Finding> added;      // findings new in the work tree
  std::vector<Finding> resolved;   // findings of the base that are gone (paths as in the work tree)
  std::vector<SpendChange> spend;  // sorted by absolute monthly delta, then path
  double total_monthly_usd = 0;    // change in always-on monthly spend with known prices
  int unpriced_changes = 0;        // always-on changes left out of the total (unknown price)
  // What the base side could not read (an object git cannot give, a limit
  // reached, a name listed twice in a tree): each is absent at the base.
  std::vector<std::string> notes;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_DIFF_RESULT_H_
