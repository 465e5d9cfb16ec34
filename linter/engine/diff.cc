#include "linter/engine/diff.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "linter/base/file_source.h"
#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/cost/prices.h"
#include "linter/engine/fingerprint.h"
#include "linter/policy/attributes.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

// A base file's path in the work tree: renamed files follow git's rename detection.
std::string HeadRel(const DiffSides& sides, const std::string& base_rel) {
  auto it = sides.renames.find(base_rel);
  return it == sides.renames.end() ? base_rel : it->second;
}

std::string ShowCell(const AttrValue& v) {
  if (v.known()) return v.text;
  return v.state == AttrValue::State::kUnknown ? "?" : "";
}

SpendState StateOf(const Workload& w, const PriceTable& prices) {
  SpendState s;
  if (!w.instance_groups.empty()) {
    s.instance_type = InstancesText(w);  // the groups together; no count of its own
  } else {
    s.instance_type = ShowCell(Attribute(w, "instance_type", &prices));
    AttrValue count = Attribute(w, "instance_count", &prices);
    s.instance_count = count.state == AttrValue::State::kAbsent ? "1" : ShowCell(count);
  }
  s.spot = ShowCell(Attribute(w, "spot", &prices));
  s.idle_stop = ShowCell(Attribute(w, "idle_shutdown", &prices));
  s.autoscaling = ShowCell(Attribute(w, "autoscaling", &prices));
  AttrValue hourly = Attribute(w, "hourly_usd", &prices);
  if (hourly.known()) {
    s.hourly_usd = hourly.number;
    if (AlwaysOn(w)) s.monthly_usd = hourly.number * kHoursPerMonth;
  }
  return s;
}

bool SameState(const SpendState& a, const SpendState& b) {
  // A notebook endpoint that starts or stops being deleted by its workflow
  // changes from always-on to ephemeral: its monthly figure comes or goes.
  return std::tie(a.instance_type, a.instance_count, a.spot, a.idle_stop, a.autoscaling) ==
             std::tie(b.instance_type, b.instance_count, b.spot, b.idle_stop, b.autoscaling) &&
         a.monthly_usd.has_value() == b.monthly_usd.has_value();
}

// Workloads that bill instance hours, keyed by file, kind, name and
// occurrence among same-named workloads of that file.
using WorkloadKey = std::tuple<std::string, std::string, std::string, int>;

std::map<WorkloadKey, const Workload*> IndexWorkloads(const std::vector<Workload>& workloads, const std::string& root,
                                                      const DiffSides* rename_from_base) {
  std::map<WorkloadKey, const Workload*> index;
  std::map<std::tuple<std::string, std::string, std::string>, int> seen;
  for (const Workload& w : workloads) {
    if (!ComponentFor(w.kind)) continue;
    std::string rel = RootRelative(w.path, root);
    if (rename_from_base) rel = HeadRel(*rename_from_base, rel);
    std::string kind(KindName(w.kind));
    int n = seen[{rel, kind, w.name}]++;
    index[{rel, kind, w.name, n}] = &w;
  }
  return index;
}

// Within one file, a removed and an added workload of the same kind,
// instance type and count — exactly one of each — are one workload that moved
// (a notebook's endpoint deployed with boto3 instead of the SDK): removed ->
// added, among the workloads `before` and `after` do not pair by name.
std::map<const Workload*, const Workload*> MovedWorkloads(const std::map<WorkloadKey, const Workload*>& before,
                                                          const std::map<WorkloadKey, const Workload*>& after,
                                                          const PriceTable& prices) {
  using Candidate = std::tuple<std::string, std::string, std::string, std::string>;  // file, kind, type, count
  auto candidates = [&](const std::map<WorkloadKey, const Workload*>& side,
                        const std::map<WorkloadKey, const Workload*>& other) {
    std::map<Candidate, std::vector<const Workload*>> out;
    for (const auto& [key, w] : side) {
      if (other.count(key)) continue;
      SpendState s = StateOf(*w, prices);
      // What is not known is not known to be the same.
      if (s.instance_type.empty() || s.instance_type.find('?') != std::string::npos || s.instance_count == "?") {
        continue;
      }
      out[{std::get<0>(key), std::get<1>(key), s.instance_type, s.instance_count}].push_back(w);
    }
    return out;
  };
  auto removed = candidates(before, after);
  auto added = candidates(after, before);
  std::map<const Workload*, const Workload*> moved;
  for (const auto& [candidate, ws] : removed) {
    auto it = added.find(candidate);
    if (ws.size() == 1 && it != added.end() && it->second.size() == 1) moved[ws.front()] = it->second.front();
  }
  return moved;
}

