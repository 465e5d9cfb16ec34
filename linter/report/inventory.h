// `sagelint inventory`: every extracted workload with its attributes.
#ifndef SAGELINT_LINTER_REPORT_INVENTORY_H_
#define SAGELINT_LINTER_REPORT_INVENTORY_H_

#include <ostream>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

class PriceTable;

// format: "table", "json" or "csv".
void EmitInventory(std::ostream& out, std::string_view format, const std::vector<Workload>& workloads,
                   const PriceTable& prices);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_INVENTORY_H_
