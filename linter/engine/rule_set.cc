#include "linter/engine/rule_set.h"

#include <algorithm>

namespace sagelint {

bool ActiveRule::AppliesTo(WorkloadKind kind) const {
  return std::find(info->kinds.begin(), info->kinds.end(), kind) != info->kinds.end();
}

RuleSet RuleSet::Resolve(RuleSelection selection) {
  RuleSet set;
  set.report_unused_ignores_ = selection.report_unused_ignores;
  set.datasets_ = std::make_shared<const DatasetSizes>(std::move(selection.datasets));
  set.all_policies_ = std::make_shared<const std::vector<Policy>>(std::move(selection.policies));

  auto resolve = [&](const std::string& id, Severity default_severity, bool always) -> const RuleSetting* {
    const RuleSetting* setting = nullptr;
    auto it = selection.settings.find(id);
    if (it != selection.settings.end()) setting = &it->second;
    // Parse and internal errors, and evaluation that stopped early, are never
    // hidden by --select: a file that was not (fully) checked must show
    // (RuleInfo::always_enabled).
    bool enabled = !(setting && setting->off) && !selection.ignore.count(id) &&
                   (always || selection.select.empty() || selection.select.count(id) > 0);
    Severity severity = setting && setting->severity ? *setting->severity : default_severity;
    set.entries_[id] = {enabled, severity};
    return setting;
  };

  for (const RuleInfo& info : AllRules()) {
    std::string id(info.id);
    const RuleSetting* setting = resolve(id, info.severity, info.always_enabled);
    if (!set.entries_[id].enabled || !info.check) continue;
    ActiveRule rule{&info, set.entries_[id].severity, {}};
    rule.ctx.datasets = set.datasets_.get();
    for (const RuleOption& o : info.options) rule.ctx.options[std::string(o.name)] = o.default_value;
    if (setting) {
      for (const auto& [k, v] : setting->options) rule.ctx.options[k] = v;
      rule.ctx.lists = setting->lists;
    }
    set.checks_.push_back(std::move(rule));
  }
  for (const Policy& p : *set.all_policies_) {
    resolve(p.id, p.severity, false);
    const Entry& e = set.entries_[p.id];
    if (e.enabled) set.policies_.push_back({&p, e.severity});
  }
  return set;
}

bool RuleSet::Enabled(std::string_view id) const {
  auto it = entries_.find(id);
  return it != entries_.end() && it->second.enabled;
}

Severity RuleSet::SeverityOf(std::string_view id) const {
  auto it = entries_.find(id);
  return it != entries_.end() ? it->second.severity : Severity::kWarning;
}

bool RuleSet::Known(std::string_view id) const { return entries_.count(id) > 0; }

}  // namespace sagelint
