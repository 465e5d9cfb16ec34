// SM501 iam-unrestricted-instance-types: an Allow of an instance-launching
// SageMaker action without a sagemaker:InstanceTypes condition lets its
// holder start any instance type, up to multi-GPU clusters.
#include <algorithm>
#include <cctype>
#include <string>
#include <vector>

#include "linter/base/strings.h"
#include "linter/iam/iam_policy.h"
#include "rules/checks_cost.h"

namespace sagelint::rules {
namespace {

constexpr std::string_view kKey = "sagemaker:InstanceTypes";

// How the statement's conditions restrict sagemaker:InstanceTypes.
struct Restriction {
  bool restricted = false;        // some condition limits the instance types
  std::string for_all_values_op;  // set when the limit is a ForAllValues operator
  bool null_guard = false;        // "Null": {"sagemaker:InstanceTypes": "false"}
};

bool MatchesEverything(const std::string& v) { return v == "*" || v == "ml.*" || v == "ml*"; }

Restriction Evaluate(const std::vector<IamCondition>& conditions) {
  Restriction r;
  for (const IamCondition& c : conditions) {
    if (AsciiLower(c.key) != AsciiLower(kKey)) continue;
    std::string op = AsciiLower(c.op);
    if (op.ends_with("ifexists")) op.resize(op.size() - 8);
    if (op == "null") {
      for (const auto& v : c.values) {
        if (AsciiLower(v) == "false") r.null_guard = true;
        if (AsciiLower(v) == "true") r.restricted = true;  // only requests without instance types
      }
      continue;
    }
    std::string base = op.substr(op.find(':') == std::string::npos ? 0 : op.find(':') + 1);
    bool negative = base.find("not") != std::string::npos;
    bool string_op = base.rfind("string", 0) == 0;
    if (!string_op || c.values.empty()) continue;
    bool limits = negative || std::none_of(c.values.begin(), c.values.end(), MatchesEverything);
    if (!limits) continue;
    r.restricted = true;
    if (op.rfind("forallvalues:", 0) == 0 && !negative) r.for_all_values_op = c.op;
  }
  return r;
}

// "sagemaker:CreateTrainingJob, sagemaker:CreateProcessingJob and 3 more".
std::string ListActions(const std::vector<std::string>& actions) {
  std::string out;
  size_t shown = std::min<size_t>(actions.size(), 3);
  for (size_t i = 0; i < shown; ++i) out += (i ? ", " : "") + actions[i];
  if (actions.size() > shown) out += " and " + std::to_string(actions.size() - shown) + " more";
  return out;
}

std::string JoinQuoted(const std::vector<std::string>& values) {
  std::string out;
  for (size_t i = 0; i < values.size(); ++i) out += (i ? ", " : "") + ("\"" + values[i] + "\"");
  return out;
}

constexpr const char* kAnyType =
    "whoever holds it can launch any instance type, up to multi-GPU ml.p5.48xlarge clusters";

// What the granted actions let their holder put on any instance type, for the
// message (rules/SM501.md "Which actions the message lists"): only what they
// launch — "Studio apps" for CreateUserProfile/UpdateDomain, never clusters.
std::string AnyTypeFor(const std::vector<std::string>& actions) {
  struct Kind {
    const char* what;
    std::vector<std::string_view> stems;  // an action (after "sagemaker:") containing one launches this
    bool accelerated_clusters;            // multi-GPU ml.p5.48xlarge instances can run here
  };
  static const std::vector<Kind> kKinds = {
      {"jobs", {"TrainingJob", "HyperParameterTuningJob", "ProcessingJob", "TransformJob"}, true},
      {"monitoring jobs", {"JobDefinition", "MonitoringSchedule"}, false},
      {"HyperPod clusters", {"Cluster"}, true},
      {"endpoints", {"EndpointConfig"}, true},
      {"notebook instances", {"NotebookInstance"}, false},
      {"Studio apps", {"CreateApp", "Domain", "UserProfile", "Space"}, false},
  };
  std::vector<std::string> kinds;
  bool accelerated = false;
  for (const Kind& k : kKinds) {
    bool granted = std::any_of(actions.begin(), actions.end(), [&](const std::string& a) {
      return std::any_of(k.stems.begin(), k.stems.end(),
                         [&](std::string_view stem) { return a.find(stem) != std::string::npos; });
    });
    if (!granted) continue;
    kinds.push_back(k.what);
    accelerated = accelerated || k.accelerated_clusters;
  }
  if (kinds.size() >= 5) return kAnyType;
  std::string list;
  for (size_t i = 0; i < kinds.size(); ++i) list += (i ? (i + 1 == kinds.size() ? " and " : ", ") : "") + kinds[i];
  return "whoever holds it can choose any instance type for " + list +
         (accelerated ? ", up to multi-GPU ml.p5.48xlarge" : "");
}

constexpr const char* kRestrictAllow =
    "restrict the Allow with \"ForAllValues:StringLike\": {\"sagemaker:InstanceTypes\": [approved types]} plus "
    "\"Null\": {\"sagemaker:InstanceTypes\": \"false\"}, or ";
constexpr const char* kAddDeny =
    "add a Deny with \"ForAnyValue:StringLike\" on explicit GPU families (ml.p4d.*, ml.p5.*, ml.g5.*, …; not ml.g*, "
    "which also matches ml.geospatial.*); `sagelint iam-policy` writes one";

// "only lambda.amazonaws.com can use this role; code running there can …":
// the services are the only ones who can act with the grant, so it is a
// note (rules/SM501.md "Roles only AWS services assume").
std::string ServicesOnly(const std::vector<std::string>& services) {
  std::string list;
  for (size_t i = 0; i < services.size(); ++i) {
    list += (i ? (i + 1 == services.size() ? " and " : ", ") : "") + services[i];
  }
  return "only " + list + " can use this role; code running there ";
}

void Emit(const Workload& w, SourceRange at, std::string message, std::string suggestion,
          std::vector<std::string> actions, Sink& sink) {
  Report r;
  r.at = at;
  if (!w.iam.trusted_services.empty()) {
    // "…: whoever holds it can launch …" becomes "…: only X can use this role; code running there can launch …".
    static constexpr std::string_view kHolder = "whoever holds it ";
    size_t at_holder = message.find(kHolder);
    if (at_holder != std::string::npos) {
      message.replace(at_holder, kHolder.size(), ServicesOnly(w.iam.trusted_services));
    }
    r.at_most = Severity::kNote;
  }
  r.message = std::move(message);
  r.suggestion = std::move(suggestion);
  r.iam = IamHint{std::string(kKey), std::move(actions)};
  sink.Emit(w, std::move(r));
}

}  // namespace

void CheckIamUnrestrictedInstanceTypes(const Workload& w, const RuleContext&, Sink& sink) {
  const IamStatement& s = w.iam;
  if (!s.managed_policy.empty()) {
    std::string_view name = s.managed_policy;
    name = name.substr(name.rfind('/') == std::string_view::npos ? 0 : name.rfind('/') + 1);
    if (name != "AmazonSageMakerFullAccess") return;  // other managed policies: contents not known here
    Emit(w, {},
         w.label + " attaches the AWS managed policy AmazonSageMakerFullAccess, which allows sagemaker:* with no " +
             std::string(kKey) + " condition: " + kAnyType,
         std::string("replace it with a customer managed policy whose Allow restricts sagemaker:InstanceTypes, or ") +
             kAddDeny,
         InstanceLaunchingActions(), sink);
    return;
  }
  if (!s.effect.known() || s.effect.text != "Allow") return;  // a Deny never grants
  if (!s.conditions_known) return;
  for (const IamCondition& c : s.conditions) {
    if (!c.known) return;
  }

  // A grant of every service (a bare "*", a NotAction naming no SageMaker
  // action) is an administrator grant: security linters judge those.
  if (AdministratorGrant(s)) return;
  std::vector<std::string> covered = CoveredLaunchActions(s);
  if (covered.empty()) return;
  SourceRange at;  // the first action that names a covered one
  for (const Val& a : s.actions) {
    bool names =
        std::any_of(covered.begin(), covered.end(), [&](const std::string& c) { return ActionMatches(a.text, c); });
    if (names && !s.not_action) {
      at = a.range;
      break;
    }
  }

  Restriction r = Evaluate(s.conditions);
  if (!r.restricted) {
    Emit(w, at,
         w.label + " allows " + ListActions(covered) + (s.not_action ? " (through NotAction)" : "") + " with no " +
             std::string(kKey) + " condition: " + AnyTypeFor(covered),
         std::string(kRestrictAllow) + kAddDeny, covered, sink);
    return;
  }
  if (!r.for_all_values_op.empty() && !r.null_guard) {
    std::vector<std::string> values;
    for (const IamCondition& c : s.conditions) {
      if (c.op == r.for_all_values_op && AsciiLower(c.key) == AsciiLower(kKey)) values = c.values;
    }
    Emit(w, at,
         w.label + " allows " + ListActions(covered) + " for instance types matching " + JoinQuoted(values) + " (" +
             r.for_all_values_op + ") without a Null guard: " + r.for_all_values_op +
             " is also true when a request names no instance type, so such requests are allowed too",
         "add \"Null\": {\"sagemaker:InstanceTypes\": \"false\"} to the statement's Condition", covered, sink);
  }
}

}  // namespace sagelint::rules
