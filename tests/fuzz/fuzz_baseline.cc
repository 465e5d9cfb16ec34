// Fuzzes the baseline reader (any input is a multiset of fingerprints or a
// clear error) and the writer (any path or message, valid UTF-8 or not, gives
// a baseline that reads back with its fingerprint).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "linter/engine/baseline.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  sagelint::Baseline read;
  std::string error;
  if (!sagelint::ParseBaseline(text, "baseline.json", &read, &error) && error.empty()) std::abort();

  sagelint::Finding f;
  f.rule = "SM401";
  f.path = text;
  f.root_path = text;
  f.resource = text;
  f.message = text;
  f.fingerprint = "0123456789abcdef";
  sagelint::Baseline back;
  if (!sagelint::ParseBaseline(sagelint::BaselineText({f}), "written.json", &back, &error)) std::abort();
  if (back.schema_version != sagelint::kBaselineSchema || back.fingerprints.size() != 1 ||
      !back.fingerprints.count(f.fingerprint)) {
    std::abort();
  }
  return 0;
}
