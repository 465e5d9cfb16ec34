// From parsed files to findings: link workloads, run the rules, apply
// suppressions. Separate from file reading so tests can feed models directly.
#ifndef SAGELINT_LINTER_ENGINE_ANALYZE_H_
#define SAGELINT_LINTER_ENGINE_ANALYZE_H_

#include <string>
#include <vector>

#include "linter/model/finding.h"
#include "linter/model/model.h"

namespace sagelint {

class PriceTable;
class RuleSet;

struct ParsedFile {
  FileResult result;
  std::string text;  // for comment suppressions; may be empty
};

struct Analysis {
  std::vector<Finding> findings;  // sorted
  std::vector<Workload> workloads;
  int suppressed = 0;
};

// `root` is the scan root: findings carry their path relative to it.
Analysis Analyze(std::vector<ParsedFile> files, const RuleSet& rules, const PriceTable& prices,
                 const std::string& root = {});

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_ANALYZE_H_
