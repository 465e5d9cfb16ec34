// The number of fields of an aggregate, for the tests that fail when a struct
// gains a field some code must carry (the packed findings, the cache's codec).
#ifndef SAGELINT_TESTS_FIELD_COUNT_H_
#define SAGELINT_TESTS_FIELD_COUNT_H_

#include <cstddef>

namespace sagelint::testing {

struct AnyField {
  template <typename T>
  operator T() const;  // never called: only used in unevaluated requires-expressions
};

// The most initializers the aggregate T accepts.
template <typename T, typename... Fields>
constexpr std::size_t FieldCount() {
  if constexpr (requires { T{Fields{}..., AnyField{}}; }) {
    return FieldCount<T, Fields..., AnyField>();
  } else {
    return sizeof...(Fields);
  }
}

}  // namespace sagelint::testing

#endif  // SAGELINT_TESTS_FIELD_COUNT_H_
