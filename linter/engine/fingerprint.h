// Finding identity across edits (README "Adopting it"): rule + the workload's stable
// identity + the offending value + an occurrence number among otherwise
// identical findings of the same file. No line, no column, no path that
// depends on the working directory.
#ifndef SAGELINT_LINTER_ENGINE_FINGERPRINT_H_
#define SAGELINT_LINTER_ENGINE_FINGERPRINT_H_

#include <string>
#include <vector>

#include "linter/model/finding.h"

namespace sagelint {

// The path of a displayed file relative to the scan root, with '/'; the
// display path itself when the file lies outside the root.
std::string RootRelative(const std::string& display_path, const std::string& root);

// Fingerprints of `findings` (sorted as FindingLess sorts them), in the same
// order. With `with_path` the path relative to the scan root is part of the
// identity (scans and baselines); without it, only the file-local identity
// (diff, which follows renames itself).
std::vector<std::string> Fingerprints(const std::vector<Finding>& findings, bool with_path);
// Sets `fingerprint` on every finding (with the path).
void AssignFingerprints(std::vector<Finding>& findings);

// The identity baselines of schema 1 recorded: rule, path as then displayed,
// resource, message and condition.
std::string LegacyFingerprint(const Finding& f, const std::string& path);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FINGERPRINT_H_
