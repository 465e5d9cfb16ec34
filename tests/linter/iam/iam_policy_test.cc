#include "linter/iam/iam_policy.h"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "linter/base/embedded.h"
#include "linter/model/rule.h"
#include "tests/catch.h"

using namespace sagelint;
using nlohmann::json;

namespace {

// The FACTS table ("IAM condition keys"), written out independently of
// rules/data/iam_keys.json: every action/key pair a policy may use.
const std::map<std::string, std::set<std::string>>& Facts() {
  static const std::map<std::string, std::set<std::string>> facts = {
      {"sagemaker:InstanceTypes",
       {"CreateApp",
        "CreateCluster",
        "CreateDomain",
        "CreateEndpointConfig",
        "CreateHyperParameterTuningJob",
        "CreateNotebookInstance",
        "CreateProcessingJob",
        "CreateSpace",
        "CreateTrainingJob",
        "CreateTransformJob",
        "CreateUserProfile",
        "CreateDataQualityJobDefinition",
        "CreateModelBiasJobDefinition",
        "CreateModelExplainabilityJobDefinition",
        "CreateModelQualityJobDefinition",
        "CreateMonitoringSchedule",
        "UpdateCluster",
        "UpdateMonitoringSchedule",
        "UpdateDomain",
        "UpdateNotebookInstance",
        "UpdateSpace",
        "UpdateTrainingJob",
        "UpdateUserProfile"}},
      {"sagemaker:AcceleratorTypes", {"CreateEndpointConfig", "CreateNotebookInstance", "UpdateNotebookInstance"}},
      {"sagemaker:KeepAlivePeriod", {"CreateTrainingJob", "UpdateTrainingJob"}},
      {"sagemaker:MaxRuntimeInSeconds",
       {"CreateTrainingJob", "CreateHyperParameterTuningJob", "CreateProcessingJob", "CreateDataQualityJobDefinition",
        "CreateModelBiasJobDefinition", "CreateModelExplainabilityJobDefinition", "CreateModelQualityJobDefinition",
        "CreateMonitoringSchedule", "UpdateMonitoringSchedule"}},
      {"sagemaker:NotebookInstanceLifecycleConfigArns", {"CreateNotebookInstance", "UpdateNotebookInstance"}},
      {"sagemaker:StudioLifecycleConfigArns",
       {"CreateApp", "CreateDomain", "CreateSpace", "CreateUserProfile", "UpdateDomain", "UpdateSpace",
        "UpdateUserProfile"}},
  };
  return facts;
}

bool InFacts(const std::string& key, const std::string& action) {
  auto it = Facts().find(key);
  return it != Facts().end() && action.rfind("sagemaker:", 0) == 0 && it->second.contains(action.substr(10));
}

// Every rule of the registry: the IAM facts live in each rule's row.
std::vector<std::string> AllRuleIds() {
  std::vector<std::string> ids;
  for (const RuleInfo& r : AllRules()) ids.emplace_back(r.id);
  return ids;
}

GuardrailOptions WithDenyFamilies(std::vector<std::string> endpoint, std::vector<std::string> transform = {}) {
  GuardrailOptions o;
  o.endpoint_deny_families = std::move(endpoint);
  o.transform_deny_families = std::move(transform);
  return o;
}

std::vector<Finding> FindingsOf(const std::vector<std::string>& rules) {
  std::vector<Finding> out;
  for (const auto& r : rules) {
    Finding f;
    f.rule = r;
    out.push_back(f);
  }
  return out;
}

// Checks the document is an IAM policy and every action/key pair is in FACTS.
void CheckPolicy(const json& policy) {
  REQUIRE(policy.is_object());
  CHECK(policy.size() == 2);
  CHECK(policy.at("Version") == "2012-10-17");
  REQUIRE(policy.at("Statement").is_array());
  std::set<std::string> sids;
  for (const json& s : policy.at("Statement")) {
    INFO(s.dump());
    REQUIRE(s.is_object());
    for (const auto& [field, v] : s.items()) {
      CHECK(std::set<std::string>{"Sid", "Effect", "Action", "Resource", "Condition"}.contains(field));
    }
    std::string sid = s.at("Sid");
    CHECK(!sid.empty());
    for (char c : sid) CHECK(std::isalnum(static_cast<unsigned char>(c)));
    CHECK(sids.insert(sid).second);
    CHECK((s.at("Effect") == "Deny" || s.at("Effect") == "Allow"));
    CHECK(s.at("Resource") == "*");
    REQUIRE(s.at("Action").is_array());
    REQUIRE(!s.at("Action").empty());
    REQUIRE(s.at("Condition").is_object());
    for (const auto& [op, keys] : s.at("Condition").items()) {
      REQUIRE(keys.is_object());
      for (const auto& [key, values] : keys.items()) {
        CHECK((values.is_string() || values.is_number() || values.is_array()));
        if (values.is_array()) {
          for (const json& v : values) {
            REQUIRE(v.is_string());
            // Explicit families only: ml.g* would also match ml.geospatial.* and ml.gr6.*.
            std::string text = v;
            if (text.rfind("ml.", 0) == 0) CHECK(text.find('.', 3) != std::string::npos);
          }
        }
        for (const json& a : s.at("Action")) CHECK(InFacts(key, a.get<std::string>()));
      }
    }
  }
}

}  // namespace

