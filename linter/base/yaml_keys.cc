#include "linter/base/yaml_keys.h"

#include <set>
#include <utility>
#include <vector>

namespace sagelint {

bool CheckYamlKeys(const YAML::Node& root, const std::string& path, std::string* error) {
  // Aliases may repeat a subtree many times over: bound the walk, not only the file.
  constexpr size_t kMaxNodes = 100'000;
  size_t visited = 0;
  std::vector<std::pair<YAML::Node, int>> stack{{root, 0}};
  while (!stack.empty()) {
    auto [n, depth] = stack.back();
    stack.pop_back();
    if (++visited > kMaxNodes || depth > 64) {
      *error = path + ": more than " + std::to_string(kMaxNodes) + " values or 64 levels of nesting (YAML aliases?)";
      return false;
    }
    if (n.IsSequence()) {
      for (const auto& item : n) stack.emplace_back(item, depth + 1);
    } else if (n.IsMap()) {
      std::set<std::string> seen;
      for (const auto& kv : n) {
        if (kv.first.IsScalar() && !seen.insert(kv.first.Scalar()).second) {
          *error =
              path + ":" + std::to_string(kv.first.Mark().line + 1) + ": duplicate key '" + kv.first.Scalar() + "'";
          return false;
        }
        stack.emplace_back(kv.second, depth + 1);
      }
    }
  }
  return true;
}

}  // namespace sagelint
