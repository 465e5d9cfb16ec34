#include "linter/iam/iam_policy.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "linter/base/embedded.h"
#include "linter/base/strings.h"
#include "linter/iam/guardrails.h"
#include "linter/model/catalog.h"
#include "linter/model/rule.h"
#include "linter/model/workload_kinds.h"

namespace sagelint {
namespace {

using nlohmann::json;

constexpr std::string_view kInstanceTypes = "sagemaker:InstanceTypes";
constexpr std::string_view kAcceleratorTypes = "sagemaker:AcceleratorTypes";
constexpr std::string_view kKeepAlive = "sagemaker:KeepAlivePeriod";
constexpr std::string_view kNotebookLcArns = "sagemaker:NotebookInstanceLifecycleConfigArns";
constexpr std::string_view kStudioLcArns = "sagemaker:StudioLifecycleConfigArns";

// rules/data/iam_keys.json, generated from the Service Authorization Reference.
struct IamData {
  std::map<std::string, std::set<std::string>> keys;  // key (lower case) -> actions (lower case, "sagemaker:"-prefixed)
  std::vector<std::string> instance_actions;          // sagemaker:InstanceTypes actions, "sagemaker:"-prefixed
  std::map<std::string, std::string, std::less<>> resource_types;  // action (lower case, prefixed) -> resource type
};

const IamData& Data() {
  static const auto* data = [] {
    auto* d = new IamData();
    json doc = json::parse(Embedded("rules/data/iam_keys.json"));
    for (const auto& [key, entry] : doc.at("keys").items()) {
      for (const auto& a : entry.at("actions")) {
        d->keys[AsciiLower(key)].insert("sagemaker:" + AsciiLower(a.get<std::string>()));
        if (key == kInstanceTypes) d->instance_actions.push_back("sagemaker:" + a.get<std::string>());
      }
    }
    for (const auto& [action, type] : doc.at("resource_types").items()) {
      d->resource_types["sagemaker:" + AsciiLower(action)] = type.get<std::string>();
    }
    return d;
  }();
  return *data;
}

const std::map<std::string, std::set<std::string>>& KeyTable() { return Data().keys; }

std::vector<std::string> Prefixed(std::initializer_list<std::string_view> names) {
  std::vector<std::string> out;
  for (auto n : names) out.push_back("sagemaker:" + std::string(n));
  return out;
}

// The actions that create or change a workload of `kind` with its instances.
std::vector<std::string> LaunchActionsFor(WorkloadKind kind) {
  const WorkloadKindTraits& t = TraitsOf(kind);
  if (t.every_launch_action) return InstanceLaunchingActions();
  std::vector<std::string> out;
  for (std::string_view a : t.launch_actions) {
    if (!a.empty()) out.push_back("sagemaker:" + std::string(a));
  }
  return out;
}

const std::vector<std::string>& NotebookActions() {
  static const auto* v = new std::vector<std::string>(LaunchActionsFor(WorkloadKind::kNotebookInstance));
  return *v;
}

// The Studio actions that launch apps: those of its three kinds, once each, sorted.
const std::vector<std::string>& StudioActions() {
  static const auto* v = [] {
    std::set<std::string> all;
    for (WorkloadKind k : {WorkloadKind::kStudioDomain, WorkloadKind::kStudioUserProfile, WorkloadKind::kStudioSpace}) {
      for (std::string& a : LaunchActionsFor(k)) all.insert(std::move(a));
    }
    return new std::vector<std::string>(all.begin(), all.end());
  }();
  return *v;
}

// The rule's IAM facts, from its registry row (custom policies have none).
RuleIam IamOf(std::string_view rule_id) {
  const RuleInfo* r = FindRule(rule_id);
  return r ? r->iam : RuleIam{};
}

bool IsStudioAction(const std::string& action) {
  return std::find(StudioActions().begin(), StudioActions().end(), action) != StudioActions().end();
}

std::vector<std::string> FamilyPatterns(bool (*pred)(const InstanceInfo&)) {
  std::vector<std::string> out;
  for (const InstanceInfo& f : CatalogFamilies()) {
    if (pred(f)) out.push_back("ml." + f.family + ".*");
  }
  return out;
}

// The current general-purpose, compute, memory and inference families a
// platform team usually approves first; the user edits the list.
const std::vector<std::string>& StartingApprovedFamilies() {
  static const auto* v =
      new std::vector<std::string>{"ml.t3.*", "ml.m5.*",  "ml.m6i.*",  "ml.m7i.*", "ml.c5.*", "ml.c6i.*", "ml.c7i.*",
                                   "ml.r5.*", "ml.r6i.*", "ml.g4dn.*", "ml.g5.*",  "ml.g6.*", "ml.inf2.*"};
  return *v;
}

// Studio creates its JupyterServer app and default KernelGateway apps with
// the instance type `system`: an allow-list for the Studio actions without it
// blocks Studio itself.
const std::vector<std::string>& StartingApprovedStudioTypes() {
  static const auto* v = [] {
    auto* out = new std::vector<std::string>(StartingApprovedFamilies());
    out->push_back("system");
    return out;
  }();
  return *v;
}

// Keeps the actions the key applies to: a generated statement never pairs a
// key with an action that lacks it.
json ActionsWithKey(const std::vector<std::string>& actions, std::string_view key) {
  json out = json::array();
  for (const auto& a : actions) {
    if (KeyAppliesTo(key, a)) out.push_back(a);
  }
  return out;
}

json Deny(std::string sid, const std::vector<std::string>& actions, std::string_view key, json condition) {
  return json{{"Sid", std::move(sid)},
              {"Effect", "Deny"},
              {"Action", ActionsWithKey(actions, key)},
              {"Resource", "*"},
              {"Condition", std::move(condition)}};
}

json AnyValueLike(std::string_view key, const std::vector<std::string>& patterns) {
  return json{{"ForAnyValue:StringLike", {{std::string(key), patterns}}}};
}

// Approved ARNs of one lifecycle configuration kind, or a placeholder.
std::vector<std::string> ArnsOfKind(const std::vector<std::string>& arns, std::string_view resource,
                                    std::string_view placeholder) {
  std::vector<std::string> out;
  for (const auto& a : arns) {
    if (a.find(":" + std::string(resource) + "/") != std::string::npos) out.push_back(a);
  }
  if (out.empty()) out.emplace_back(placeholder);
  return out;
}

constexpr std::string_view kNotebookLcPlaceholder =
    "arn:aws:sagemaker:*:*:notebook-instance-lifecycle-config/REPLACE-WITH-APPROVED-CONFIG";
constexpr std::string_view kStudioLcPlaceholder =
    "arn:aws:sagemaker:*:*:studio-lifecycle-config/REPLACE-WITH-APPROVED-CONFIG";

std::set<std::string> RulesIn(const std::vector<Finding>& findings) {
  std::set<std::string> rules;
  for (const auto& f : findings) rules.insert(f.rule);
  return rules;
}

}  // namespace

bool KeyAppliesTo(std::string_view key, std::string_view action) {
  const auto& t = KeyTable();
  auto it = t.find(AsciiLower(key));
  return it != t.end() && it->second.contains(AsciiLower(action));
}

const std::vector<std::string>& InstanceLaunchingActions() { return Data().instance_actions; }

bool ActionMatches(std::string_view pattern, std::string_view action) {
  // Iterative glob match with backtracking to the last `*`.
  size_t p = 0, a = 0, star = std::string_view::npos, mark = 0;
  auto eq = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  while (a < action.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || eq(pattern[p], action[a]))) {
      ++p;
      ++a;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = a;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      a = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

// The resource type an instance-launching action is authorized on (the
// service authorization reference's required resource of each action).
std::string_view ResourceTypeOf(std::string_view action) {
  const auto& types = Data().resource_types;
  auto it = types.find(AsciiLower(action));
  return it == types.end() ? std::string_view() : std::string_view(it->second);
}

// An ARN pattern's service and resource sections (IAM matches the six
// colon-separated sections of an ARN one by one; a wildcard never spans
// them). False for a pattern that is not `arn:…` with six sections.
bool ArnSections(std::string_view pattern, std::string_view* service, std::string_view* resource) {
  size_t pos = 0;
  std::string_view fields[5];
  for (int i = 0; i < 5; ++i) {
    size_t colon = pattern.find(':', pos);
    if (colon == std::string_view::npos) return false;
    fields[i] = pattern.substr(pos, colon - pos);
    pos = colon + 1;
  }
  if (AsciiLower(fields[0]) != "arn") return false;
  *service = fields[2];
  *resource = pattern.substr(pos);
  return true;
}

// Whether some string that begins with `prefix` matches the glob `pattern`
// (case-insensitive, `*` and `?`): the pattern's states after reading the
// prefix; any state left can be completed by a suitable rest.
bool PrefixCanMatch(std::string_view pattern, std::string_view prefix) {
  auto eq = [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
  };
  std::vector<bool> states(pattern.size() + 1, false);
  auto close = [&](std::vector<bool>& st) {  // a `*` may match nothing
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (st[i] && pattern[i] == '*') st[i + 1] = true;
    }
  };
  states[0] = true;
  close(states);
  for (char c : prefix) {
    std::vector<bool> next(pattern.size() + 1, false);
    for (size_t i = 0; i < pattern.size(); ++i) {
      if (!states[i]) continue;
      if (pattern[i] == '*')
        next[i] = true;
      else if (pattern[i] == '?' || eq(pattern[i], c))
        next[i + 1] = true;
    }
    close(next);
    states = std::move(next);
    if (std::none_of(states.begin(), states.end(), [](bool b) { return b; })) return false;
  }
  return true;
}

// Whether the statement's Resource / NotResource lets `action` act on some
// resource. Unknown resources count as allowing it.
bool ResourcesAllow(const IamStatement& s, std::string_view action) {
  if (s.resources.empty()) return true;
  std::string_view type = ResourceTypeOf(action);
  if (type.empty()) return true;
  for (const Val& r : s.resources) {
    if (!r.known()) return true;
  }
  std::string prefix = std::string(type) + "/";
  if (!s.not_resource) {
    // Some resource of the action's type can match one pattern.
    return std::any_of(s.resources.begin(), s.resources.end(), [&](const Val& r) {
      std::string_view service, resource;
      if (!ArnSections(r.text, &service, &resource)) return true;  // "*" or not an ARN: may match
      return ActionMatches(service, "sagemaker") && PrefixCanMatch(resource, prefix);
    });
  }
  // NotResource excludes the action when a pattern matches every resource of its type.
  return std::none_of(s.resources.begin(), s.resources.end(), [&](const Val& r) {
    if (r.text == "*") return true;
    std::string_view service, resource;
    if (!ArnSections(r.text, &service, &resource)) return false;
    return ActionMatches(service, "sagemaker") && ActionMatches(resource, prefix + "zz-any-name-9") &&
           ActionMatches(resource, prefix + "a");
  });
}

}  // namespace

