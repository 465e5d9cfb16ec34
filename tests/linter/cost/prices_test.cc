#include "linter/cost/prices.h"

#include <nlohmann/json.hpp>

#include "linter/base/embedded.h"
#include "linter/cost/alternatives.h"
#include "linter/cost/offer_file.h"
#include "linter/model/catalog.h"
#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;

namespace {

const std::string kOfferJson = "fixtures/prices/offer_sagemaker.json";
const std::string kOfferCsv = "fixtures/prices/offer_sagemaker.csv";

PriceTable Offer(std::string_view region) {
  std::string error;
  auto t = PriceTable::Load(testing::SourcePath(kOfferJson), region, &error);
  INFO(error);
  REQUIRE(t);
  return *t;
}

OfferImport Import(const std::string& file, std::string_view region) {
  OfferImport offer;
  std::string error;
  bool ok = ImportOffer(testing::ReadFileOrDie(testing::SourcePath(file)), region, &offer, &error);
  INFO(error);
  REQUIRE(ok);
  return offer;
}

}  // namespace

TEST_CASE("built-in price table: every figure with its source, kind basis and date", "[prices]") {
  const PriceTable& t = PriceTable::BuiltIn();
  REQUIRE(t.size() > 600);
  CHECK(t.built_in());
  CHECK(t.region() == "us-east-1");
  CHECK(t.as_of() == "2026-09");
  CHECK(t.Describe() == "built-in price table (us-east-1, 2026-09)");
  for (const auto& [key, figure] : t.figures()) {
    INFO(key.first << " " << ComponentName(key.second));
    CHECK(IsKnownInstanceType(key.first));
    CHECK(figure.usd > 0);
    CHECK(!figure.source.empty());
    CHECK(figure.date.rfind("202", 0) == 0);
    // One price per type across kinds: every figure given across kinds is the same one.
    if (!figure.named) {
      for (PriceComponent c : kPriceComponents) {
        const PriceFigure* other = t.Figure(key.first, c);
        if (other != nullptr && !other->named) CHECK(other->usd == figure.usd);
      }
    }
  }
  // The corrections: the June 2025 price cut, and ml.g6.xlarge's EC2 price.
  const PriceFigure* p4d = t.Figure("ml.p4d.24xlarge", PriceComponent::kTraining);
  REQUIRE(p4d);
  CHECK(p4d->usd == Approx(25.251));
  CHECK(p4d->named);
  CHECK(p4d->source == "AWS Price List figure quoted by public file S9, confirmed by S4");
  CHECK(p4d->date == "2026-09-04");
  const PriceFigure* p4d_host = t.Figure("ml.p4d.24xlarge", PriceComponent::kHosting);
  REQUIRE(p4d_host);
  CHECK(p4d_host->usd == Approx(25.2512883));
  CHECK(p4d_host->named);  // the hosting component read from the offer file (J1)
  CHECK(p4d_host->Describe() == "AWS Price List figures extracted by public file J1, 2026-04-21");
  CHECK(t.Hourly("ml.p4de.24xlarge", PriceComponent::kHosting).value_or(-1) == Approx(31.5641075));
  CHECK(t.Hourly("ml.p5.48xlarge", PriceComponent::kTraining).value_or(-1) == Approx(63.296));
  CHECK(t.Hourly("ml.g6.xlarge", PriceComponent::kNotebook).value_or(-1) == Approx(1.127));
  CHECK(t.Hourly("ml.g6.xlarge", PriceComponent::kProcessing).value_or(-1) == Approx(1.1267));
  // Kind-specific figures where a source names the kind.
  CHECK(t.Hourly("ml.g5.xlarge", PriceComponent::kTraining).value_or(-1) == Approx(1.408));
  CHECK(t.Hourly("ml.g5.xlarge", PriceComponent::kNotebook).value_or(-1) == Approx(1.41));
  CHECK(t.Hourly("ml.m5.xlarge", PriceComponent::kTraining).value_or(-1) == Approx(0.23));
  // ml.p3 from AWS's data as it stood in December 2025.
  const PriceFigure* p3 = t.Figure("ml.p3.2xlarge", PriceComponent::kHosting);
  REQUIRE(p3);
  CHECK(p3->usd == Approx(3.825));
  CHECK(p3->date == "2025-12-05");
  // Never across kinds for ml.t2 (notebook and hosting prices differ); unpriced types say why.
  CHECK_FALSE(t.Hourly("ml.t2.medium", PriceComponent::kNotebook));
  CHECK(t.UnpricedReason("ml.t2.medium").find("differ by kind") != std::string::npos);
  CHECK_FALSE(t.Hourly("ml.g7e.2xlarge", PriceComponent::kHosting));
  CHECK(t.Unpriced("ml.g7e.2xlarge", PriceComponent::kHosting)
            .rfind("ml.g7e.2xlarge has no hosting price in the built-in price table (us-east-1, 2026-09): ", 0) == 0);
  CHECK_FALSE(t.Hourly("ml.p5.4xlarge", PriceComponent::kTraining));  // S9: no on-demand training price
  CHECK_FALSE(t.Hourly("ml.p5.4xlarge", PriceComponent::kHosting));   // no source lists a hosting price
  for (const char* unsourced :
       {"ml.c4.xlarge", "ml.p2.xlarge", "ml.m4.xlarge", "ml.p5e.48xlarge", "ml.trn2.48xlarge"}) {
    INFO(unsourced);
    CHECK(!t.UnpricedReason(unsourced).empty());
    for (PriceComponent c : kPriceComponents) CHECK_FALSE(t.Hourly(unsourced, c));
  }
  // Every source the figures name is in the table's sources, with a citation and a date.
  auto doc = nlohmann::json::parse(Embedded("rules/data/prices.json"));
  for (const PriceSource& s : t.sources()) {
    INFO(s.id);
    CHECK(!s.label.empty());
    CHECK(!s.citation.empty());
    CHECK(!s.date.empty());
  }
}

