// What the binary was built from, for `sagelint --version`.
#ifndef SAGELINT_LINTER_BASE_BUILD_INFO_H_
#define SAGELINT_LINTER_BASE_BUILD_INFO_H_

#include <string_view>

namespace sagelint {

// The git commit of the sources ("1a2b3c4d5e6f", "…-dirty" when tracked files
// differed from it); empty when they were not a git checkout. Written at build
// time by cmake/commit.cmake.
std::string_view BuildCommit();

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_BUILD_INFO_H_
