// SM203 studio-without-idle-shutdown: Studio JupyterLab and Code Editor apps keep
// their instances running until someone stops them unless idle shutdown is on.
#include "rules/checks.h"
#include "rules/rule_util.h"

namespace sagelint::rules {
namespace {

bool IsIdleApp(const StudioApp& app) { return app.app == "JupyterLab" || app.app == "CodeEditor"; }

// nullopt: cannot tell; true: idle shutdown is enabled with a timeout.
std::optional<bool> IdleShutdownOn(const StudioApp& app, WorkloadKind kind) {
  if (app.idle_timeout_minutes.AnyUnknown()) return std::nullopt;
  bool timeout = app.idle_timeout_minutes.present();
  // A space's idle settings carry only the timeout.
  if (kind == WorkloadKind::kStudioSpace || app.scope == "SpaceSettings") return timeout;
  if (app.idle_management.AnyUnknown()) return std::nullopt;
  return timeout && app.idle_management.known() && app.idle_management.text == "ENABLED";
}

// Idle shutdown switched on in a settings block the workload declares (rules/SM203.md
// "Fix"): the idle settings added where none are written, or a DISABLED
// lifecycle management enabled where a timeout is set. A missing settings
// block is never created.
std::optional<Fix> IdleFix(const Workload& w, const StudioApp& app) {
  bool space = w.kind == WorkloadKind::kStudioSpace || app.scope == "SpaceSettings";
  const std::string message = "enable idle shutdown after 60 minutes";
  if (app.idle_timeout_minutes.absent() && (space || app.idle_management.absent())) {
    if (!app.range.valid()) return std::nullopt;
    std::string settings =
        space ? R"({"IdleTimeoutInMinutes": 60})" : R"({"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60})";
    return MakeFix(Applicability::kUnsafe, message, {InsertChange(app.range, "idle_settings", settings)});
  }
  if (!space && app.idle_management.known() && app.idle_management.text == "DISABLED") {
    std::optional<FixChange> c = ReplaceChange(app.idle_management, "ENABLED");
    if (!c) return std::nullopt;
    if (app.idle_timeout_minutes.known()) {
      return MakeFix(Applicability::kUnsafe, "enable idle shutdown (LifecycleManagement: ENABLED)", {std::move(*c)});
    }
    // DISABLED without a timeout: enabled, and the missing timeout added beside it.
    if (!app.idle_timeout_minutes.absent() || !app.range.valid()) return std::nullopt;
    return MakeFix(Applicability::kUnsafe, message + " (LifecycleManagement: ENABLED)",
                   {std::move(*c), InsertChange(app.range, "idle_settings", R"({"IdleTimeoutInMinutes": 60})")});
  }
  return std::nullopt;
}

void Emit(const Workload& w, const StudioApp* app, Sink& sink) {
  Report r;
  r.at = app ? app->range : w.range;
  std::string where = app ? " " + app->scope + "." + app->app + "AppSettings" : "";
  r.message = w.label + (app ? " sets" + where + " without" : " has no JupyterLab or Code Editor settings with") +
              " idle shutdown: Studio apps keep their instances running until someone stops them";
  r.suggestion =
      "set AppLifecycleManagement.IdleSettings with LifecycleManagement: ENABLED and "
      "IdleTimeoutInMinutes (for example 60)";
  if (app) ForEachKnown(app->instance_type, [&](const Val& t) { r.cost = Cost(t.text, 1, true); });
  if (app) r.fix = IdleFix(w, *app);
  if (!r.fix) {
    r.fix_unavailable = app ? "the idle settings are not written as literals this fix can complete"
                            : "the domain declares no JupyterLab or Code Editor settings block, and a fix never "
                              "creates one (rules/SM203.md)";
  }
  sink.Emit(w, std::move(r));
}

}  // namespace

void CheckStudioWithoutIdleShutdown(const Workload& w, const RuleContext&, Sink& sink) {
  bool any_idle_app = false;
  for (const StudioApp& app : w.apps) {
    if (!IsIdleApp(app) || app.scope == "DefaultSpaceSettings") continue;
    any_idle_app = true;
    if (IdleShutdownOn(app, w.kind) == false) Emit(w, &app, sink);
  }
  // A domain without any JupyterLab / Code Editor settings has no idle shutdown at all.
  if (!any_idle_app && w.kind == WorkloadKind::kStudioDomain && w.complete) Emit(w, nullptr, sink);
}

}  // namespace sagelint::rules