// Whether the change touched a file (relative to the roots): its content
// differs between the sides, it is new, or it was renamed. nullopt when that
// cannot be told (no file sources, a file the work tree cannot read).
class TouchedFiles {
 public:
  explicit TouchedFiles(const DiffSides& sides) : sides_(sides) {}

  std::optional<bool> operator()(const std::string& rel) {
    if (!sides_.head_files || !sides_.base_files) return std::nullopt;
    auto [it, fresh] = memo_.try_emplace(rel);
    if (fresh) it->second = Compare(rel);
    return it->second;
  }

 private:
  std::optional<bool> Compare(const std::string& rel) const {
    for (const auto& [from, to] : sides_.renames) {
      if (to == rel) return true;
    }
    std::string head, base, error;
    if (!sides_.head_files->Read((fs::path(sides_.head_root) / rel).string(), kMaxSourceBytes, &head, &error)) {
      return std::nullopt;
    }
    if (!sides_.base_files->Read((fs::path(sides_.base_root) / rel).string(), kMaxSourceBytes, &base, &error)) {
      return true;
    }
    return head != base;
  }

  const DiffSides& sides_;
  std::map<std::string, std::optional<bool>> memo_;
};

// README "Adopting it": a new finding in a called module's file that the change did not
// touch is reported where the change reached it — where its value was
// written (a module argument, a root variable, a tfvars value) if that file
// changed, else at the root module's `module` block if its file changed —
// with the module's line in the message. Its identity (root_path, for the
// fingerprint) was matched already; only its place changes.
void PlaceAtCallers(std::vector<Finding>* added, const std::vector<Workload>& workloads, const DiffSides& sides) {
  // By path and resource position: a module called twice declares its resources twice at one place.
  std::map<std::tuple<std::string, int, int>, std::vector<const Workload*>> callers;
  for (const Workload& w : workloads) {
    if (w.module_caller) callers[{w.path, w.range.begin.line, w.range.begin.column}].push_back(&w);
  }
  if (callers.empty()) return;
  // The workload's caller: by its label; a finding of several instances
  // (count, for_each) names them all, and they share one module call.
  auto caller_of = [](const Finding& f, const std::vector<const Workload*>& ws) -> const ModuleCaller* {
    for (const Workload* w : ws) {
      if (w->label == f.resource) return &*w->module_caller;
    }
    const ModuleCaller& first = *ws.front()->module_caller;
    for (const Workload* w : ws) {
      if (w->module_caller->path != first.path || w->module_caller->call != first.call) return nullptr;
    }
    return &first;
  };
  TouchedFiles touched(sides);
  auto changed = [&](const std::string& display) {
    return touched(RootRelative(display, sides.head_root)).value_or(false);
  };
  for (Finding& f : *added) {
    auto it = callers.find({f.path, f.resource_range.begin.line, f.resource_range.begin.column});
    if (it == callers.end() || touched(f.root_path).value_or(true)) continue;
    const ModuleCaller* found = caller_of(f, it->second);
    if (!found) continue;
    const ModuleCaller& caller = *found;
    std::string path;
    SourceRange at;
    for (const ModuleCaller::Value& v : caller.values) {
      if (v.at == f.range.begin && changed(v.path)) {
        path = v.path;
        at = v.src;
        break;
      }
    }
    if (path.empty() && changed(caller.path)) {
      path = caller.path;
      at = caller.call;
    }
    if (path.empty()) continue;
    f.message += " (in " + f.path + ":" + std::to_string(f.range.begin.line) + ")";
    f.path = path;
    f.root_path = RootRelative(path, sides.head_root);
    f.range = at;
    f.resource_range = caller.call.valid() && path == caller.path ? caller.call : at;
  }
}

}  // namespace

