// Fixes held back because they would break a workload that works, and why a
// finding has no fix (README "Fixes", docs/fixes.md).
#ifndef SAGELINT_LINTER_ENGINE_FIX_REASONS_H_
#define SAGELINT_LINTER_ENGINE_FIX_REASONS_H_

#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/finding.h"

namespace sagelint {

// Removes the fixes that would turn a working job into a failing one, saying
// why in `fix_unavailable`:
// - an instance-type change (SM005, SM101, SM102, SM104) in a Python file or
//   notebook that compiles a model with Neo for the instance's family
//   (`target_instance_family`, a compilation job's `TargetDevice`): the
//   compiled artifact runs only on that family;
// - SM302's Pipe → FastFile where the estimator's entry point (read when it
//   lies in the repository) or its own file reads `PipeModeDataset`, which
//   reads only Pipe-mode channels.
// Files are read through `files` (as the scan read them).
void RefuseBreakingFixes(std::vector<Finding>& findings, const FileSource& files);

// Gives each finding without a fix, whose rule said nothing, the reason its
// rule has none.
void ExplainMissingFixes(std::vector<Finding>& findings);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FIX_REASONS_H_
