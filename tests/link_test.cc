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

TEST_CASE("framework is inferred from a known image URI", "[link]") {
  CHECK(FrameworkFromImage("683313688378.dkr.ecr.us-east-1.amazonaws.com/sagemaker-scikit-learn:1.2-1-cpu-py3") ==
        "sklearn");
  CHECK(FrameworkFromImage("763104351884.dkr.ecr.us-east-1.amazonaws.com/huggingface-pytorch-inference:2.1") ==
        "huggingface");
  CHECK(FrameworkFromImage("111122223333.dkr.ecr.us-east-1.amazonaws.com/my-own:latest") == "");
  CHECK(HasIdleStopLogic("python autostop.py --time 3600"));
  CHECK(!HasIdleStopLogic("pip install shap"));
}