TEST_CASE("offer file: ML Instance on-demand hourly prices of the selected region, JSON and CSV alike", "[prices]") {
  OfferImport json = Import(kOfferJson, "us-east-1");
  OfferImport csv = Import(kOfferCsv, "us-east-1");
  CHECK(json.format == "JSON");
  CHECK(csv.format == "CSV");
  CHECK(json.prices == csv.prices);
  CHECK(json.skipped == csv.skipped);
  CHECK(json.unmapped_components == csv.unmapped_components);
  CHECK(json.other_families == csv.other_families);
  CHECK(json.rows == 28);
  CHECK(csv.rows == 28);
  CHECK(json.published == "2026-09-25T00:03:13Z");
  CHECK(csv.published == "2026-09-25T00:03:13Z");
  CHECK(csv.version == "20260925000313");

  auto at = [&](const char* type, PriceComponent c) {
    auto it = json.prices.find({type, c});
    return it == json.prices.end() ? -1.0 : it->second;
  };
  CHECK(json.prices.size() == 21);
  CHECK(at("ml.m5.xlarge", PriceComponent::kTraining) == Approx(0.23));
  CHECK(at("ml.g5.xlarge", PriceComponent::kHosting) == Approx(1.408));        // from instanceType
  CHECK(at("ml.t3.medium", PriceComponent::kNotebook) == Approx(0.05));        // component from the usage type
  CHECK(at("ml.c5.xlarge", PriceComponent::kTransform) == Approx(0.204));      // Batch Transform
  CHECK(at("ml.g4dn.xlarge", PriceComponent::kStudio) == Approx(0.7364));      // Studio-Notebook
  CHECK(at("ml.r6i.4xlarge", PriceComponent::kStudio) == Approx(1.21));        // usage type JupyterLab-ml.…
  CHECK(at("ml.p4d.24xlarge", PriceComponent::kTraining) == Approx(25.2513));  // instanceType NA
  CHECK(at("ml.p3.2xlarge", PriceComponent::kTraining) == -1);                 // only the Spot row
  CHECK(at("ml.m5.xlarge", PriceComponent::kHosting) == Approx(0.23));         // not the reserved 0.15

  CHECK(json.skipped == std::map<std::string, size_t>{
                            {"Spot and managed Spot training", 1},
                            {"savings plans, reserved and other non-on-demand terms", 1},
                            {"other product families (storage, data processing, …)", 2},
                            {"other regions", 1},
                            {"components that are not an instance kind sagelint prices", 2},
                        });
  CHECK(json.unmapped_components == std::map<std::string, size_t>{{"AsyncInf", 1}, {"Processing_DataWrangler", 1}});
  CHECK(json.other_families == std::map<std::string, size_t>{{"ML Data Processing", 1}, {"ML Storage", 1}});
  CHECK(json.regions == std::set<std::string>{"eu-west-1", "us-east-1"});
  CHECK(json.Report() ==
        std::vector<std::string>{
            "imported 21 prices of 16 instance types for us-east-1 from 28 price rows (JSON, published "
            "2026-09-25T00:03:13Z)",
            "skipped 1 row: Spot and managed Spot training",
            "skipped 2 rows: components that are not an instance kind sagelint prices (AsyncInf 1, "
            "Processing_DataWrangler 1)",
            "skipped 2 rows: other product families (storage, data processing, …) (ML Data Processing 1, ML Storage 1)",
            "skipped 1 row: other regions",
            "skipped 1 row: savings plans, reserved and other non-on-demand terms",
        });

  OfferImport euw1 = Import(kOfferCsv, "eu-west-1");
  CHECK(euw1.prices.size() == 1);
  CHECK(euw1.prices.at({"ml.m5.xlarge", PriceComponent::kTraining}) == Approx(0.257));

  // Without --region a file of several regions is ambiguous; the error names them.
  OfferImport any;
  std::string error;
  CHECK_FALSE(ImportOffer(testing::ReadFileOrDie(testing::SourcePath(kOfferJson)), "", &any, &error));
  CHECK(error == "the file holds prices for 2 regions (eu-west-1, us-east-1): choose one with --region");
  CHECK_FALSE(ImportOffer(testing::ReadFileOrDie(testing::SourcePath(kOfferCsv)), "ap-south-2", &any, &error));
  CHECK(error ==
        "no on-demand ML instance-hour prices for region ap-south-2 (the file has them for eu-west-1, "
        "us-east-1)");
}

