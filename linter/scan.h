// The scan pipeline: discover files -> parse (in parallel) -> link -> rules ->
// suppressions -> sorted findings.
#ifndef SAGELINT_LINTER_SCAN_H_
#define SAGELINT_LINTER_SCAN_H_

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "linter/config.h"
#include "linter/datasets.h"
#include "linter/finding.h"
#include "linter/frontend.h"
#include "linter/model.h"
#include "linter/policy.h"

namespace sagelint {

struct ScanOptions {
  std::vector<std::string> paths;  // files and directories as given (default ".")
  Config config;
  ResolveOptions resolve;
  std::set<std::string> select;  // empty = every rule
  std::set<std::string> ignore;
  bool no_ignore = false;             // do not read .gitignore
  bool report_unused_ignores = false;
  int jobs = 0;  // 0 = all cores
  const class PriceTable* prices = nullptr;  // nullptr = the built-in table
  DatasetSizes datasets;  // config `datasets:`, --dataset-size, --s3-listing
  std::vector<Policy> policies;  // custom policies of the configuration
  // Called after each file unit is parsed (progress display); may be empty.
  std::function<void(size_t done, size_t total)> progress;
};

// A custom policy as outputs describe it (SARIF rules, `sagelint rules`).
struct CustomRuleInfo {
  std::string id;
  Severity severity = Severity::kWarning;
  std::string message;
};

struct ScanResult {
  std::vector<Finding> findings;  // sorted, suppressions applied
  std::vector<Workload> workloads;  // every extracted workload (inventory), sorted by path and line
  std::vector<std::string> missing;  // named paths that do not exist (exit 2)
  std::vector<std::string> skipped;  // "path: reason" for entries that could not be read
  int files_scanned = 0;
  int suppressed = 0;
  int baselined = 0;  // hidden by --baseline
  std::vector<CustomRuleInfo> custom_rules;
};

ScanResult Scan(const ScanOptions& opts);

// Whether the rule runs under these options (config `off`, --select, --ignore).
bool RuleEnabled(const ScanOptions& opts, const std::string& id);

// A stable identity of a finding that survives moved lines and reformatting.
std::string Fingerprint(const Finding& f);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_SCAN_H_
