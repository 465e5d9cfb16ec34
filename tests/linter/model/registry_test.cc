#include <optional>
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

TEST_CASE("a rule's doc has a Fix section exactly when it has a fix, naming the flag that applies it",
          "[registry][fix][docs]") {
  for (const RuleInfo& r : AllRules()) {
    INFO(r.id);
    std::string doc(RuleDoc(r.id));
    size_t at = doc.find("\n## Fix\n");
    if (at == std::string::npos) at = doc.find("\n**Automatic fix.** ");  // the docs in paragraph style
    std::optional<Applicability> fix = RuleFix(r.id);
    if (!fix) {
      CHECK(at == std::string::npos);
      continue;
    }
    REQUIRE(at != std::string::npos);
    std::string section = doc.substr(at, doc.find("\n#", at + 1) - at);
    if (*fix == Applicability::kSafe) {
      CHECK(section.find("Safe, applied by `sagelint scan --fix`") != std::string::npos);
      CHECK(section.find("--unsafe-fixes") == std::string::npos);
    } else {
      CHECK(section.find("Unsafe, applied by `sagelint scan --fix --unsafe-fixes`") != std::string::npos);
    }
  }
}

TEST_CASE("a rule's row says whether it has a fix or why not, and which rules keep their guardrail",
          "[registry][fix][iam]") {
  for (const RuleInfo& r : AllRules()) {
    INFO(r.id);
    // A reason for having no fix only on a rule without one.
    if (r.fix.applicability) CHECK(r.fix.none_because.empty());
    // A caveat only where there is a fix to refuse.
    if (r.fix.caveat != FixCaveat::kNone) CHECK(r.fix.applicability.has_value());
    CHECK(RuleFix(r.id) == r.fix.applicability);
    // A class that a condition key prevents has the statements that use it.
    if (!r.iam.condition_key.empty()) CHECK(r.iam.guardrail != nullptr);
    // Only the findings that say a file was not (fully) checked survive --select.
    if (r.always_enabled) CHECK(r.check == nullptr);
  }
  CHECK(!RuleFix("SM999"));
}

TEST_CASE("every rule the engine reports itself is a row without a check", "[registry]") {
  for (std::string_view id :
       {tool_rule::kParseError, tool_rule::kInternalError, tool_rule::kUnknownSuppressionRule,
        tool_rule::kUnusedSuppression, tool_rule::kUnknownInstanceType, tool_rule::kGateConfigWeakened,
        tool_rule::kEvaluationIncomplete, tool_rule::kFileNotScanned}) {
    INFO(id);
    const RuleInfo* r = FindRule(id);
    REQUIRE(r != nullptr);
    CHECK(r->check == nullptr);
  }
}
