// Small helpers shared by the rule checks.
#ifndef SAGELINT_RULES_RULE_UTIL_H_
#define SAGELINT_RULES_RULE_UTIL_H_

#include <functional>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/catalog.h"
#include "linter/model/model.h"
#include "linter/model/rule.h"

namespace sagelint::rules {

// Calls `fn` for every known alternative of `v`.
void ForEachKnown(const Val& v, const std::function<void(const Val&)>& fn);

// Calls `fn` for every alternative of `v` that leaves the setting unset —
// but only when the workload is fully visible, so absence is certain.
void ForEachAbsent(const Workload& w, const Val& v, const std::function<void(const Val&)>& fn);

// Calls `fn` for every known instance type of `w` (its own and its Studio
// apps') that the catalog knows, with the catalog entry.
void ForEachInstance(const Workload& w,
                     const std::function<void(const Val& type, const InstanceInfo& info)>& fn);

// "ml.p3.2xlarge" -> "ml.<family>.2xlarge" if "2xlarge" is one of `sizes`,
// else "ml.<family>.<fallback_size>".
std::string SameSize(std::string_view instance_type, std::string_view family,
                     std::initializer_list<std::string_view> sizes, std::string_view fallback_size);

// A Report at `v`'s position, carrying `v`'s condition.
Report At(const Val& v);

}  // namespace sagelint::rules

#endif  // SAGELINT_RULES_RULE_UTIL_H_
