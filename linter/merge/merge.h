// `sagelint merge`: one organisation view from many repositories' scan
// reports (`scan --format json`), as docs/organisation.md describes it.
#ifndef SAGELINT_LINTER_MERGE_MERGE_H_
#define SAGELINT_LINTER_MERGE_MERGE_H_

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

// The largest report `merge` reads.
inline constexpr size_t kMaxReportBytes = 256u << 20;
// How many workloads the organisation's "costliest" list shows.
inline constexpr size_t kCostliestWorkloads = 20;

// One report as read: its file (as named) and its text, or why it could not be read.
struct ReportText {
  std::string file;
  std::string text;
  std::string error;  // non-empty: the file could not be read
};

struct MergedRepo {
  std::string name;    // report_name, else the report file's name without ".json"
  std::string file;    // the report
  std::string commit;  // empty: not known
  // The monthly spend of its always-on workloads; nullopt when the report has
  // no `workloads` block (a report of an older sagelint).
  std::optional<double> always_on_monthly;
  double avoidable_monthly = 0;  // summary.avoidable_monthly_usd
  int errors = 0, warnings = 0, notes = 0;
  int workloads = 0;
  int unpriced = 0;        // workloads that bill instance hours but have no price
  int parse_errors = 0;    // SM000 findings: files that could not be parsed
  bool duplicate = false;  // another report has the same name
};

struct RuleTotal {
  std::string rule, name;
  int findings = 0;
  int repositories = 0;
  double avoidable_monthly = 0;
};

struct MergedWorkload {
  std::string repository, kind, label, path;
  int line = 0;
  std::string instance_type;  // empty: not known
  std::optional<double> instance_count;
  double monthly = 0;
};

struct SkippedReport {
  std::string file;
  std::string reason;
};

struct MergeResult {
  std::vector<MergedRepo> repositories;     // always-on spend first, then avoidable spend, then name
  std::vector<RuleTotal> rules;             // avoidable spend first, then findings, then ID
  std::vector<MergedWorkload> costliest;    // the always-on workloads of highest monthly spend
  std::vector<std::string> missing;         // expected (--repos), no report
  std::vector<SkippedReport> other_schema;  // sagelint reports of another schema_version
  std::vector<SkippedReport> skipped;       // unreadable, truncated or not sagelint reports
  std::vector<std::string> duplicates;      // names more than one report carries
  // Totals over the merged repositories.
  double always_on_monthly = 0, avoidable_monthly = 0;
  int errors = 0, warnings = 0, notes = 0, unpriced = 0, parse_errors = 0;
};

// The expected repositories of a --repos file: one name a line; blank lines
// and lines starting with '#' are skipped. Surrounding white space is trimmed.
std::vector<std::string> ParseRepoList(std::string_view text);

// Merges `reports` (in the order given); `expected` (when set) names the
// repositories that should have one.
MergeResult MergeReports(const std::vector<ReportText>& reports,
                         const std::optional<std::vector<std::string>>& expected);

// The formats of `sagelint merge --format`.
void EmitMergeText(std::ostream& out, const MergeResult& m);
void EmitMergeJson(std::ostream& out, const MergeResult& m);
void EmitMergeMarkdown(std::ostream& out, const MergeResult& m);
// One self-contained page: inline style and script allowed by their digests
// in a content security policy that forbids everything else.
void EmitMergeHtml(std::ostream& out, const MergeResult& m);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MERGE_MERGE_H_
