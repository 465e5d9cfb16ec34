// Per-kind availability (rules/data/offered.json) and every rule that names an
// instance: SM005 itself, and the suggestions of SM101, SM102, SM103, SM104
// and SM005, which must all be types the workload's kind accepts.
#include <map>
#include <nlohmann/json.hpp>
#include <regex>
#include <set>

#include "linter/base/embedded.h"
#include "linter/cost/prices.h"
#include "linter/model/catalog.h"
#include "rules/checks.h"
#include "tests/catch.h"
#include "tests/rules/capture_sink.h"

using namespace sagelint;

namespace {

constexpr WorkloadKind kInstanceKinds[] = {WorkloadKind::kTrainingJob,      WorkloadKind::kTuningJob,
                                           WorkloadKind::kProcessingJob,    WorkloadKind::kTransformJob,
                                           WorkloadKind::kNotebookInstance, WorkloadKind::kStudioDomain,
                                           WorkloadKind::kEndpointVariant};

Workload WithType(WorkloadKind kind, const std::string& type) {
  Workload w;
  w.kind = kind;
  w.label = "workload 'w'";
  w.framework = Val::Known("sklearn");
  if (kind == WorkloadKind::kStudioDomain) {
    StudioApp app;
    app.app = "JupyterLab";
    app.scope = "DefaultUserSettings";
    app.instance_type = Val::Known(type);
    w.apps.push_back(app);
  } else {
    w.instance_type = Val::Known(type);
    w.instance_count = Val::Known("1");
  }
  return w;
}

// Every type the catalog can name: the sizes of its size tables and every
// type any kind's list offers.
std::set<std::string> AllCatalogTypes() {
  std::set<std::string> out;
  for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                      OfferKind::kEndpoint, OfferKind::kStudioApp}) {
    for (const std::string& t : OfferedTypes(k)) out.insert(t);
  }
  for (const InstanceInfo& f : CatalogFamilies()) {
    for (const char* size : {"medium", "large", "xlarge", "2xlarge", "4xlarge", "8xlarge", "9xlarge", "12xlarge",
                             "16xlarge", "18xlarge", "24xlarge", "32xlarge", "48xlarge"}) {
      std::string t = "ml." + f.family + "." + size;
      if (IsKnownInstanceType(t)) out.insert(t);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("offered lists: read from the botocore model, as FACTS describes them", "[catalog][offered]") {
  CHECK(OfferedSource().find("botocore 1.43.67") == 0);
  CHECK(IsOffered("ml.t3.medium", OfferKind::kNotebook));
  CHECK_FALSE(IsOffered("ml.t3.medium", OfferKind::kEndpoint));
  CHECK(IsOffered("ml.t2.medium", OfferKind::kEndpoint));
  CHECK_FALSE(IsOffered("ml.t2.medium", OfferKind::kTraining));
  CHECK(IsOffered("ml.t3.medium", OfferKind::kTraining));
  CHECK(IsOffered("ml.t3.micro", OfferKind::kStudioApp));
  for (const std::string& t : OfferedTypes(OfferKind::kTransform)) {
    CHECK(t.rfind("ml.t2.", 0) != 0);
    CHECK(t.rfind("ml.t3.", 0) != 0);
  }
  // Every offered type belongs to a catalog family and is a known type.
  for (const std::string& t : AllCatalogTypes()) {
    INFO(t);
    CHECK(LookupInstance(t));
    CHECK(IsKnownInstanceType(t));
  }
  // A size the API lists for no kind is unknown (SM004), not "not offered".
  CHECK_FALSE(IsKnownInstanceType("ml.m6i.medium"));
  CHECK_FALSE(IsKnownInstanceType("ml.t2.micro"));
}

TEST_CASE("SM005 reports exactly the types outside the kind's list", "[SM005][offered]") {
  for (WorkloadKind kind : kInstanceKinds) {
    OfferKind offer = *OfferKindFor(kind);
    for (const std::string& t : AllCatalogTypes()) {
      testing::CaptureSink sink;
      rules::CheckInstanceTypeNotOffered(WithType(kind, t), RuleContext{}, sink);
      INFO(KindName(kind) << " " << t);
      CHECK(sink.reports.size() == (IsOffered(t, offer) ? 0u : 1u));
    }
  }
}

TEST_CASE("every instance a rule suggests is offered for the workload's kind", "[offered][suggestions]") {
  const std::regex kType(R"(ml\.[a-z0-9-]+\.[a-z0-9]+)");
  using Check = void (*)(const Workload&, const RuleContext&, Sink&);
  const std::pair<const char*, Check> checks[] = {{"SM005", rules::CheckInstanceTypeNotOffered},
                                                  {"SM101", rules::CheckGpuForScikitLearn},
                                                  {"SM102", rules::CheckTrainingInstanceForInference},
                                                  {"SM103", rules::CheckAcceleratedNotebook},
                                                  {"SM104", rules::CheckPreviousGenerationInstance}};
  int suggestions = 0;
  for (WorkloadKind kind : kInstanceKinds) {
    OfferKind offer = *OfferKindFor(kind);
    for (const std::string& t : AllCatalogTypes()) {
      for (const auto& [id, check] : checks) {
        testing::CaptureSink sink;
        check(WithType(kind, t), RuleContext{}, sink);
        for (const Report& r : sink.reports) {
          INFO(id << " on " << KindName(kind) << " " << t << ": " << r.suggestion);
          if (r.cost && !r.cost->cheaper_instance.empty()) {
            ++suggestions;
            CHECK(IsOffered(r.cost->cheaper_instance, offer));
          }
          for (std::sregex_iterator m(r.suggestion.begin(), r.suggestion.end(), kType), end; m != end; ++m) {
            CHECK(IsOffered(m->str(), offer));
          }
        }
      }
    }
  }
  CHECK(suggestions > 500);  // the walk really reached the suggestion paths
}

namespace {

// Prices for the previous-generation families, which no source prices in the built-in table.
const PriceTable& OldFamilyPrices() {
  static const PriceTable table = [] {
    std::string error;
    auto t = PriceTable::Parse(R"({"source": "test sheet", "as_of": "2026-01-01", "region": "us-east-1", "prices": {
        "ml.m4.xlarge": {"training": 0.24, "hosting": 0.24, "notebook": 0.24},
        "ml.m5.xlarge": {"training": 0.23, "hosting": 0.23, "notebook": 0.23},
        "ml.c4.8xlarge": {"processing": 1.91},
        "ml.c5.9xlarge": {"processing": 1.836},
        "ml.c5.18xlarge": {"processing": 3.672},
        "ml.p2.xlarge": {"hosting": 1.125},
        "ml.g4dn.xlarge": {"hosting": 0.7364},
        "ml.g5.xlarge": {"hosting": 1.41},
        "ml.p2.8xlarge": {"training": 8.64},
        "ml.g5.48xlarge": {"training": 20.36},
        "ml.t2.medium": {"notebook": 0.0464, "hosting": 0.056},
        "ml.t3.medium": {"notebook": 0.05}}})",
                               "", "test.json", &error);
    REQUIRE(t);
    return *t;
  }();
  return table;
}

}  // namespace

