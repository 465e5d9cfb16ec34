#include "linter/engine/group.h"

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace sagelint {
namespace {

constexpr char kName[] = "\x01";  // stands for the workload's name in a normalized text
constexpr size_t kListed = 8;     // instance keys or other workloads a merged finding names

std::string ReplaceAll(std::string text, const std::string& from, const std::string& to) {
  if (from.empty()) return text;
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

// The condition of a finding beyond its branch's own: what a property-level
// Fn::If adds (the branch's condition is the member's key).
std::string ExtraCondition(const Finding& f) {
  if (f.member_of.kind != ConstructMember::Kind::kAlternative || f.member_of.key.empty()) return f.condition;
  const std::string& key = f.member_of.key;
  if (f.condition == key) return "";
  std::string c = ReplaceAll(f.condition, " and " + key, "");
  if (c.rfind(key + " and ", 0) == 0) c.erase(0, key.size() + 5);
  return c;
}

using GroupKey =
    std::tuple<std::string, Severity, int, int, int, int, int, int, std::string, std::string, std::string, std::string>;

GroupKey KeyOf(const Finding& f) {
  const SourceRange& r = f.range;
  return {f.rule,
          f.severity,
          r.begin.line,
          r.begin.column,
          r.end.line,
          r.end.column,
          r.cell,
          r.cell_line,
          f.value,
          ExtraCondition(f),
          ReplaceAll(f.message, f.resource, kName),
          ReplaceAll(f.suggestion, f.resource, kName)};
}

// The members' costs added up: several instances or workloads all run. A
// figure some member lacks is left out rather than understated.
std::optional<CostEstimate> SumCosts(const std::vector<Finding>& members, const std::string& what) {
  std::optional<CostEstimate> sum;
  bool hourly = true, monthly = true, savings = true;
  std::vector<std::pair<std::string, int>> types;  // instance type -> instances, in order of appearance
  for (const Finding& f : members) {
    if (!f.cost) return std::nullopt;
    const CostEstimate& c = *f.cost;
    if (!sum) {
      sum = c;
      sum->count = 0;
      sum->hourly_usd = sum->monthly_usd = sum->monthly_savings_usd = 0.0;
    }
    auto it = std::find_if(types.begin(), types.end(), [&](const auto& t) { return t.first == c.instance_type; });
    if (it == types.end()) {
      types.emplace_back(c.instance_type, c.count);
    } else {
      it->second += c.count;
    }
    sum->count += c.count;
    hourly = hourly && c.hourly_usd;
    monthly = monthly && c.monthly_usd;
    savings = savings && c.monthly_savings_usd;
    if (c.hourly_usd) *sum->hourly_usd += *c.hourly_usd;
    if (c.monthly_usd) *sum->monthly_usd += *c.monthly_usd;
    if (c.monthly_savings_usd) *sum->monthly_savings_usd += *c.monthly_savings_usd;
  }
  if (types.size() > 1) {
    // "2 × ml.t3.medium + ml.g5.xlarge": the count is the total, the text says which.
    std::string mix;
    for (const auto& [type, n] : types)
      mix += (mix.empty() ? "" : " + ") + (n > 1 ? std::to_string(n) + " × " : "") + type;
    sum->instance_type = mix;
  }
  if (!hourly) sum->hourly_usd.reset();
  if (!monthly) sum->monthly_usd.reset();
  if (!savings) sum->monthly_savings_usd.reset();
  sum->basis = "the sum over " + std::to_string(members.size()) + " " + what + ", each: " + members.front().cost->basis;
  return sum;
}

// The costliest branch's cost: only one branch of a conditional resource is deployed.
std::optional<CostEstimate> CostliestBranch(const std::vector<Finding>& members) {
  const Finding* top = nullptr;
  auto figure = [](const Finding& f) {
    return f.cost ? f.cost->monthly_usd.value_or(f.cost->hourly_usd.value_or(-1)) : -2;
  };
  for (const Finding& f : members) {
    if (!top || figure(f) > figure(*top)) top = &f;
  }
  if (!top->cost) return std::nullopt;
  CostEstimate c = *top->cost;
  c.basis = "the costliest branch (" + top->member_of.key + "): " + c.basis;
  return c;
}

// The findings of one group (the same finding of several workloads) as one.
std::vector<Finding> Merge(std::vector<Finding> members) {
  // Exact duplicates say nothing more.
  std::vector<Finding> distinct;
  for (Finding& f : members) {
    bool seen = false;
    for (const Finding& d : distinct) seen = seen || d == f;
    if (!seen) distinct.push_back(std::move(f));
  }
  if (distinct.size() == 1) return distinct;
  const Finding& first = distinct.front();
  auto all = [&](auto&& pred) {
    for (const Finding& f : distinct) {
      if (!pred(f)) return false;
    }
    return true;
  };
  auto same_construct = [&](ConstructMember::Kind kind) {
    return all([&](const Finding& f) {
      return f.member_of.kind == kind && f.member_of.construct == first.member_of.construct && !f.member_of.key.empty();
    });
  };
  Finding merged = first;
  std::string label;
  if (same_construct(ConstructMember::Kind::kInstance)) {
    // aws_x.lab["ana"] -> aws_x.lab["ana","bo","chen"] (3 instances)
    std::vector<std::string> keys;
    for (const Finding& f : distinct) {
      if (std::find(keys.begin(), keys.end(), f.member_of.key) == keys.end()) keys.push_back(f.member_of.key);
    }
    // Long lists are cut: the count says how many.
    std::string joined;
    for (size_t i = 0; i < keys.size() && i < kListed; ++i) joined += (joined.empty() ? "" : ",") + keys[i];
    if (keys.size() > kListed) joined += ",…";
    const std::string& construct = first.member_of.construct;
    std::string one = construct + "[" + first.member_of.key + "]";
    label = first.resource.find(one) != std::string::npos
                ? ReplaceAll(first.resource, one, construct + "[" + joined + "]")
                : first.resource + " [" + joined + "]";
    label += " (" + std::to_string(keys.size()) + " instances)";
    merged.cost = SumCosts(distinct, "instances");
    merged.member_of.key.clear();
  } else if (same_construct(ConstructMember::Kind::kAlternative)) {
    std::vector<std::string> keys;
    for (const Finding& f : distinct) {
      if (std::find(keys.begin(), keys.end(), f.member_of.key) == keys.end()) keys.push_back(f.member_of.key);
    }
    // Only when every branch gives it is the finding unconditional; else each keeps its condition.
    if (static_cast<int>(keys.size()) != first.member_of.of || keys.size() != distinct.size()) return distinct;
    label = first.resource;
    merged.condition = ExtraCondition(first);
    merged.cost = CostliestBranch(distinct);
    merged.member_of.key.clear();
  } else {
    // Several workloads share the setting the finding is about (an SDK v3 Compute, say).
    std::vector<std::string> others;
    for (const Finding& f : distinct) {
      if (f.resource != first.resource && std::find(others.begin(), others.end(), f.resource) == others.end()) {
        others.push_back(f.resource);
      }
    }
    label = first.resource;
    if (!others.empty()) {
      // "notebook instance 'A' (also 'B', 'C')": the kind is said once.
      size_t quote = first.resource.find('\'');
      std::string kind = quote == std::string::npos ? "" : first.resource.substr(0, quote);
      std::string also;
      for (size_t i = 0; i < others.size() && i < kListed; ++i) {
        std::string other = !kind.empty() && others[i].rfind(kind, 0) == 0 ? others[i].substr(kind.size()) : others[i];
        also += (also.empty() ? "" : ", ") + other;
      }
      if (others.size() > kListed) also += " and " + std::to_string(others.size() - kListed) + " more";
      label += " (also " + also + ")";
    }
    merged.cost = SumCosts(distinct, "workloads");
  }
  merged.resource = label;
  merged.message = ReplaceAll(ReplaceAll(first.message, first.resource, kName), kName, label);
  merged.suggestion = ReplaceAll(ReplaceAll(first.suggestion, first.resource, kName), kName, label);
  return {std::move(merged)};
}

// A called module's workload names the call that reaches it ("… (module call
// in examples/a/main.tf)", parsers/terraform/resources.cc): the label with the
// call replaced by kName, and the caller; nullopt for another label.
constexpr std::string_view kVia = " (module call in ";

std::optional<std::pair<std::string, std::string>> SplitCaller(const std::string& label) {
  size_t at = label.find(kVia);
  if (at == std::string::npos) return std::nullopt;
  size_t end = label.find(')', at + kVia.size());
  if (end == std::string::npos) return std::nullopt;
  return std::make_pair(label.substr(0, at) + kName + label.substr(end + 1),
                        label.substr(at + kVia.size(), end - at - kVia.size()));
}

// The findings of one module statement reached through several calls as one, naming the callers.
std::vector<Finding> MergeCallers(std::vector<Finding> g) {
  const Finding& first = g.front();
  auto [shape, caller] = *SplitCaller(first.resource);
  std::vector<std::string> callers;
  bool same_fix = true;
  for (const Finding& f : g) {
    std::string c = SplitCaller(f.resource)->second;
    if (std::find(callers.begin(), callers.end(), c) == callers.end()) callers.push_back(c);
    same_fix = same_fix && f.fix == first.fix;
  }
  std::string named;
  for (size_t i = 0; i < callers.size() && i < kListed; ++i) named += (named.empty() ? "" : ", ") + callers[i];
  if (callers.size() > kListed) named += " and " + std::to_string(callers.size() - kListed) + " more";
  std::string label =
      ReplaceAll(shape, kName, (callers.size() == 1 ? " (module call in " : " (module calls in ") + named + ")");
  Finding merged = first;
  merged.resource = label;
  merged.message = ReplaceAll(ReplaceAll(first.message, first.resource, kName), kName, label);
  merged.suggestion = ReplaceAll(ReplaceAll(first.suggestion, first.resource, kName), kName, label);
  merged.cost = SumCosts(g, "module calls");
  if (!same_fix) {  // the calls' values differ: no one edit of the module serves them all
    merged.fix.reset();
    merged.fix_unavailable = "the module calls need different changes: no one edit of the module serves them all";
  }
  return {std::move(merged)};
}

// Each group as what `merge` makes of it, in order; a group of one stays as it is.
std::vector<Finding> MergeEach(std::vector<std::vector<Finding>> groups,
                               std::vector<Finding> (*merge)(std::vector<Finding>)) {
  std::vector<Finding> out;
  out.reserve(groups.size());
  for (std::vector<Finding>& g : groups) {
    if (g.size() == 1) {
      out.push_back(std::move(g.front()));
      continue;
    }
    for (Finding& f : merge(std::move(g))) out.push_back(std::move(f));
  }
  return out;
}

}  // namespace

std::vector<Finding> MergeModuleCalls(std::vector<Finding> findings) {
  using Key = std::tuple<std::string, std::string, GroupKey>;  // path, label without its call, the finding
  std::map<Key, size_t> group_of;
  std::vector<std::vector<Finding>> groups;
  for (Finding& f : findings) {
    auto split = SplitCaller(f.resource);
    if (!split) {
      groups.emplace_back().push_back(std::move(f));
      continue;
    }
    auto [it, added] = group_of.try_emplace(Key{f.path, split->first, KeyOf(f)}, groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(std::move(f));
  }
  return MergeEach(std::move(groups), MergeCallers);
}

std::vector<Finding> GroupConstructFindings(std::vector<Finding> findings) {
  std::map<GroupKey, size_t> group_of;
  std::vector<std::vector<Finding>> groups;
  for (Finding& f : findings) {
    auto [it, added] = group_of.try_emplace(KeyOf(f), groups.size());
    if (added) groups.emplace_back();
    groups[it->second].push_back(std::move(f));
  }
  return MergeEach(std::move(groups), Merge);
}

}  // namespace sagelint
