// The inventory's cost cells say what the workload costs and, where a figure
// is blank, why; labels are cut only to fit a terminal.
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

constexpr const char* kTemplate = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  ServerlessConfig:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: AllTraffic
          ModelName: scoring
          ServerlessConfig: {MemorySizeInMB: 2048, MaxConcurrency: 5}
  ResearchDomain:
    Type: AWS::SageMaker::Domain
    Properties:
      DomainName: research
      AuthMode: IAM
      VpcId: vpc-0123456789abcdef0
      SubnetIds: [subnet-0123456789abcdef0]
      DefaultUserSettings:
        ExecutionRole: arn:aws:iam::111122223333:role/studio-execution
        JupyterLabAppSettings:
          DefaultResourceSpec: {InstanceType: ml.t3.medium}
  NotebookForTheDataScienceTeamWithAVeryLongLogicalIdentifierThatGoesOnAndOnUntilTheEnd:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.g7e.2xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
)";

}  // namespace

TEST_CASE("inventory: serverless, unused Studio defaults, blank months and whole labels in a pipe",
          "[cli][inventory]") {
  TempDir dir;
  dir.Write("t.yaml", kTemplate);
  auto r = RunSagelint("inventory .", dir.path(), "env -u COLUMNS");
  REQUIRE(r.status == 0);
  INFO(r.out);
  // A serverless variant is not "not autoscaled"; it has no instance price of its own.
  CHECK(r.out.find("serverless") != std::string::npos);
  CHECK(r.out.find("not autoscaled") == std::string::npos);
  // The domain's default instance type is spend only when an app or space uses it.
  CHECK(r.out.find("no app uses it") != std::string::npos);
  // An instance without a price says so in its month too.
  CHECK(r.out.find("unpriced") != std::string::npos);
  // A pipe gets the whole label.
  CHECK(r.out.find("NotebookForTheDataScienceTeamWithAVeryLongLogicalIdentifierThatGoesOnAndOnUntilTheEnd'") !=
        std::string::npos);
  CHECK(r.out.find("…") == std::string::npos);
  // Nothing of the unused default is counted as always-on spend.
  CHECK(r.out.find("always on") == std::string::npos);

  // With a Studio space in the template, the default is spend.
  std::string with_space = std::string(kTemplate) + R"(  Scratch:
    Type: AWS::SageMaker::Space
    Properties:
      DomainId: !GetAtt ResearchDomain.DomainId
      SpaceName: scratch
)";
  dir.Write("t.yaml", with_space);
  r = RunSagelint("inventory .", dir.path(), "env -u COLUMNS");
  CHECK(r.out.find("no app uses it") == std::string::npos);
  CHECK(r.out.find("always on ≈ ") != std::string::npos);
}

TEST_CASE("inventory: money in JSON is rounded as in the CSV and the scan's JSON", "[cli][inventory]") {
  TempDir d;
  // ml.p4d.24xlarge's notebook price has seven decimals in the table.
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Big", "ml.p4d.24xlarge"));
  auto r = RunSagelint("inventory --format json .", d.path());
  REQUIRE(r.status == 0);
  auto doc = sagelint::testing::ParseJson(r.out);
  REQUIRE(doc["workloads"].size() == 1);
  CHECK(doc["workloads"][0]["hourly_usd"].get<double>() == 25.2513);
  r = RunSagelint("inventory --format csv .", d.path());
  CHECK(r.out.find(",ml.p4d.24xlarge,") != std::string::npos);
  CHECK(r.out.find(",25.2513,") != std::string::npos);
}
