// The inventory of HyperPod clusters, Studio apps and inference components,
// in every format, from CloudFormation and Terraform (golden files).
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::CompareGolden;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;

TEST_CASE("inventory shows HyperPod clusters, Studio apps and inference components", "[cli][inventory]") {
  const std::string dir = SourcePath("fixtures/inventory/new_resources");
  struct Case {
    const char* args;
    const char* golden;
  };
  for (const Case& c : {Case{"inventory --format json .", "tests/golden/inventory/new_resources.json"},
                        Case{"inventory --format csv .", "tests/golden/inventory/new_resources.csv"},
                        Case{"inventory --wide .", "tests/golden/inventory/new_resources.wide.txt"},
                        Case{"inventory .", "tests/golden/inventory/new_resources.txt"}}) {
    INFO(c.args);
    auto r = RunSagelint(c.args, dir, "COLUMNS=200");
    INFO(r.err);
    CHECK(r.status == 0);
    CHECK(CompareGolden(c.golden, r.out) == "");
  }
}
