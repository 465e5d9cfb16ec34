// What a scan produces, as reporters and commands read it.
#ifndef SAGELINT_LINTER_MODEL_SCAN_RESULT_H_
#define SAGELINT_LINTER_MODEL_SCAN_RESULT_H_

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

struct ScanResult {
  std::vector<Finding> findings;  // sorted, suppressions applied
  std::vector<Workload> workloads;  // every extracted workload (inventory), sorted by path and line
  std::vector<std::string> missing;  // named paths that do not exist (exit 2)
  std::vector<std::string> skipped;  // "path: reason" for entries that could not be read
  std::vector<std::string> warnings;  // e.g. a named directory in which nothing was scannable
  int files_scanned = 0;
  int suppressed = 0;
  int baselined = 0;  // hidden by --baseline
  std::vector<CustomRuleInfo> custom_rules;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_SCAN_RESULT_H_
