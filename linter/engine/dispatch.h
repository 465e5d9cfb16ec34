// Which front end reads which file, and the units of parallel work: one file,
// or one Terraform module directory (its files are evaluated together).
#ifndef SAGELINT_LINTER_ENGINE_DISPATCH_H_
#define SAGELINT_LINTER_ENGINE_DISPATCH_H_

#include <cstdint>
#include <string>
#include <vector>

#include "linter/engine/analyze.h"
#include "linter/engine/discover.h"
#include "parsers/frontend.h"

namespace sagelint {

struct WorkUnit {
  std::vector<DiscoveredFile> files;  // one file, or a Terraform module's files
  bool terraform_module = false;
  std::vector<std::string> report_only;  // Terraform: the named files (pre-commit); empty = all
};

std::vector<WorkUnit> PlanUnits(const std::vector<DiscoveredFile>& files);

// Parses a unit; never throws. Files that cannot be read are reported in `skipped`.
std::vector<ParsedFile> ParseUnit(const WorkUnit& unit, const ResolveOptions& opts,
                                  std::vector<std::string>* skipped);

// Larger files are not read: no SageMaker definition is this big, and
// reading them would cost memory for nothing.
inline constexpr std::uintmax_t kMaxReadBytes = 256u << 20;

// Reads a whole file (up to a size bound); false with `error` set on failure.
bool ReadWholeFile(const std::string& path, std::string* out, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DISPATCH_H_
