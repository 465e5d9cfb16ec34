#include "linter/model/finding.h"

#include <tuple>

namespace sagelint {

std::string_view SeverityName(Severity s) {
  switch (s) {
    case Severity::kNote:
      return "note";
    case Severity::kWarning:
      return "warning";
    case Severity::kError:
      return "error";
  }
  return "warning";
}

std::optional<Severity> SeverityFromName(std::string_view name) {
  if (name == "note") return Severity::kNote;
  if (name == "warning") return Severity::kWarning;
  if (name == "error") return Severity::kError;
  return std::nullopt;
}

bool FindingLess(const Finding& a, const Finding& b) {
  return std::tie(a.path, a.range.begin.line, a.range.begin.column, a.rule, a.message, a.condition) <
         std::tie(b.path, b.range.begin.line, b.range.begin.column, b.rule, b.message, b.condition);
}

}  // namespace sagelint
