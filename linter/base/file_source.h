// Where the files of a scan come from. A scan reads the disk; the base side
// of `sagelint diff` reads a git revision's tree from the object store,
// presented at the work tree's own path, so that both sides of a diff run the
// same code and the base side never writes or reads a file of the work tree.
// Every read of a scan goes through one FileSource: discovery and .gitignore
// files, the configuration and the files it names, the scanned files, and
// what evaluating them reads (Terraform modules, variable files and file(),
// CloudFormation parameter and included files).
#ifndef SAGELINT_LINTER_BASE_FILE_SOURCE_H_
#define SAGELINT_LINTER_BASE_FILE_SOURCE_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sagelint {

enum class FileType { kNone, kRegular, kDirectory, kOther };

struct DirEntry {
  std::string name;
  bool link = false;                // a symbolic link
  FileType type = FileType::kNone;  // after links (kNone: a dangling or refused link)
};

// A read-only view of a file system. Paths are absolute; links are resolved
// as the source resolves them (a git tree never leaves its own tree).
// Implementations may be used from several threads at once.
class FileSource {
 public:
  virtual ~FileSource() = default;
  // Reads the whole regular file at `path` (after links), at most `max_bytes`:
  // false with `error` set to a reason that does not repeat the path ("is a
  // directory", "not a regular file", "larger than 1 MiB", …).
  virtual bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const = 0;
  // What `path` is after links; kNone when it does not exist or cannot be reached.
  virtual FileType Type(const std::string& path) const = 0;
  // The entries of the directory `dir`, in no particular order ("." and ".." left out).
  virtual bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const = 0;
  // `path` with every link resolved; nullopt unless every component exists.
  virtual std::optional<std::string> Canonical(const std::string& path) const = 0;
  // Links resolved in the part of `path` that exists, the rest normalised
  // lexically (std::filesystem::weakly_canonical); nullopt on an error.
  virtual std::optional<std::string> WeaklyCanonical(const std::string& path) const = 0;
  // The size of a regular file (after links); nullopt otherwise.
  virtual std::optional<std::uintmax_t> FileSize(const std::string& path) const = 0;

  bool Exists(const std::string& path) const { return Type(path) != FileType::kNone; }
  bool IsDirectory(const std::string& path) const { return Type(path) == FileType::kDirectory; }
  bool IsRegularFile(const std::string& path) const { return Type(path) == FileType::kRegular; }
};

// The machine's file system, read through ReadFileCapped (files.h).
const FileSource& DiskFiles();

// `path` with its links resolved, if that lies inside `root` (itself
// resolved) or is `root`; nullopt otherwise. What a configuration names is
// read only through this check, so that neither `../` nor a link leads out.
std::optional<std::string> ResolveInside(const FileSource& files, const std::string& path, const std::string& root);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_FILE_SOURCE_H_
