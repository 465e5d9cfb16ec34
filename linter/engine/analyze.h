// From parsed files to findings: link workloads, run the rules, apply
// suppressions. Separate from file reading so tests can feed models directly.
#ifndef SAGELINT_LINTER_ENGINE_ANALYZE_H_
#define SAGELINT_LINTER_ENGINE_ANALYZE_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "linter/engine/finding_pool.h"
#include "linter/engine/rule_set.h"
#include "linter/engine/suppress.h"
#include "linter/model/finding.h"
#include "linter/model/model.h"

namespace sagelint {

class LinkIndex;
class PriceTable;

// A parsed file as the analysis needs it: its model, and of its text only the
// comments that speak to sagelint (the text itself is not kept once parsed).
struct ParsedFile {
  FileResult result;
  std::vector<Comment> comments;  // sagelint:ignore= and sagelint:dataset-size= comments
};

// Keeps the comments of `text` (written in `syntax`) that ParsedFile needs.
void KeepComments(ParsedFile& pf, std::string_view text, CommentSyntax syntax);

struct Analysis {
  std::vector<Finding> findings;  // sorted
  std::vector<Workload> workloads;
  int suppressed = 0;
};

// What one file gives the scan once analysed: its findings (suppressions
// applied, packed in the analyzer's pool) and, for commands that print them,
// its workloads.
struct FileAnalysis {
  std::vector<PackedFinding> findings;
  std::vector<Workload> workloads;
  int suppressed = 0;
};

// A file analysed as far as it can be alone, waiting for what depends on the
// rest of the scan (defined in analyze.cc).
struct PendingFile;

// A file in scan order, as Analyzer::Start left it.
struct FileOutcome {
  std::optional<ParsedFile> parsed;      // waits whole: Terraform, context files, commands that print workloads
  std::shared_ptr<PendingFile> pending;  // waits for the links across the scan (and SM004's first uses)
  FileAnalysis analysis;                 // what is done
};

// Runs the rules. Each file is analysed as soon as it is parsed, as far as
// it can be alone, so that a scan keeps findings rather than models. What
// depends on other files is held as alternatives and chosen by Finish: an
// endpoint variant's findings with and without autoscaling (a scalable target
// elsewhere may name it), a notebook instance's with and without an idle-stop
// lifecycle script, an unknown instance type's SM004 (reported at its first
// use in the scan). Terraform files wait whole: a module's resources are
// evaluated again through each call, and the copies are dropped across units.
// `root` is the scan root: findings carry their path relative to it.
// Workloads are kept only with `keep_workloads` (inventory, diff).
class Analyzer {
 public:
  Analyzer(const RuleSet& rules, const PriceTable& prices, std::string root, bool keep_workloads);

  // Analyses what it can of a file; safe to call from several threads at once.
  FileOutcome Start(ParsedFile pf) const;
  // Links what waits across the scan, finishes every file, and merges the
  // findings and workloads in scan order: the result is the same as if every
  // file had waited whole.
  Analysis Finish(std::vector<FileOutcome> files) const;

  // The Deny statements of each IAM policy, by file and policy name.
  using DenyIndex = std::map<std::pair<std::string, std::string>, std::vector<const IamStatement*>>;

 private:
  struct FileFacts;
  // The rules' and policies' findings on one workload.
  void CheckWorkload(const Workload& w, const DenyIndex& denies, std::vector<Finding>& found, int& suppressed) const;
  // The SM000 findings of a file's parse errors and the SM007 notes of its bounds.
  std::vector<Finding> ParseErrorFindings(const ParsedFile& pf) const;
  void Check(ParsedFile& pf, bool unparsed, const DenyIndex& denies, std::set<std::string>& seen_types,
             FileAnalysis& out) const;
  void Resolve(const PendingFile& p, const LinkIndex& links, std::set<std::string>& seen_types,
               FileAnalysis& out) const;
  // Comment suppressions applied, SM002/SM003 added, paths relative to the root set.
  void Finalize(const FileFacts& file, std::vector<Finding> found, int suppressed, FileAnalysis& out) const;
  // The workloads of a file a scan reports (with keep_workloads), appended to `kept`; moved later, once.
  void KeepWorkloads(ParsedFile& pf, std::vector<Workload*>& kept) const;

  const RuleSet& rules_;
  const PriceTable& prices_;
  std::string root_;
  bool keep_workloads_;
  std::vector<ActiveRule> checks_;  // with the scan's price table
  mutable FindingPool pool_;        // what the files hold until Finish
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_ANALYZE_H_
