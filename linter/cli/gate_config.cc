#include "linter/cli/gate_config.h"

#include <re2/re2.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>

#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/engine/fingerprint.h"
#include "linter/model/rule.h"

namespace sagelint {
namespace {

namespace fs = std::filesystem;

constexpr const char* kWeakenedHelp =
    "the base revision's configuration stays in force for this change; make configuration changes in a change of "
    "their own, reviewed by the owners of the gate (or run diff with --config-from head if that is how you review "
    "them)";

int Rank(Severity s) { return s == Severity::kError ? 2 : s == Severity::kWarning ? 1 : 0; }

// fail_on: the higher, the fewer findings fail the gate.
int Rank(std::optional<FailOn> f) {
  switch (f.value_or(FailOn::kWarning)) {
    case FailOn::kNote:
      return 0;
    case FailOn::kWarning:
      return 1;
    case FailOn::kError:
      return 2;
    case FailOn::kNone:
      return 3;
  }
  return 1;
}

const char* FailOnName(std::optional<FailOn> f) {
  switch (f.value_or(FailOn::kWarning)) {
    case FailOn::kNote:
      return "note";
    case FailOn::kWarning:
      return "warning";
    case FailOn::kError:
      return "error";
    case FailOn::kNone:
      return "none";
  }
  return "warning";
}

// A policy condition as one comparable text: "instance_count gt 4".
std::string ConditionText(const PolicyCondition& c) {
  std::string s = c.attribute + " " + c.op;
  if (c.op == "exists") return s + (c.flag ? " true" : " false");
  if (c.regex) return s + " /" + c.regex->pattern() + "/";
  if (c.op == "gt" || c.op == "ge" || c.op == "lt" || c.op == "le") return s + " " + FormatNumber(c.number);
  for (const std::string& v : c.values) s += " " + v;
  return s;
}

class Changes {
 public:
  Changes(const GateConfig& base, const GateConfig& head, const std::string& top)
      : base_(base), head_(head), top_(top) {}

  std::vector<Finding> Run() {
    if (base_.config.path.empty() && !head_.config.path.empty()) {
      Add(false, ConfigAt("", 1), "configuration",
          "the change adopts a sagelint configuration (the base revision has none)", "adopted");
    }
    FailOnChange();
    RuleChanges();
    ExcludeChanges();
    PolicyChanges();
    BaselineChanges();
    std::sort(out_.begin(), out_.end(), FindingLess);
    AssignFingerprints(out_);
    return std::move(out_);
  }

 private:
  struct At {
    std::string path;  // as displayed
    int line = 1;
  };

  // Where a setting is (or was): the head's configuration at `key`'s line;
  // the base's configuration where the head has none.
  At ConfigAt(const std::string& key, int fallback = 1) const {
    const Config& c = head_.config.path.empty() ? base_.config : head_.config;
    auto it = c.lines.find(key);
    return {c.path, it == c.lines.end() ? fallback : it->second};
  }

  void Add(bool weakens, const At& at, const std::string& resource, const std::string& message,
           const std::string& value) {
    Finding f;
    f.rule = tool_rule::kGateConfigWeakened;
    f.name = FindRule(tool_rule::kGateConfigWeakened)->name;
    f.severity = weakens ? Severity::kError : Severity::kNote;
    f.path = at.path;
    f.root_path = RootRelative(at.path, top_);
    f.range.begin = {at.line, 1};
    f.range.end = f.range.begin;
    f.resource_range = f.range;
    f.resource = resource;
    f.message = message;
    if (weakens) f.suggestion = kWeakenedHelp;
    f.value = value;
    out_.push_back(std::move(f));
  }

  void FailOnChange() {
    int b = Rank(base_.config.fail_on), h = Rank(head_.config.fail_on);
    if (b == h) return;
    std::string what = std::string(h > b ? "raises" : "lowers") + " fail_on from " + FailOnName(base_.config.fail_on) +
                       " to " + FailOnName(head_.config.fail_on);
    Add(h > b, ConfigAt("fail_on"), "configuration",
        "the change " + what + (h > b ? ": fewer findings fail the gate" : ""), "fail_on");
  }

  // A rule's (or custom policy's) state on one side.
  struct RuleState {
    bool off = false;
    Severity severity = Severity::kWarning;
    std::map<std::string, double> options;
  };