TEST_CASE("an imported table is the table a scan uses", "[prices]") {
  OfferImport offer = Import(kOfferCsv, "us-east-1");
  std::string compact = CompactTable(offer, "offer_sagemaker.csv");
  std::string error;
  auto table = PriceTable::Parse(compact, "us-east-1", "prices.json", &error);
  INFO(error);
  REQUIRE(table);
  CHECK(table->size() == offer.prices.size());
  for (const auto& [key, usd] : offer.prices) CHECK(table->Hourly(key.first, key.second).value_or(-1) == usd);
  const PriceFigure* f = table->Figure("ml.p4d.24xlarge", PriceComponent::kTraining);
  REQUIRE(f);
  CHECK(f->source ==
        "AWS Price List offer file offer_sagemaker.csv (AmazonSageMaker, published 2026-09-25T00:03:13Z, version "
        "20260925000313)");
  CHECK(f->date == "2026-09-25");
  CHECK(table->Describe() == "prices.json (us-east-1, as of 2026-09-25)");
  // The fixture table of the SM104 and SM102 rule fixtures is this import, byte for byte.
  CHECK(testing::ReadFileOrDie(testing::SourcePath("fixtures/rules/SM104/prices.json")) ==
        CompactTable(Import(kOfferJson, "us-east-1"), "offer_sagemaker.json"));
  // A scan can also read the offer file itself, JSON or CSV.
  PriceTable direct = Offer("us-east-1");
  CHECK(direct.Hourly("ml.c4.xlarge", PriceComponent::kProcessing).value_or(-1) == Approx(0.24));
  CHECK(direct.Figure("ml.c4.xlarge", PriceComponent::kProcessing)->source ==
        "AWS Price List offer file published 2026-09-25");
  auto from_csv = PriceTable::Load(testing::SourcePath(kOfferCsv), "us-east-1", &error);
  REQUIRE(from_csv);
  CHECK(from_csv->size() == direct.size());
  CHECK(Offer("eu-west-1").size() == 1);
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
  CHECK_FALSE(PriceTable::Parse(
      R"({"region": "us-east-1", "sources": {}, "prices": {"ml.m5.large": {"hosting": {"usd": 0.1, "sources": ["X"], "basis": "named", "date": "2026"}}}})",
      "", "p.json", &error));
  CHECK(error == "p.json: price ml.m5.large.hosting names a source not in \"sources\"");
  CHECK_FALSE(PriceTable::Parse("SKU,Nothing\n", "", "p.csv", &error));
  CHECK(error == "p.csv: not a JSON object");  // a CSV without PricePerUnit is not an offer file

  auto own = PriceTable::Parse(
      R"({"source": "team sheet", "as_of": "2025-01-01", "region": "eu-west-1", "prices": {"ml.m5.large": {"hosting": "0.13"}}})",
      "eu-west-1", "p.json", &error);
  REQUIRE(own);
  CHECK(own->Hourly("ml.m5.large", PriceComponent::kHosting).value_or(-1) == Approx(0.13));
  CHECK(own->Describe() == "p.json (eu-west-1, as of 2025-01-01)");
  CHECK(own->Figure("ml.m5.large", PriceComponent::kHosting)->Describe() == "team sheet, 2025-01-01");
  CHECK(own->Unpriced("ml.m5.xlarge", PriceComponent::kHosting) ==
        "ml.m5.xlarge has no hosting price in p.json (eu-west-1, as of 2025-01-01)");
}

