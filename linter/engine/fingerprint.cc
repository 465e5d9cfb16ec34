#include "linter/engine/fingerprint.h"

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <map>
#include <tuple>

#include "linter/base/paths.h"

namespace sagelint {
namespace {

// FNV-1a over length-delimited fields.
class Hash {
 public:
  Hash& Add(const std::string& s) {
    for (unsigned char c : s) Mix(c);
    Mix(0xff);
    return *this;
  }
  std::string Hex() const {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h_));
    return buf;
  }

 private:
  void Mix(unsigned char c) {
    h_ ^= c;
    h_ *= 1099511628211ull;
  }
  std::uint64_t h_ = 1469598103934665603ull;
};

}  // namespace

std::string RootRelative(const std::string& display_path, const std::string& root) {
  namespace fs = std::filesystem;
  if (root.empty()) return display_path;
  std::error_code ec;
  fs::path abs = fs::absolute(display_path, ec).lexically_normal();
  return PathBelow(abs.string(), fs::path(root).lexically_normal().string()).value_or(display_path);
}

std::vector<std::string> Fingerprints(const std::vector<Finding>& findings, bool with_path) {
  std::vector<std::string> out;
  out.reserve(findings.size());
  // Occurrences of each identity within its file, in line order.
  std::map<std::tuple<std::string, std::string, std::string, std::string, std::string>, int> seen;
  for (const Finding& f : findings) {
    int n = seen[{f.root_path, f.rule, f.resource, f.condition, f.value}]++;
    Hash h;
    h.Add("v2").Add(f.rule);
    if (with_path) h.Add(f.root_path);
    h.Add(f.resource).Add(f.condition).Add(f.value).Add(std::to_string(n));
    out.push_back(h.Hex());
  }
  return out;
}

void AssignFingerprints(std::vector<Finding>& findings) {
  std::vector<std::string> fps = Fingerprints(findings, true);
  for (size_t i = 0; i < findings.size(); ++i) findings[i].fingerprint = std::move(fps[i]);
}

std::string LegacyFingerprint(const Finding& f, const std::string& path) {
  return Hash().Add(f.rule).Add(path).Add(f.resource).Add(f.message).Add(f.condition).Hex();
}

}  // namespace sagelint