  static std::optional<Severity> PolicySeverity(const std::vector<Policy>& ps, const std::string& id) {
    for (const Policy& p : ps) {
      if (p.id == id) return p.severity;
    }
    return std::nullopt;
  }

  RuleState State(const GateConfig& side, const std::string& id) const {
    RuleState s;
    const RuleInfo* rule = FindRule(id);
    if (rule) {
      s.severity = rule->severity;
      for (const RuleOption& o : rule->options) s.options[std::string(o.name)] = o.default_value;
    } else if (auto sev = PolicySeverity(side.policies, id)) {
      s.severity = *sev;
    }
    auto it = side.config.rules.find(id);
    if (it != side.config.rules.end()) {
      s.off = it->second.off;
      if (it->second.severity) s.severity = *it->second.severity;
      for (const auto& [k, v] : it->second.options) s.options[k] = v;
    }
    return s;
  }

  static std::string Named(const std::string& id) {
    const RuleInfo* r = FindRule(id);
    return r ? id + " (" + std::string(r->name) + ")" : id;
  }

  void RuleChanges() {
    std::set<std::string> ids;
    for (const auto& [id, s] : base_.config.rules) ids.insert(id);
    for (const auto& [id, s] : head_.config.rules) ids.insert(id);
    for (const std::string& id : ids) {
      RuleState b = State(base_, id), h = State(head_, id);
      At at = ConfigAt("rules." + id, ConfigAt("rules").line);
      if (b.off != h.off) {
        Add(h.off, at, Named(id),
            h.off ? "the change turns off " + Named(id) + ", which the base revision's configuration runs"
                  : "the change turns on " + Named(id),
            "rules." + id);
        continue;
      }
      if (h.off) continue;
      if (b.severity != h.severity) {
        bool lower = Rank(h.severity) < Rank(b.severity);
        Add(lower, at, Named(id),
            std::string("the change ") + (lower ? "lowers " : "raises ") + Named(id) + " from " +
                std::string(SeverityName(b.severity)) + " to " + std::string(SeverityName(h.severity)),
            "rules." + id + ".severity");
      }
      // Every option of the built-in rules is a threshold or a maximum: raising it makes the rule fire less.
      for (const auto& [name, hv] : h.options) {
        auto bv = b.options.find(name);
        if (bv == b.options.end() || bv->second == hv) continue;
        bool raised = hv > bv->second;
        Add(raised, at, Named(id),
            std::string("the change ") + (raised ? "raises " : "lowers ") + id + "'s " + name + " from " +
                FormatNumber(bv->second) + " to " + FormatNumber(hv) + (raised ? ": the rule reports less" : ""),
            "rules." + id + "." + name);
      }
    }
  }

  void ExcludeChanges() {
    std::set<std::string> b(base_.config.exclude.begin(), base_.config.exclude.end());
    std::set<std::string> h(head_.config.exclude.begin(), head_.config.exclude.end());
    for (const std::string& g : h) {
      if (b.count(g)) continue;
      Add(true, ConfigAt("exclude:" + g, ConfigAt("exclude").line), "configuration",
          "the change adds the exclude pattern '" + g + "': the files it matches are no longer checked",
          "exclude:" + g);
    }
    for (const std::string& g : b) {
      if (h.count(g)) continue;
      Add(false, ConfigAt("exclude", 1), "configuration", "the change removes the exclude pattern '" + g + "'",
          "exclude:" + g);
    }
  }

  // Where a policy is defined, as displayed.
  At PolicyAt(const GateConfig& side, const Policy& p) const {
    const Config& c = side.config;
    if (p.file == DisplayPath(c.path) || p.file == c.path) return {c.path, p.line};
    fs::path f = p.file;
    if (f.is_relative()) f = fs::path(c.dir) / f;
    return {DisplayPath(f.string()), p.line};
  }

