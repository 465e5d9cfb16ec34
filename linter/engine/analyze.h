// From parsed files to findings: link workloads, run the rules, apply
// suppressions. Separate from file reading so tests can feed models directly.
#ifndef SAGELINT_LINTER_ENGINE_ANALYZE_H_
#define SAGELINT_LINTER_ENGINE_ANALYZE_H_

#include <string>
#include <vector>

#include "linter/model/finding.h"
#include "linter/engine/suppress.h"
#include "linter/model/model.h"

namespace sagelint {

class PriceTable;
class RuleSet;

// A parsed file as the analysis needs it: its model, and of its text only the
// comments that speak to sagelint (the text itself is not kept once parsed).
struct ParsedFile {
  FileResult result;
  std::vector<Comment> comments;  // sagelint:ignore= and sagelint:dataset-size= comments
};

// Keeps the comments of `text` that ParsedFile needs.
void KeepComments(ParsedFile& pf, std::string_view text);

struct Analysis {
  std::vector<Finding> findings;  // sorted
  std::vector<Workload> workloads;
  int suppressed = 0;
};

// `root` is the scan root: findings carry their path relative to it. The
// workloads are returned only with `keep_workloads` (inventory, diff).
Analysis Analyze(std::vector<ParsedFile> files, const RuleSet& rules, const PriceTable& prices,
                 const std::string& root = {}, bool keep_workloads = true);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_ANALYZE_H_