TEST_CASE("components follow the workload kind", "[prices]") {
  CHECK(ComponentFor(WorkloadKind::kTuningJob) == PriceComponent::kTraining);
  CHECK(ComponentFor(WorkloadKind::kEndpointVariant) == PriceComponent::kHosting);
  CHECK(ComponentFor(WorkloadKind::kStudioSpace) == PriceComponent::kStudio);
  CHECK(ComponentFor(WorkloadKind::kTransformJob) == PriceComponent::kTransform);
  CHECK_FALSE(ComponentFor(WorkloadKind::kIamStatement));
  CHECK(ComponentFor(OfferKind::kEndpoint) == PriceComponent::kHosting);
  CHECK(ComponentFromOffer("Studio Notebook") == PriceComponent::kStudio);
  CHECK(ComponentFromOffer("Batch-Transform") == PriceComponent::kTransform);
  CHECK(ComponentFromOffer("Notebk") == PriceComponent::kNotebook);
  CHECK_FALSE(ComponentFromOffer("AsyncInf"));
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
  const std::string src = "(AWS Price List offer file published 2026-09-25, 2026-09-25) from " +
                          testing::SourcePath(kOfferJson) + " (us-east-1, as of 2026-09-25)";

  CostRequest endpoint{"ml.g5.xlarge", 2, true, "", false};
  CostEstimate e = EstimateCost(endpoint, WorkloadKind::kEndpointVariant, t);
  CHECK(e.instance_type == "ml.g5.xlarge");
  CHECK(e.count == 2);
  CHECK(e.hourly_usd.value_or(-1) == Approx(2.816));
  CHECK(e.monthly_usd.value_or(-1) == Approx(2.816 * 730));
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.basis == "hosting on-demand $1.41/h × 2 " + src + "; × 730 h/month while it runs");
  CHECK(e.price_source == "AWS Price List offer file published 2026-09-25");
  CHECK(e.price_date == "2026-09-25");

  const PriceTable& builtin = PriceTable::BuiltIn();
  CostRequest notebook{"ml.g4dn.xlarge", 1, true, "ml.t3.medium", false};
  e = EstimateCost(notebook, WorkloadKind::kNotebookInstance, builtin);
  CHECK(e.hourly_usd.value_or(-1) == Approx(0.736));
  CHECK(e.monthly_usd.value_or(-1) == Approx(0.736 * 730));
  CHECK(e.monthly_savings_usd.value_or(-1) == Approx((0.736 - 0.05) * 730));
  CHECK(e.basis ==
        "notebook on-demand $0.74/h (AWS Price List figure quoted by public file S2, confirmed by S4, 2026-09-24) "
        "from the built-in price table (us-east-1, 2026-09); × 730 h/month while it runs; savings: the same count "
        "of ml.t3.medium at $0.05/h");

  // Not always on: no monthly figure, the saving is per hour of use.
  CostRequest job{"ml.p3.2xlarge", 1, false, "ml.g5.xlarge", false};
  e = EstimateCost(job, WorkloadKind::kTransformJob, builtin);
  CHECK(e.hourly_usd.value_or(-1) == Approx(3.825));
  CHECK_FALSE(e.monthly_usd);
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.price_date == "2025-12-05");
  CHECK(e.basis.ends_with(
      "; ml.g5.xlarge at $1.41/h (AWS pricing-page data (Studio notebook table), 2026-07-03, same price across "
      "kinds) saves $2.42 per hour of use"));

  // The cheaper type has no price: no savings figure, and the basis says so.
  CostRequest unpriced{"ml.m5.xlarge", 1, false, "ml.c5.2xlarge", false};
  e = EstimateCost(unpriced, WorkloadKind::kTrainingJob, t);
  CHECK(e.basis == "training on-demand $0.23/h " + src + "; no training price for ml.c5.2xlarge, so no savings figure");
}

