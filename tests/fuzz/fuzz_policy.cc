// Fuzzes custom policies: the configuration's `policies:` and one file of
// `policy_files:` (the input split at "\n--- policy file ---\n", the file
// served from memory), compiled under the regular expressions' budget, then
// matched against a workload of every kind. Any input is policies or a clear
// error; no regular expression compiles past its limits.
#include <re2/re2.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "linter/cli/config.h"
#include "linter/policy/policy.h"

namespace {

// One file, held in memory, at /fuzz/policies.yaml; nothing else exists.
class OneFile final : public sagelint::FileSource {
 public:
  explicit OneFile(std::string text) : text_(std::move(text)) {}
  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override {
    if (path != kPath) {
      *error = "No such file or directory";
      return false;
    }
    if (text_.size() > max_bytes) {
      *error = "too large";
      return false;
    }
    *out = text_;
    return true;
  }
  sagelint::FileType Type(const std::string& path) const override {
    return path == kPath                    ? sagelint::FileType::kRegular
           : path == "/fuzz" || path == "/" ? sagelint::FileType::kDirectory
                                            : sagelint::FileType::kNone;
  }
  bool List(const std::string&, std::vector<sagelint::DirEntry>*, std::string*) const override { return true; }
  std::optional<std::string> Canonical(const std::string& path) const override { return path; }
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override { return path; }
  std::optional<std::uintmax_t> FileSize(const std::string& path) const override {
    if (path != kPath) return std::nullopt;
    return text_.size();
  }

 private:
  static constexpr const char* kPath = "/fuzz/policies.yaml";
  std::string text_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view input(reinterpret_cast<const char*>(data), size);
  const std::string_view split = "\n--- policy file ---\n";
  size_t at = input.find(split);
  std::string config_text(input.substr(0, at));
  OneFile files(at == std::string_view::npos ? "" : std::string(input.substr(at + split.size())));
  sagelint::ConfigError config_error;
  auto config = sagelint::ParseConfig(config_text, "/fuzz/.sagelint.yaml", &config_error);
  if (!config) return 0;
  std::vector<sagelint::Policy> policies;
  std::string error;
  if (!sagelint::LoadPolicies(config->policies, ".sagelint.yaml", config->policy_files, "/fuzz", &policies, &error,
                              files, "/fuzz")) {
    if (error.empty()) std::abort();
    return 0;
  }
  int size_total = 0;
  for (const sagelint::Policy& p : policies) {
    for (const sagelint::PolicyCondition& c : p.conditions) {
      if (c.regex) size_total += c.regex->ProgramSize();
    }
  }
  if (size_total > sagelint::kPolicyRegexBudget) std::abort();
  for (int k = 0; k < sagelint::kWorkloadKindCount; ++k) {
    sagelint::Workload w;
    w.kind = static_cast<sagelint::WorkloadKind>(k);
    w.name = "fuzz";
    w.instance_type = sagelint::Val::Known(k % 2 ? "ml.p3.2xlarge" : "ml.t3.medium");
    w.instance_count = sagelint::Val::Known(std::to_string(k));
    for (const sagelint::Policy& p : policies) {
      sagelint::SourceRange where;
      sagelint::PolicyMatches(p, w, nullptr, &where);
      sagelint::DescribePolicy(p);
    }
  }
  return 0;
}
