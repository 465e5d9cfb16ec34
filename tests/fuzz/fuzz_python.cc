// Fuzzes the python front end: any input ends in workloads or parse errors.
#include <cstddef>
#include <cstdint>
#include <string>

#include "parsers/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sagelint::SourceFile file{"input.py", "/nonexistent/input.py",
                            std::string(reinterpret_cast<const char*>(data), size)};
  sagelint::FileResult r = sagelint::ParsePython(file, sagelint::ResolveOptions{});
  return r.workloads.size() > 1000000 ? 1 : 0;
}