std::vector<std::string> CoveredLaunchActions(const IamStatement& s) {
  std::vector<std::string> covered;
  if (!s.actions_complete) return covered;
  for (const Val& a : s.actions) {
    if (!a.known()) return covered;
  }
  for (const std::string& action : InstanceLaunchingActions()) {
    bool named =
        std::any_of(s.actions.begin(), s.actions.end(), [&](const Val& a) { return ActionMatches(a.text, action); });
    if (named != s.not_action && ResourcesAllow(s, action)) covered.push_back(action);
  }
  return covered;
}

bool AdministratorGrant(const IamStatement& s) {
  auto names_sagemaker = [](const Val& a) {
    std::string text = AsciiLower(a.text);
    return !a.known() || text.rfind("sagemaker:", 0) == 0;
  };
  if (s.not_action) return std::none_of(s.actions.begin(), s.actions.end(), names_sagemaker);
  // Every action that covers a SageMaker launch is a wildcard over services.
  for (const Val& a : s.actions) {
    if (names_sagemaker(a)) return false;
  }
  return true;
}

bool DenyGuardsInstanceTypes(const IamStatement& s, std::string_view action) {
  if (!s.managed_policy.empty() || !s.effect.known() || s.effect.text != "Deny" || !s.conditions_known) return false;
  auto covered = CoveredLaunchActions(s);
  if (std::find(covered.begin(), covered.end(), action) == covered.end()) return false;
  bool guard = false;
  for (const IamCondition& c : s.conditions) {
    if (!c.known) return false;
    std::string op = AsciiLower(c.op);
    if (AsciiLower(c.key) != AsciiLower(kInstanceTypes) || c.values.empty()) continue;
    if (op == "foranyvalue:stringnotlike" || op == "foranyvalue:stringnotequals" || op == "foranyvalue:stringlike" ||
        op == "foranyvalue:stringequals") {
      guard = true;
    }
  }
  return guard;
}

