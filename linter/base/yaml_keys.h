// Strictness yaml-cpp lacks for configuration files: it keeps duplicate keys
// silently (a lookup sees the first, an iteration both).
#ifndef SAGELINT_LINTER_BASE_YAML_KEYS_H_
#define SAGELINT_LINTER_BASE_YAML_KEYS_H_

#include <yaml-cpp/yaml.h>

#include <string>

namespace sagelint {

// True if every mapping of the document has unique keys. Otherwise false with
// `error` = "<path>:<line>: duplicate key 'x'"; also false when aliases expand
// the document beyond 100,000 values or it nests deeper than 64 levels.
bool CheckYamlKeys(const YAML::Node& root, const std::string& path, std::string* error);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_YAML_KEYS_H_
