#include "linter/cost/prices.h"

#include <nlohmann/json.hpp>

#include "linter/base/embedded.h"
#include "linter/model/catalog.h"
#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;

namespace {

PriceTable Offer(std::string_view region) {
  std::string error;
  auto t = PriceTable::Load(testing::SourcePath("fixtures/prices/offer_sample.json"), region, &error);
  INFO(error);
  REQUIRE(t);
  return *t;
}

}  // namespace

TEST_CASE("built-in price table states its source and date and prices known types", "[prices]") {
  const PriceTable& t = PriceTable::BuiltIn();
  REQUIRE(t.size() > 50);
  CHECK(t.region() == "us-east-1");
  CHECK(t.as_of() == "2026-11-22");
  CHECK(t.Describe() ==
        "built-in price table (aws.amazon.com/sagemaker/pricing figures quoted in public sources, compiled offline; "
        "approximate, us-east-1, as of 2026-11-22)");
  CHECK(t.Hourly("ml.m5.xlarge", PriceComponent::kTraining).value_or(-1) == Approx(0.23));
  CHECK(t.Hourly("ml.p3.2xlarge", PriceComponent::kHosting).value_or(-1) == Approx(3.825));
  CHECK_FALSE(t.Hourly("ml.p5.48xlarge", PriceComponent::kNotebook));

  auto doc = nlohmann::json::parse(Embedded("rules/data/prices.json"));
  CHECK(doc.at("source").get<std::string>().find("approximate") != std::string::npos);
  CHECK(doc.at("about").get<std::string>().find("NOT fetched") != std::string::npos);
  for (const auto& [type, comps] : doc.at("prices").items()) {
    INFO(type);
    CHECK(IsKnownInstanceType(type));
    for (const auto& [comp, usd] : comps.items()) CHECK(usd.get<double>() > 0);
  }
}

TEST_CASE("offer file: ML Instance on-demand hourly prices of the selected region", "[prices]") {
  PriceTable use1 = Offer("us-east-1");
  CHECK(use1.size() == 5);  // eu-west-1, storage (GB-Mo) and Data Wrangler skipped
  CHECK(use1.Hourly("ml.m5.xlarge", PriceComponent::kTraining).value_or(-1) == Approx(0.23));
  CHECK(use1.Hourly("ml.g5.xlarge", PriceComponent::kHosting).value_or(-1) == Approx(1.408));
  CHECK(use1.Hourly("ml.t3.medium", PriceComponent::kNotebook).value_or(-1) == Approx(0.05));
  CHECK(use1.Hourly("ml.c5.xlarge", PriceComponent::kTransform).value_or(-1) == Approx(0.204));
  CHECK(use1.Hourly("ml.g4dn.xlarge", PriceComponent::kStudio).value_or(-1) == Approx(0.7364));
  CHECK_FALSE(use1.Hourly("ml.m5.xlarge", PriceComponent::kHosting));
  CHECK(use1.Describe() == "AWS Price List offer file " + testing::SourcePath("fixtures/prices/offer_sample.json") +
                               " (us-east-1, published 2025-03-01)");

  PriceTable euw1 = Offer("eu-west-1");
  CHECK(euw1.size() == 1);
  CHECK(euw1.Hourly("ml.m5.xlarge", PriceComponent::kTraining).value_or(-1) == Approx(0.257));

  std::string error;
  CHECK_FALSE(PriceTable::Load(testing::SourcePath("fixtures/prices/offer_sample.json"), "ap-south-2", &error));
  CHECK(error.ends_with("no ML Instance on-demand hourly prices for region ap-south-2"));
}

