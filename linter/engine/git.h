// Reading a git repository without touching its work tree or its index: the
// git command line's plumbing (rev-parse, ls-tree, cat-file, diff with
// --no-optional-locks), run without a shell. The git CLI is what every
// machine that has a repository already has; its object store formats
// (packs, deltas, alternates, partial clones) stay git's business.
#ifndef SAGELINT_LINTER_ENGINE_GIT_H_
#define SAGELINT_LINTER_ENGINE_GIT_H_

#include <cstdint>
#include <map>
#include <optional>
#include <string>

namespace sagelint {

// The top of the git work tree that contains `dir`; nullopt when there is none.
std::optional<std::string> GitTopLevel(const std::string& dir);

// The commit `ref` names in the repository at `top`; nullopt with `error` set
// when it names none.
std::optional<std::string> GitResolveCommit(const std::string& top, const std::string& ref, std::string* error);

struct MaterializeStats {
  int files = 0;
  int skipped_large = 0;  // blobs over the size bound, not written
};

// Writes the tree of `commit` into the empty directory `out_dir`: regular
// files and symbolic links (submodules are left out; blobs larger than
// `max_file_bytes` are not written, as a scan would not read them).
bool GitMaterialize(const std::string& top, const std::string& commit, const std::string& out_dir,
                    std::uint64_t max_file_bytes, MaterializeStats* stats, std::string* error);

// Files git's rename detection pairs between `commit` and the work tree:
// path at `commit` -> path in the work tree (both relative to `top`).
bool GitRenames(const std::string& top, const std::string& commit, std::map<std::string, std::string>* renames,
                std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_GIT_H_
