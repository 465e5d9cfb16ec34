// The bundled example repository: the whole scan, as a user sees it, is pinned.
#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::CompareGolden;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;

TEST_CASE("scan of the example repository", "[examples]") {
  auto r = RunSagelint("scan --no-color examples", SourcePath(""));
  CHECK(r.status == 1);
  CHECK(r.err == "");
  CHECK(CompareGolden("tests/golden/examples.txt", r.out) == "");
}

TEST_CASE("JSON scan of the example repository", "[examples]") {
  auto r = RunSagelint("scan --format json examples", SourcePath(""));
  CHECK(r.status == 1);
  CHECK(CompareGolden("tests/golden/examples.json", r.out) == "");
}
