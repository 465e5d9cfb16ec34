#include "linter/base/user_cache.h"

#include <cstdlib>

namespace sagelint {

std::string UserCacheDir() {
  const char* xdg = std::getenv("XDG_CACHE_HOME");
  if (xdg && *xdg) return std::string(xdg) + "/sagelint";
  const char* home = std::getenv("HOME");
  if (home && *home) return std::string(home) + "/.cache/sagelint";
  return {};
}

}  // namespace sagelint
