// Findings as a scan holds them between a file's analysis and the report:
// every text once per scan. A finding's texts repeat across a tree (the same
// suggestion, IAM hint and cost basis for every finding of a rule, the same
// path for every finding of a file, the same message for a pattern copied
// between projects), so a held finding is its positions and pointers into
// one pool of distinct texts: about a sixth of its size as a `Finding`.
#ifndef SAGELINT_LINTER_ENGINE_FINDING_POOL_H_
#define SAGELINT_LINTER_ENGINE_FINDING_POOL_H_

#include <cstddef>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>

#include "linter/model/finding.h"

namespace sagelint {

// A finding whose texts live in a FindingPool; nullptr stands for "".
// Two packed findings of one pool are equal exactly when the findings are.
struct PackedFinding {
  struct Cost {
    const std::string* instance_type = nullptr;
    const std::string* basis = nullptr;
    const std::string* price_source = nullptr;
    const std::string* price_date = nullptr;
    int count = 1;
    std::optional<double> hourly_usd, monthly_usd, monthly_savings_usd;
    bool operator==(const Cost&) const = default;
  };
  const std::string *rule = nullptr, *name = nullptr, *path = nullptr, *root_path = nullptr;
  const std::string *resource = nullptr, *message = nullptr, *suggestion = nullptr;
  const std::string *condition = nullptr, *value = nullptr, *fingerprint = nullptr;
  const std::string* iam = nullptr;  // the condition key and actions, each length-prefixed; nullptr: no hint
  std::optional<Cost> cost;
  const std::string* fix = nullptr;              // FixToText; nullptr: no fix
  const std::string* fix_unavailable = nullptr;  // why there is no fix; nullptr: none said
  SourceRange range, resource_range;
  Severity severity = Severity::kWarning;
  Format format = Format::kCloudFormation;
  // The finding's ConstructMember: its construct and key as texts of the pool.
  ConstructMember::Kind member_kind = ConstructMember::Kind::kNone;
  const std::string *member_construct = nullptr, *member_key = nullptr;
  int member_count = 0;
  bool operator==(const PackedFinding&) const = default;
};

// How many fields of Finding and CostEstimate Pack and Unpack carry: a test
// counts the structs' fields and fails when one was added without being
// carried here.
inline constexpr size_t kPackedFindingFields = 19;
inline constexpr size_t kPackedCostFields = 8;

// The distinct texts of a scan's findings. Pack is safe to call from several
// threads at once; a packed finding stays valid as long as its pool.
class FindingPool {
 public:
  PackedFinding Pack(const Finding& f);
  static Finding Unpack(const PackedFinding& p);

 private:
  const std::string* Intern(std::string_view text);  // with mu_ held

  struct Hash {
    using is_transparent = void;
    size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::mutex mu_;
  // Nodes never move: pointers to the texts stay valid as the set grows.
  std::unordered_set<std::string, Hash, std::equal_to<>> texts_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_FINDING_POOL_H_
