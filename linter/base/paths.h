// How paths are shown to users.
#ifndef SAGELINT_LINTER_BASE_PATHS_H_
#define SAGELINT_LINTER_BASE_PATHS_H_

#include <string>

namespace sagelint {

// The display form of a path: relative to the working directory, with '/'.
std::string DisplayPath(const std::string& path);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_PATHS_H_
