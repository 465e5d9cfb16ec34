// Fuzzes the cloudformation front end: any input ends in workloads or parse errors.
#include <cstddef>
#include <cstdint>
#include <string>

#include "parsers/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sagelint::SourceFile file{"input.yaml", "/nonexistent/input.yaml",
                            std::string(reinterpret_cast<const char*>(data), size)};
  sagelint::FileResult r = sagelint::ParseCloudFormation(file, sagelint::ResolveOptions{});
  return r.workloads.size() > 1000000 ? 1 : 0;
}
