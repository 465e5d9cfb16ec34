#include "linter/base/embedded.h"

namespace sagelint {

std::string_view Embedded(std::string_view path) {
  for (const EmbeddedFile& f : EmbeddedFiles()) {
    if (f.path == path) return f.content;
  }
  return {};
}

}  // namespace sagelint