TEST_CASE("iam_keys.json agrees with the FACTS table", "[iam]") {
  for (const auto& [key, actions] : Facts()) {
    for (const auto& a : actions) CHECK(KeyAppliesTo(key, "sagemaker:" + a));
  }
  // The generated data names its source, and its instance-type actions are exactly FACTS's.
  json doc = json::parse(Embedded("rules/data/iam_keys.json"));
  CHECK(doc.at("source").get<std::string>().rfind("npm iam-floyd 0.842.0", 0) == 0);
  std::set<std::string> launching;
  for (const auto& a : InstanceLaunchingActions()) launching.insert(a.substr(10));
  CHECK(launching == Facts().at("sagemaker:InstanceTypes"));
  for (const auto& [key, entry] : doc.at("keys").items()) {
    std::set<std::string> generated(entry.at("actions").begin(), entry.at("actions").end());
    INFO(key);
    CHECK(generated == Facts().at(key));
  }
  CHECK(KeyAppliesTo("SageMaker:instancetypes", "sagemaker:createtrainingjob"));
  CHECK_FALSE(KeyAppliesTo("sagemaker:InstanceTypes", "sagemaker:CreateEndpoint"));
  CHECK_FALSE(KeyAppliesTo("sagemaker:KeepAlivePeriod", "sagemaker:CreateHyperParameterTuningJob"));
  CHECK_FALSE(KeyAppliesTo("sagemaker:AcceleratorTypes", "sagemaker:CreateTransformJob"));
  for (const auto& a : InstanceLaunchingActions()) CHECK(KeyAppliesTo("sagemaker:InstanceTypes", a));
}

TEST_CASE("ActionMatches: IAM wildcards, case-insensitive", "[iam]") {
  CHECK(ActionMatches("sagemaker:*", "sagemaker:CreateTrainingJob"));
  CHECK(ActionMatches("*", "sagemaker:CreateTrainingJob"));
  CHECK(ActionMatches("SAGEMAKER:Create*Job", "sagemaker:CreateTrainingJob"));
  CHECK(ActionMatches("sagemaker:Create?rainingJob", "sagemaker:CreateTrainingJob"));
  CHECK_FALSE(ActionMatches("sagemaker:Create*", "sagemaker:UpdateNotebookInstance"));
  CHECK_FALSE(ActionMatches("sagemaker:CreateTrainingJob", "sagemaker:CreateTrainingJobs"));
  CHECK_FALSE(ActionMatches("s3:*", "sagemaker:CreateApp"));
}

TEST_CASE("the guardrail policy for every class is well formed and uses only FACTS pairs", "[iam]") {
  json policy = BuildGuardrailPolicy(FindingsOf(AllRuleIds()), {}, WithDenyFamilies({"ml.p3.*"}, {"ml.p2.*"}));
  CheckPolicy(policy);
  std::vector<std::string> sids;
  for (const json& s : policy.at("Statement")) sids.push_back(s.at("Sid"));
  CHECK(sids == std::vector<std::string>{
                    "DenyTrainingClassForInference", "DenyTrainingClassForBatchTransform", "DenyAcceleratedNotebooks",
                    "DenyPreviousGenerationInstances", "DenyElasticInference", "RequireNotebookLifecycleConfig",
                    "RequireApprovedNotebookLifecycleConfigs", "RequireApprovedStudioLifecycleConfigs",
                    "CapWarmPoolKeepAlive", "DenyUnapprovedInstanceTypes", "DenyUnapprovedStudioInstanceTypes"});
  // Nothing to guard: no statement (the command prints no policy then).
  CHECK(BuildGuardrailPolicy({}, {}) == json{{"Version", "2012-10-17"}, {"Statement", json::array()}});
  CHECK(BuildGuardrailPolicy(FindingsOf({"SM401", "SM211"}), {}).at("Statement").empty());
  // SM102 without a family SM102 always answers: no statement rather than one that blocks p4d/p5 hosting.
  CHECK(GuardrailStatementsFor("SM102", {}).empty());
}

