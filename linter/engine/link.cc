#include "linter/engine/link.h"

#include <array>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>

namespace sagelint {
namespace {

bool IsSageMakerTarget(const Workload& t) {
  if (t.kind != WorkloadKind::kScalableTarget) return false;
  if (t.service_namespace.known() && t.service_namespace.text != "sagemaker") return false;
  if (t.scalable_dimension.known() &&
      t.scalable_dimension.text.rfind("sagemaker:variant:", 0) != 0) {
    return false;
  }
  // A target whose namespace is unknown counts only if it names a variant.
  return t.service_namespace.known() || !t.refs.empty();
}

void LinkAutoscaling(std::vector<Workload*>& all) {
  std::unordered_set<std::string> targeted;
  std::unordered_set<std::string> scopes_with_unknown_target;
  for (const Workload* t : all) {
    if (t->kind != WorkloadKind::kScalableTarget) continue;
    if (!IsSageMakerTarget(*t)) {
      // An unresolvable target in the same scope might still name the variant.
      if (!t->service_namespace.known() && t->refs.empty()) scopes_with_unknown_target.insert(t->scope);
      continue;
    }
    if (t->refs.empty()) scopes_with_unknown_target.insert(t->scope);
    targeted.insert(t->refs.begin(), t->refs.end());
  }
  for (Workload* v : all) {
    if (v->kind != WorkloadKind::kEndpointVariant) continue;
    bool hit = false;
    for (const std::string& k : v->keys) hit = hit || targeted.count(k) > 0;
    if (hit) {
      v->autoscaling = Val::Known("true", v->range);
    } else if (v->keys.empty() || !v->complete || scopes_with_unknown_target.count(v->scope)) {
      v->autoscaling = Val::Unknown(v->range);
    } else {
      v->autoscaling = Val::Known("false", v->range);
    }
  }
}

void LinkLifecycleConfigs(std::vector<Workload*>& all) {
  std::unordered_map<std::string, const Workload*> scripts;
  for (const Workload* s : all) {
    if (s->kind != WorkloadKind::kLifecycleScript) continue;
    for (const std::string& k : s->keys) scripts.emplace(k, s);
  }
  for (Workload* nb : all) {
    if (nb->kind != WorkloadKind::kNotebookInstance) continue;
    // Only an unconditional, resolved reference tells us which script runs.
    if (nb->lifecycle_config.conditional() || !nb->lifecycle_config.present()) continue;
    const Workload* script = nullptr;
    for (const std::string& r : nb->refs) {
      auto it = scripts.find(r);
      if (it != scripts.end()) script = it->second;
    }
    if (!script || !script->on_start.known()) {
      nb->idle_stop = Val::Unknown(nb->lifecycle_config.range);
      continue;
    }
    nb->idle_stop = Val::Known(HasIdleStopLogic(script->on_start.text) ? "true" : "false",
                               nb->lifecycle_config.range);
  }
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
  if (!all_on) w.idle_shutdown = Val::Known("false", w.range);
  else if (unknown) w.idle_shutdown = Val::Unknown(w.range);
  else w.idle_shutdown = Val::Known("true", w.range);
}

}  // namespace

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
  static constexpr std::array<std::string_view, 5> kSignals = {
      "autostop", "IDLE_TIME", "stop-notebook-instance", "StopNotebookInstance", "stop_notebook_instance"};
  for (std::string_view s : kSignals) {
    if (script.find(s) != std::string_view::npos) return true;
  }
  return false;
}

void LinkWorkloads(std::vector<Workload*>& workloads) {
  for (Workload* w : workloads) {
    DeriveFramework(*w);
    DeriveStudioIdleShutdown(*w);
  }
  LinkAutoscaling(workloads);
  LinkLifecycleConfigs(workloads);
}

}  // namespace sagelint
