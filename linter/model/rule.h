// What a rule is: metadata plus a check over one workload.
#ifndef SAGELINT_LINTER_MODEL_RULE_H_
#define SAGELINT_LINTER_MODEL_RULE_H_

#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/model/finding.h"
#include "linter/model/model.h"

namespace sagelint {

class DatasetSizes;  // linter/cost/datasets.h
class PriceTable;    // linter/cost/prices.h

struct RuleOption {
  enum class Type : std::uint8_t { kNumber, kGlobs };
  std::string_view name;  // e.g. "threshold_gb"
  double default_value;   // kNumber; a kGlobs option defaults to no pattern
  std::string_view help;
  Type type = Type::kNumber;  // kGlobs: a list of glob patterns ("ml.p4d.*")
};

// What a rule wants priced: the engine turns it into a CostEstimate.
struct CostRequest {
  std::string instance_type;
  double count = 1;
  bool always_on = false;        // notebooks, endpoints, Studio defaults: monthly figure
  std::string cheaper_instance;  // a concrete cheaper instance the suggestion names
  bool spot = false;             // savings from managed Spot: stated as a range
  // The other instance groups of a heterogeneous cluster, priced and added
  // to the hourly figure: {instance type, count}.
  std::vector<std::pair<std::string, double>> other_groups;
  // The whole monthly cost is the saving: deleting the resource stops it
  // (rules/SM213.md: an endpoint a notebook never deletes).
  bool saving_is_deletion = false;
};

struct Report {
  SourceRange at;  // the offending setting; invalid = the workload's range
  std::string message;
  std::string suggestion;
  std::string condition;  // when the finding holds (from a conditional value)
  std::string value;      // the offending value, part of the finding's identity
  // Without a fix: why (README "Fixes"); the engine supplies a reason otherwise.
  std::string fix_unavailable;
  // Set only when the statement itself names the actions (SM501); otherwise
  // the engine takes the hint for the rule from the IAM key table.
  std::optional<IamHint> iam;
  std::optional<CostRequest> cost;
  std::optional<Fix> fix;  // its changes only: the scan resolves them into edits
  // At most this severity, whatever the rule's (SM501: a role only AWS
  // services can assume is a note, rules/SM501.md).
  std::optional<Severity> at_most;
};

class Sink {
 public:
  virtual ~Sink() = default;
  virtual void Emit(const Workload& w, Report r) = 0;
};

struct RuleContext {
  std::map<std::string, double> options;                  // the rule's options, defaults applied
  std::map<std::string, std::vector<std::string>> lists;  // its glob-list options (absent: none)
  const DatasetSizes* datasets = nullptr;                 // known sizes of S3 prefixes (SM301)
  const PriceTable* prices = nullptr;  // the scan's price table (SM005, SM104); null = the built-in one
  double Option(std::string_view name) const;
  const std::vector<std::string>& List(std::string_view name) const;
};

using CheckFn = void (*)(const Workload& w, const RuleContext& ctx, Sink& sink);

struct Guardrail;       // linter/iam/iam_policy.h
struct GuardrailInput;  // linter/iam/iam_policy.h
// Writes the guardrail of a rule's class: its Deny statements and what the
// user completes before applying them (linter/iam/guardrails.h).
using GuardrailFn = void (*)(const GuardrailInput& in, Guardrail* out);

// What IAM can do about a rule's class, organisation-wide. A rule with a
// check has exactly one of the two (tested over AllRules()).
struct RuleIam {
  std::string_view condition_key = {};  // the key that prevents the class ("sagemaker:InstanceTypes")
  std::string_view without_key = {};    // else why no key can: only this check, run in CI, enforces it
  GuardrailFn guardrail = nullptr;      // the statements `sagelint iam-policy` writes; nullptr: none
};

// What the engine checks before it keeps a rule's fix (linter/engine/fix_reasons.cc).
enum class FixCaveat : std::uint8_t {
  kNone,
  kNeoCompiled,       // the fix changes the instance type: refused where the file compiles the model with Neo
  kPipeModeReader,    // the fix leaves Pipe mode: refused where the script reads PipeModeDataset
  kStepFunctionsTask  // a CDK Step Functions training task cannot take the change at all
};

// A rule's fix (README "Fixes").
struct RuleFixInfo {
  std::optional<Applicability> applicability = std::nullopt;  // nullopt: the rule has none
  std::string_view none_because = {};  // a rule without one: why (empty: "<id> has no automatic fix")
  FixCaveat caveat = FixCaveat::kNone;
};

struct RuleInfo {
  std::string_view id;                   // SM401
  std::string_view name;                 // training-without-spot
  Severity severity;                     // default severity
  std::string_view summary;              // one sentence used everywhere
  std::vector<WorkloadKind> kinds = {};  // workloads the rule applies to
  std::vector<RuleOption> options = {};
  RuleIam iam = {};
  CheckFn check = nullptr;  // nullptr: reported by the engine (tool_rule below)
  RuleFixInfo fix = {};
  bool always_enabled = false;  // never turned off by --select: a file that was not (fully) checked must show
};

// The rules the engine, not a check, reports (their rows: rules/registry.cc;
// a test asserts each is one).
namespace tool_rule {
inline constexpr std::string_view kParseError = "SM000";
inline constexpr std::string_view kInternalError = "SM001";
inline constexpr std::string_view kUnknownSuppressionRule = "SM002";
inline constexpr std::string_view kUnusedSuppression = "SM003";
inline constexpr std::string_view kUnknownInstanceType = "SM004";
inline constexpr std::string_view kGateConfigWeakened = "SM006";
inline constexpr std::string_view kEvaluationIncomplete = "SM007";
inline constexpr std::string_view kFileNotScanned = "SM008";
}  // namespace tool_rule

// The registered rules, sorted by ID (rules/registry.cc).
std::span<const RuleInfo> AllRules();
const RuleInfo* FindRule(std::string_view id);
// The rule whose kebab-case name is `name` (previous-generation-instance).
const RuleInfo* FindRuleByName(std::string_view name);
// Whether the rule's findings can carry a fix and of which kind (README "Fixes");
// nullopt: the rule has none.
std::optional<Applicability> RuleFix(std::string_view id);
// The rule's documentation (markdown, rules/<id>.md), embedded at build time.
std::string_view RuleDoc(std::string_view id);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MODEL_RULE_H_
