// Custom policies (docs/policies.md): teams' own rules over the workload attributes,
// from `policies:` in .sagelint.yaml and the files `policy_files:` lists.
#ifndef SAGELINT_LINTER_POLICY_POLICY_H_
#define SAGELINT_LINTER_POLICY_POLICY_H_

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/finding.h"
#include "linter/model/model.h"
#include "linter/policy/attributes.h"

// Named here only; policy.cc includes RE2 and yaml-cpp, so the engine and CLI
// files that include this header do not compile them.
namespace re2 {
class RE2;
}  // namespace re2
namespace YAML {
class Node;
}  // namespace YAML

namespace sagelint {

struct PolicyCondition {
  std::string attribute;
  std::string op;                   // equals, in, not_in, matches, not_matches, gt, ge, lt, le, exists
  std::vector<std::string> values;  // equals: one; in/not_in: several
  double number = 0;                // gt/ge/lt/le
  bool flag = false;                // exists
  std::shared_ptr<re2::RE2> regex;  // matches/not_matches
};

struct Policy {
  std::string id;
  Severity severity = Severity::kWarning;
  std::vector<WorkloadKind> kinds;
  std::vector<PolicyCondition> conditions;
  std::string message;
  std::string file;  // where it is defined
  int line = 0;
};

// The regular expressions of all custom policies of a configuration (its
// `policies:` and every file of `policy_files:`) together may compile to at
// most this many RE2 program instructions (RE2::ProgramSize); one alone is
// compiled with at most kPolicyRegexMaxMem bytes. Over either is a
// configuration error: a pattern such as '\pL{400}' compiles to 477,204
// instructions in about 0.3 s, so a thousand of them would stall every run.
inline constexpr int kPolicyRegexBudget = 100'000;
inline constexpr int64_t kPolicyRegexMaxMem = 1 << 20;

// Loads the policies of a config: `policies` (a YAML list, may be null) and
// `policy_files` (relative to `config_dir`, read from `files`; with a `root`,
// only inside it). Returns false with `error` ("<file>:<line>: policy ORG001:
// …") on the first invalid policy, on a file outside `root` or that cannot be
// read, and when the policies' regular expressions together exceed
// kPolicyRegexBudget.
bool LoadPolicies(const YAML::Node& policies, const std::string& config_path,
                  const std::vector<std::string>& policy_files, const std::string& config_dir, std::vector<Policy>* out,
                  std::string* error, const FileSource& files = DiskFiles(), const std::string& root = "");

// Whether every condition holds. `at` receives the position of the first
// condition's setting (if written), else stays as is.
bool PolicyMatches(const Policy& p, const Workload& w, const PriceTable* prices, SourceRange* at);

// One line describing the policy, for `sagelint rules` and `explain`.
std::string DescribePolicy(const Policy& p);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_POLICY_POLICY_H_
