#include <set>
#include <string>

#include "linter/model/rule.h"
#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("rule table is sorted, IDs unique, each rule documented", "[registry]") {
  auto rules = AllRules();
  REQUIRE(!rules.empty());
  std::set<std::string_view> ids, names;
  std::string_view prev;
  for (const RuleInfo& r : rules) {
    INFO(r.id);
    CHECK(r.id > prev);
    prev = r.id;
    CHECK(ids.insert(r.id).second);
    CHECK(names.insert(r.name).second);
    CHECK(!r.summary.empty());
    CHECK(!RuleDoc(r.id).empty());
    CHECK(FindRule(r.id) == &r);
  }
  CHECK(FindRule("SM999") == nullptr);
}
