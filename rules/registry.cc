// The one sorted table of built-in rules. Add a rule: write rules/smNNN_name.cc
// (its check), rules/SMNNN.md (its doc), declare the check in rules/checks.h,
// and add a row here, in ID order.
#include <algorithm>
#include <string>

#include "linter/embedded.h"
#include "linter/rule.h"
#include "rules/checks.h"

namespace sagelint {
namespace {

using K = WorkloadKind;

const std::vector<RuleInfo>& Table() {
  static const std::vector<RuleInfo> rules = {
      {"SM000", "parse-error", Severity::kError,
       "A file of a recognised kind cannot be parsed, so nothing in it was checked.", {}, {}, "",
       nullptr},
  };
  return rules;
}

}  // namespace

std::span<const RuleInfo> AllRules() { return Table(); }

const RuleInfo* FindRule(std::string_view id) {
  const auto& t = Table();
  auto it = std::lower_bound(t.begin(), t.end(), id,
                             [](const RuleInfo& r, std::string_view x) { return r.id < x; });
  return it != t.end() && it->id == id ? &*it : nullptr;
}

std::string_view RuleDoc(std::string_view id) {
  return Embedded("rules/" + std::string(id) + ".md");
}

double RuleContext::Option(std::string_view name) const {
  auto it = options.find(std::string(name));
  return it == options.end() ? 0 : it->second;
}

}  // namespace sagelint
