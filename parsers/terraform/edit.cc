// Fix edits for this format (SPEC §13): see parsers/frontend.h.
#include "parsers/frontend.h"

namespace sagelint {

std::optional<TextEdit> EditTerraform(std::string_view text, const FixChange& change) {
  (void)text;
  (void)change;
  return std::nullopt;
}

}  // namespace sagelint