TEST_CASE("an instance-type allow-list for the Studio actions keeps `system`", "[iam]") {
  std::vector<json> st = GuardrailStatementsFor("SM501", {});
  REQUIRE(st.size() == 2);
  const json& studio = st[1];
  CHECK(studio.at("Sid") == "DenyUnapprovedStudioInstanceTypes");
  CHECK(studio.at("Action") == json{"sagemaker:CreateApp", "sagemaker:CreateDomain", "sagemaker:CreateSpace",
                                    "sagemaker:CreateUserProfile", "sagemaker:UpdateDomain", "sagemaker:UpdateSpace",
                                    "sagemaker:UpdateUserProfile"});
  json types = studio.at("Condition").at("ForAnyValue:StringNotLike").at("sagemaker:InstanceTypes");
  CHECK(std::find(types.begin(), types.end(), "system") != types.end());
  // The other launching actions never see `system`, and between them the two statements cover every one.
  json other = st[0].at("Action");
  json other_types = st[0].at("Condition").at("ForAnyValue:StringNotLike").at("sagemaker:InstanceTypes");
  CHECK(std::find(other_types.begin(), other_types.end(), "system") == other_types.end());
  CHECK(other.size() + studio.at("Action").size() == InstanceLaunchingActions().size());
  CHECK(std::find(other.begin(), other.end(), "sagemaker:CreateCluster") != other.end());
  CHECK(std::find(other.begin(), other.end(), "sagemaker:UpdateTrainingJob") != other.end());
  CHECK(std::find(other.begin(), other.end(), "sagemaker:CreateMonitoringSchedule") != other.end());
}

TEST_CASE("guardrail statements: explicit families, keys and lifecycle ARNs", "[iam]") {
  std::vector<std::string> arns = {
      "arn:aws:sagemaker:us-east-1:123456789012:notebook-instance-lifecycle-config/auto-stop",
      "arn:aws:sagemaker:us-east-1:123456789012:studio-lifecycle-config/idle-ext"};
  json policy = BuildGuardrailPolicy(FindingsOf({"SM103", "SM201", "SM202", "SM203", "SM204", "SM401"}), arns,
                                     GuardrailOptions{900});
  CheckPolicy(policy);
  const json& st = policy.at("Statement");
  REQUIRE(st.size() == 5);

  const json& gpu = st[0];
  CHECK(gpu.at("Sid") == "DenyAcceleratedNotebooks");
  CHECK(gpu.at("Action") == json{"sagemaker:CreateNotebookInstance", "sagemaker:UpdateNotebookInstance",
                                 "sagemaker:CreateApp", "sagemaker:CreateDomain", "sagemaker:CreateSpace",
                                 "sagemaker:CreateUserProfile", "sagemaker:UpdateDomain", "sagemaker:UpdateSpace",
                                 "sagemaker:UpdateUserProfile"});
  const json& families = gpu.at("Condition").at("ForAnyValue:StringLike").at("sagemaker:InstanceTypes");
  std::set<std::string> fam(families.begin(), families.end());
  for (const char* f : {"ml.g4dn.*", "ml.g5.*", "ml.g6.*", "ml.g6e.*", "ml.gr6.*", "ml.p3.*", "ml.p4d.*", "ml.p5.*",
                        "ml.inf2.*", "ml.trn1.*", "ml.dl1.*"}) {
    CHECK(fam.contains(f));
  }
  CHECK_FALSE(fam.contains("ml.geospatial.*"));
  CHECK_FALSE(fam.contains("ml.eia2.*"));
  CHECK_FALSE(fam.contains("ml.m5.*"));

  CHECK(st[1] == json::parse(R"({"Sid": "RequireNotebookLifecycleConfig", "Effect": "Deny",
      "Action": ["sagemaker:CreateNotebookInstance"], "Resource": "*",
      "Condition": {"Null": {"sagemaker:NotebookInstanceLifecycleConfigArns": "true"}}})"));
  CHECK(st[2].at("Condition") ==
        json::parse(R"({"ForAnyValue:ArnNotLike": {"sagemaker:NotebookInstanceLifecycleConfigArns":
      ["arn:aws:sagemaker:us-east-1:123456789012:notebook-instance-lifecycle-config/auto-stop"]}})"));
  CHECK(st[3].at("Condition") == json::parse(R"({"ForAnyValue:ArnNotLike": {"sagemaker:StudioLifecycleConfigArns":
      ["arn:aws:sagemaker:us-east-1:123456789012:studio-lifecycle-config/idle-ext"]}})"));
  CHECK(st[4] == json::parse(R"({"Sid": "CapWarmPoolKeepAlive", "Effect": "Deny",
      "Action": ["sagemaker:CreateTrainingJob", "sagemaker:UpdateTrainingJob"], "Resource": "*",
      "Condition": {"NumericGreaterThan": {"sagemaker:KeepAlivePeriod": 900.0}}})"));

  CHECK(GuardrailNotes(FindingsOf({"SM201", "SM203"}), arns).empty());
  CHECK(GuardrailNotes(FindingsOf({"SM201", "SM501"}), {}) ==
        std::vector<std::string>{
            "RequireApprovedNotebookLifecycleConfigs: replace the placeholder ARN with your approved notebook "
            "lifecycle configurations (their on-start script must stop idle instances)",
            "DenyUnapprovedInstanceTypes, DenyUnapprovedStudioInstanceTypes: the approved families are a starting "
            "list; add the families your teams may launch (for example GPU training families) before applying it, "
            "and keep `system` for the Studio actions: Studio creates its JupyterServer and default KernelGateway "
            "apps with it"});
  json placeholder = GuardrailStatementsFor("SM203", {})[0];
  CHECK(placeholder.at("Condition").at("ForAnyValue:ArnNotLike").at("sagemaker:StudioLifecycleConfigArns") ==
        json{"arn:aws:sagemaker:*:*:studio-lifecycle-config/REPLACE-WITH-APPROVED-CONFIG"});
}

