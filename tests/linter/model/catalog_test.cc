#include "linter/model/catalog.h"

#include <set>
#include <string>
#include <vector>

#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("catalog sizes: vCPU, memory and accelerator count of listed sizes", "[catalog]") {
  auto g5 = LookupInstance("ml.g5.12xlarge");
  REQUIRE(g5);
  CHECK(g5->family == "g5");
  CHECK(g5->accelerator == Accelerator::kGpu);
  CHECK(g5->vcpu == 48);
  CHECK(g5->memory_gib == 192);
  CHECK(g5->accelerator_count == 4);

  auto m5 = LookupInstance("ml.m5.xlarge");
  REQUIRE(m5);
  CHECK(m5->vcpu == 4);
  CHECK(m5->memory_gib == 16);
  CHECK(m5->accelerator_count == 0);

  auto c4 = LookupInstance("ml.c4.large");
  REQUIRE(c4);
  CHECK(c4->memory_gib == 3.75);
  CHECK(c4->previous_generation);
  CHECK(c4->successors == std::vector<std::string>{"c5"});
  CHECK(LookupInstance("ml.p2.xlarge")->successors == std::vector<std::string>{"g4dn", "g5"});

  // A family without a size table: family facts, no size facts.
  auto m6i = LookupInstance("ml.m6i.8xlarge");
  REQUIRE(m6i);
  CHECK_FALSE(m6i->vcpu);
  CHECK_FALSE(m6i->accelerator_count);

  auto p5 = LookupInstance("ml.p5.48xlarge");
  REQUIRE(p5);
  CHECK(p5->training_class);
  CHECK(p5->accelerator_count == 8);
}

TEST_CASE("catalog knows a type only when family and (tabulated) size are listed", "[catalog]") {
  CHECK(IsKnownInstanceType("ml.g4dn.xlarge"));
  CHECK(IsKnownInstanceType("ml.p6-b200.48xlarge"));  // family without a size table
  CHECK(IsKnownInstanceType("ml.geospatial.interactive"));
  CHECK_FALSE(IsKnownInstanceType("ml.g5.3xlarge"));  // g5 has no such size
  CHECK_FALSE(IsKnownInstanceType("ml.q9.xlarge"));   // no such family
  CHECK_FALSE(IsKnownInstanceType("m5.xlarge"));      // not an ml.* name
  CHECK_FALSE(IsKnownInstanceType("ml.m5"));
  CHECK_FALSE(LookupInstance("ml.q9.xlarge"));
}

TEST_CASE("catalog families are sorted and consistent", "[catalog]") {
  auto families = CatalogFamilies();
  REQUIRE(families.size() > 50);
  for (size_t i = 1; i < families.size(); ++i) CHECK(families[i - 1].family < families[i].family);
  for (const auto& f : families) {
    INFO(f.family);
    if (f.previous_generation) {
      REQUIRE_FALSE(f.successors.empty());
      for (const std::string& s : f.successors) CHECK(LookupInstance("ml." + s + ".xlarge"));
    }
    if (f.training_class) CHECK(f.accelerated());
    if (f.inference_class) CHECK(f.accelerated());
    CHECK_FALSE((f.training_class && f.inference_class));
  }
}

TEST_CASE("accelerator table: a sourced row for every accelerated type SageMaker offers", "[catalog][accelerators]") {
  std::set<std::string> rows;
  for (const AcceleratorRow& r : AcceleratorTable()) {
    INFO(r.instance_type);
    rows.insert(r.instance_type);
    auto info = LookupInstance(r.instance_type);
    REQUIRE(info);
    CHECK(info->accelerated());
    CHECK(!r.accelerator.empty());
    CHECK(r.count > 0);
    CHECK(r.memory_per_accelerator_gib > 0);
    CHECK(r.vcpu > 0);
    CHECK(r.memory_gib > 0);
    CHECK(!r.source.empty());
    CHECK(!r.memory_basis.empty());
    // The catalog serves the row: sizes, count and memory come from it.
    CHECK(info->vcpu == r.vcpu);
    CHECK(info->memory_gib == r.memory_gib);
    CHECK(info->accelerator_count == r.count);
    CHECK(info->accelerator_memory_gib == r.memory_per_accelerator_gib);
    CHECK(info->accelerator_name == r.accelerator);
  }
  // Every accelerated type any kind offers has a row (ml.g7 included).
  int accelerated = 0;
  for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                      OfferKind::kEndpoint, OfferKind::kStudioApp}) {
    for (const std::string& t : OfferedTypes(k)) {
      auto info = LookupInstance(t);
      if (!info || !info->accelerated()) continue;
      ++accelerated;
      INFO(t);
      CHECK(rows.contains(t));
    }
  }
  CHECK(accelerated > 100);
  CHECK(rows.contains("ml.g7.2xlarge"));
  CHECK(rows.contains("ml.p5.4xlarge"));
}

TEST_CASE("accelerator memory: FACTS values on one basis", "[catalog][accelerators]") {
  auto total = [](const char* t) { return LookupInstance(t)->total_accelerator_memory_gib().value_or(-1); };
  CHECK(total("ml.p3.2xlarge") == 16);
  CHECK(total("ml.p3.8xlarge") == 64);
  CHECK(total("ml.g4dn.xlarge") == 16);
  CHECK(total("ml.p4d.24xlarge") == 320);
  CHECK(total("ml.p4de.24xlarge") == 640);
  CHECK(total("ml.p5.48xlarge") == 640);
  CHECK(total("ml.p5e.48xlarge") == 1128);
  CHECK(total("ml.trn2.48xlarge") == 1536);  // Neuron docs, not the API's 512 GiB per chip
  CHECK(total("ml.inf2.48xlarge") == 384);
  // The EC2 API's figures, not the marketing "24 GB" / "48 GB".
  CHECK(total("ml.g5.xlarge") == Approx(22.35));
  CHECK(total("ml.g6e.xlarge") == Approx(44.7));
  CHECK(LookupInstance("ml.g7e.12xlarge")->accelerator_count == 2);
  CHECK(LookupInstance("ml.p5.4xlarge")->accelerator_count == 1);
  CHECK(LookupInstance("ml.p3.2xlarge")->accelerator_name == "NVIDIA V100");
  CHECK_FALSE(LookupInstance("ml.m5.xlarge")->total_accelerator_memory_gib());
}
