// File discovery: walk the given paths, skip tool directories, honour
// `exclude:` and — in a git work tree — git's own list of its files (else
// .gitignore), never follow links out of the scan root.
#ifndef SAGELINT_LINTER_ENGINE_DISCOVER_H_
#define SAGELINT_LINTER_ENGINE_DISCOVER_H_

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/base/paths.h"

namespace sagelint {

struct FrontEnd;  // linter/engine/front_ends.h

// What the discovered files of one directory share, so that a file keeps only
// its name: each path is a prefix ending in '/' (or empty), and a file's path
// is its directory's prefix followed by its name.
struct DirPaths {
  std::string abs_path;
  std::string display;    // relative to the working directory, '/' separators
  std::string root_path;  // relative to `root`, '/' separators
  std::string root;       // the scan root (absolute, canonical): see ScanRootOf
};

struct DiscoveredFile {
  std::shared_ptr<const DirPaths> dir;
  // Empty when `dir` holds the file's own paths: a file named through a link,
  // whose display or root path its directory's does not lead to.
  std::string name;
  // The front end that reads files of its name (nullptr: none; kept only when named).
  const FrontEnd* front_end = nullptr;
  bool named = false;  // passed by name on the command line

  std::string abs_path() const { return dir->abs_path + name; }
  std::string display() const { return dir->display + name; }
  const std::string& root() const { return dir->root; }
  std::string root_path() const { return dir->root_path + name; }
  // Read with the other files of its directory (a Terraform module).
  bool in_module() const;
};

// The scan root of a path (README "Usage"): the git work tree containing it (the
// nearest directory upward holding `.git`), else the directory itself (for a
// file: its directory). Absolute and canonical.
std::string ScanRootOf(const std::string& path, const FileSource& files = DiskFiles());
// `abs` relative to `root`, with '/' ("." for the root itself).
std::string RootRelativePath(const std::string& abs, const std::string& root, const FileSource& files = DiskFiles());

struct DiscoverOptions {
  std::vector<std::string> exclude;        // globs relative to exclude_base
  std::string exclude_base;                // directory of the config file (or the working directory)
  bool no_ignore = false;                  // ignore .gitignore files
  const FileSource* files = &DiskFiles();  // where the tree is read
};

// A file of a scanned kind inside the scanned paths (or a directory that may
// hold some) that discovery did not read: a link out of the repository, a
// directory nested too deep or that cannot be listed, an entry that is not a
// regular file. Each is an SM008 warning (rules/SM008.md), never a line on
// standard error alone.
struct NotScanned {
  std::string display;                  // relative to the working directory, '/' separators
  std::string root_path;                // relative to the scan root
  const FrontEnd* front_end = nullptr;  // the front end of its name; nullptr for a directory
  std::string why;                      // the finding's message
};

struct DiscoverResult {
  std::vector<DiscoveredFile> files;  // sorted by display path
  std::vector<NotScanned> not_scanned;
  int found = 0;                      // files found (listed in `files`, or sent to a sink)
  std::vector<std::string> missing;   // named paths that do not exist
  std::vector<std::string> skipped;   // "path: reason" for unreadable entries, link loops …
  std::vector<std::string> warnings;  // named directories that yield no file to scan
};

DiscoverResult Discover(const std::vector<std::string>& paths, const DiscoverOptions& opts);

// Sorts files by display path and drops the second of two with the same path.
void SortAndDeduplicate(std::vector<DiscoveredFile>& files);

// Discover for one existing directory, handing each file to `sink` as the walk
// finds it instead of listing them: a scan starts parsing at once and keeps
// no list of the tree. The files come in walk order, not sorted; each comes
// once, as Discover de-duplicates them (a file reached through links comes
// after the walk, and not at all if the walk kept it where it lives).
DiscoverResult DiscoverDirectory(const std::string& dir, const DiscoverOptions& opts,
                                 const std::function<void(DiscoveredFile)>& sink);

// A DiscoveredFile for a path (absolute, normal) under the scan root `root`:
// front end, display path and scan-root-relative path filled in. Files described
// one after another in the same directory share `*dir` (nullptr: no sharing):
// the first one's paths are computed and shown to be its directory's plus its
// name, and the others' are then made that way without asking the file system.
// `front_end`: the file's front end when the caller knows it already (else from its name).
DiscoveredFile DescribeFile(const std::string& abs_path, const std::string& root, bool named,
                            std::shared_ptr<const DirPaths>* dir = nullptr, const FileSource& files = DiskFiles(),
                            std::optional<const FrontEnd*> front_end = std::nullopt);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_DISCOVER_H_