TEST_CASE("SM104 never suggests a successor that costs more, is smaller or that the kind does not host",
          "[SM104][offered]") {
  for (const PriceTable* prices : {&PriceTable::BuiltIn(), &OldFamilyPrices()}) {
    RuleContext ctx;
    ctx.prices = prices;
    for (WorkloadKind kind : kInstanceKinds) {
      for (const std::string& t : AllCatalogTypes()) {
        testing::CaptureSink sink;
        rules::CheckPreviousGenerationInstance(WithType(kind, t), ctx, sink);
        for (const Report& r : sink.reports) {
          INFO(KindName(kind) << " " << t << ": " << r.message);
          REQUIRE(r.cost);
          REQUIRE(r.suggestion.rfind("switch to ", 0) == 0);
          std::string successor = r.suggestion.substr(10);
          CHECK(IsOffered(successor, *OfferKindFor(kind)));
          auto component = *ComponentFor(kind);
          auto old_price = prices->Hourly(t, component);
          auto new_price = prices->Hourly(successor, component);
          if (old_price && new_price) {
            // Both prices known: never paying more, and the savings are computed from them.
            CHECK(*new_price <= *old_price);
            CHECK(r.cost->cheaper_instance == successor);
          } else {
            // ml.m4, ml.c4, ml.p2 without a comparison: no savings figure; ml.t2 never.
            CHECK(r.cost->cheaper_instance.empty());
            CHECK(LookupInstance(t)->family != "t2");
          }
          auto from = LookupInstance(t), to = LookupInstance(successor);
          CHECK(*to->vcpu >= *from->vcpu);
          if (from->accelerated()) {
            CHECK(*to->total_accelerator_memory_gib() >= *from->total_accelerator_memory_gib());
          } else {
            CHECK(*to->memory_gib >= *from->memory_gib);
          }
        }
      }
    }
  }
  auto check = [](WorkloadKind kind, const char* type, const PriceTable& prices) {
    testing::CaptureSink sink;
    RuleContext ctx;
    ctx.prices = &prices;
    rules::CheckPreviousGenerationInstance(WithType(kind, type), ctx, sink);
    return sink.reports;
  };
  // The built-in table prices none of the old families: ml.t2 needs both prices, so nothing is said; ml.m4,
  // ml.c4 and ml.p2 are reported with their successor and no savings figure.
  for (const char* t : {"ml.m4.xlarge", "ml.c4.xlarge", "ml.p2.xlarge", "ml.t2.medium"}) {
    INFO(t);
    CHECK(PriceTable::BuiltIn().UnpricedReason(t) != "");
  }
  for (WorkloadKind kind : kInstanceKinds) CHECK(check(kind, "ml.t2.medium", PriceTable::BuiltIn()).empty());
  auto builtin_m4 = check(WorkloadKind::kNotebookInstance, "ml.m4.xlarge", PriceTable::BuiltIn());
  REQUIRE(builtin_m4.size() == 1);
  CHECK(builtin_m4[0].suggestion == "switch to ml.m5.xlarge");
  CHECK(builtin_m4[0].cost->cheaper_instance.empty());
  // A t2 endpoint has no t3 to move to; a t2 notebook's t3 successor costs more.
  CHECK(check(WorkloadKind::kEndpointVariant, "ml.t2.medium", OldFamilyPrices()).empty());
  CHECK(check(WorkloadKind::kNotebookInstance, "ml.t2.medium", OldFamilyPrices()).empty());
  auto m4 = check(WorkloadKind::kTrainingJob, "ml.m4.xlarge", OldFamilyPrices());
  REQUIRE(m4.size() == 1);
  CHECK(m4[0].message ==
        "workload 'w' uses ml.m4.xlarge, a previous-generation instance: ml.m5.xlarge, a current-generation successor "
        "with at least its capacity (4 vCPUs, 16 GiB of memory against 4 vCPUs, 16 GiB of memory), costs a lower "
        "training price ($0.23/h against $0.24/h) in the price table");
  // c4.8xlarge has 36 vCPUs: c5.9xlarge keeps them (c5.4xlarge would not).
  auto c4 = check(WorkloadKind::kProcessingJob, "ml.c4.8xlarge", OldFamilyPrices());
  REQUIRE(c4.size() == 1);
  CHECK(c4[0].cost->cheaper_instance == "ml.c5.9xlarge");
  // p2: vCPUs and accelerator memory, not host memory (p2.xlarge has 61 GiB, g4dn.xlarge 16).
  auto p2 = check(WorkloadKind::kEndpointVariant, "ml.p2.xlarge", OldFamilyPrices());
  REQUIRE(p2.size() == 1);
  CHECK(p2[0].cost->cheaper_instance == "ml.g4dn.xlarge");
  // p2.8xlarge: 8 × 12 GiB; no g4dn holds 96 GiB, g5.48xlarge does but costs more: silent.
  CHECK(check(WorkloadKind::kTrainingJob, "ml.p2.8xlarge", OldFamilyPrices()).empty());
}

