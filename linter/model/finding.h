// Findings: what rules report and emitters print.
#ifndef SAGELINT_LINTER_MODEL_FINDING_H_
#define SAGELINT_LINTER_MODEL_FINDING_H_

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/fix.h"
#include "linter/model/model.h"

namespace sagelint {

enum class Severity : std::uint8_t { kNote, kWarning, kError };
std::string_view SeverityName(Severity s);  // note|warning|error
std::optional<Severity> SeverityFromName(std::string_view name);

// The IAM condition key that prevents the finding's class organisation-wide.
struct IamHint {
  std::string condition_key;         // e.g. "sagemaker:InstanceTypes"
  std::vector<std::string> actions;  // e.g. {"sagemaker:CreateTrainingJob"}
  bool operator==(const IamHint&) const = default;
};

struct CostEstimate {
  std::string instance_type;
  int count = 1;
  std::optional<double> hourly_usd;           // price × count
  std::optional<double> monthly_usd;          // always-on resources only (730 h)
  std::optional<double> monthly_savings_usd;  // only when a concrete cheaper instance is named
  std::string basis;                          // how the figures were derived, or why there is no price
  std::string price_source;                   // where the hourly price was read; empty without a price
  std::string price_date;                     // the date of that source ("2026-07-03")
  bool operator==(const CostEstimate&) const = default;
};

struct Finding {
  std::string rule;  // SM401, ORG001
  std::string name;  // training-without-spot
  Severity severity = Severity::kWarning;
  std::string path;            // as displayed: relative to the working directory
  std::string root_path;       // relative to the scan root (identity; README "Adopting it")
  SourceRange range;           // the offending setting (or the resource if absent)
  SourceRange resource_range;  // the whole resource / call
  std::string resource;        // "SKLearn estimator 'est'"
  std::string message;
  std::string suggestion;
  std::string condition;  // "when condition UseGpu is true", empty if unconditional
  std::string value;      // the offending value ("ml.p3.2xlarge"), empty for an absent setting
  std::optional<IamHint> iam;
  std::optional<CostEstimate> cost;
  std::string fingerprint;
  Format format = Format::kCloudFormation;
  // The change that removes the finding (README "Fixes"), if the rule knows one
  // and the literal it edits is the workload's alone.
  std::optional<Fix> fix;
  // The workload's place among the workloads of its construct (engine only,
  // never printed): identical findings of a construct's instances or of all
  // its branches become one finding (README "Usage").
  ConstructMember member_of;
  // Why the finding has no fix (README "Fixes"): the literal the change would
  // edit is not the workload's own, a fix would break the workload, or the rule
  // has none. Empty when it has a fix.
  std::string fix_unavailable;
  bool operator==(const Finding&) const = default;
};

// Deterministic order: path, line, column, rule, message.
bool FindingLess(const Finding& a, const Finding& b);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_FINDING_H_
