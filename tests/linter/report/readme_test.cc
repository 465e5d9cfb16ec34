// The README's rule table is generated from the rule metadata, never edited by hand.
#include <cstdlib>
#include <fstream>

#include "linter/report/rules_table.h"
#include "tests/catch.h"
#include "tests/test_util.h"

TEST_CASE("README rule table matches the rule metadata", "[registry][docs]") {
  std::string path = sagelint::testing::SourcePath("README.md");
  std::string readme = sagelint::testing::ReadFileOrDie(path);
  const std::string begin = "<!-- rules-table:start -->\n", end = "<!-- rules-table:end -->";
  size_t b = readme.find(begin), e = readme.find(end);
  REQUIRE(b != std::string::npos);
  REQUIRE(e != std::string::npos);
  std::string current = readme.substr(b + begin.size(), e - b - begin.size());
  std::string wanted = sagelint::RulesMarkdown();
  const char* update = std::getenv("UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1" && current != wanted) {
    readme.replace(b + begin.size(), current.size(), wanted);
    std::ofstream(path, std::ios::binary) << readme;
    return;
  }
  CHECK(current == wanted);
}
