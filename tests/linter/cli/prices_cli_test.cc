// Prices end to end: `sagelint prices`, `sagelint prices import`, --region and
// region:, dated cost figures in the outputs, and what `iam-policy` prints.
#include <nlohmann/json.hpp>

#include "tests/catch.h"
#include "tests/test_util.h"

using nlohmann::json;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::SourcePath;
using Scratch = sagelint::testing::TempDir;

namespace {

constexpr const char* kC4Processing = R"(from sagemaker.sklearn.processing import SKLearnProcessor

processor = SKLearnProcessor(framework_version="1.2-1", role="arn:aws:iam::111122223333:role/r",
                             instance_type="ml.c4.xlarge", instance_count=1)
processor.run(code="preprocess.py")
)";

constexpr const char* kP4dTraining = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Pipeline:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      RoleArn: arn:aws:iam::111122223333:role/stepfunctions
      Definition:
        StartAt: Train
        States:
          Train:
            Type: Task
            Resource: arn:aws:states:::sagemaker:createTrainingJob.sync
            End: true
            Parameters:
              RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
              AlgorithmSpecification:
                TrainingImage: 763104351884.dkr.ecr.us-east-1.amazonaws.com/pytorch-training:2.3-gpu-py311
                TrainingInputMode: FastFile
              ResourceConfig:
                InstanceType: ml.p4d.24xlarge
                InstanceCount: 1
                VolumeSizeInGB: 500
              StoppingCondition:
                MaxRuntimeInSeconds: 86400
)";

constexpr const char* kP3Endpoint = R"(Resources:
  Config:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - {VariantName: AllTraffic, ModelName: m, InstanceType: ml.p3.2xlarge, InitialInstanceCount: 1}
)";

std::string Arg(const std::string& path) { return "'" + path + "'"; }

}  // namespace

TEST_CASE("sagelint prices: per kind, offered and priced, sources and dates", "[cli][prices]") {
  auto r = RunSagelint("prices");
  CHECK(r.status == 0);
  CHECK(r.err == "");
  CHECK(r.out.rfind("Prices in use: the built-in price table (us-east-1, 2026-09)\n"
                    "Figures dated 2025-12-05 to 2026-09-28, USD per instance-hour, on-demand\n",
                    0) == 0);
  CHECK(r.out.find("kind                  offered  priced  named  across kinds  unpriced\n") != std::string::npos);
  CHECK(r.out.find("endpoint variants") != std::string::npos);
  CHECK(r.out.find("AWS pricing-page data (Studio notebook table): ") != std::string::npos);
  CHECK(r.out.find("ml.t2 prices differ by kind") != std::string::npos);
  CHECK(r.out.find("`sagelint prices update --region R` downloads AWS's offer file") != std::string::npos);
  CHECK(r.out.find("Built-in tables (27 regions") != std::string::npos);

  r = RunSagelint("prices --format json");
  CHECK(r.status == 0);
  json doc = json::parse(r.out);
  CHECK(doc["built_in"] == true);
  CHECK(doc["region"] == "us-east-1");
  REQUIRE(doc["kinds"].size() == 6);
  for (const json& k : doc["kinds"]) {
    INFO(k.dump());
    CHECK(k["priced"].get<int>() + k["unpriced"].size() == k["offered"].get<size_t>());
    CHECK(k["named"].get<int>() + k["across_kinds"].get<int>() == k["priced"].get<int>());
    CHECK(k["priced"].get<int>() > 0);
  }
  CHECK(RunSagelint("prices somewhere").status == 2);
  CHECK(RunSagelint("prices --format sarif").status == 2);
}

