#include "linter/engine/link.h"

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

#include "parsers/aws/resources.h"

namespace sagelint {
namespace {

bool IsSageMakerTarget(const Workload& t) {
  if (t.kind != WorkloadKind::kScalableTarget) return false;
  if (t.service_namespace.known() && t.service_namespace.text != "sagemaker") return false;
  if (t.scalable_dimension.known() && t.scalable_dimension.text.rfind("sagemaker:variant:", 0) != 0) {
    return false;
  }
  // A target whose namespace is unknown counts only if it names a variant.
  return t.service_namespace.known() || !t.refs.empty();
}

void DeriveFramework(Workload& w) {
  if (w.framework.present() || !w.image.known()) return;
  std::string fw = FrameworkFromImage(w.image.text);
  if (!fw.empty()) w.framework = Val::Known(fw, w.image.range, "inferred from the image URI");
}

void DeriveStudioIdleShutdown(Workload& w) {
  if (w.kind != WorkloadKind::kStudioDomain && w.kind != WorkloadKind::kStudioUserProfile &&
      w.kind != WorkloadKind::kStudioSpace) {
    return;
  }
  bool any = false, unknown = false, all_on = true;
  for (const StudioApp& a : w.apps) {
    if (a.app != "JupyterLab" && a.app != "CodeEditor") continue;
    if (a.scope == "DefaultSpaceSettings") continue;
    any = true;
    bool space = a.scope == "SpaceSettings";
    if (a.idle_timeout_minutes.AnyUnknown() || (!space && a.idle_management.AnyUnknown())) {
      unknown = true;
      continue;
    }
    bool on = a.idle_timeout_minutes.present() &&
              (space || (a.idle_management.known() && a.idle_management.text == "ENABLED"));
    all_on = all_on && on;
  }
  if (!any) {
    if (w.kind == WorkloadKind::kStudioDomain && w.complete) w.idle_shutdown = Val::Known("false", w.range);
    return;
  }
  if (!all_on)
    w.idle_shutdown = Val::Known("false", w.range);
  else if (unknown)
    w.idle_shutdown = Val::Unknown(w.range);
  else
    w.idle_shutdown = Val::Known("true", w.range);
}

}  // namespace

Val LinkVal(LinkValue v, SourceRange range) {
  switch (v) {
    case LinkValue::kTrue:
      return Val::Known("true", range);
    case LinkValue::kFalse:
      return Val::Known("false", range);
    default:
      return Val::Unknown(range);
  }
}

void LinkIndex::Add(const Workload& w) {
  if (w.kind == WorkloadKind::kScalableTarget) {
    if (!IsSageMakerTarget(w)) {
      // An unresolvable target in the same scope might still name the variant.
      if (!w.service_namespace.known() && w.refs.empty()) unknown_target_scopes_.insert(w.scope);
      return;
    }
    if (w.refs.empty()) unknown_target_scopes_.insert(w.scope);
    targeted_.insert(w.refs.begin(), w.refs.end());
  } else if (w.kind == WorkloadKind::kLifecycleScript) {
    // No on-start script at all (only an on-create one, which runs once) stops
    // nothing; absence is known only when nothing unseen could supply one.
    LinkValue stops = w.on_start.absent() && !w.on_start.conditional() && w.complete ? LinkValue::kFalse
                      : !w.on_start.known()                                          ? LinkValue::kUnknown
                      : HasIdleStopLogic(w.on_start.text)                            ? LinkValue::kTrue
                                                                                     : LinkValue::kFalse;
    std::string construct =
        w.member_of.kind == ConstructMember::Kind::kNone ? "" : w.path + '\n' + w.member_of.construct;
    for (const std::string& k : w.keys) {
      auto [it, added] = scripts_.emplace(k, Script{stops, construct});
      if (!added && !construct.empty() && it->second.construct == construct && it->second.stops != stops) {
        it->second.stops = LinkValue::kUnknown;
      }
    }
  }
}

void LinkIndex::AddWorkflowDeletes(const std::string& path, const std::vector<std::string>& names) {
  if (names.empty()) return;
  std::string workflow = NotebookWorkflow(path);
  for (const std::string& n : names) workflow_deletes_[workflow + '\n' + n].push_back(path);
}

void LinkIndex::Merge(const LinkIndex& later) {
  targeted_.insert(later.targeted_.begin(), later.targeted_.end());
  unknown_target_scopes_.insert(later.unknown_target_scopes_.begin(), later.unknown_target_scopes_.end());
  for (const auto& [key, stops] : later.scripts_) scripts_.emplace(key, stops);
  for (const auto& [key, paths] : later.workflow_deletes_) {
    std::vector<std::string>& to = workflow_deletes_[key];
    to.insert(to.end(), paths.begin(), paths.end());
  }
}

LinkValue LinkIndex::Autoscaling(const std::vector<std::string>& keys, bool complete, const std::string& scope) const {
  for (const std::string& k : keys) {
    if (targeted_.count(k)) return LinkValue::kTrue;
  }
  if (keys.empty() || !complete || unknown_target_scopes_.count(scope)) return LinkValue::kUnknown;
  return LinkValue::kFalse;
}

LinkValue LinkIndex::IdleStop(const std::vector<std::string>& refs) const {
  // The last of its references that names a script decides.
  LinkValue stops = LinkValue::kUnknown;
  for (const std::string& r : refs) {
    auto it = scripts_.find(r);
    if (it != scripts_.end()) stops = it->second.stops;
  }
  return stops;
}

LinkValue LinkIndex::WorkflowDeletes(const std::vector<std::string>& keys, const std::string& scope,
                                     const std::string& path) const {
  if (workflow_deletes_.empty()) return LinkValue::kFalse;
  const std::string prefix = scope + '\n';
  // Its own deletes were judged by the notebook itself (order, conditions).
  auto elsewhere = [&](const std::string& key) {
    auto it = workflow_deletes_.find(key);
    return it != workflow_deletes_.end() &&
           std::any_of(it->second.begin(), it->second.end(), [&](const std::string& p) { return p != path; });
  };
  if (elsewhere(prefix + "*")) return LinkValue::kTrue;
  // The endpoint names the variant's keys spell: "endpoint:NAME/variant/V".
  std::vector<std::string> names;
  for (const std::string& k : keys) {
    if (auto name = aws::EndpointNameOfVariantKey(k)) names.push_back(std::move(*name));
  }
  for (const std::string& name : names) {
    if (elsewhere(prefix + name)) return LinkValue::kTrue;
  }
  // "*PART": every listed endpoint whose name contains PART (list_endpoints(NameContains=PART)).
  for (const auto& [key, paths] : workflow_deletes_) {
    if (key.rfind(prefix + "*", 0) != 0 || !elsewhere(key)) continue;
    std::string part = key.substr(prefix.size() + 1);
    for (const std::string& name : names) {
      if (name.find(part) != std::string::npos) return LinkValue::kTrue;
    }
  }
  return LinkValue::kFalse;
}

bool WorkflowDeleteLinked(const Workload& w) {
  return w.kind == WorkloadKind::kEndpointVariant && w.format == Format::kNotebook && w.deleted.present() &&
         !DeletedByWorkflow(w);
}

bool NotebookLinked(const Workload& w) {
  // Only an unconditional, resolved reference tells us which script runs.
  return w.kind == WorkloadKind::kNotebookInstance && !w.lifecycle_config.conditional() && w.lifecycle_config.present();
}

void DeriveAttributes(Workload& w) {
  DeriveFramework(w);
  DeriveStudioIdleShutdown(w);
}

std::string FrameworkFromImage(std::string_view image) {
  struct Marker {
    std::string_view needle;
    std::string_view framework;
  };
  // Repository names of the SageMaker framework containers.
  static constexpr std::array<Marker, 9> kMarkers = {{
      {"sagemaker-scikit-learn", "sklearn"},
      {"sagemaker-xgboost", "xgboost"},
      {"huggingface-", "huggingface"},
      {"pytorch-", "pytorch"},
      {"tensorflow-", "tensorflow"},
      {"mxnet-", "mxnet"},
      {"sagemaker-chainer", "chainer"},
      {"sagemaker-rl-", "rl"},
      {"sagemaker-sparkml-serving", "sparkml"},
  }};
  for (const Marker& m : kMarkers) {
    if (image.find(m.needle) != std::string_view::npos) return std::string(m.framework);
  }
  return {};
}

bool HasIdleStopLogic(std::string_view script) {
  static constexpr std::array<std::string_view, 5> kSignals = {"autostop", "IDLE_TIME", "stop-notebook-instance",
                                                               "StopNotebookInstance", "stop_notebook_instance"};
  for (std::string_view s : kSignals) {
    if (script.find(s) != std::string_view::npos) return true;
  }
  return false;
}

Val WorkflowDeleted(const Workload& w) {
  return Val::Known("true", w.deleted.range, "deleted by another notebook of its directory");
}

void ApplyLinks(const LinkIndex& index, Workload& w) {
  if (w.kind == WorkloadKind::kEndpointVariant) {
    w.autoscaling = LinkVal(index.Autoscaling(w.keys, w.complete, w.scope), w.range);
  }
  if (WorkflowDeleteLinked(w) && index.WorkflowDeletes(w.keys, w.scope, w.path) == LinkValue::kTrue) {
    w.deleted = WorkflowDeleted(w);
  }
  if (NotebookLinked(w)) w.idle_stop = LinkVal(index.IdleStop(w.refs), w.lifecycle_config.range);
}

}  // namespace sagelint
