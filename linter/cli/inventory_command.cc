// `sagelint inventory`: every workload with its instances, settings and cost.
#include <optional>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "linter/cli/commands.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/prices.h"
#include "linter/report/inventory.h"

namespace sagelint::cli {

int CommandInventory(const CliOptions& o) {
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  ScanResult result = Scan(so);
  if (ReportMissing(result)) return 2;
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"table", ""}} : o.outputs;
  std::vector<std::pair<std::string, std::string>> written;
  for (const Output& out : outputs) {
    std::ostringstream text;
    InventoryOptions io;
    io.wide = o.wide;
    io.width = TableWidth(out.file.empty());
    io.repository_roots = result.repository_roots;
    EmitInventory(text, out.format, result.workloads, table, io);
    written.emplace_back(out.file, std::move(text).str());
  }
  if (!WriteOutputs(written)) return 2;
  return 0;
}

}  // namespace sagelint::cli
