// The user's cache directory for sagelint: the price tables `sagelint prices
// update` keeps (docs/cost-data.md) and the parsed results of warm scans
// (README "Large repositories") live under it.
#ifndef SAGELINT_LINTER_BASE_USER_CACHE_H_
#define SAGELINT_LINTER_BASE_USER_CACHE_H_

#include <string>

namespace sagelint {

// $XDG_CACHE_HOME/sagelint, else $HOME/.cache/sagelint; empty when neither is set.
std::string UserCacheDir();

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_USER_CACHE_H_
