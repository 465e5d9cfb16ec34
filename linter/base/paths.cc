#include "linter/base/paths.h"

#include <filesystem>

namespace sagelint {
namespace fs = std::filesystem;

std::string DisplayPath(const std::string& path) {
  std::error_code ec;
  fs::path cwd = fs::current_path(ec);
  fs::path p = fs::absolute(path, ec).lexically_normal();
  fs::path rel = p.lexically_relative(cwd);
  std::string s = rel.empty() ? p.generic_string() : rel.generic_string();
  return s.empty() ? "." : s;
}

std::optional<std::string> PathBelow(const std::string& path, const std::string& root) {
  if (root.empty()) return std::nullopt;
  fs::path rel = fs::path(path).lexically_relative(root);
  if (rel.empty() || *rel.begin() == "..") return std::nullopt;
  std::string s = rel.generic_string();
  return s.empty() ? "." : s;
}

std::string DirOf(std::string_view path) {
  size_t slash = path.rfind('/');
  if (slash == std::string_view::npos) return {};
  return slash == 0 ? "/" : std::string(path.substr(0, slash));
}

}  // namespace sagelint
