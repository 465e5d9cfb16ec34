// Fuzzes the notebook front end: any input ends in workloads or parse errors.
#include <cstddef>
#include <cstdint>
#include <string>

#include "parsers/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sagelint::SourceFile file{"input.ipynb", "/nonexistent/input.ipynb",
                            std::string(reinterpret_cast<const char*>(data), size)};
  sagelint::FileResult r = sagelint::ParseNotebook(file, sagelint::ResolveOptions{});
  return r.workloads.size() > 1000000 ? 1 : 0;
}
