// The attribute view of a workload (docs/policies.md): what `sagelint inventory`
// prints and what custom policies test.
#ifndef SAGELINT_LINTER_POLICY_ATTRIBUTES_H_
#define SAGELINT_LINTER_POLICY_ATTRIBUTES_H_

#include <nlohmann/json_fwd.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

class PriceTable;

enum class AttrType { kString, kNumber, kBool, kList };

struct AttrValue {
  enum class State { kAbsent, kUnknown, kKnown };
  State state = State::kAbsent;
  AttrType type = AttrType::kString;
  std::string text;  // string; numbers and booleans also as text
  double number = 0;
  bool boolean = false;
  std::vector<std::string> list;  // input_modes
  SourceRange range;              // where the setting is written, if anywhere
  bool known() const { return state == State::kKnown; }
};

struct AttrInfo {
  std::string_view name;
  AttrType type;
  std::string_view help;
};
// Every attribute, in the order docs/policies.md lists them.
const std::vector<AttrInfo>& Attributes();
const AttrInfo* FindAttribute(std::string_view name);

// The value of one attribute. `prices` is used for hourly_usd (may be null).
AttrValue Attribute(const Workload& w, std::string_view name, const PriceTable* prices);

// Every attribute that applies, as JSON (unknown values are null; absent ones are left out).
nlohmann::ordered_json AttributesJson(const Workload& w, const PriceTable* prices);

// What a workload runs on, as people say it: "ml.t3.medium", "2 × ml.g5.xlarge",
// a heterogeneous cluster's groups ("ml.m5.xlarge + 2 × ml.p3.2xlarge"), "?"
// for what cannot be resolved; empty when no instance type is written.
std::string InstancesText(const Workload& w);

// A Studio app on Studio's own `system` instance (the JupyterServer app):
// no ML instance bills for it.
bool OnSystemInstance(const Workload& w);

// An inference component as people say it: "2 copies × (1 accelerator,
// 1024 MB) on my-endpoint/AllTraffic", "?" for what cannot be resolved.
std::string ComponentText(const Workload& w);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_POLICY_ATTRIBUTES_H_
