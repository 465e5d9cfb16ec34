// `sagelint inventory`: every extracted workload with its attributes.
#ifndef SAGELINT_LINTER_REPORT_INVENTORY_H_
#define SAGELINT_LINTER_REPORT_INVENTORY_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

class PriceTable;

struct InventoryOptions {
  // The table: all attributes, nothing abbreviated (--wide); else the main
  // columns, with long names and paths abbreviated to fit `width` characters
  // (0 = no limit).
  bool wide = false;
  size_t width = 0;
  // JSON and CSV name files relative to these repository roots (the scan's
  // ScanResult::repository_roots), as every machine format does.
  std::vector<std::string> repository_roots;
};

// format: "table", "json" or "csv". The table lists spend workloads with a
// totals row, then IAM statements in a section of their own; the CSV has
// plain numbers in its money columns and a currency column. In every format an
// inference component follows the endpoint variant it runs on, wherever it is
// declared; other workloads keep their order.
// The spend figures of one workload: hourly price × count, and a monthly
// figure for the always-on kinds (inventory, the scan JSON's `workloads`).
struct WorkloadSpend {
  std::optional<double> hourly, monthly;
  bool always_on = false;
  bool priced_kind = false;     // a kind that bills instance hours
  bool unused_default = false;  // a Studio default no app or space of the scan uses: no spend of its own
  // Why there is no monthly figure: "unpriced", "ephemeral" (an endpoint its
  // notebook deletes), "no app uses it", "per run" (jobs); empty with a figure.
  std::string no_month;
};
// The scopes (template or module; else the file) that hold a Studio app or space.
std::set<std::string> ScopesWithApps(const std::vector<Workload>& workloads);
// `apps_in`: ScopesWithApps of the scan; without it a Studio default counts as used.
WorkloadSpend SpendOf(const Workload& w, const PriceTable& prices, const std::set<std::string>* apps_in = nullptr);

void EmitInventory(std::ostream& out, std::string_view format, const std::vector<Workload>& workloads,
                   const PriceTable& prices, const InventoryOptions& opts = {});

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_INVENTORY_H_
