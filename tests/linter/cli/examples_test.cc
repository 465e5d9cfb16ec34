// The bundled example repository: the whole scan, as a user sees it, is pinned.
#include <regex>

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
  auto r = RunSagelint("scan --format json --report-name sagelint/examples examples", SourcePath(""));
  CHECK(r.status == 1);
  // The commit is the checkout's HEAD (none outside git): pinned as a placeholder.
  std::string out =
      std::regex_replace(r.out, std::regex("\"commit\": (\"[0-9a-f]{40,64}\"|null)"), "\"commit\": \"HEAD\"");
  CHECK(CompareGolden("tests/golden/examples.json", out) == "");
}