TEST_CASE("A p4d.24xlarge training job costs about $25.25/h, with source and date", "[prices]") {
  CostEstimate e = EstimateCost(CostRequest{"ml.p4d.24xlarge", 1, false, "", false}, WorkloadKind::kTrainingJob,
                                PriceTable::BuiltIn());
  CHECK(e.hourly_usd.value_or(-1) == Approx(25.251));
  CHECK(FormatUsd(*e.hourly_usd) == "$25.25");
  CHECK(e.price_source == "AWS Price List figure quoted by public file S9, confirmed by S4");
  CHECK(e.price_date == "2026-09-04");
}

TEST_CASE("EstimateCost: Spot is a range with its basis, and missing prices say why", "[prices]") {
  const PriceTable& builtin = PriceTable::BuiltIn();
  CostRequest spot{"ml.p3.2xlarge", 4, false, "", true};
  CostEstimate e = EstimateCost(spot, WorkloadKind::kTrainingJob, builtin);
  CHECK(e.hourly_usd.value_or(-1) == Approx(15.3));
  CHECK_FALSE(e.monthly_savings_usd);
  CHECK(e.basis.ends_with(
      "; managed Spot typically saves 60–90% of the on-demand price (AWS quotes up to 90%; the "
      "discount varies by instance type, region and time), here about $9.18–$13.77 per hour of training"));

  CostRequest unknown{"ml.q9.xlarge", 1, true, "", false};
  e = EstimateCost(unknown, WorkloadKind::kNotebookInstance, builtin);
  CHECK_FALSE(e.hourly_usd);
  CHECK_FALSE(e.monthly_usd);
  CHECK(e.price_source.empty());
  CHECK(e.basis == "ml.q9.xlarge is not an instance type sagelint knows, so it has no price");
  // A known type the kind does not offer, and one the table has no figure for.
  e = EstimateCost(CostRequest{"ml.t3.medium", 1, true, "", false}, WorkloadKind::kEndpointVariant, builtin);
  CHECK(e.basis == "ml.t3.medium is not offered for endpoint variants, so it has no hosting price");
  e = EstimateCost(CostRequest{"ml.c6in.large", 1, true, "", false}, WorkloadKind::kEndpointVariant, builtin);
  CHECK(e.basis ==
        "ml.c6in.large has no hosting price in the built-in price table (us-east-1, 2026-09): no AWS data and no "
        "public source found gives a us-east-1 figure for this type; `sagelint prices update --region us-east-1` "
        "downloads AWS's complete figures");

  CostRequest c4{"ml.c4.xlarge", 1, true, "", false};
  e = EstimateCost(c4, WorkloadKind::kNotebookInstance, builtin);
  CHECK_FALSE(e.hourly_usd);
  CHECK(e.basis.find(builtin.UnpricedReason("ml.c4.xlarge")) != std::string::npos);

  e = EstimateCost(unknown, WorkloadKind::kScalableTarget, builtin);
  CHECK(e.basis == "no instance price applies to a scalable_target");
}

