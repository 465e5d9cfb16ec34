// What a scan produces, as reporters and commands read it.
#ifndef SAGELINT_LINTER_MODEL_SCAN_RESULT_H_
#define SAGELINT_LINTER_MODEL_SCAN_RESULT_H_

#include <map>
#include <string>
#include <vector>

#include "linter/model/finding.h"
#include "linter/model/model.h"

namespace sagelint {

// A custom policy as outputs describe it (SARIF rules, `sagelint rules`).
struct CustomRuleInfo {
  std::string id;
  Severity severity = Severity::kWarning;
  std::string message;
};

// A baseline entry that hid no finding of this scan: its finding was fixed (or
// changed), so the entry can go (`--report-stale-baseline` lists them).
struct StaleBaselineEntry {
  std::string fingerprint;
  std::string rule;
  std::string path;  // as recorded: relative to the scan root
  std::string resource;
};

// Where a scan spent its time, per front end (`--timing`, bench/run.sh --tree).
struct FrontEndStats {
  int files = 0;                 // files handed to the front end (after discovery)
  int parsed = 0;                // files it parsed (the rest never mention SageMaker)
  unsigned long long bytes = 0;  // bytes read
  double cpu_seconds = 0;        // thread CPU time reading and parsing
};

struct ScanResult {
  std::vector<Finding> findings;      // sorted, suppressions applied
  std::vector<Workload> workloads;    // every extracted workload (inventory), sorted by path and line
  std::vector<std::string> missing;   // named paths that do not exist (exit 2)
  std::vector<std::string> skipped;   // "path: reason" for entries that could not be read
  std::vector<std::string> warnings;  // e.g. a named directory in which nothing was scannable
  int files_scanned = 0;
  int suppressed = 0;
  int baselined = 0;                               // hidden by --baseline
  std::vector<StaleBaselineEntry> stale_baseline;  // entries of the baseline that hid nothing
  std::vector<CustomRuleInfo> custom_rules;
  // The git work trees (absolute, canonical) the scanned paths lie in: the
  // machine formats print paths relative to them (README "Output formats").
  std::vector<std::string> repository_roots;
  std::map<std::string, FrontEndStats> front_ends;  // by "yaml/json", "terraform", "python", "notebook"
  double analysis_cpu_seconds = 0;                  // linking, rules, suppressions
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_SCAN_RESULT_H_
