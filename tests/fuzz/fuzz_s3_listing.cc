// Fuzzes the --s3-listing reader (`aws s3 ls` output or S3 Inventory CSV):
// any input loads or ends in an error naming a line, and lookups stay sane.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "linter/cost/datasets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  for (const char* bucket : {"", "s3://bkt/"}) {
    sagelint::DatasetSizes sizes;
    std::string error;
    if (!sagelint::LoadS3Listing(text, bucket, "listing.txt", &sizes, &error)) {
      if (error.rfind("listing.txt", 0) != 0) std::abort();
      continue;
    }
    for (const char* uri : {"s3://bkt/", "s3://bkt/a/", "s3://", "s3://x/y"}) {
      auto s = sizes.Lookup(uri);
      if (s && (!(s->gb >= 0) || std::isnan(s->gb))) std::abort();
    }
  }
  return 0;
}
