// Baselines: record today's findings, then hide them in later scans so only
// new ones fail. Findings are matched by fingerprint (rule, file, resource,
// message, condition), which survives moved lines and reformatting but
// changes when the finding's substance does (another instance type, say).
#ifndef SAGELINT_LINTER_ENGINE_BASELINE_H_
#define SAGELINT_LINTER_ENGINE_BASELINE_H_

#include <set>
#include <string>
#include <vector>

#include "linter/model/scan_result.h"

namespace sagelint {

bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error);
bool LoadBaseline(const std::string& path, std::set<std::string>* fingerprints, std::string* error);
// Removes the findings the baseline holds; counts them in `scan->baselined`.
void ApplyBaseline(const std::set<std::string>& fingerprints, ScanResult* scan);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_BASELINE_H_