std::optional<IamHint> IamHintFor(std::string_view rule_id, WorkloadKind kind) {
  RuleIam iam = IamOf(rule_id);
  if (iam.condition_key.empty()) return std::nullopt;
  IamHint hint;
  hint.condition_key = std::string(iam.condition_key);
  for (const auto& a : LaunchActionsFor(kind)) {
    if (KeyAppliesTo(hint.condition_key, a)) hint.actions.push_back(a);
  }
  if (hint.actions.empty()) return std::nullopt;
  return hint;
}

namespace {

// True when one of `arns` names a lifecycle configuration of `resource`'s kind.
bool HasArnOfKind(const std::vector<std::string>& arns, std::string_view resource) {
  return std::any_of(arns.begin(), arns.end(), [&](const std::string& a) {
    return a.find(":" + std::string(resource) + "/") != std::string::npos;
  });
}

// The guardrail of `rule_id`'s registry row; none for a rule without one.
Guardrail GuardrailOf(std::string_view rule_id, const std::vector<std::string>& lifecycle_arns,
                      const GuardrailOptions& options) {
  Guardrail g;
  const RuleInfo* r = FindRule(rule_id);
  if (r && r->iam.guardrail) r->iam.guardrail(GuardrailInput{lifecycle_arns, options}, &g);
  return g;
}

}  // namespace

