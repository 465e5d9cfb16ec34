// Output formats. Each emitter gets the same findings and rule metadata.
#ifndef SAGELINT_LINTER_REPORT_EMIT_H_
#define SAGELINT_LINTER_REPORT_EMIT_H_

#include <functional>
#include <map>
#include <memory>
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

class PriceTable;

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
  // The JSON report's `report_name` and `commit` (empty: null), and the table
  // that prices its `workloads` (null: the built-in one); docs/organisation.md.
  std::string report_name;
  std::string commit;
  const PriceTable* prices = nullptr;
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
// One line per finding; each rule's help once, after the list; the summary
// (--quiet: the lines alone).
void EmitConcise(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitJson(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitSarif(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitJunit(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitGithub(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitGitlab(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);
void EmitMarkdown(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);

// --statistics: one row per rule.
struct RuleStatistics {
  std::string rule, name;
  int count = 0;
  int fixable = 0;
  // The avoidable spend credited to the rule: each workload's largest saving
  // goes to the rule whose finding carries it, so the rows add up to the
  // summary's avoidable spend.
  double avoidable_monthly_usd = 0;
};
// The rows, the most frequent rule first.
std::vector<RuleStatistics> Statistics(const std::vector<Finding>& findings);
// The rows as a table (count, fixable, avoidable $/month, rule).
void EmitStatistics(std::ostream& out, const ScanResult& scan);

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
// Text for XML and HTML: valid UTF-8, markup characters as entities, control
// characters XML forbids dropped (JUnit, the merge report).
std::string XmlText(std::string_view raw);

// The markdown reports are pull-request comments: GitHub refuses a comment
// over 65,536 characters, so they stay within this many (the Action's own
// lines fit in the rest).
inline constexpr size_t kCommentLimit = 65'000;

// Paths as the machine formats print them (json, sarif, github, gitlab,
// junit, fix edits, inventory JSON/CSV, diff rows): relative to the
// repository root — the git work tree the file lies in — whatever the current
// directory, since CI places annotations and code-scanning alerts by
// repository path. A file in no repository of the scan keeps its display path
// (relative to the current directory), as text prints it.
class MachinePaths {
 public:
  explicit MachinePaths(std::vector<std::string> repository_roots);
  // The path relative to its base, and which base (an index into Bases()).
  struct Located {
    std::string path;
    size_t base = 0;
  };
  Located Locate(const std::string& display) const;
  std::string operator()(const std::string& display) const { return Locate(display).path; }
  // The directories paths are relative to (absolute): the repository roots,
  // then the current directory when some path lies in none of them.
  std::vector<std::string> Bases() const;

 private:
  std::vector<std::string> roots_;
  std::string cwd_;
  mutable std::map<std::string, Located> cache_;
  mutable bool uses_cwd_ = false;
};

// One finding as the JSON object of README "Usage" (also used by other emitters);
// its paths (and its fix's) through `paths`.
nlohmann::ordered_json FindingJson(const Finding& f, const MachinePaths& paths);

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
