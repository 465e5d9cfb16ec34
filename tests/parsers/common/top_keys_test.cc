// Telling templates and plans from other JSON and YAML in one pass, before
// any document is built.
#include "parsers/common/top_keys.h"

#include <string>
#include <vector>

#include "parsers/frontend.h"
#include "tests/catch.h"

using sagelint::LooksLikeCloudFormation;
using sagelint::LooksLikeTerraformPlan;
using sagelint::TopLevelKeys;
using Keys = std::vector<std::string>;

TEST_CASE("top-level keys of JSON and block YAML", "[parsers][classify]") {
  CHECK(TopLevelKeys(R"({"a": {"b": [1, {"c": "}"}]}, "d\"e": "x,y", "f": 1})") == Keys{"a", "d\\\"e", "f"});
  CHECK(TopLevelKeys("\xEF\xBB\xBF  {}") == Keys{});
  CHECK(TopLevelKeys("[1, 2]") == Keys{});
  CHECK(TopLevelKeys("---\n# c\nA: 1\nB:\n  C: 2\n\"D\": |\n  x: y\n...\n---\nE: 3\n") == Keys{"A", "B", "D", "E"});
  CHECK(TopLevelKeys("- a\n- b\n") == Keys{});
  // What one pass cannot tell is left to the caller.
  CHECK(!TopLevelKeys("{Resources: {}}\n").has_value());
  CHECK(!TopLevelKeys("{\"a\": 1").has_value());
  CHECK(!TopLevelKeys("just some text\n").has_value());
}

TEST_CASE("a JSON document that only mentions template words is no template", "[parsers][classify]") {
  // An API model: documentation strings mention the keys, the top level has others.
  std::string model = R"({"version": "2.0", "metadata": {"serviceId": "SageMaker"},
    "shapes": {"Doc": {"documentation": "AWSTemplateFormatVersion and Resources with Type AWS::SageMaker::Endpoint"}}})";
  CHECK_FALSE(LooksLikeCloudFormation(model));
  CHECK(LooksLikeCloudFormation(R"({"AWSTemplateFormatVersion": "2010-09-09", "Resources": {}})"));
  CHECK(LooksLikeCloudFormation(R"({"Resources": {"E": {"Type": "AWS::SageMaker::Endpoint"}}})"));
  CHECK(LooksLikeCloudFormation(
      "Transform: AWS::Serverless-2016-10-31\nResources:\n  F:\n    Type: AWS::Serverless::Function\n"));
  CHECK_FALSE(LooksLikeCloudFormation("jobs:\n  build:\n    steps: [Resources, AWS::SageMaker, Type]\n"));
  // Flow style falls back to the words.
  CHECK(LooksLikeCloudFormation("{AWSTemplateFormatVersion: 2010-09-09, Resources: {}}\n"));
}

TEST_CASE("a Terraform plan has both keys at its top level", "[parsers][classify]") {
  CHECK(LooksLikeTerraformPlan(R"({"format_version": "1.2", "planned_values": {"root_module": {}}})"));
  CHECK_FALSE(LooksLikeTerraformPlan(R"({"docs": {"format_version": "1", "planned_values": {}}})"));
}
