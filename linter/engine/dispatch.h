// Which front end reads which file, and the units of parallel work: one file,
// or one Terraform root module (its files evaluated together with the local
// modules it calls).
#ifndef SAGELINT_LINTER_ENGINE_DISPATCH_H_
#define SAGELINT_LINTER_ENGINE_DISPATCH_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "linter/engine/analyze.h"
#include "linter/engine/discover.h"
#include "parsers/frontend.h"

namespace sagelint {

struct WorkUnit {
  std::vector<DiscoveredFile> files;  // one file, or a Terraform module directory's files
  bool terraform_module = false;
  // A Terraform module that another scanned module calls: it is evaluated
  // through those calls, so this unit reports only its files' syntax errors.
  bool syntax_only = false;
  // Terraform, pre-commit: the files named on the command line (display
  // paths) anywhere in the module tree; findings are reported for them only.
  std::vector<std::string> named;
  // The scan root of the unit's files.
  const std::string& root() const;
};

// The units of a scan: each file that is not Terraform alone (in the order
// given), and the Terraform modules.
struct Plan {
  std::vector<DiscoveredFile> files;
  std::vector<WorkUnit> modules;
};

// Groups files into units. A Terraform module directory is evaluated when it
// or a local module it calls (transitively, inside the scan root) mentions
// SageMaker; a module that another scanned module calls is evaluated only
// through the call. Files named alone (pre-commit) are evaluated from the
// root modules that reach their directory, found under their scan root
// (walked with `discover`'s exclusions).
// What the planner learns from a Terraform file's content: whether it
// mentions SageMaker, and the sources of its local module calls as written.
struct TerraformFileFacts {
  bool mentions = false;
  std::vector<std::string> sources;
  bool operator==(const TerraformFileFacts&) const = default;
};
// The facts of `file` whose content is `text`.
TerraformFileFacts TerraformFactsOf(const DiscoveredFile& file, const std::string& text);
// Where the planner takes a file's facts from; nullopt when it cannot be
// read. By default the planner reads the file; a warm scan's cache keeps
// them by the file's content (linter/engine/parse_cache.h).
using TerraformFacts = std::function<std::optional<TerraformFileFacts>(const DiscoveredFile&)>;

Plan PlanUnits(std::vector<DiscoveredFile> files, const DiscoverOptions& discover = {},
               const TerraformFacts* facts = nullptr);

// Parses a unit; never throws. A file that cannot be read is a result of its
// own that says so (NotScannedFile); what a front end read but did not
// evaluate is reported in `skipped`.
std::vector<ParsedFile> ParseUnit(const WorkUnit& unit, const ResolveOptions& opts, std::vector<std::string>* skipped);
// Parses a file that is a unit alone (not Terraform); never throws.
std::vector<ParsedFile> ParseFile(const DiscoveredFile& file, const ResolveOptions& opts,
                                  std::vector<std::string>* skipped);

// The result of a file (or directory) of the scan that was not read: its
// SM008 warning (rules/SM008.md), `why` its message.
ParsedFile NotScannedFile(std::string display, std::string root_path, Format format, std::string why);

// Reads a whole file (up to a size bound); false with `error` set on failure.
bool ReadWholeFile(const std::string& path, std::string* out, std::string* error);
bool ReadWholeFile(const FileSource& files, const std::string& path, std::string* out, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DISPATCH_H_
