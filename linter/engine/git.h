// Reading a git repository without touching its work tree or its index: the
// git command line's plumbing (rev-parse, ls-tree, cat-file, diff with
// --no-optional-locks), run without a shell. The git CLI is what every
// machine that has a repository already has; its object store formats
// (packs, deltas, alternates, partial clones) stay git's business.
#ifndef SAGELINT_LINTER_ENGINE_GIT_H_
#define SAGELINT_LINTER_ENGINE_GIT_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/base/file_source.h"

namespace sagelint {

// The top of the git work tree that contains `dir`; nullopt when there is none.
std::optional<std::string> GitTopLevel(const std::string& dir);

// The commit `ref` names in the repository at `top`; nullopt with `error` set
// when it names none.
std::optional<std::string> GitResolveCommit(const std::string& top, const std::string& ref, std::string* error);

// Files git's rename detection pairs between `commit` and the work tree,
// among `paths` (relative to `top`; empty: everywhere): path at `commit` ->
// path in the work tree (both relative to `top`).
bool GitRenames(const std::string& top, const std::string& commit, const std::vector<std::string>& paths,
                std::map<std::string, std::string>* renames, std::string* error);

// The files of the work tree at `top` that git would commit: the tracked
// ones and the untracked ones that no ignore rule covers (`git ls-files -z
// --cached --others --exclude-standard`), each handed to `each` relative to
// `top` (a file of a merge conflict may come once per stage). False with
// `error` when git cannot list them; `not_a_repository` says whether git
// found no repository there (a directory named .git that is not one).
bool GitListFiles(const std::string& top, const std::function<void(std::string_view)>& each, std::string* error,
                  bool* not_a_repository);

// Bounds on what the base side of a diff reads from git (docs/security.md).
struct GitTreeLimits {
  std::uint64_t max_bytes = std::uint64_t{1} << 30;  // objects read: trees, files, link targets
  std::uint64_t max_entries = 1'000'000;             // tree entries listed
};

// The tree of a commit as a read-only file system, presented at `mount` (the
// work tree's top, so that both sides of a diff have the same paths), read
// from the object store on demand: a directory is listed when it is first
// looked at, a file's content fetched when it is read, through one `git
// cat-file --batch` process (and one `--batch-check` for sizes). Nothing is
// written anywhere. Symbolic links resolve inside the tree only (an absolute
// target, or one that climbs above the top, is not followed); a name listed
// twice in one tree (a hostile tree object) is not read at all; submodules
// are absent. An object git cannot read (a blob missing from a partial
// clone) makes its file absent, with a note; the reads stop, with a note,
// once `limits` are spent. Paths outside `mount` are absent, except files
// allowed from the disk (options of the command line).
class GitTreeFiles final : public FileSource {
 public:
  // Opens the tree of `commit` (a full object id) of the repository at `top`;
  // nullptr with `error` set when git cannot read it.
  static std::unique_ptr<GitTreeFiles> Open(const std::string& top, const std::string& commit, const std::string& mount,
                                            const GitTreeLimits& limits, std::string* error);
  // The same over objects held in memory (object id -> type and content), for
  // tests and fuzzing: what git's object store would give, without git.
  struct Object {
    std::string type;  // "tree", "blob"
    std::string content;
  };
  static std::unique_ptr<GitTreeFiles> FromObjects(std::map<std::string, Object> objects, const std::string& root_tree,
                                                   const std::string& mount, const GitTreeLimits& limits);
  ~GitTreeFiles() override;

  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override;
  FileType Type(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::optional<std::string> Canonical(const std::string& path) const override;
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override;
  std::optional<std::uintmax_t> FileSize(const std::string& path) const override;
  // Whether `path`, its links followed, lies outside `root`: a link out of
  // the tree (an absolute target, or one that climbs above the top) does,
  // whatever its target; false when its links loop.
  bool Outside(const std::string& path, const std::string& root) const;

  // A file outside the tree that is read from the disk (a --var-file or
  // --param-file that lies outside the work tree).
  void AllowDiskFile(const std::string& abs_path);
  // What could not be read, each once: unreadable objects, names listed
  // twice, links not followed out of the tree, limits reached.
  std::vector<std::string> Notes() const;
  // Bytes of objects read so far.
  std::uint64_t bytes_read() const;

 private:
  struct State;
  explicit GitTreeFiles(std::unique_ptr<State> state);
  std::unique_ptr<State> state_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_GIT_H_