namespace guardrails {

void TrainingClassForInference(const GuardrailInput& in, Guardrail* out) {
  // Only families that always have a cheaper inference instance with as
  // much accelerator memory: denying p4d/p5 would block hosting a model that needs them.
  if (!in.options.endpoint_deny_families.empty()) {
    out->statements.push_back(Deny("DenyTrainingClassForInference", Prefixed({"CreateEndpointConfig"}), kInstanceTypes,
                                   AnyValueLike(kInstanceTypes, in.options.endpoint_deny_families)));
  }
  if (!in.options.transform_deny_families.empty()) {
    out->statements.push_back(Deny("DenyTrainingClassForBatchTransform", Prefixed({"CreateTransformJob"}),
                                   kInstanceTypes, AnyValueLike(kInstanceTypes, in.options.transform_deny_families)));
  }
}

void AcceleratedNotebooks(const GuardrailInput&, Guardrail* out) {
  std::vector<std::string> actions = NotebookActions();
  actions.insert(actions.end(), StudioActions().begin(), StudioActions().end());
  out->statements.push_back(
      Deny("DenyAcceleratedNotebooks", actions, kInstanceTypes,
           AnyValueLike(kInstanceTypes, FamilyPatterns([](const InstanceInfo& f) { return f.accelerated(); }))));
}

void PreviousGenerationInstances(const GuardrailInput&, Guardrail* out) {
  out->statements.push_back(
      Deny("DenyPreviousGenerationInstances", InstanceLaunchingActions(), kInstanceTypes,
           AnyValueLike(kInstanceTypes, FamilyPatterns([](const InstanceInfo& f) { return f.previous_generation; }))));
}

void ElasticInference(const GuardrailInput&, Guardrail* out) {
  out->statements.push_back(Deny(
      "DenyElasticInference", Prefixed({"CreateEndpointConfig", "CreateNotebookInstance", "UpdateNotebookInstance"}),
      kAcceleratorTypes, AnyValueLike(kAcceleratorTypes, FamilyPatterns([](const InstanceInfo& f) {
                                        return f.accelerator == Accelerator::kElasticInference;
                                      }))));
}

void NotebookLifecycleConfigs(const GuardrailInput& in, Guardrail* out) {
  // Conditions in one statement are ANDed, so "no configuration" and "not
  // an approved one" need a statement each.
  out->statements.push_back(Deny("RequireNotebookLifecycleConfig", Prefixed({"CreateNotebookInstance"}),
                                 kNotebookLcArns, json{{"Null", {{std::string(kNotebookLcArns), "true"}}}}));
  out->statements.push_back(
      Deny("RequireApprovedNotebookLifecycleConfigs", NotebookActions(), kNotebookLcArns,
           json{{"ForAnyValue:ArnNotLike",
                 {{std::string(kNotebookLcArns),
                   ArnsOfKind(in.lifecycle_arns, "notebook-instance-lifecycle-config", kNotebookLcPlaceholder)}}}}));
  if (!HasArnOfKind(in.lifecycle_arns, "notebook-instance-lifecycle-config")) {
    out->note =
        "RequireApprovedNotebookLifecycleConfigs: replace the placeholder ARN with your approved notebook "
        "lifecycle configurations (their on-start script must stop idle instances)";
  }
}

void StudioLifecycleConfigs(const GuardrailInput& in, Guardrail* out) {
  out->statements.push_back(
      Deny("RequireApprovedStudioLifecycleConfigs", StudioActions(), kStudioLcArns,
           json{{"ForAnyValue:ArnNotLike",
                 {{std::string(kStudioLcArns),
                   ArnsOfKind(in.lifecycle_arns, "studio-lifecycle-config", kStudioLcPlaceholder)}}}}));
  if (!HasArnOfKind(in.lifecycle_arns, "studio-lifecycle-config")) {
    out->note =
        "RequireApprovedStudioLifecycleConfigs: replace the placeholder ARN with your approved Studio "
        "lifecycle configurations";
  }
}

void WarmPoolKeepAlive(const GuardrailInput& in, Guardrail* out) {
  out->statements.push_back(
      Deny("CapWarmPoolKeepAlive", Prefixed({"CreateTrainingJob", "UpdateTrainingJob"}), kKeepAlive,
           json{{"NumericGreaterThan", {{std::string(kKeepAlive), in.options.max_keep_alive_seconds}}}}));
}

void UnapprovedInstanceTypes(const GuardrailInput&, Guardrail* out) {
  std::vector<std::string> studio, other;
  for (const std::string& a : InstanceLaunchingActions()) (IsStudioAction(a) ? studio : other).push_back(a);
  out->statements.push_back(
      Deny("DenyUnapprovedInstanceTypes", other, kInstanceTypes,
           json{{"ForAnyValue:StringNotLike", {{std::string(kInstanceTypes), StartingApprovedFamilies()}}}}));
  out->statements.push_back(
      Deny("DenyUnapprovedStudioInstanceTypes", studio, kInstanceTypes,
           json{{"ForAnyValue:StringNotLike", {{std::string(kInstanceTypes), StartingApprovedStudioTypes()}}}}));
  out->note =
      "DenyUnapprovedInstanceTypes, DenyUnapprovedStudioInstanceTypes: the approved families are a starting "
      "list; add the families your teams may launch (for example GPU training families) before applying it, and "
      "keep `system` for the Studio actions: Studio creates its JupyterServer and default KernelGateway apps with "
      "it";
}

}  // namespace guardrails

