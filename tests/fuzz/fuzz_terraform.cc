// Fuzzes the Terraform front end with one in-memory module file.
#include <cstddef>
#include <cstdint>
#include <string>

#include "parsers/frontend.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  sagelint::SourceFile file{"main.tf", "/nonexistent/main.tf", std::string(reinterpret_cast<const char*>(data), size)};
  sagelint::ResolveOptions opts;
  opts.root = "/nonexistent";  // file() and modules never read outside it
  sagelint::TerraformRoot root;
  root.files = {file};
  auto results = sagelint::ParseTerraformModule(root, opts);
  return results.size() > 1000000 ? 1 : 0;
}
