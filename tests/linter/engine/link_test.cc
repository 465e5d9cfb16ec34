// The linker: scalable targets -> variants, lifecycle configs -> notebooks,
// images -> frameworks, Studio idle shutdown.
#include "linter/engine/link.h"

#include "linter/report/model_dump.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

Workload Variant(std::string scope, std::vector<std::string> keys) {
  Workload w;
  w.kind = WorkloadKind::kEndpointVariant;
  w.scope = std::move(scope);
  w.keys = std::move(keys);
  return w;
}

Workload Target(std::string scope, std::vector<std::string> refs, bool namespace_known = true) {
  Workload w;
  w.kind = WorkloadKind::kScalableTarget;
  w.scope = std::move(scope);
  w.refs = std::move(refs);
  w.service_namespace = namespace_known ? Val::Known("sagemaker") : Val::Unknown();
  w.scalable_dimension = Val::Known("sagemaker:variant:DesiredInstanceCount");
  return w;
}

// Derives every workload's attributes and links them, as the analyzer does across a scan.
std::string Link(std::vector<Workload>& ws) {
  LinkIndex index;
  for (Workload& w : ws) {
    DeriveAttributes(w);
    index.Add(w);
  }
  for (Workload& w : ws) ApplyLinks(index, w);
  return "";
}

}  // namespace

TEST_CASE("scalable targets mark variants autoscaled, across files and formats", "[link]") {
  std::vector<Workload> ws = {
      Variant("a.yaml", {"endpoint:churn/variant/AllTraffic", "ref:a.yaml#Endpoint/variant/AllTraffic"}),
      Variant("a.yaml", {"ref:a.yaml#Other/variant/AllTraffic"}),
      Variant("b.yaml", {}),
      Target("infra/scaling", {"endpoint:churn/variant/AllTraffic"}),
  };
  Link(ws);
  CHECK(DumpVal(ws[0].autoscaling) == "\"true\"");
  CHECK(DumpVal(ws[1].autoscaling) == "\"false\"");
  CHECK(DumpVal(ws[2].autoscaling) == "unknown");  // no endpoint deploys it in scope
}

TEST_CASE("an unresolvable scalable target makes absence unknowable in its scope", "[link]") {
  std::vector<Workload> ws = {
      Variant("a.yaml", {"ref:a.yaml#Endpoint/variant/AllTraffic"}),
      Variant("b.yaml", {"ref:b.yaml#Endpoint/variant/AllTraffic"}),
      Target("a.yaml", {}),
  };
  Link(ws);
  CHECK(ws[0].autoscaling.unknown());
  CHECK(DumpVal(ws[1].autoscaling) == "\"false\"");
}

TEST_CASE("lifecycle scripts decide idle_stop of the notebooks that use them", "[link]") {
  Workload script;
  script.kind = WorkloadKind::kLifecycleScript;
  script.keys = {"lc:install", "ref:x.yaml#Install"};
  script.on_start = Val::Known("#!/bin/bash\npip install shap\n");
  Workload stopper = script;
  stopper.keys = {"lc:autostop"};
  stopper.on_start = Val::Known("IDLE_TIME=3600\n");
  Workload nb1;
  nb1.kind = WorkloadKind::kNotebookInstance;
  nb1.lifecycle_config = Val::Known("install");
  nb1.refs = {"ref:x.yaml#Install"};
  Workload nb2 = nb1;
  nb2.refs = {"lc:autostop"};
  Workload nb3 = nb1;
  nb3.refs = {"lc:elsewhere"};
  Workload nb4 = nb1;
  nb4.lifecycle_config = Val::Absent();
  nb4.refs = {};
  std::vector<Workload> ws = {script, stopper, nb1, nb2, nb3, nb4};
  Link(ws);
  CHECK(DumpVal(ws[2].idle_stop) == "\"false\"");
  CHECK(DumpVal(ws[3].idle_stop) == "\"true\"");
  CHECK(ws[4].idle_stop.unknown());
  CHECK(ws[5].idle_stop.absent());
}

TEST_CASE("a lifecycle configuration without an on-start script does not stop idle instances", "[link]") {
  Workload create_only;
  create_only.kind = WorkloadKind::kLifecycleScript;
  create_only.keys = {"lc:clone"};
  create_only.on_create = Val::Known("IDLE_TIME=3600\n");  // runs once: does not count
  Workload spread = create_only;                           // something unseen may set OnStart
  spread.keys = {"lc:spread"};
  spread.complete = false;
  // Two branches of one conditional resource that disagree.
  Workload branch_stops;
  branch_stops.kind = WorkloadKind::kLifecycleScript;
  branch_stops.path = "x.yaml";
  branch_stops.keys = {"lc:maybe"};
  branch_stops.member_of = {ConstructMember::Kind::kAlternative, "Maybe", "Prod", 2};
  branch_stops.on_start = Val::Known("IDLE_TIME=3600\n");
  Workload branch_none = branch_stops;
  branch_none.member_of.key = "!Prod";
  branch_none.on_start = Val::Absent();
  Workload nb;
  nb.kind = WorkloadKind::kNotebookInstance;
  nb.lifecycle_config = Val::Known("clone");
  nb.refs = {"lc:clone"};
  Workload nb_spread = nb;
  nb_spread.refs = {"lc:spread"};
  Workload nb_maybe = nb;
  nb_maybe.refs = {"lc:maybe"};
  std::vector<Workload> ws = {create_only, spread, branch_stops, branch_none, nb, nb_spread, nb_maybe};
  Link(ws);
  CHECK(DumpVal(ws[4].idle_stop) == "\"false\"");
  CHECK(ws[5].idle_stop.unknown());
  CHECK(ws[6].idle_stop.unknown());
}

TEST_CASE("framework is inferred from a known image URI", "[link]") {
  CHECK(FrameworkFromImage("683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3") ==
        "sklearn");
  CHECK(FrameworkFromImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-inference:2.1") ==
        "huggingface");
  CHECK(FrameworkFromImage("111122223333.dkr.ecr.us-east-1.amazonaws.com/my-own:latest") == "");
  CHECK(HasIdleStopLogic("python autostop.py --time 3600"));
  CHECK(!HasIdleStopLogic("pip install shap"));
}