std::vector<json> GuardrailStatementsFor(std::string_view rule_id, const std::vector<std::string>& lifecycle_arns,
                                         const GuardrailOptions& options) {
  return GuardrailOf(rule_id, lifecycle_arns, options).statements;
}

json BuildGuardrailPolicy(const std::vector<Finding>& findings, const std::vector<std::string>& lifecycle_arns,
                          const GuardrailOptions& options) {
  json statements = json::array();
  std::set<std::string> sids;
  for (const auto& rule : RulesIn(findings)) {
    for (json& s : GuardrailStatementsFor(rule, lifecycle_arns, options)) {
      if (sids.insert(s.at("Sid").get<std::string>()).second) statements.push_back(std::move(s));
    }
  }
  return json{{"Version", "2012-10-17"}, {"Statement", std::move(statements)}};
}

std::vector<CiOnlyClass> ClassesWithoutConditionKey(const std::vector<Finding>& findings) {
  std::vector<CiOnlyClass> out;
  for (const auto& rule : RulesIn(findings)) {
    RuleIam iam = IamOf(rule);
    if (!iam.without_key.empty()) out.push_back({rule, std::string(iam.without_key) + "; enforce with sagelint in CI"});
  }
  return out;
}

std::vector<std::string> GuardrailNotes(const std::vector<Finding>& findings,
                                        const std::vector<std::string>& lifecycle_arns) {
  std::vector<std::string> notes;
  for (const auto& rule : RulesIn(findings)) {
    std::string note = GuardrailOf(rule, lifecycle_arns, {}).note;
    // Rules sharing a guardrail (SM201, SM202) share its note: once.
    if (!note.empty() && std::find(notes.begin(), notes.end(), note) == notes.end()) notes.push_back(std::move(note));
  }
  return notes;
}

}  // namespace sagelint