TEST_CASE("price files that cannot be used are errors", "[prices]") {
  std::string error;
  CHECK_FALSE(PriceTable::Parse("[1]", "", "p.json", &error));
  CHECK(error == "p.json: not a JSON object");
  CHECK_FALSE(PriceTable::Parse("{\"x\": 1}", "", "p.json", &error));
  CHECK(error.find("neither a sagelint price table") != std::string::npos);
  CHECK_FALSE(PriceTable::Parse(R"({"region": "us-east-1", "prices": {"ml.m5.large": {"hostng": 0.1}}})", "", "p.json",
                                &error));
  CHECK(error == "p.json: bad price ml.m5.large.hostng");
  CHECK_FALSE(PriceTable::Parse(R"({"region": "us-east-1", "prices": {}})", "eu-west-1", "p.json", &error));
  CHECK(error == "p.json: prices are for us-east-1, not eu-west-1");
  CHECK_FALSE(PriceTable::Load("/nonexistent/prices.json", "", &error));
  CHECK(error == "/nonexistent/prices.json: cannot read: No such file or directory");

  auto own = PriceTable::Parse(
      R"({"source": "team sheet", "as_of": "2025-01-01", "region": "eu-west-1", "prices": {"ml.m5.large": {"hosting": "0.13"}}})",
      "eu-west-1", "p.json", &error);
  REQUIRE(own);
  CHECK(own->Hourly("ml.m5.large", PriceComponent::kHosting).value_or(-1) == Approx(0.13));
  CHECK(own->Describe() == "p.json (team sheet, eu-west-1, as of 2025-01-01)");
}

TEST_CASE("components follow the workload kind", "[prices]") {
  CHECK(ComponentFor(WorkloadKind::kTuningJob) == PriceComponent::kTraining);
  CHECK(ComponentFor(WorkloadKind::kEndpointVariant) == PriceComponent::kHosting);
  CHECK(ComponentFor(WorkloadKind::kStudioSpace) == PriceComponent::kStudio);
  CHECK(ComponentFor(WorkloadKind::kTransformJob) == PriceComponent::kTransform);
  CHECK_FALSE(ComponentFor(WorkloadKind::kIamStatement));
}

TEST_CASE("FormatUsd", "[prices]") {
  CHECK(FormatUsd(0.2) == "$0.20");
  CHECK(FormatUsd(3.825) == "$3.83");
  CHECK(FormatUsd(146) == "$146");
  CHECK(FormatUsd(2310.4) == "$2,310");
  CHECK(FormatUsd(1234567) == "$1,234,567");
}

TEST_CASE("EstimateCost: hourly × count, monthly only always-on, savings only for a priced cheaper type", "[prices]") {
  PriceTable t = Offer("us-east-1");
  const std::string src = "from AWS Price List offer file " + testing::SourcePath("fixtures/prices/offer_sample.json") +
                          " (us-east-1, published 2025-03-01)";

  CostRequest endpoint{"ml.g5.xlarge", 2, true, "", false};
  CostEstimate e = EstimateCost(endpoint, WorkloadKind::kEndpointVariant, t);
  CHECK(e.instance_type == "ml.g5.xlarge");
  CHECK(e.count == 2);
  CHECK(e.hourly_usd.value_or(-1) == Approx(2.816));
  CHECK(e.monthly_usd.value_or(-1) == Approx(2.816 * 730));
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.basis == "hosting on-demand $1.41/h × 2 " + src + "; × 730 h/month while it runs");

  CostRequest notebook{"ml.g4dn.xlarge", 1, true, "ml.t3.medium", false};
  e = EstimateCost(notebook, WorkloadKind::kNotebookInstance, PriceTable::BuiltIn());
  CHECK(e.hourly_usd.value_or(-1) == Approx(0.7364));
  CHECK(e.monthly_usd.value_or(-1) == Approx(0.7364 * 730));
  CHECK(e.monthly_savings_usd.value_or(-1) == Approx((0.7364 - 0.05) * 730));
  CHECK(e.basis == "notebook on-demand $0.74/h from " + PriceTable::BuiltIn().Describe() +
                       "; × 730 h/month while it runs; savings: the same count of ml.t3.medium at $0.05/h");

  // Not always on: no monthly figure, the saving is per hour of use.
  CostRequest job{"ml.p3.2xlarge", 1, false, "ml.g5.xlarge", false};
  e = EstimateCost(job, WorkloadKind::kTransformJob, PriceTable::BuiltIn());
  CHECK(e.hourly_usd.value_or(-1) == Approx(3.825));
  CHECK_FALSE(e.monthly_usd);
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.basis.ends_with("; ml.g5.xlarge at $1.41/h saves $2.42 per hour of use"));

  // The cheaper type has no price: no savings figure, and the basis says so.
  CostRequest unpriced{"ml.m5.xlarge", 1, false, "ml.c5.xlarge", false};
  e = EstimateCost(unpriced, WorkloadKind::kTrainingJob, t);
  CHECK(e.basis == "training on-demand $0.23/h " + src + "; no training price for ml.c5.xlarge, so no savings figure");
}

