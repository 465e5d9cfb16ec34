// File discovery: walk the given paths, skip tool directories, honour
// .gitignore and `exclude:`, never follow links out of the scanned root.
#ifndef SAGELINT_LINTER_ENGINE_DISCOVER_H_
#define SAGELINT_LINTER_ENGINE_DISCOVER_H_

#include <string>
#include <vector>

#include "linter/base/paths.h"

namespace sagelint {

enum class FileKind { kYamlOrJson, kTerraform, kTerraformJson, kTerraformVars, kPython, kNotebook, kOther };
FileKind KindOfPath(const std::string& path);

struct DiscoveredFile {
  std::string abs_path;
  std::string display;  // relative to the working directory, '/' separators
  FileKind kind = FileKind::kOther;
  bool named = false;   // passed by name on the command line
  std::string root;       // the scan root (absolute, canonical): see ScanRootOf
  std::string root_path;  // relative to `root`, '/' separators
};

// The scan root of a path (SPEC §2): the git work tree containing it (the
// nearest directory upward holding `.git`), else the directory itself (for a
// file: its directory). Absolute and canonical.
std::string ScanRootOf(const std::string& path);
// `abs` relative to `root`, with '/' ("." for the root itself).
std::string RootRelativePath(const std::string& abs, const std::string& root);

struct DiscoverOptions {
  std::vector<std::string> exclude;  // globs relative to exclude_base
  std::string exclude_base;          // directory of the config file (or the working directory)
  bool no_ignore = false;            // ignore .gitignore files
};

struct DiscoverResult {
  std::vector<DiscoveredFile> files;     // sorted by display path
  std::vector<std::string> missing;      // named paths that do not exist
  std::vector<std::string> skipped;      // "path: reason" for unreadable entries, link loops …
  std::vector<std::string> warnings;     // named directories that yield no file to scan
};

DiscoverResult Discover(const std::vector<std::string>& paths, const DiscoverOptions& opts);

// A DiscoveredFile for a path found outside the walk (a Terraform module's
// sibling or caller): kind, display path and scan-root-relative path filled in.
DiscoveredFile DescribeFile(const std::string& abs_path, const std::string& root, bool named);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DISCOVER_H_