  void PolicyChanges() {
    std::map<std::string, const Policy*> b, h;
    for (const Policy& p : base_.policies) b[p.id] = &p;
    for (const Policy& p : head_.policies) h[p.id] = &p;
    for (const auto& [id, bp] : b) {
      auto it = h.find(id);
      if (it == h.end()) {
        At at =
            ConfigAt(head_.config.lines.count("policy_files") && !head_.config.lines.count("policies") ? "policy_files"
                                                                                                       : "policies");
        Add(true, at, "custom policy " + id, "the change removes the custom policy " + id, "policy:" + id);
        continue;
      }
      const Policy& hp = *it->second;
      At at = PolicyAt(head_, hp);
      if (bp->severity != hp.severity) {
        bool lower = Rank(hp.severity) < Rank(bp->severity);
        Add(lower, at, "custom policy " + id,
            std::string("the change ") + (lower ? "lowers " : "raises ") + id + " from " +
                std::string(SeverityName(bp->severity)) + " to " + std::string(SeverityName(hp.severity)),
            "policy:" + id + ".severity");
      }
      for (WorkloadKind k : bp->kinds) {
        if (std::find(hp.kinds.begin(), hp.kinds.end(), k) != hp.kinds.end()) continue;
        Add(true, at, "custom policy " + id,
            "the change stops " + id + " applying to " + std::string(KindName(k)) + " workloads",
            "policy:" + id + ".kind:" + std::string(KindName(k)));
      }
      for (WorkloadKind k : hp.kinds) {
        if (std::find(bp->kinds.begin(), bp->kinds.end(), k) != bp->kinds.end()) continue;
        Add(false, at, "custom policy " + id,
            "the change applies " + id + " to " + std::string(KindName(k)) + " workloads too",
            "policy:" + id + ".kind:" + std::string(KindName(k)));
      }
      std::set<std::string> bc, hc;
      for (const PolicyCondition& c : bp->conditions) bc.insert(ConditionText(c));
      for (const PolicyCondition& c : hp.conditions) hc.insert(ConditionText(c));
      for (const std::string& c : hc) {
        if (bc.count(c)) continue;
        Add(true, at, "custom policy " + id,
            "the change adds the condition '" + c + "' to " + id + ": it applies to fewer workloads",
            "policy:" + id + ".where:" + c);
      }
      for (const std::string& c : bc) {
        if (hc.count(c)) continue;
        Add(false, at, "custom policy " + id, "the change drops the condition '" + c + "' from " + id,
            "policy:" + id + ".where:" + c);
      }
    }
    for (const auto& [id, hp] : h) {
      if (b.count(id)) continue;
      Add(false, PolicyAt(head_, *hp), "custom policy " + id, "the change adds the custom policy " + id,
          "policy:" + id);
    }
  }

  void BaselineChanges() {
    if (!head_.baseline && !base_.baseline) return;
    std::multiset<std::string> b = base_.baseline ? base_.baseline->fingerprints : std::multiset<std::string>{};
    std::multiset<std::string> h = head_.baseline ? head_.baseline->fingerprints : std::multiset<std::string>{};
    std::vector<std::string> added, removed;
    std::set_difference(h.begin(), h.end(), b.begin(), b.end(), std::back_inserter(added));
    std::set_difference(b.begin(), b.end(), h.begin(), h.end(), std::back_inserter(removed));
    std::string path = head_.baseline_path.empty() ? base_.baseline_path : head_.baseline_path;
    if (!added.empty()) {
      // The line of the first added entry in the head's file.
      int line = 1;
      size_t first = std::string::npos;
      for (const std::string& fp : added) first = std::min(first, head_.baseline_text.find("\"" + fp + "\""));
      if (first != std::string::npos) {
        line += static_cast<int>(std::count(head_.baseline_text.begin(), head_.baseline_text.begin() + first, '\n'));
      }
      size_t n = added.size();
      Add(true, {path, line}, "baseline",
          "the change adds " + std::to_string(n) + (n == 1 ? " entry" : " entries") +
              " to the baseline: the findings they record are hidden from the gate",
          "baseline+");
    }
    if (!removed.empty()) {
      size_t n = removed.size();
      Add(false, {path, 1}, "baseline",
          "the change removes " + std::to_string(n) + (n == 1 ? " entry" : " entries") + " from the baseline",
          "baseline-");
    }
  }

  const GateConfig& base_;
  const GateConfig& head_;
  std::string top_;
  std::vector<Finding> out_;
};

}  // namespace

std::vector<Finding> GateConfigChanges(const GateConfig& base, const GateConfig& head, const std::string& top) {
  return Changes(base, head, top).Run();
}

}  // namespace sagelint
