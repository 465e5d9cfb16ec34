// How paths are shown to users.
#ifndef SAGELINT_LINTER_BASE_PATHS_H_
#define SAGELINT_LINTER_BASE_PATHS_H_

#include <optional>
#include <string>
#include <string_view>

namespace sagelint {

// The display form of a path: relative to the working directory, with '/'.
std::string DisplayPath(const std::string& path);

// `path` relative to `root` ("." for the root itself) when it lies at or below
// it, compared as written — no link is resolved; nullopt otherwise, or when
// `root` is empty. Every "is it inside the root" question is asked here.
std::optional<std::string> PathBelow(const std::string& path, const std::string& root);

// The directory of a '/'-separated path, as written: "a/b" of "a/b/c.py", ""
// for a bare name, "/" for a name in the root directory.
std::string DirOf(std::string_view path);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_PATHS_H_