TEST_CASE("avoidable monthly spend and unpriced findings", "[prices]") {
  std::vector<Finding> findings(4);
  findings[0].cost = CostEstimate{"ml.g4dn.xlarge", 1, 0.7364, 537.572, 501.072, ""};
  findings[1].cost = CostEstimate{"ml.p3.2xlarge", 1, 3.825, std::nullopt, std::nullopt, ""};
  findings[2].cost = CostEstimate{"ml.g5.xlarge", 2, 2.816, 2055.68, 1000.5, ""};
  findings[3].cost = CostEstimate{"ml.g7e.2xlarge", 1, std::nullopt, std::nullopt, std::nullopt, "no price"};
  for (size_t i = 0; i < findings.size(); ++i) findings[i].resource = "endpoint " + std::to_string(i);
  CHECK(AvoidableMonthlyUsd(findings) == 1501.57);  // cents
  // Two findings on one workload (SM101 and SM102 on one endpoint): the largest saving, never the sum.
  Finding second = findings[0];
  second.rule = "SM102";
  second.cost->monthly_savings_usd = 400;
  findings.push_back(second);
  CHECK(AvoidableMonthlyUsd(findings) == 1501.57);
  findings.back().cost->monthly_savings_usd = 600.004;
  CHECK(AvoidableMonthlyUsd(findings) == 1600.5);
  CHECK(LargestSavings(findings).at(WorkloadKeyOf(second))->rule == "SM102");
  findings.pop_back();
  CHECK(AvoidableMonthlyUsd({}) == 0);
  CHECK(UnpricedFindings(findings) == 1);
  findings.emplace_back();  // no cost at all (an IAM finding): not "unpriced"
  CHECK(UnpricedFindings(findings) == 1);
}

TEST_CASE("odd offer files are errors, not crashes", "[prices][adversarial]") {
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
           R"({"offerCode": "AmazonEC2", "products": {}, "terms": {}})",
           R"({"region": "us-east-1", "prices": {"ml.m5.large": [0.1]}})",
           R"({"region": 5, "prices": {}})",
           "\"SKU\",\"PricePerUnit\"\n\"A\",\"1\"\n",
           "\"SKU\",\"PricePerUnit\",\"Region Code\"\n\"A\",\"1\"\n\"unterminated,\"\n",
       }) {
    INFO(text);
    CHECK_FALSE(PriceTable::Parse(text, "us-east-1", "odd.json", &error));
    CHECK(error.rfind("odd.json: ", 0) == 0);
  }
}

