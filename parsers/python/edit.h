// Fix edits of Python source (README "Fixes"): an argument or dict entry inserted
// beside its siblings, or removed with its comma. Shared by .py files and the
// code cells of notebooks.
#ifndef SAGELINT_PARSERS_PYTHON_EDIT_H_
#define SAGELINT_PARSERS_PYTHON_EDIT_H_

#include <optional>
#include <string_view>

#include "linter/model/fix.h"

namespace sagelint::py {

// The edit of Python text `src` for a kInsert or kRemove `change` whose range
// is in `src`'s own coordinates; nullopt where it cannot be written there.
std::optional<TextEdit> EditSource(std::string_view src, const FixChange& change);

// Whether `cls` names an SDK estimator class (PyTorch, Estimator, KMeans, …).
bool IsEstimatorClassName(std::string_view cls);

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_EDIT_H_
