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

namespace sagelint {
class PriceTable;
}

namespace sagelint::rules {

// Calls `fn` for every known alternative of `v`.
void ForEachKnown(const Val& v, const std::function<void(const Val&)>& fn);

// Calls `fn` for every alternative of `v` that leaves the setting unset —
// but only when the workload is fully visible, so absence is certain.
void ForEachAbsent(const Workload& w, const Val& v, const std::function<void(const Val&)>& fn);

// One known instance type a workload runs, with what bills alongside it.
struct InstanceUse {
  const Val& type;    // the known alternative
  InstanceInfo info;  // its catalog entry
  const Val& count;   // the count that goes with it (the job's, the group's); absent for notebooks and Studio apps
  std::string group;  // the instance group's name, empty outside heterogeneous clusters
};

// Calls `fn` for every known instance type of `w` that the catalog knows: its
// own, every instance group's, and its Studio apps'.
void ForEachInstance(const Workload& w, const std::function<void(const InstanceUse&)>& fn);

// The billed count of a count value: the known number, else 1 (one instance
// is the least that runs).
double BilledCount(const Val& count);

// A cost request for `count` instances of `instance_type`.
CostRequest Cost(std::string instance_type, double count, bool always_on, std::string cheaper_instance = {});

// What a finding about one instance use costs: its type × its count.
CostRequest UseCost(const Workload& w, const InstanceUse& use, std::string cheaper_instance = {});
// What a finding about the whole workload costs: every known type × its
// count, every instance group included, monthly when the kind is always on
// (AlwaysOn); nullopt when no type is known.
std::optional<CostRequest> WorkloadCost(const Workload& w);

// The price table rules compare prices in: the scan's, else the built-in one.
const PriceTable& Prices(const RuleContext& ctx);

// "ml.p3.2xlarge" -> "2xlarge".
std::string_view SizeOf(std::string_view instance_type);

// The type of `family` the API accepts for `kind` whose size is nearest to
// `size` (the same size if offered; between two equally near, the smaller).
// Empty when the family has no offered type. A kind without a list accepts
// every size of the family's catalog.
std::string NearestOffered(std::optional<OfferKind> kind, std::string_view family, std::string_view size);

// The first of `candidates` the API accepts for `kind`; empty if none.
std::string FirstOffered(std::optional<OfferKind> kind, std::initializer_list<std::string> candidates);

// A Report at `v`'s position, carrying `v`'s condition.
Report At(const Val& v);

// The runtime limit the training API applies when a job sets none.
inline constexpr double kDefaultMaxRunSeconds = 86400;
// A number of seconds as a whole number ("86400").
std::string WholeSeconds(double seconds);

// A job's max run: its own, or the API default where it sets none; nullopt
// when it cannot be known.
std::optional<double> MaxRunSeconds(const Workload& w);

// Fixes (README "Fixes"). The change that makes `v`'s literal say `text`; nullopt
// when `v` is not one literal the workload alone reads (Val::literal).
std::optional<FixChange> ReplaceChange(const Val& v, std::string text);
// The setting `field` (FixChange) with the JSON value `json` added to the
// container at `container`.
FixChange InsertChange(const SourceRange& container, std::string field, std::string json);
// The setting `field` whose value `v` is removed; nullopt where `v` has no position.
std::optional<FixChange> RemoveChange(const Val& v, std::string field);
// A fix of `changes` (none when `changes` is empty).
std::optional<Fix> MakeFix(Applicability applicability, std::string message, std::vector<FixChange> changes);
// The usual instance type fix: its literal replaced by `type`.
std::optional<Fix> InstanceTypeFix(const Val& v, const std::string& type, Applicability applicability);
// Why `v`'s literal cannot be replaced (ReplaceChange gives nothing): it is
// unknown, differs between alternatives, or is not one literal of the workload's.
std::string NoReplaceReason(const Val& v);
// Sets `r.fix` to the instance type fix of `v` (replaced by `type`), or says
// in `r.fix_unavailable` why there is none: no literal to edit, or a model
// image built for one instance family (Neo), which a new type would break.
void SetInstanceTypeFix(Report& r, const Workload& w, const Val& v, const std::string& type,
                        Applicability applicability);

}  // namespace sagelint::rules

#endif  // SAGELINT_RULES_RULE_UTIL_H_