TEST_CASE("every offered type in every kind is priced with a source or listed unpriced with the reason",
          "[prices][offered]") {
  nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/prices.json"));
  // type -> the components the table lists it unpriced for
  std::map<std::string, std::set<std::string>> listed;
  for (const auto& group : doc.at("unpriced")) {
    CHECK(!group.at("reason").get<std::string>().empty());
    for (const auto& [type, comps] : group.at("types").items()) {
      for (const auto& c : comps) CHECK(listed[type].insert(c.get<std::string>()).second);
    }
  }
  const PriceTable& prices = PriceTable::BuiltIn();
  int priced = 0, unpriced = 0;
  for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                      OfferKind::kEndpoint, OfferKind::kStudioApp}) {
    PriceComponent c = ComponentFor(k);
    std::string comp(ComponentName(c));
    for (const std::string& t : OfferedTypes(k)) {
      INFO(t << " " << comp);
      const PriceFigure* f = prices.Figure(t, c);
      bool is_listed = listed.count(t) > 0 && listed[t].count(comp) > 0;
      // Exactly one of the two.
      CHECK((f != nullptr) != is_listed);
      if (f != nullptr) {
        ++priced;
        CHECK(f->usd > 0);
        CHECK(!f->source.empty());
        CHECK(f->date.size() >= 4);
      } else {
        ++unpriced;
        CHECK(!prices.UnpricedReason(t).empty());
        CHECK(prices.Unpriced(t, c).find(prices.UnpricedReason(t)) != std::string::npos);
      }
    }
  }
  CHECK(priced > 600);
  CHECK(unpriced > 0);
  // Every figure is for a kind that offers the type, and every listed type is offered (no stale entries).
  for (const auto& [key, figure] : prices.figures()) {
    bool offered = false;
    for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                        OfferKind::kEndpoint, OfferKind::kStudioApp}) {
      offered = offered || (ComponentFor(k) == key.second && IsOffered(key.first, k));
    }
    INFO(key.first << " " << ComponentName(key.second));
    CHECK(offered);
  }
  for (const auto& [type, comps] : listed) {
    INFO(type);
    CHECK(IsKnownInstanceType(type));
  }
}
