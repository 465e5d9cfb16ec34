// Fixes (README "Fixes") after a scan: the findings' changes resolved into edits of
// the files as stored, and the edits a `--fix` or `--diff` run applies.
#ifndef SAGELINT_LINTER_ENGINE_FIXES_H_
#define SAGELINT_LINTER_ENGINE_FIXES_H_

#include <cstdint>
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
// The refusals (RefuseBreakingFixes), ResolveFixEdits, then the reasons of
// the findings left without a fix (ExplainMissingFixes).
void ResolveFixes(std::vector<Finding>& findings, const FileSource& files = DiskFiles());
// The edits alone: for each finding with a fix and no edits yet, its changes
// as edits, or no fix and `fix_unavailable` saying why (the warm-scan cache
// stores this part per file).
void ResolveFixEdits(std::vector<Finding>& findings, const FileSource& files);

// The directories a fix run may read and write under (docs/security.md,
// "What it writes"): for each path named on the command line, the git work
// tree containing it, else the named directory (a file's directory). Both are
// found from the path as written, and a directory counts only when nothing on
// the way to it is a link, so a committed link cannot make its target a root.
// Real paths.
std::vector<std::string> FixRoots(const std::vector<std::string>& named);

// A file as it was read for the plan; a fix is written only while it is still so.
struct FileState {
  std::string real;  // its real path (every component resolved), inside a fix root
  uint64_t device = 0, inode = 0;
  int64_t size = 0;
  int64_t mtime_ns = 0;
};

// One file a fix run changes.
struct FileFix {
  std::string path;  // display path
  std::string before, after;
  int fixes = 0;   // findings fixed in it
  FileState read;  // the file `before` was read from
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
// errors than before), or whose real path lies outside every one of `roots`
// (FixRoots), is left as it is.
FixPlan PlanFixes(const std::vector<Finding>& findings, bool unsafe, const std::vector<std::string>& roots);

enum class WriteOutcome { kWritten, kLeft, kFailed };

// Writes `file.after` over the file, through a temporary file renamed over it,
// only if it is still the file the plan read: reached by its real path with no
// link on the way, a regular file with one name, of this user and writable by
// its owner (a fix never changes a file's owner, group or mode), and with the
// size, modification time and bytes it had. Checked again right before the
// rename, so a change saved while the fixes run is never lost. kLeft: left as
// it is, `why` says why (a note); kFailed: the write failed (`why`: the reason).
WriteOutcome WriteFix(const FileFix& file, std::string* why);

// `after` against `before` as a unified diff with three lines of context,
// headed `--- a/PATH` / `+++ b/PATH`; empty when they are equal. Control
// characters of the path and the lines (other than a tab and a line's ending)
// are shown as escapes (`\x1b`), so a file cannot drive the terminal.
std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FIXES_H_
