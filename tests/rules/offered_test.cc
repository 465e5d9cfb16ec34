// Per-kind availability (rules/data/offered.json) and every rule that names an
// instance: SM005 itself, and the suggestions of SM101, SM102, SM103, SM104
// and SM005, which must all be types the workload's kind accepts.
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

TEST_CASE("SM104 never suggests a successor that costs more or that the kind does not host", "[SM104][offered]") {
  const PriceTable& prices = PriceTable::BuiltIn();
  for (WorkloadKind kind : kInstanceKinds) {
    for (const std::string& t : AllCatalogTypes()) {
      testing::CaptureSink sink;
      rules::CheckPreviousGenerationInstance(WithType(kind, t), RuleContext{}, sink);
      for (const Report& r : sink.reports) {
        INFO(KindName(kind) << " " << t << ": " << r.message);
        REQUIRE(r.cost);
        auto component = *ComponentFor(kind);
        auto old_price = prices.Hourly(t, component);
        auto new_price = prices.Hourly(r.cost->cheaper_instance, component);
        REQUIRE(old_price);
        REQUIRE(new_price);
        CHECK(*new_price <= *old_price);
      }
    }
  }
  // The cases that motivated the rule: a t2 endpoint has no t3 to move to,
  // and a t2 notebook's t3 successor costs more in the table.
  testing::CaptureSink sink;
  rules::CheckPreviousGenerationInstance(WithType(WorkloadKind::kEndpointVariant, "ml.t2.medium"), RuleContext{}, sink);
  rules::CheckPreviousGenerationInstance(WithType(WorkloadKind::kNotebookInstance, "ml.t2.medium"), RuleContext{},
                                         sink);
  CHECK(sink.reports.empty());
  rules::CheckPreviousGenerationInstance(WithType(WorkloadKind::kTrainingJob, "ml.m4.xlarge"), RuleContext{}, sink);
  REQUIRE(sink.reports.size() == 1);
  CHECK(sink.reports[0].message ==
        "workload 'w' uses ml.m4.xlarge, a previous-generation instance: ml.m5.xlarge, its current-generation "
        "successor, costs a lower training price ($0.23/h against $0.24/h) in the price table");
}

TEST_CASE("every instance type SageMaker offers has a price or is listed as unpriced", "[prices][offered]") {
  nlohmann::json doc = nlohmann::json::parse(Embedded("rules/data/prices.json"));
  std::set<std::string> unpriced;
  for (const auto& t : doc.at("unpriced").at("types")) unpriced.insert(t.get<std::string>());
  CHECK(!doc.at("unpriced").at("reason").get<std::string>().empty());
  const PriceTable& prices = PriceTable::BuiltIn();
  for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                      OfferKind::kEndpoint, OfferKind::kStudioApp}) {
    for (const std::string& t : OfferedTypes(k)) {
      bool priced = false;
      for (PriceComponent c : {PriceComponent::kNotebook, PriceComponent::kStudio, PriceComponent::kTraining,
                               PriceComponent::kProcessing, PriceComponent::kTransform, PriceComponent::kHosting}) {
        priced = priced || prices.Hourly(t, c).has_value();
      }
      INFO(t);
      // Exactly one of the two: a priced type must not also be listed as unpriced.
      CHECK(priced != (unpriced.count(t) > 0));
    }
  }
  // Every listed type is one SageMaker offers (no stale entries).
  for (const std::string& t : unpriced) {
    bool offered = false;
    for (OfferKind k : {OfferKind::kNotebook, OfferKind::kTraining, OfferKind::kProcessing, OfferKind::kTransform,
                        OfferKind::kEndpoint, OfferKind::kStudioApp}) {
      offered = offered || IsOffered(t, k);
    }
    INFO(t);
    CHECK(offered);
  }
}