TEST_CASE("elastic inference and training-class statements", "[iam]") {
  json ei = GuardrailStatementsFor("SM105", {})[0];
  CHECK(ei == json::parse(R"({"Sid": "DenyElasticInference", "Effect": "Deny",
      "Action": ["sagemaker:CreateEndpointConfig", "sagemaker:CreateNotebookInstance", "sagemaker:UpdateNotebookInstance"],
      "Resource": "*", "Condition": {"ForAnyValue:StringLike": {"sagemaker:AcceleratorTypes": ["ml.eia1.*", "ml.eia2.*"]}}})"));
  auto tcs = GuardrailStatementsFor("SM102", {}, WithDenyFamilies({"ml.p3.*"}));
  REQUIRE(tcs.size() == 1);
  CHECK(tcs[0].at("Action") == json{"sagemaker:CreateEndpointConfig"});
  CHECK(tcs[0].at("Condition") ==
        json::parse(R"({"ForAnyValue:StringLike": {"sagemaker:InstanceTypes": ["ml.p3.*"]}})"));
  json prev = GuardrailStatementsFor("SM104", {})[0];
  CHECK(prev.at("Condition") == json::parse(R"({"ForAnyValue:StringLike": {"sagemaker:InstanceTypes":
      ["ml.c4.*", "ml.m4.*", "ml.p2.*", "ml.t2.*"]}})"));
}

TEST_CASE("classes without a condition key are listed for CI", "[iam]") {
  auto ci = ClassesWithoutConditionKey(FindingsOf({"SM401", "SM103", "SM301", "SM401", "SM211", "SM203"}));
  REQUIRE(ci.size() == 4);
  CHECK(ci[0].rule == "SM203");
  CHECK(ci[1].rule == "SM211");
  CHECK(ci[1].what == "endpoint autoscaling: no condition key exists; enforce with sagelint in CI");
  CHECK(ci[2].rule == "SM301");
  CHECK(ci[3].rule == "SM401");
  CHECK(ci[3].what == "managed Spot training: no condition key exists; enforce with sagelint in CI");
  // Every rule with a check is either keyed or CI-only, from its registry row.
  for (const RuleInfo& r : AllRules()) {
    INFO(r.id);
    bool keyed = !r.iam.condition_key.empty();
    bool ci_only = !ClassesWithoutConditionKey(FindingsOf({std::string(r.id)})).empty();
    if (!r.check) {
      CHECK_FALSE(keyed);  // SM000–SM004: the tool's own findings
      CHECK_FALSE(ci_only);
      continue;
    }
    CHECK(keyed != ci_only);
    CHECK(ci_only == !r.iam.without_key.empty());
    // A keyed class has a statement (SM102's needs the families it can deny) and a hint for some kind.
    if (keyed) {
      CHECK_FALSE(GuardrailStatementsFor(r.id, {}, WithDenyFamilies({"ml.p3.*"})).empty());
      bool hinted = false;
      for (WorkloadKind k : r.kinds) hinted = hinted || IamHintFor(r.id, k).has_value();
      CHECK(hinted);
    }
  }
  // The two that had drifted out of both tables.
  CHECK(ClassesWithoutConditionKey(FindingsOf({"SM005"})).size() == 1);
  CHECK(ClassesWithoutConditionKey(FindingsOf({"SM213"})).size() == 1);
}

