// linter/model/workload_kinds.cc: one row per WorkloadKind, and the facts read from it.
#include "linter/model/workload_kinds.h"

#include <set>
#include <string>

#include "linter/cost/prices.h"
#include "linter/iam/iam_policy.h"
#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("every workload kind has its row, found by its name", "[kinds]") {
  std::set<std::string_view> names, short_names;
  for (int i = 0; i < kWorkloadKindCount; ++i) {
    auto k = static_cast<WorkloadKind>(i);
    const WorkloadKindTraits& t = TraitsOf(k);
    INFO(t.name);
    CHECK(t.kind == k);
    CHECK(KindName(k) == t.name);
    CHECK(KindFromName(t.name) == k);
    CHECK(names.insert(t.name).second);
    CHECK(short_names.insert(t.short_name).second);
    // The kinds with an instance list are priced; those without are not.
    CHECK(ComponentFor(k).has_value() == t.offer.has_value());
    // What bills until deleted is priced per month: hosting, notebooks, Studio, HyperPod clusters.
    CHECK(AlwaysOn(k) == t.always_on);
    if (t.always_on) CHECK(t.offer.has_value());
    // Every action a row names is one of the IAM reference's instance-launching actions,
    // or the create / update call of a Studio resource that launches apps.
    for (std::string_view a : t.launch_actions) {
      if (a.empty()) continue;
      INFO(a);
      std::string action = "sagemaker:" + std::string(a);
      CHECK((KeyAppliesTo("sagemaker:InstanceTypes", action) || a.find("Domain") != std::string_view::npos ||
             a.find("UserProfile") != std::string_view::npos || a.find("Space") != std::string_view::npos));
    }
  }
  CHECK(!KindFromName("training"));
  CHECK(KindFromName("hyperpod_cluster") == WorkloadKind::kHyperPodCluster);
}

TEST_CASE("a kind's row gives its instance list, price component, monthly billing and IAM actions", "[kinds]") {
  CHECK(OfferKindFor(WorkloadKind::kTuningJob) == OfferKind::kTraining);
  CHECK(OfferKindFor(WorkloadKind::kStudioSpace) == OfferKind::kStudioApp);
  CHECK(!OfferKindFor(WorkloadKind::kInferenceComponent));
  CHECK(ComponentFor(WorkloadKind::kEndpointVariant) == PriceComponent::kHosting);
  CHECK(ComponentFor(WorkloadKind::kHyperPodCluster) == PriceComponent::kTraining);  // no HyperPod price sourced
  CHECK(AlwaysOn(WorkloadKind::kHyperPodCluster));
  CHECK(AlwaysOn(WorkloadKind::kStudioDomain));
  CHECK(!AlwaysOn(WorkloadKind::kTrainingJob));
  CHECK(!AlwaysOn(WorkloadKind::kLifecycleScript));
  auto hint = IamHintFor("SM104", WorkloadKind::kStudioUserProfile);
  REQUIRE(hint);
  CHECK(hint->actions ==
        std::vector<std::string>{"sagemaker:CreateApp", "sagemaker:CreateUserProfile", "sagemaker:UpdateUserProfile"});
  // An IAM statement's row names every instance-launching action.
  hint = IamHintFor("SM104", WorkloadKind::kIamStatement);
  REQUIRE(hint);
  CHECK(hint->actions == InstanceLaunchingActions());
  CHECK(!IamHintFor("SM104", WorkloadKind::kScalableTarget));
}
