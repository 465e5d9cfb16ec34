// `sagelint inventory`: every extracted workload with its attributes.
#ifndef SAGELINT_LINTER_REPORT_INVENTORY_H_
#define SAGELINT_LINTER_REPORT_INVENTORY_H_

#include <cstddef>
#include <ostream>
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
void EmitInventory(std::ostream& out, std::string_view format, const std::vector<Workload>& workloads,
                   const PriceTable& prices, const InventoryOptions& opts = {});

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_INVENTORY_H_
