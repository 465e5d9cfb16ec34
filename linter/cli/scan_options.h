// Everything the command line and the configuration say about a scan, and
// how it becomes the engine's two inputs: a RuleSet (resolved once, before any
// file is parsed) and a ScanSetup (where and how to read).
#ifndef SAGELINT_LINTER_CLI_SCAN_OPTIONS_H_
#define SAGELINT_LINTER_CLI_SCAN_OPTIONS_H_

#include <functional>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "linter/cli/config.h"
#include "linter/cost/datasets.h"
#include "linter/engine/rule_set.h"
#include "linter/engine/scan.h"
#include "linter/model/scan_result.h"
#include "linter/policy/policy.h"
#include "parsers/frontend.h"

namespace sagelint {

class PriceTable;

struct ScanOptions {
  std::vector<std::string> paths;  // files and directories as given (default ".")
  Config config;
  ResolveOptions resolve;
  std::set<std::string> select;  // empty = every rule
  std::set<std::string> ignore;
  bool no_ignore = false;  // do not read .gitignore
  bool report_unused_ignores = false;
  int jobs = 0;                            // 0 = all cores
  const PriceTable* prices = nullptr;      // nullptr = the built-in table
  DatasetSizes datasets;                   // config `datasets:`, --dataset-size, --s3-listing
  std::vector<Policy> policies;            // custom policies of the configuration
  bool keep_workloads = true;              // ScanResult::workloads: inventory, diff
  bool measure_cpu = false;                // FrontEndStats::cpu_seconds (--timing)
  const FileSource* files = &DiskFiles();  // where the tree is read (diff: the base revision's tree)
  // Called after each file unit is parsed (progress display); may be empty.
  std::function<void(size_t done, size_t total)> progress;
  std::shared_ptr<ParseCache> cache;  // parsed results kept between runs (nullptr: none)
};

RuleSet BuildRuleSet(const ScanOptions& opts);
ScanSetup BuildScanSetup(const ScanOptions& opts);
// Resolves the rules, then scans.
ScanResult Scan(const ScanOptions& opts);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_SCAN_OPTIONS_H_