TEST_CASE("EstimateCost: Spot is a range with its basis, and missing prices say why", "[prices]") {
  CostRequest spot{"ml.p3.2xlarge", 4, false, "", true};
  CostEstimate e = EstimateCost(spot, WorkloadKind::kTrainingJob, PriceTable::BuiltIn());
  CHECK(e.hourly_usd.value_or(-1) == Approx(15.3));
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.basis ==
        "training on-demand $3.83/h × 4 from " + PriceTable::BuiltIn().Describe() +
            "; managed Spot typically saves 60–90% of the on-demand price (AWS quotes up to 90%; the "
            "discount varies by instance type, region and time), here about $9.18–$13.77 per hour of training");

  CostRequest unknown{"ml.q9.xlarge", 1, true, "", false};
  e = EstimateCost(unknown, WorkloadKind::kNotebookInstance, PriceTable::BuiltIn());
  CHECK_FALSE(e.hourly_usd);
  CHECK_FALSE(e.monthly_usd);
  CHECK(e.basis == "no notebook price for ml.q9.xlarge in " + PriceTable::BuiltIn().Describe());

  e = EstimateCost(unknown, WorkloadKind::kScalableTarget, PriceTable::BuiltIn());
  CHECK(e.basis == "no instance price applies to a scalable_target");
}

TEST_CASE("avoidable monthly spend sums the findings' monthly savings", "[prices]") {
  std::vector<Finding> findings(3);
  findings[0].cost = CostEstimate{"ml.g4dn.xlarge", 1, 0.7364, 537.572, 501.072, ""};
  findings[1].cost = CostEstimate{"ml.p3.2xlarge", 1, 3.825, std::nullopt, std::nullopt, ""};
  findings[2].cost = CostEstimate{"ml.g5.xlarge", 2, 2.816, 2055.68, 1000.5, ""};
  CHECK(AvoidableMonthlyUsd(findings) == Approx(1501.572));
  CHECK(AvoidableMonthlyUsd({}) == 0);
}

TEST_CASE("odd offer files are errors, not crashes", "[prices]") {
  std::string error;
  for (const char* text : {
           R"({"products": [], "terms": {}})",
           R"({"products": {}, "terms": {"OnDemand": "x"}})",
           R"({"products": {"S": 1}, "terms": {"OnDemand": {"S": 2}}})",
           R"({"products": {"S": {"productFamily": "ML Instance", "attributes": [1]}}, "terms": {"OnDemand": {}}})",
           R"({"products": {"S": {"productFamily": "ML Instance", "attributes": {"instanceName": "ml.m5.large",
               "component": "Training", "regionCode": "us-east-1"}}},
               "terms": {"OnDemand": {"S": {"T": {"priceDimensions": [1, 2]}}}}})",
           R"({"products": {"S": {"productFamily": "ML Instance", "attributes": {"instanceName": "ml.m5.large",
               "component": "Training", "regionCode": "us-east-1"}}},
               "terms": {"OnDemand": {"S": {"T": {"priceDimensions": {"R": {"unit": "Hrs", "pricePerUnit": {"USD": "abc"}}}}}}}})",
           R"({"region": "us-east-1", "prices": {"ml.m5.large": [0.1]}})",
           R"({"region": 5, "prices": {}})",
       }) {
    INFO(text);
    CHECK_FALSE(PriceTable::Parse(text, "us-east-1", "odd.json", &error));
    CHECK(error.rfind("odd.json: ", 0) == 0);
  }
}