TEST_CASE("prices import: the offer file becomes the table a scan uses", "[cli][prices]") {
  Scratch s;
  s.Write("job/processing.py", kC4Processing);
  std::string csv = SourcePath("fixtures/prices/offer_sagemaker.csv");
  auto r = RunSagelint("prices import " + Arg(csv) + " --region us-east-1 -o table.json", s.path());
  CHECK(r.status == 0);
  CHECK(r.out == "");
  CHECK(r.err ==
        "sagelint: imported 21 prices of 16 instance types for us-east-1 from 28 rows (CSV, published "
        "2026-09-25T00:03:13Z)\n"
        "sagelint: skipped 1 row: Spot and managed Spot training\n"
        "sagelint: skipped 2 rows: components that are not an instance kind sagelint prices (AsyncInf 1, "
        "Processing_DataWrangler 1)\n"
        "sagelint: skipped 2 rows: other product families (storage, data processing, …) (ML Data Processing 1, ML "
        "Storage 1)\n"
        "sagelint: skipped 1 row: other regions\n"
        "sagelint: skipped 1 row: savings plans, reserved and other non-on-demand terms\n"
        "sagelint: wrote table.json\n");
  json table = json::parse(ReadFileOrDie(s.path() + "/table.json"));
  CHECK(table["region"] == "us-east-1");
  CHECK(table["as_of"] == "2026-09-25");
  CHECK(table["prices"]["ml.c4.xlarge"]["processing"] == 0.24);

  // The built-in table has no ml.c4 price: SM104 names the successor without a savings figure. With the
  // imported table it compares the two prices.
  r = RunSagelint("scan --select SM104 --format json job", s.path());
  CHECK(r.status == 0);
  REQUIRE(json::parse(r.out)["findings"].size() == 1);
  CHECK(json::parse(r.out)["findings"][0]["cost"]["monthly_savings_usd"].is_null());
  r = RunSagelint("scan --select SM104 --prices table.json --fail-on none --format json job", s.path());
  CHECK(r.status == 0);
  json doc = json::parse(r.out);
  REQUIRE(doc["findings"].size() == 1);
  const json& cost = doc["findings"][0]["cost"];
  CHECK(cost["hourly_usd"] == 0.24);
  CHECK(cost["price_source"] ==
        "AWS Price List offer file offer_sagemaker.csv (AmazonSageMaker, published 2026-09-25T00:03:13Z, version "
        "20260925000313)");
  CHECK(cost["price_date"] == "2026-09-25");
  CHECK(doc["findings"][0]["suggestion"] == "switch to ml.c5.xlarge");

  // To standard output without -o; a file of several regions needs --region.
  r = RunSagelint("prices import " + Arg(SourcePath("fixtures/prices/offer_sagemaker.json")) + " --region eu-west-1");
  CHECK(r.status == 0);
  CHECK(json::parse(r.out)["prices"] == json::parse(R"({"ml.m5.xlarge": {"training": 0.257}})"));
  r = RunSagelint("prices import " + Arg(csv));
  CHECK(r.status == 2);
  CHECK(r.err.find("the file holds prices for 2 regions (eu-west-1, us-east-1): choose one with --region") !=
        std::string::npos);
  CHECK(RunSagelint("prices import").status == 2);
  r = RunSagelint("prices import does-not-exist.json");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: does-not-exist.json: cannot read: No such file or directory\n");
}

