// Baselines: record today's findings, then hide them in later scans so only
// new ones fail. Findings are matched by fingerprint (README "Adopting it": rule, the
// workload's identity, the offending value, an occurrence number, the path
// relative to the scan root), which survives moved lines, reformatting and
// the working directory but changes when the finding's substance does
// (another instance type, say). Matching is a multiset: N entries hide at
// most N findings.
#ifndef SAGELINT_LINTER_ENGINE_BASELINE_H_
#define SAGELINT_LINTER_ENGINE_BASELINE_H_

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/scan_result.h"

namespace sagelint {

inline constexpr int kBaselineSchema = 2;
inline constexpr int kMaxBaselineDepth = 64;  // levels of nesting (a baseline has 3)

struct Baseline {
  int schema_version = kBaselineSchema;
  // Schema 2: fingerprints. Schema 1 recorded the first fingerprints
  // (rule, displayed path, resource, message, condition); they are matched
  // by LegacyFingerprint.
  std::multiset<std::string> fingerprints;
  // Every entry as recorded, in file order, to name those that hide nothing.
  std::vector<StaleBaselineEntry> entries;
};

// The baseline document of `findings` (JSON, schema 2; invalid UTF-8 carried as U+FFFD).
std::string BaselineText(const std::vector<Finding>& findings);
// Writes it whole (a temporary file renamed over `path`) or fails with `error`.
bool WriteBaseline(const std::string& path, const std::vector<Finding>& findings, std::string* error);
// Reads a baseline of schema 1 or 2. A document that is not JSON, has another
// schema_version, or has an entry without a fingerprint string is an error
// naming `label` (the file).
bool ParseBaseline(std::string_view text, const std::string& label, Baseline* baseline, std::string* error);
// The same from a regular file of at most 64 MiB.
bool LoadBaseline(const std::string& path, Baseline* baseline, std::string* error,
                  const FileSource& files = DiskFiles());
// Removes the findings the baseline holds (each entry hides one finding);
// counts them in `scan->baselined` and lists the entries that hid nothing in
// `scan->stale_baseline`.
void ApplyBaseline(Baseline baseline, ScanResult* scan);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_BASELINE_H_
