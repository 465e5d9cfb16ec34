// A list of a JSON document written as text (linter/report/emit.h
// WriteJsonWithList): for an output whose elements are written straight to
// text rather than made as trees first (the scan JSON's findings,
// docs/organisation.md "Warm scans").
#ifndef SAGELINT_LINTER_REPORT_JSON_LIST_H_
#define SAGELINT_LINTER_REPORT_JSON_LIST_H_

#include <cstddef>
#include <functional>
#include <nlohmann/json_fwd.hpp>
#include <ostream>
#include <string>
#include <string_view>

namespace sagelint {

// WriteJsonWithList with each element given as text: `element(i, indent,
// &text)` appends element i laid out as DumpJson lays a document out, each
// line after its first starting with `indent` (the element's place in the
// document).
void WriteJsonWithTextList(std::ostream& out, const nlohmann::ordered_json& doc, size_t count,
                           const std::function<void(size_t, std::string_view, std::string*)>& element);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_REPORT_JSON_LIST_H_
