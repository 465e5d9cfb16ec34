// The scan pipeline: discover files, parsing them (in parallel) as they are
// found -> rules and suppressions, file by file -> links across files ->
// sorted findings.
#ifndef SAGELINT_LINTER_ENGINE_SCAN_H_
#define SAGELINT_LINTER_ENGINE_SCAN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "linter/engine/discover.h"
#include "linter/engine/rule_set.h"
#include "linter/model/finding.h"
#include "linter/model/scan_result.h"
#include "parsers/frontend.h"

namespace sagelint {

class PriceTable;
class ParseCache;

// Where and how to read: everything a scan needs besides its rules.
struct ScanSetup {
  std::vector<std::string> paths;  // files and directories as given (default ".")
  DiscoverOptions discover;
  ResolveOptions resolve;
  int jobs = 0;                        // parsing threads, 0 = all cores (discovery has its own)
  const PriceTable* prices = nullptr;  // nullptr = the built-in table
  bool keep_workloads = true;          // ScanResult::workloads (inventory, diff); a scan alone needs none
  bool measure_cpu = false;            // FrontEndStats::cpu_seconds: two clock calls per file, for --timing
  // Fixes are resolved against `resolve.files` even when that is not the disk:
  // the editor server's unsaved buffers over the disk (a base revision's tree has none).
  bool fixes_in_files = false;
  // Parsed results of unchanged units are taken from it and new ones kept in
  // it (linter/engine/parse_cache.h); nullptr: none. Only for a scan of the disk.
  ParseCache* cache = nullptr;
  // Called after each file unit is parsed (progress display); may be empty.
  std::function<void(size_t done, size_t total)> progress;
};

// At most this many bytes of input are parsed at the same time, however many
// threads run (a single larger unit runs alone): memory stays bounded on large
// files whatever --jobs is.
inline constexpr std::uintmax_t kParseBudgetBytes = 4u << 20;

ScanResult Scan(const ScanSetup& setup, const RuleSet& rules);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_SCAN_H_
