// Comparing two scans of the same paths (the work tree and a git revision):
// new and resolved findings by file-local fingerprint, following renames,
// and the change in SageMaker spend per workload (SPEC §9).
#ifndef SAGELINT_LINTER_ENGINE_DIFF_H_
#define SAGELINT_LINTER_ENGINE_DIFF_H_

#include <map>
#include <string>

#include "linter/model/diff_result.h"
#include "linter/model/scan_result.h"

namespace sagelint {

class PriceTable;

struct DiffSides {
  std::string head_root;                       // the work tree's top
  std::string base_root;                       // where the base revision's tree was written
  std::map<std::string, std::string> renames;  // base path -> work tree path, relative to the roots
};

// `base` findings and workloads get the paths their files have in the work
// tree (a renamed file's new path; a removed file's old path under the work tree).
DiffResult CompareScans(ScanResult head, ScanResult base, const DiffSides& sides, const PriceTable& prices);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DIFF_H_
