// Fuzzes configuration and policy loading: any input is a Config or a clear error.
#include <cstddef>
#include <cstdint>
#include <string>

#include "linter/cli/config.h"
#include "linter/policy/policy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  sagelint::ConfigError error;
  auto config = sagelint::ParseConfig(text, ".sagelint.yaml", &error);
  if (config) {
    std::vector<sagelint::Policy> policies;
    std::string message;
    sagelint::LoadPolicies(config->policies, ".sagelint.yaml", {}, "/nonexistent", &policies, &message);
  }
  return 0;
}
