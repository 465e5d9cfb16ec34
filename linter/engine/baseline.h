// Baselines: record today's findings, then hide them in later scans so only
// new ones fail. Findings are matched by fingerprint (rule, file, resource,
// message, condition), which survives moved lines and reformatting but
// changes when the finding's substance does (another instance type, say).
#ifndef SAGELINT_LINTER_ENGINE_BASELINE_H_
#define SAGELINT_LINTER_ENGINE_BASELINE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/scan_result.h"

namespace sagelint {

// The baseline document of `findings` (JSON, schema_version 1; invalid UTF-8 carried as U+FFFD).
std::string BaselineText(const std::vector<Finding>& findings);
// Writes it whole (a temporary file renamed over `path`) or fails with `error`.
bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error);
// Reads a baseline of at most 64 MiB (a regular file). A document that is not
// JSON, has another schema_version, or has an entry without a fingerprint
// string is an error naming `label` (the file).
bool ParseBaseline(std::string_view text, const std::string& label, std::set<std::string>* fingerprints,
                   std::string* error);
bool LoadBaseline(const std::string& path, std::set<std::string>* fingerprints, std::string* error);
// Removes the findings the baseline holds; counts them in `scan->baselined`.
void ApplyBaseline(const std::set<std::string>& fingerprints, ScanResult* scan);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_BASELINE_H_