TEST_CASE("IamHintFor: only keys that exist for the actions of the workload kind", "[iam]") {
  for (const auto& r : AllRuleIds()) {
    for (int k = 0; k < kWorkloadKindCount; ++k) {
      auto hint = IamHintFor(r, static_cast<WorkloadKind>(k));
      if (!hint) continue;
      INFO(r << " " << k);
      CHECK(!hint->actions.empty());
      for (const auto& a : hint->actions) CHECK(InFacts(hint->condition_key, a));
    }
  }
  auto nb = IamHintFor("SM201", WorkloadKind::kNotebookInstance);
  REQUIRE(nb);
  CHECK(nb->condition_key == "sagemaker:NotebookInstanceLifecycleConfigArns");
  CHECK(nb->actions ==
        std::vector<std::string>{"sagemaker:CreateNotebookInstance", "sagemaker:UpdateNotebookInstance"});
  auto ep = IamHintFor("SM102", WorkloadKind::kEndpointVariant);
  REQUIRE(ep);
  CHECK(ep->actions == std::vector<std::string>{"sagemaker:CreateEndpointConfig"});
  auto keep = IamHintFor("SM204", WorkloadKind::kTrainingJob);
  REQUIRE(keep);
  CHECK(keep->actions == std::vector<std::string>{"sagemaker:CreateTrainingJob", "sagemaker:UpdateTrainingJob"});
  CHECK_FALSE(IamHintFor("SM204", WorkloadKind::kTuningJob));
  CHECK_FALSE(IamHintFor("SM105", WorkloadKind::kTransformJob));
  CHECK_FALSE(IamHintFor("SM401", WorkloadKind::kTrainingJob));
  CHECK_FALSE(IamHintFor("SM203", WorkloadKind::kStudioDomain));
}

TEST_CASE("covered launch actions and Deny guards", "[iam]") {
  IamStatement s;
  s.effect = Val::Known("Deny");
  s.actions = {Val::Known("sagemaker:Create*Job")};
  CHECK(CoveredLaunchActions(s) ==
        std::vector<std::string>{"sagemaker:CreateHyperParameterTuningJob", "sagemaker:CreateProcessingJob",
                                 "sagemaker:CreateTrainingJob", "sagemaker:CreateTransformJob"});
  s.conditions = {IamCondition{"ForAnyValue:StringNotLike", "sagemaker:InstanceTypes", {"ml.m5.*"}, true}};
  CHECK(DenyGuardsInstanceTypes(s, "sagemaker:CreateTrainingJob"));
  CHECK_FALSE(DenyGuardsInstanceTypes(s, "sagemaker:CreateNotebookInstance"));  // not covered
  s.conditions[0].op = "ForAllValues:StringNotLike";  // true when the key is absent: not the recommended guard
  CHECK_FALSE(DenyGuardsInstanceTypes(s, "sagemaker:CreateTrainingJob"));
  s.conditions[0].op = "ForAnyValue:StringLike";
  CHECK(DenyGuardsInstanceTypes(s, "sagemaker:CreateTrainingJob"));
  s.conditions[0].known = false;
  CHECK_FALSE(DenyGuardsInstanceTypes(s, "sagemaker:CreateTrainingJob"));
  s.conditions[0].known = true;
  s.effect = Val::Known("Allow");
  CHECK_FALSE(DenyGuardsInstanceTypes(s, "sagemaker:CreateTrainingJob"));

  IamStatement na;
  na.effect = Val::Known("Allow");
  na.not_action = true;
  na.actions = {Val::Known("sagemaker:Create*")};
  CHECK(CoveredLaunchActions(na) == std::vector<std::string>{"sagemaker:UpdateCluster", "sagemaker:UpdateDomain",
                                                             "sagemaker:UpdateMonitoringSchedule",
                                                             "sagemaker:UpdateNotebookInstance",
                                                             "sagemaker:UpdateSpace", "sagemaker:UpdateTrainingJob",
                                                             "sagemaker:UpdateUserProfile"});
  na.actions.push_back(Val::Unknown());
  CHECK(CoveredLaunchActions(na).empty());
}