TEST_CASE("SM102's alternatives: same stack, at least the accelerator memory, at most half the price", "[prices]") {
  const PriceTable& t = PriceTable::BuiltIn();
  auto alt = [&](const char* type, OfferKind k = OfferKind::kEndpoint) {
    auto a = InferenceAlternative(type, k, t);
    return a ? a->type : std::string("-");
  };
  CHECK(alt("ml.p3.2xlarge") == "ml.g4dn.xlarge");    // 16 GiB V100 -> 16 GiB T4
  CHECK(alt("ml.p3.8xlarge") == "ml.g4dn.12xlarge");  // 4 × 16 GiB -> 4 × 16 GiB
  CHECK(alt("ml.p3.16xlarge") == "ml.g6e.12xlarge");  // 128 GiB -> 4 × 44.7 GiB
  for (const char* large : {"ml.p4d.24xlarge", "ml.p4de.24xlarge", "ml.p5.48xlarge", "ml.p5e.48xlarge",
                            "ml.p5en.48xlarge", "ml.p3dn.24xlarge"}) {
    INFO(large);
    CHECK(alt(large) == "-");
  }
  // Trainium serves on Inferentia2 only; trn1.2xlarge's inf2.xlarge costs more than half.
  CHECK(alt("ml.trn1.2xlarge") == "-");
  CHECK(alt("ml.trn1.32xlarge") == "-");
  CHECK(alt("ml.g5.xlarge") == "-");  // not training-class
  CHECK(alt("ml.p3.2xlarge", OfferKind::kTransform) == "ml.g4dn.xlarge");
  // The guardrail's deny lists: p3 for endpoints; none for batch transform, which offers no g6e, so a
  // p3.16xlarge (128 GiB) has no inference instance at half its price there.
  CHECK(TrainingFamiliesWithInferenceAlternative(t, OfferKind::kEndpoint) == std::vector<std::string>{"ml.p3.*"});
  CHECK(TrainingFamiliesWithInferenceAlternative(t, OfferKind::kTransform).empty());
  CHECK(alt("ml.p3.16xlarge", OfferKind::kTransform) == "-");
  CHECK(FormatGib(16) == "16 GiB");
  CHECK(FormatGib(89.4) == "89.4 GiB");
  CHECK(FormatGib(22.35) == "22.35 GiB");
}

TEST_CASE("built-in tables: the compiled figures are the JSON tables', one table per region", "[prices]") {
  std::vector<std::string> regions = PriceTable::BuiltInRegions();
  CHECK(regions.size() >= 20);
  CHECK(std::is_sorted(regions.begin(), regions.end()));
  for (const std::string& region : regions) {
    INFO(region);
    std::string name = region == "us-east-1" ? "rules/data/prices.json" : "rules/data/prices-" + region + ".json";
    std::string error;
    auto parsed = PriceTable::Parse(Embedded(name), region, "built-in price table", &error);
    INFO(error);
    REQUIRE(parsed);
    const PriceTable* compiled = PriceTable::BuiltInFor(region);
    REQUIRE(compiled);
    CHECK(compiled->built_in());
    CHECK(compiled->region() == region);
    CHECK(compiled->as_of() == parsed->as_of());
    CHECK(compiled->size() == parsed->size());
    REQUIRE(compiled->figures().size() == parsed->figures().size());
    for (auto a = compiled->figures().begin(), b = parsed->figures().begin(); a != compiled->figures().end();
         ++a, ++b) {
      INFO(a->first.first << " " << ComponentName(a->first.second));
      CHECK(a->first == b->first);
      CHECK(a->second.usd == b->second.usd);
      CHECK(a->second.source == b->second.source);
      CHECK(a->second.date == b->second.date);
      CHECK(a->second.named == b->second.named);
    }
    CHECK(compiled->unpriced() == parsed->unpriced());
    REQUIRE(compiled->sources().size() == parsed->sources().size());
    for (size_t i = 0; i < compiled->sources().size(); ++i) {
      const PriceSource& s = compiled->sources()[i];
      CHECK(s.citation == parsed->sources()[i].citation);
      // A citation names what a reader can open, never a search index's id.
      INFO(s.citation);
      CHECK(s.citation.find("search-index") == std::string::npos);
      CHECK(s.citation.find("stored") == std::string::npos);
    }
    for (const auto& [key, figure] : compiled->figures()) {
      CHECK(compiled->Figure(key.first, key.second) != nullptr);
      CHECK(figure.usd > 0);
    }
  }
  CHECK(PriceTable::BuiltInFor("xx-nowhere-1") == nullptr);
  // Studio figures from AWS's own data in another region.
  const PriceTable* euw1 = PriceTable::BuiltInFor("eu-west-1");
  REQUIRE(euw1);
  const PriceFigure* g5 = euw1->Figure("ml.g5.xlarge", PriceComponent::kStudio);
  REQUIRE(g5);
  CHECK(g5->usd == Approx(1.57));
  CHECK(g5->named);
  CHECK(g5->date == "2026-07-03");
  CHECK(euw1->Describe() == "built-in price table (eu-west-1, 2026-07)");
  // us-west-2 training from a kind-naming source; ml.p5.4xlarge has no hosting price (no source lists one).
  CHECK(PriceTable::BuiltInFor("us-west-2")->Hourly("ml.g6e.2xlarge", PriceComponent::kTraining).value_or(-1) ==
        Approx(2.8));
  CHECK_FALSE(PriceTable::BuiltIn().Hourly("ml.p5.4xlarge", PriceComponent::kHosting));
  bool listed = false;
  for (const auto& [reason, types] : PriceTable::BuiltIn().unpriced()) {
    if (reason.find("no source lists an on-demand hosting price") != std::string::npos)
      listed = std::find(types.begin(), types.end(), "ml.p5.4xlarge") != types.end();
  }
  CHECK(listed);
}

