// Fixes (SPEC §13) after a scan: the findings' changes resolved into edits of
// the files as stored, and the edits a `--fix` or `--diff` run applies.
#ifndef SAGELINT_LINTER_ENGINE_FIXES_H_
#define SAGELINT_LINTER_ENGINE_FIXES_H_

#include <string>
#include <string_view>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/finding.h"

namespace sagelint {

// Turns the changes of each finding's fix into edits of its files (read
// through `files` by their display paths: the disk, or the editor server's
// unsaved buffers over it). A fix with a change that cannot be written
// (the literal no longer reads as the finding's value, an editor cannot place
// it) is removed from its finding: no fix is better than a wrong one.
void ResolveFixes(std::vector<Finding>& findings, const FileSource& files = DiskFiles());

// One file a fix run changes.
struct FileFix {
  std::string path;  // display path
  std::string before, after;
  int fixes = 0;  // findings fixed in it
};

struct FixPlan {
  std::vector<FileFix> files;  // in path order
  int fixes = 0;               // findings fixed
  // Why some fixes were held back: an edit overlapping another fix's (the
  // next run applies it), a file that would no longer parse.
  std::vector<std::string> notes;
  int unsafe_skipped = 0;  // unsafe fixes not applied (no --unsafe-fixes)
};

// The edits of the safe fixes (and the unsafe ones with `unsafe`) applied to
// each file's text. A fix whose edits overlap one taken already waits for the
// next run; a file whose new text would not parse (or would parse with more
// errors than before) is left as it is.
FixPlan PlanFixes(const std::vector<Finding>& findings, bool unsafe);

// `after` against `before` as a unified diff with three lines of context,
// headed `--- a/PATH` / `+++ b/PATH`; empty when they are equal.
std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FIXES_H_
