// Output formats. Each emitter gets the same findings and rule metadata.
#ifndef SAGELINT_LINTER_REPORT_EMIT_H_
#define SAGELINT_LINTER_REPORT_EMIT_H_

#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/diff_result.h"
#include "linter/model/finding.h"
#include "linter/model/scan_result.h"

namespace sagelint {

struct EmitOptions {
  bool color = false;
  bool quiet = false;                  // text: findings only, no details and no summary
  bool summary = true;                 // text: the summary line
  bool report_stale_baseline = false;  // list the baseline entries that hid nothing (text, JSON)
  // The lowest severity that fails the run (--fail-on); nullopt = none fails.
  // JUnit reports only those findings as failed test cases.
  std::optional<Severity> fail_threshold = Severity::kWarning;
  // Links to findings in a pull-request comment: the URL of the head
  // commit's files ("https://github.com/o/r/blob/SHA/"), path and "#L12" appended.
  std::string blob_url;
};

using EmitFn = void (*)(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);

struct Emitter {
  std::string_view name;
  EmitFn emit;
};

// The output formats, by --format name.
const std::vector<Emitter>& Emitters();
const Emitter* FindEmitter(std::string_view name);

void EmitText(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitJson(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitSarif(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitJunit(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitGithub(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitGitlab(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitMarkdown(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);

// `sagelint diff` in format `format` (one of Emitters()).
void EmitDiff(std::ostream& out, std::string_view format, const DiffResult& diff, const EmitOptions& opts);

// A JSON document as every JSON output writes it: indented by 2, a final
// newline, and text from scanned files that is not UTF-8 carried as U+FFFD
// (file positions are unaffected: they count bytes of the file as stored).
std::string DumpJson(const nlohmann::ordered_json& doc);

// Where a long list goes in a document written by WriteJsonWithList: the
// value of its member, in place of the list.
inline constexpr std::string_view kJsonListHere = "\x01sagelint: the list goes here\x01";
// Writes `doc` exactly as DumpJson would with an array of `count` elements,
// `element(i)` each, at the member whose value is kJsonListHere: the elements
// are made and written one at a time, so a long list is never held whole.
void WriteJsonWithList(std::ostream& out, const nlohmann::ordered_json& doc, size_t count,
                       const std::function<nlohmann::ordered_json(size_t)>& element);

// Text from scanned files (names, values, paths) made inert for a format:
// markdown without HTML, links, images, mentions or emphasis; a code span that
// no backtick in the text can close.
std::string MarkdownText(std::string_view s);
// A path as a relative URI reference: '/' kept, everything but unreserved characters percent-encoded.
std::string UriPath(std::string_view path);
std::string MarkdownCode(std::string_view s);

// The markdown reports are pull-request comments: GitHub refuses a comment
// over 65,536 characters, so they stay within this many (the Action's own
// lines fit in the rest).
inline constexpr size_t kCommentLimit = 65'000;

// One finding as the JSON object of SPEC §5 (also used by other emitters).
nlohmann::ordered_json FindingJson(const Finding& f);

// The mark of a severity in markdown: 🔴 error, 🟠 warning, 🔵 note.
const char* SeverityIcon(Severity s);

// Counts by severity, for summaries.
struct Tally {
  int errors = 0, warnings = 0, notes = 0;
  int total() const { return errors + warnings + notes; }
};
Tally CountFindings(const std::vector<Finding>& findings);
// "1 error, 4 warnings, 1 note"
std::string TallyText(const Tally& t);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_EMIT_H_
