// Files compiled into the binary (rule docs, instance catalog, price table).
#ifndef SAGELINT_LINTER_BASE_EMBEDDED_H_
#define SAGELINT_LINTER_BASE_EMBEDDED_H_

#include <string_view>
#include <vector>

namespace sagelint {

struct EmbeddedFile {
  std::string_view path;  // relative to the source root, e.g. "rules/SM401.md"
  std::string_view content;
};

const std::vector<EmbeddedFile>& EmbeddedFiles();
// The content of an embedded file, or an empty view if there is none.
std::string_view Embedded(std::string_view path);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_EMBEDDED_H_
