// The rules of one scan, resolved once from the configuration and the flags
// before any file is parsed: which rules run, at which severity, with which
// options, and the custom policies. The engine and the rules read only this.
#ifndef SAGELINT_LINTER_ENGINE_RULE_SET_H_
#define SAGELINT_LINTER_ENGINE_RULE_SET_H_

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "linter/cost/datasets.h"
#include "linter/model/finding.h"
#include "linter/model/rule.h"
#include "linter/policy/policy.h"

namespace sagelint {

// What the configuration says about one rule (`rules: {SM301: {...}}`).
struct RuleSetting {
  bool off = false;
  std::optional<Severity> severity;
  std::map<std::string, double> options;
  std::map<std::string, std::vector<std::string>> lists;  // glob-list options
};

// The raw choices a RuleSet is resolved from.
struct RuleSelection {
  std::map<std::string, RuleSetting> settings;  // config `rules:`
  std::set<std::string> select;                 // --select; empty = every rule
  std::set<std::string> ignore;                 // --ignore
  std::vector<Policy> policies;                 // custom policies
  DatasetSizes datasets;                        // sizes SM301 reads
  bool report_unused_ignores = false;
};

// A built-in rule with a check function, as it runs in this scan.
struct ActiveRule {
  const RuleInfo* info = nullptr;
  Severity severity = Severity::kWarning;
  RuleContext ctx;  // options with defaults applied
  bool AppliesTo(WorkloadKind kind) const;
};

// A custom policy as it runs in this scan.
struct ActivePolicy {
  const Policy* policy = nullptr;
  Severity severity = Severity::kWarning;
};

class RuleSet {
 public:
  static RuleSet Resolve(RuleSelection selection);

  // Enabled built-in rules that have a check, in ID order.
  const std::vector<ActiveRule>& checks() const { return checks_; }
  // Enabled custom policies, in configuration order.
  const std::vector<ActivePolicy>& policies() const { return policies_; }
  // Every custom policy, enabled or not (for outputs that describe them).
  const std::vector<Policy>& all_policies() const { return *all_policies_; }

  // Whether a rule or policy runs; SM000 and SM001 are never hidden by --select.
  bool Enabled(std::string_view id) const;
  // The effective severity of an enabled rule or policy.
  Severity SeverityOf(std::string_view id) const;
  // A built-in rule or a custom policy of this configuration.
  bool Known(std::string_view id) const;
  bool report_unused_ignores() const { return report_unused_ignores_; }

 private:
  struct Entry {
    bool enabled = false;
    Severity severity = Severity::kWarning;
  };
  std::map<std::string, Entry, std::less<>> entries_;
  std::vector<ActiveRule> checks_;
  std::vector<ActivePolicy> policies_;
  // Shared so that the pointers rules and policies hold stay valid when the set is moved.
  std::shared_ptr<const std::vector<Policy>> all_policies_;
  std::shared_ptr<const DatasetSizes> datasets_;
  bool report_unused_ignores_ = false;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_RULE_SET_H_
