// Terraform's built-in functions over evaluated values (those that need no
// file system), and the comparisons the evaluator shares with them.
#ifndef SAGELINT_PARSERS_TERRAFORM_FUNCTIONS_H_
#define SAGELINT_PARSERS_TERRAFORM_FUNCTIONS_H_

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/terraform/value.h"

namespace sagelint::tf {

TfVal MakeKnown(TfVal::Kind kind, std::string text, SourceRange r, std::string origin = {});
TfVal MakeNull(SourceRange r);
TfVal MakeError(SourceRange r, std::string why);
std::string NumText(double d);

// Equality as Terraform's `==` sees it; nullopt when either side is unknown.
std::optional<bool> Equal(const TfVal& a, const TfVal& b);

// The elements a for expression, for_each or dynamic block iterates over, in
// Terraform's order (lists by index, maps and sets by key): {key, value}.
// nullopt when the collection is not known.
std::optional<std::vector<std::pair<TfVal, TfVal>>> Elements(const TfVal& collection);

// Deep copy of `v` with every range set to `at` (a value used away from where it was written).
TfVal Rehome(TfVal v, SourceRange at);

// The size of a value: its nodes (the value, its elements and fields, at
// every level) and the bytes of text it holds. Counting stops past `limit` nodes.
struct ValueSize {
  size_t nodes = 0;
  size_t bytes = 0;
};
ValueSize SizeOf(const TfVal& v, size_t limit = SIZE_MAX);

// What one value may grow to (docs/terraform.md, "Budget"): past either
// limit it is unknown and the evaluation says so (SM007).
inline constexpr size_t kMaxValueBytes = 4u << 20;
inline constexpr size_t kMaxValueNodes = 25'000;
inline bool Oversized(const ValueSize& s) { return s.bytes > kMaxValueBytes || s.nodes > kMaxValueNodes; }

// What a built-in call may do: its result is unknown past one value's limits
// (`too_large` is then set), and `work` counts what it compares beyond one
// step per element (the caller's step budget pays for it).
struct CallCost {
  bool too_large = false;
  long work = 0;
};

// Calls a built-in function; nullopt if sagelint does not evaluate it (the
// result is then unknown). An argument that failed makes the result fail,
// except in try() and can().
std::optional<TfVal> CallBuiltin(std::string_view name, const std::vector<TfVal>& args, SourceRange at, CallCost* cost);

}  // namespace sagelint::tf

#endif  // SAGELINT_PARSERS_TERRAFORM_FUNCTIONS_H_
