// Comparing two scans of the same paths (the work tree and a git revision):
// new and resolved findings by file-local fingerprint, following renames,
// and the change in SageMaker spend per workload (README "Adopting it").
#ifndef SAGELINT_LINTER_ENGINE_DIFF_H_
#define SAGELINT_LINTER_ENGINE_DIFF_H_

#include <map>
#include <string>

#include "linter/model/diff_result.h"
#include "linter/model/scan_result.h"

namespace sagelint {

class FileSource;
class PriceTable;

struct DiffSides {
  std::string head_root;                       // the work tree's top
  std::string base_root;                       // where the base revision's tree was written
  std::map<std::string, std::string> renames;  // base path -> work tree path, relative to the roots
  // Each side's files, to tell which files the change touched; without them
  // every finding stays where its scan placed it.
  const FileSource* head_files = nullptr;
  const FileSource* base_files = nullptr;
};

// `base` findings and workloads get the paths their files have in the work
// tree (a renamed file's new path; a removed file's old path under the work tree).
// A new finding in a called Terraform module's file that the change did not
// touch is placed where the change reached it: where its value was written,
// if that file changed, else at the root module's `module` block, if that
// file changed; the message names the module's line. Its fingerprint stays.
DiffResult CompareScans(ScanResult head, ScanResult base, const DiffSides& sides, const PriceTable& prices);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DIFF_H_