TEST_CASE("offer file: a price that is not one fails the import, naming its row", "[prices][adversarial]") {
  auto csv = [](const std::string& price) {
    return "\"FormatVersion\",\"v1.0\"\n\"SKU\",\"TermType\",\"Unit\",\"PricePerUnit\",\"Currency\",\"Product "
           "Family\",\"Region Code\",\"Instance Name\",\"Component\"\n"
           "\"A\",\"OnDemand\",\"Hrs\",\"0.23\",\"USD\",\"ML Instance\",\"us-east-1\",\"ml.m5.xlarge\",\"Training\"\n"
           "\"B\",\"OnDemand\",\"Hrs\",\"" +
           price + "\",\"USD\",\"ML Instance\",\"us-east-1\",\"ml.m5.2xlarge\",\"Training\"\n";
  };
  for (const char* bad : {"0x10", "-0", "-1", "inf", "nan", "1e3", "+1", "1.2.3", "99999", " 1"}) {
    INFO(bad);
    OfferImport offer;
    std::string error;
    CHECK_FALSE(ImportOffer(csv(bad), "us-east-1", &offer, &error));
    CHECK(error == std::string("line 4: \"") + bad +
                       "\" is not a price (a plain decimal number of USD, at most 10000 per hour)");
  }
  OfferImport ok;
  std::string error;
  REQUIRE(ImportOffer(csv("0.4610000000"), "us-east-1", &ok, &error));
  CHECK(ok.prices.at({"ml.m5.2xlarge", PriceComponent::kTraining}) == Approx(0.461));
  // JSON: the product is named.
  std::string json = R"({"offerCode": "AmazonSageMaker", "products": {"SKU1": {"productFamily": "ML Instance",
    "attributes": {"regionCode": "us-east-1", "instanceName": "ml.m5.xlarge", "component": "Hosting"}}},
    "terms": {"OnDemand": {"SKU1": {"T": {"priceDimensions": {"R": {"unit": "Hrs", "pricePerUnit": {"USD": "0x10"}}}}}}}})";
  OfferImport j;
  CHECK_FALSE(ImportOffer(json, "us-east-1", &j, &error));
  CHECK(error == "product SKU1: \"0x10\" is not a price (a plain decimal number of USD, at most 10000 per hour)");
}

TEST_CASE("offer file: the compact table is written in time linear in the number of types", "[prices]") {
  OfferImport offer;
  offer.region = "us-east-1";
  offer.published = "2026-11-20T00:00:00Z";
  for (int i = 0; i < 20000; ++i) {
    offer.prices[{"ml.x" + std::to_string(i) + ".xlarge", PriceComponent::kTraining}] = 1;
    offer.prices[{"ml.x" + std::to_string(i) + ".xlarge", PriceComponent::kHosting}] = 2;
  }
  std::string table = CompactTable(offer, "index.json");
  std::string error;
  auto t = PriceTable::Parse(table, "us-east-1", "t.json", &error);
  REQUIRE(t);
  CHECK(t->size() == 40000);
  CHECK(t->Hourly("ml.x19999.xlarge", PriceComponent::kHosting).value_or(-1) == 2);
}
