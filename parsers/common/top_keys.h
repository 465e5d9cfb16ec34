// The keys of a document's top-level mapping, read without building the
// document: enough to tell a CloudFormation template or a Terraform plan from
// any other JSON or YAML file at the cost of one pass over its bytes.
#ifndef SAGELINT_PARSERS_COMMON_TOP_KEYS_H_
#define SAGELINT_PARSERS_COMMON_TOP_KEYS_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

// JSON (the text starts with '{' after a BOM and blanks): the names of the
// object's members, in order. YAML in block style: the keys written at the
// start of a line, of every document of the file. An empty list for a
// document that is not a mapping (a JSON array or scalar, a YAML sequence).
// nullopt when one pass cannot tell (flow-style or malformed text, a line at
// column 0 that is not a key): the caller then decides by other means.
std::optional<std::vector<std::string>> TopLevelKeys(std::string_view text);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_COMMON_TOP_KEYS_H_