TEST_CASE("the region from --region or region:, and without its prices exit 2", "[cli][prices]") {
  Scratch s;
  s.Write(".git/HEAD", "");  // the scan root of job/, where the configuration is read
  s.Write("job/processing.py", kC4Processing);
  auto r = RunSagelint("scan --prices builtin --region mx-central-9 job", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: no prices for mx-central-9: run sagelint prices update --region mx-central-9\n");
  s.Write(".sagelint.yaml", "region: mx-central-9\n");
  r = RunSagelint("scan --prices builtin job", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("no prices for mx-central-9") != std::string::npos);
  s.Write(".sagelint.yaml", "region: eu-west-1\n");  // a region with a built-in table
  // --region wins over region:, and the offer file itself can be named.
  std::string offer = Arg(SourcePath("fixtures/prices/offer_sagemaker.json"));
  r = RunSagelint("scan --region us-east-1 --prices " + offer + " --select SM104 --fail-on none job", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("ml.c4.xlarge ≈ $0.24/h") != std::string::npos);
  r = RunSagelint("prices --prices " + offer, s.path());  // region: eu-west-1 from the configuration
  CHECK(r.status == 0);
  CHECK(r.out.rfind(
            "Prices in use: " + SourcePath("fixtures/prices/offer_sagemaker.json") + " (eu-west-1, as of 2026-09-25)\n",
            0) == 0);
  r = RunSagelint("scan --region ap-south-2 --prices " + offer + " job", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("no on-demand ML instance-hour prices for region ap-south-2") != std::string::npos);
}

TEST_CASE("a p4d.24xlarge training job costs about $25.25/h, its source and date in JSON", "[cli][prices]") {
  Scratch s;
  s.Write("train.yaml", kP4dTraining);
  auto r = RunSagelint("scan --select SM401 --no-color .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("  cost: ml.p4d.24xlarge ≈ $25.25/h\n") != std::string::npos);
  r = RunSagelint("scan --select SM401 --format json .", s.path());
  json cost = json::parse(r.out)["findings"][0]["cost"];
  CHECK(cost["hourly_usd"] == 25.251);
  CHECK(cost["price_source"] == "AWS Price List figure quoted by public file S9, confirmed by S4");
  CHECK(cost["price_date"] == "2026-09-04");
}

TEST_CASE("unpriced findings: the basis says why, the summary counts them", "[cli][prices]") {
  std::string dir = Arg(SourcePath("fixtures/rules/SM104/builtin/trigger"));
  auto r = RunSagelint("scan --format json --fail-on none " + dir);
  CHECK(r.status == 0);
  json doc = json::parse(r.out);
  int unpriced = 0;
  for (const json& f : doc["findings"]) {
    INFO(f.dump());
    if (f["cost"].is_null()) continue;
    CHECK(f["cost"]["hourly_usd"].is_null());
    CHECK(f["cost"]["price_source"].is_null());
    std::string basis = f["cost"]["basis"];
    CHECK(basis.find("price in the built-in price table (us-east-1, 2026-09): no AWS data and no public source "
                     "found gives a us-east-1 figure for this type") != std::string::npos);
    ++unpriced;
  }
  CHECK(unpriced >= 2);  // SM201 on the c4 notebook, SM401 on the p2 job, SM104 on both
  CHECK(doc["summary"]["unpriced"] == unpriced);
  r = RunSagelint("scan --no-color --fail-on none " + dir);
  CHECK(r.out.find("  cost: ml.c4.2xlarge has no notebook price in the built-in price table") != std::string::npos);
  CHECK(r.out.find(" · " + std::to_string(unpriced) + " findings without a price (see `sagelint prices`)\n") !=
        std::string::npos);
}

TEST_CASE("iam-policy: `system` for the Studio actions, nothing printed when nothing can be guarded", "[cli][iam]") {
  Scratch s;
  s.Write("iam.yaml", R"(Resources:
  Role:
    Type: AWS::IAM::Role
    Properties:
      AssumeRolePolicyDocument:
        Statement: [{Effect: Allow, Principal: {Service: sagemaker.amazonaws.com}, Action: sts:AssumeRole}]
      Policies:
        - PolicyName: studio
          PolicyDocument:
            Statement: [{Effect: Allow, Action: "sagemaker:*", Resource: "*"}]
)");
  auto r = RunSagelint("iam-policy .", s.path());
  CHECK(r.status == 0);
  json policy = json::parse(r.out);
  bool studio = false;
  for (const json& st : policy["Statement"]) {
    if (st["Sid"] != "DenyUnapprovedStudioInstanceTypes") continue;
    studio = true;
    json types = st["Condition"]["ForAnyValue:StringNotLike"]["sagemaker:InstanceTypes"];
    CHECK(std::find(types.begin(), types.end(), "system") != types.end());
    CHECK(std::find(st["Action"].begin(), st["Action"].end(), "sagemaker:CreateApp") != st["Action"].end());
  }
  CHECK(studio);

  // Only classes no condition key can prevent: no policy (IAM rejects one without statements).
  Scratch t;
  t.Write("train.yaml", kP4dTraining);
  r = RunSagelint("iam-policy .", t.path());
  CHECK(r.status == 0);
  CHECK(r.out == "");
  CHECK(r.err ==
        "sagelint: no IAM policy: no finding of the scan is of a class an IAM condition key can prevent\n"
        "not enforceable by IAM: SM401 managed Spot training: no condition key exists; enforce with sagelint in CI\n");

  // The training-class Deny lists only families SM102 always answers: p3, never p4d/p5.
  Scratch u;
  u.Write("endpoint.yaml", kP3Endpoint);
  r = RunSagelint("iam-policy .", u.path());
  CHECK(r.status == 0);
  policy = json::parse(r.out);
  REQUIRE(policy["Statement"].size() == 1);
  CHECK(policy["Statement"][0]["Sid"] == "DenyTrainingClassForInference");
  CHECK(policy["Statement"][0]["Condition"] ==
        json::parse(R"({"ForAnyValue:StringLike": {"sagemaker:InstanceTypes": ["ml.p3.*"]}})"));
}

TEST_CASE("the Studio instance type `system` is neither unknown nor unoffered", "[cli][SM005]") {
  auto r = RunSagelint("scan --format json --fail-on none " +
                       Arg(SourcePath("fixtures/rules/SM005/clean/studio_system.yaml")));
  CHECK(r.status == 0);
  json doc = json::parse(r.out);  // kept: a range over a temporary's member would dangle
  for (const json& f : doc["findings"]) {
    INFO(f.dump());
    CHECK(f["rule"] != "SM004");
    CHECK(f["rule"] != "SM005");
  }
}

TEST_CASE("SM102 allowed_types in the configuration", "[cli][SM102]") {
  Scratch s;
  s.Write("endpoint.yaml", kP3Endpoint);
  auto r = RunSagelint("scan --select SM102 --no-color .", s.path());
  CHECK(r.status == 1);
  s.Write(".sagelint.yaml", "rules:\n  SM102: { allowed_types: [\"ml.p3.*\", \"ml.p4d.*\"] }\n");
  r = RunSagelint("scan --select SM102 --no-color .", s.path());
  CHECK(r.status == 0);
  s.Write(".sagelint.yaml", "rules:\n  SM102: { allowed_types: ml.p3.2xlarge }\n");
  r = RunSagelint("scan --select SM102 .", s.path());
  CHECK(r.status == 0);  // a single value is a one-pattern list
  s.Write(".sagelint.yaml", "rules:\n  SM102: { allowed_types: {a: b} }\n");
  r = RunSagelint("scan --select SM102 .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("rules.SM102.allowed_types") != std::string::npos);
  r = RunSagelint("explain SM102");
  CHECK(r.out.find("allowed_types (default none): instance type globs hosted on deliberately") != std::string::npos);
}

TEST_CASE("SM104 with the built-in table: an ml.m4.xlarge notebook becomes ml.m5.xlarge", "[cli][prices][fix]") {
  Scratch s;
  s.Write("nb.yaml",
          "Resources:\n  Explore:\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n"
          "      InstanceType: ml.m4.xlarge\n      RoleArn: arn:aws:iam::111122223333:role/r\n");
  auto r = RunSagelint("scan --select SM104 --format json --fail-on none --prices builtin nb.yaml", s.path());
  REQUIRE(r.status == 0);
  json doc = json::parse(r.out);
  REQUIRE(doc["findings"].size() == 1);
  const json& f = doc["findings"][0];
  CHECK(f["message"] ==
        "notebook instance 'Explore' uses ml.m4.xlarge, a previous-generation instance: ml.m5.xlarge, a "
        "current-generation successor with at least its capacity (4 vCPUs, 16 GiB of memory against 4 vCPUs, 16 GiB "
        "of memory), has a notebook price of $0.23/h in the price table, where ml.m4.xlarge has none; the successor "
        "families have cost less in every published SageMaker price list");
  CHECK(f["cost"]["monthly_savings_usd"].is_null());  // no comparison, no savings figure
  CHECK(f["fix"]["applicability"] == "safe");
  r = RunSagelint("scan --select SM104 --fix --prices builtin nb.yaml", s.path());
  CHECK(r.status == 0);
  CHECK(ReadFileOrDie(s.path() + "/nb.yaml").find("InstanceType: ml.m5.xlarge\n") != std::string::npos);
}

TEST_CASE("regions: a built-in table per region, exit 2 for a region without one", "[cli][prices]") {
  Scratch s;
  s.Write("nb.yaml",
          "Resources:\n  Explore:\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n"
          "      InstanceType: ml.m5.xlarge\n      RoleArn: arn:aws:iam::111122223333:role/r\n");
  auto r = RunSagelint("scan --select SM201 --format json --fail-on none --prices builtin --region eu-west-1 nb.yaml",
                       s.path());
  REQUIRE(r.status == 0);
  json cost = json::parse(r.out)["findings"][0]["cost"];
  CHECK(cost["hourly_usd"] == 0.257);
  CHECK(cost["monthly_usd"] == 187.61);
  CHECK(cost["price_date"] == "2026-07-03");
  r = RunSagelint("scan --prices builtin --region xx-nowhere-1 nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: no prices for xx-nowhere-1: run sagelint prices update --region xx-nowhere-1\n");
  r = RunSagelint("prices --format json");
  CHECK(json::parse(r.out)["built_in_regions"].size() >= 20);
}
