#include "linter/model/catalog.h"

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
  CHECK(c4->successor == "c5");

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
    if (f.previous_generation) CHECK(LookupInstance("ml." + f.successor + ".xlarge"));
    if (f.training_class) CHECK(f.accelerated());
  }
}