DiffResult CompareScans(ScanResult head, ScanResult base, const DiffSides& sides, const PriceTable& prices) {
  DiffResult d;
  // Base paths as the work tree names them.
  auto head_display = [&](const std::string& head_rel) {
    return DisplayPath((fs::path(sides.head_root) / head_rel).string());
  };
  for (Finding& f : base.findings) {
    f.root_path = HeadRel(sides, f.root_path);
    f.path = head_display(f.root_path);
  }

  // New and resolved findings: multisets of (file, file-local fingerprint).
  std::vector<std::string> head_fp = Fingerprints(head.findings, false);
  std::vector<std::string> base_fp = Fingerprints(base.findings, false);
  std::multimap<std::pair<std::string, std::string>, size_t> base_left;
  for (size_t i = 0; i < base.findings.size(); ++i) base_left.insert({{base.findings[i].root_path, base_fp[i]}, i});
  std::vector<bool> base_matched(base.findings.size(), false);
  for (size_t i = 0; i < head.findings.size(); ++i) {
    auto it = base_left.find({head.findings[i].root_path, head_fp[i]});
    if (it == base_left.end()) {
      d.added.push_back(head.findings[i]);
    } else {
      base_matched[it->second] = true;
      base_left.erase(it);
    }
  }
  for (size_t i = 0; i < base.findings.size(); ++i) {
    if (!base_matched[i]) d.resolved.push_back(base.findings[i]);
  }
  std::sort(d.resolved.begin(), d.resolved.end(), FindingLess);
  PlaceAtCallers(&d.added, head.workloads, sides);
  std::sort(d.added.begin(), d.added.end(), FindingLess);

  // Spend: workloads added, removed or changed.
  auto before = IndexWorkloads(base.workloads, sides.base_root, &sides);
  auto after = IndexWorkloads(head.workloads, sides.head_root, nullptr);
  // `moved`: a removed and an added workload paired as one (MovedWorkloads).
  auto add_change = [&](const Workload* b, const Workload* a, bool moved) {
    SpendChange c;
    const Workload& w = a ? *a : *b;
    c.resource = w.label;
    if (moved && b->label != a->label) c.resource += " (was " + b->label + ")";
    c.kind = std::string(KindName(w.kind));
    // A side that is an endpoint its notebook workflow deletes is ephemeral
    // (AlwaysOn(w) false): it adds nothing to the monthly delta.
    bool on_before = b && AlwaysOn(*b), on_after = a && AlwaysOn(*a);
    c.always_on = on_before || on_after;
    if (b) c.before = StateOf(*b, prices);
    if (a) c.after = StateOf(*a, prices);
    if (a && b && !moved && SameState(*c.before, *c.after)) return;
    c.change = !b ? SpendChange::Kind::kAdded : !a ? SpendChange::Kind::kRemoved : SpendChange::Kind::kChanged;
    c.path = a ? a->path : head_display(HeadRel(sides, RootRelative(b->path, sides.base_root)));
    c.line = a ? a->range.begin.line : 0;
    if (c.always_on) {
      bool known_before = !on_before || c.before->monthly_usd.has_value();
      bool known_after = !on_after || c.after->monthly_usd.has_value();
      if (known_before && known_after) {
        c.monthly_usd_delta = (on_after ? *c.after->monthly_usd : 0) - (on_before ? *c.before->monthly_usd : 0);
        d.total_monthly_usd += *c.monthly_usd_delta;
      } else {
        c.price_unknown = true;
        ++d.unpriced_changes;
      }
    } else {
      c.price_unknown = (b && !c.before->hourly_usd) || (a && !c.after->hourly_usd);
    }
    d.spend.push_back(std::move(c));
  };
  std::map<const Workload*, const Workload*> moved = MovedWorkloads(before, after, prices);
  std::set<const Workload*> moved_to;
  for (const auto& [b, a] : moved) moved_to.insert(a);
  for (const auto& [key, b] : before) {
    auto it = after.find(key);
    if (it != after.end()) {
      add_change(b, it->second, false);
    } else if (auto m = moved.find(b); m != moved.end()) {
      add_change(b, m->second, true);
    } else {
      add_change(b, nullptr, false);
    }
  }
  for (const auto& [key, a] : after) {
    if (!before.count(key) && !moved_to.count(a)) add_change(nullptr, a, false);
  }
  std::stable_sort(d.spend.begin(), d.spend.end(), [](const SpendChange& x, const SpendChange& y) {
    double dx = x.monthly_usd_delta ? std::fabs(*x.monthly_usd_delta) : -1;
    double dy = y.monthly_usd_delta ? std::fabs(*y.monthly_usd_delta) : -1;
    if (dx != dy) return dx > dy;
    return std::tie(x.path, x.line, x.resource) < std::tie(y.path, y.line, y.resource);
  });
  d.head = std::move(head);
  return d;
}

}  // namespace sagelint
