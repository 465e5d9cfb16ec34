#include "linter/report/inventory.h"

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <unordered_map>

#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/model/workload_kinds.h"
#include "linter/policy/attributes.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

std::string Show(const AttrValue& v) {
  if (v.state == AttrValue::State::kAbsent) return "-";
  if (!v.known()) return "?";
  if (v.type == AttrType::kList) {
    std::string s;
    for (const std::string& x : v.list) s += (s.empty() ? "" : "+") + x;
    return s;
  }
  return v.text;
}

// Characters as a terminal shows them: one per UTF-8 code point.
size_t Width(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

// The first `n` code points of `s` (n < Width(s)), then "…".
std::string KeepHead(const std::string& s, size_t n) {
  size_t seen = 0, i = 0;
  for (; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && seen++ == n) break;
  }
  return s.substr(0, i) + "…";
}

// "…" then the last `n` code points of `s` (n < Width(s)): the file name and
// line of a long location stay visible.
std::string KeepTail(const std::string& s, size_t n) {
  size_t seen = 0, i = s.size();
  while (i > 0 && seen < n) {
    --i;
    if ((s[i] & 0xC0) != 0x80) ++seen;
  }
  return "…" + s.substr(i);
}

// The first and the last code points of `s` around "…", `n` in all (n <
// Width(s)): a long resource label keeps its kind and name and the end that
// tells its instances apart ("(module call in examples/async/main.tf)").
std::string KeepEnds(const std::string& s, size_t n) {
  size_t tail = n / 2;
  std::string head = KeepHead(s, n - tail);
  head.resize(head.size() - std::string("…").size());
  return head + KeepTail(s, tail);
}

// A Studio domain's or user profile's instance type is a default for the apps
// created under it: spend only where an app or space of the scan uses it
// (one in the same template or module). `apps_in` holds the scopes with one.
bool UnusedStudioDefault(const Workload& w, const std::set<std::string>* apps_in) {
  if (w.kind != WorkloadKind::kStudioDomain && w.kind != WorkloadKind::kStudioUserProfile) return false;
  return apps_in && !apps_in->count(w.scope.empty() ? w.path : w.scope);
}

// The compact table's kind column: what a reader calls the workload.
std::string ShortKind(WorkloadKind k) { return std::string(TraitsOf(k).short_name); }

// The compact table's one setting that decides what a workload costs when
// nobody watches it: Spot for jobs, idle stop for notebooks and Studio,
// autoscaling for endpoints ("?" where it cannot be known).
std::string CostSetting(const Workload& w, const PriceTable& prices) {
  const CostControl& c = TraitsOf(w.kind).cost_control;
  if (c.serverless && w.serverless.known() && w.serverless.text == "true") return "serverless";
  if (c.attribute.empty()) return c.fixed.empty() ? "-" : std::string(c.fixed);
  AttrValue v = Attribute(w, c.attribute, &prices);
  if (v.state == AttrValue::State::kAbsent) return "-";
  if (!v.known()) return std::string(c.yes) + " ?";
  return std::string(v.boolean ? c.yes : c.no);
}

struct Column {
  std::string name;
  bool shrinks = false;    // may be abbreviated to fit the terminal
  bool keep_tail = false;  // abbreviated from the left (locations)
  bool numeric = false;    // right-aligned
  bool keep_ends = false;  // abbreviated in the middle (resource labels)
};

// Lays out `rows` under `cols`, each column as wide as its widest cell; when
// that exceeds `max_width` (0 = no limit), the shrinkable columns give up
// characters one at a time, the widest first, down to a floor of 12.
void PrintTable(std::ostream& out, const std::vector<Column>& cols, std::vector<std::vector<std::string>> rows,
                size_t max_width) {
  constexpr size_t kGap = 2, kFloor = 12;
  std::vector<size_t> width(cols.size());
  for (size_t i = 0; i < cols.size(); ++i) width[i] = Width(cols[i].name);
  for (const auto& r : rows) {
    for (size_t i = 0; i < r.size(); ++i) width[i] = std::max(width[i], Width(r[i]));
  }
  auto total = [&] {
    size_t t = 0;
    for (size_t w : width) t += w;
    return t + kGap * (width.empty() ? 0 : width.size() - 1);
  };
  while (max_width > 0 && total() > max_width) {
    size_t widest = cols.size();
    for (size_t i = 0; i < cols.size(); ++i) {
      if (cols[i].shrinks && width[i] > kFloor && (widest == cols.size() || width[i] > width[widest])) widest = i;
    }
    if (widest == cols.size()) break;  // nothing left to shrink
    --width[widest];                   // one at a time, so the shrinkable columns end up alike
  }
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (size_t i = 0; i < cells.size(); ++i) {
      std::string cell = cells[i];
      if (Width(cell) > width[i])
        cell = cols[i].keep_tail   ? KeepTail(cell, width[i] - 1)
               : cols[i].keep_ends ? KeepEnds(cell, width[i] - 1)
                                   : KeepHead(cell, width[i] - 1);
      std::string pad(width[i] - Width(cell), ' ');
      bool last = i + 1 == cells.size();
      l += cols[i].numeric ? pad + cell : cell + (last ? "" : pad);
      if (!last) l += std::string(kGap, ' ');
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out << l << "\n";
  };
  std::vector<std::string> header;
  for (const Column& c : cols) header.push_back(c.name);
  line(header);
  for (const auto& r : rows) line(r);
}

std::string Csv(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

// A dollar amount as a plain number for a CSV reader: cents for monthly
// figures, four decimals for hourly prices (some are fractions of a cent).
std::string CsvUsd(std::optional<double> usd, int decimals) {
  if (!usd) return "";
  double scale = std::pow(10.0, decimals);
  return FormatNumber(std::round(*usd * scale) / scale);
}

// One attribute column of the CSV and the wide table. A workload with instance
// groups (a HyperPod cluster, a heterogeneous job) has no type of its own: its
// instance_type cell lists the groups ("ml.m5.xlarge + 4 × ml.g5.12xlarge").
std::string Cell(const Workload& w, std::string_view name, const PriceTable& prices) {
  if (name == "instance_type" && !w.instance_groups.empty()) return InstancesText(w);
  return Show(Attribute(w, name, &prices));
}

// The scopes (templates, modules) in which a Studio app or space is declared.

void EmitCsv(std::ostream& out, const std::vector<Workload>& workloads, const PriceTable& prices,
             const MachinePaths& paths) {
  std::set<std::string> apps_in = ScopesWithApps(workloads);
  static const char* kAttrs[] = {"instance_type", "instance_count",   "accelerator",   "spot",
                                 "input_modes",   "lifecycle_config", "idle_shutdown", "autoscaling"};
  out << "kind,resource,location";
  for (const char* a : kAttrs) out << "," << a;
  out << ",hourly_usd,monthly_usd,currency\n";
  for (const Workload& w : workloads) {
    // Names and paths come from scanned files: no control characters reach the CSV reader.
    out << KindName(w.kind) << "," << Csv(Printable(w.label)) << ","
        << Csv(Printable(paths(w.path) + ":" + std::to_string(w.range.begin.line)));
    for (const char* a : kAttrs) out << "," << Csv(Printable(Cell(w, a, prices)));
    WorkloadSpend s = SpendOf(w, prices, &apps_in);
    out << "," << CsvUsd(s.hourly, 4) << "," << CsvUsd(s.monthly, 2) << "," << (s.priced_kind ? "USD" : "") << "\n";
  }
}

void EmitTable(std::ostream& out, const std::vector<Workload>& workloads, const PriceTable& prices,
               const InventoryOptions& opts) {
  std::vector<Column> cols;
  if (opts.wide) {
    cols = {{"kind"},
            {"resource"},
            {"location"},
            {"instance_type"},
            {"instance_count", false, false, true},
            {"accelerator"},
            {"spot"},
            {"input_modes"},
            {"lifecycle_config"},
            {"idle_shutdown"},
            {"autoscaling"},
            {"hourly_usd", false, false, true},
            {"monthly_usd", false, false, true}};
  } else {
    cols = {
        {"kind"},         {"resource", true, false, false, true}, {"location", true, true},       {"instances", true},
        {"cost control"}, {"$/hour", false, false, true},         {"$/month", false, false, true}};
  }
  size_t max_width = opts.wide ? 0 : opts.width;
  std::set<std::string> apps_in = ScopesWithApps(workloads);
  std::vector<std::vector<std::string>> rows;
  std::vector<const Workload*> statements;
  double monthly = 0, job_hourly = 0;
  int always_on = 0, jobs = 0, unpriced = 0;
  for (const Workload& w : workloads) {
    // IAM statements launch nothing: they get a section of their own.
    if (w.kind == WorkloadKind::kIamStatement) {
      statements.push_back(&w);
      continue;
    }
    auto a = [&](std::string_view name) { return Cell(w, name, prices); };
    WorkloadSpend s = SpendOf(w, prices, &apps_in);
    if (s.priced_kind && !s.unused_default) {
      if (!s.hourly) {
        ++unpriced;
      } else if (s.always_on) {
        monthly += *s.monthly;
        ++always_on;
      } else {
        job_hourly += *s.hourly;
        ++jobs;
      }
    }
    std::string hourly = s.hourly ? FormatUsd(*s.hourly) : s.priced_kind ? "?" : "-";
    std::string month = s.monthly ? FormatUsd(*s.monthly) : s.no_month.empty() ? "-" : s.no_month;
    std::vector<std::string> r;
    std::string location = w.path + ":" + std::to_string(w.range.begin.line);
    std::string instances = s.priced_kind                                 ? InstancesText(w)
                            : w.kind == WorkloadKind::kInferenceComponent ? ComponentText(w)
                            : OnSystemInstance(w)                         ? "system"
                                                                          : "";
    if (opts.wide) {
      r = {std::string(KindName(w.kind)),
           w.label,
           location,
           a("instance_type"),
           a("instance_count"),
           a("accelerator"),
           a("spot"),
           a("input_modes"),
           a("lifecycle_config"),
           a("idle_shutdown"),
           a("autoscaling"),
           hourly,
           month};
    } else {
      r = {ShortKind(w.kind),      w.label, location, instances.empty() ? "-" : instances,
           CostSetting(w, prices), hourly,  month};
    }
    // Names and paths come from scanned files: no control characters reach the terminal.
    for (std::string& cell : r) cell = Printable(cell);
    rows.push_back(std::move(r));
  }
  if (!rows.empty()) {
    // The totals row: always-on spend per month, and what the jobs cost per hour while they run.
    std::vector<std::string> total(cols.size());
    total[0] = "total";
    total[cols.size() - 2] = jobs ? FormatUsd(job_hourly) : "-";
    total[cols.size() - 1] = always_on ? FormatUsd(monthly) : "-";
    rows.push_back(std::move(total));
    PrintTable(out, cols, std::move(rows), max_width);
  }
  size_t n = workloads.size() - statements.size();
  out << "\n" << n << (n == 1 ? " workload" : " workloads");
  if (always_on) out << "; always on ≈ " << FormatUsd(monthly) << "/month";
  if (jobs) out << "; jobs ≈ " << FormatUsd(job_hourly) << "/h while they run";
  if (unpriced) out << "; " << unpriced << " without a price (shown as ?, not counted)";
  out << "\n";
  if (!statements.empty()) {
    out << "\nIAM statements (" << statements.size() << "):\n";
    std::vector<std::vector<std::string>> srows;
    for (const Workload* w : statements) {
      srows.push_back({Printable(w->label), Printable(w->path + ":" + std::to_string(w->range.begin.line))});
    }
    PrintTable(out, {{"statement", true, false, false, true}, {"location", true, true}}, std::move(srows), max_width);
  }
  out << "\nprices: " << prices.Describe() << "\n";
}

// The workloads with each inference component moved right after the variant
// it runs on (the variant whose link keys its refs name), wherever either is
// declared; nullopt when that is already their order.
std::optional<std::vector<Workload>> ComponentsUnderVariants(const std::vector<Workload>& workloads) {
  std::unordered_map<std::string_view, size_t> variant_of;
  for (size_t i = 0; i < workloads.size(); ++i) {
    if (workloads[i].kind != WorkloadKind::kEndpointVariant) continue;
    for (const std::string& key : workloads[i].keys) variant_of.emplace(key, i);
  }
  std::vector<std::vector<size_t>> under(workloads.size());
  std::vector<bool> placed(workloads.size());
  for (size_t i = 0; i < workloads.size() && !variant_of.empty(); ++i) {
    if (workloads[i].kind != WorkloadKind::kInferenceComponent) continue;
    for (const std::string& ref : workloads[i].refs) {
      if (auto it = variant_of.find(ref); it != variant_of.end()) {
        under[it->second].push_back(i);
        placed[i] = true;
        break;
      }
    }
  }
  std::vector<size_t> order;
  for (size_t i = 0; i < workloads.size(); ++i) {
    if (placed[i]) continue;
    order.push_back(i);
    order.insert(order.end(), under[i].begin(), under[i].end());
  }
  bool same = true;
  for (size_t i = 0; i < order.size() && same; ++i) same = order[i] == i;
  if (same) return std::nullopt;
  std::vector<Workload> out;
  out.reserve(order.size());
  for (size_t i : order) out.push_back(workloads[i]);
  return out;
}

}  // namespace

std::set<std::string> ScopesWithApps(const std::vector<Workload>& workloads) {
  std::set<std::string> scopes;
  for (const Workload& w : workloads) {
    if (w.kind == WorkloadKind::kStudioApp || w.kind == WorkloadKind::kStudioSpace) {
      scopes.insert(w.scope.empty() ? w.path : w.scope);
    }
  }
  return scopes;
}

WorkloadSpend SpendOf(const Workload& w, const PriceTable& prices, const std::set<std::string>* apps_in) {
  WorkloadSpend s;
  s.priced_kind = ComponentFor(w.kind).has_value() && !OnSystemInstance(w);
  // An endpoint its notebook deletes is ephemeral (hourly only); so is a Studio default no app uses.
  s.unused_default = UnusedStudioDefault(w, apps_in);
  s.always_on = AlwaysOn(w) && !s.unused_default;
  AttrValue hourly = Attribute(w, "hourly_usd", &prices);
  if (hourly.known()) {
    s.hourly = hourly.number;
    if (s.always_on) s.monthly = hourly.number * kHoursPerMonth;
  }
  if (!s.monthly && s.priced_kind) {
    s.no_month = !s.hourly          ? "unpriced"
                 : s.unused_default ? "no app uses it"
                 : AlwaysOn(w.kind) ? "ephemeral"
                                    : "per run";
  }
  return s;
}

void EmitInventory(std::ostream& out, std::string_view format, const std::vector<Workload>& all,
                   const PriceTable& prices, const InventoryOptions& opts) {
  std::optional<std::vector<Workload>> reordered = ComponentsUnderVariants(all);
  const std::vector<Workload>& workloads = reordered ? *reordered : all;
  MachinePaths paths(opts.repository_roots);
  if (format == "json") {
    nlohmann::ordered_json doc = {{"schema_version", 1}, {"workloads", kJsonListHere}, {"prices", prices.Describe()}};
    WriteJsonWithList(out, doc, workloads.size(), [&](size_t i) {
      nlohmann::ordered_json j = AttributesJson(workloads[i], &prices);
      if (j.contains("path")) j["path"] = paths(workloads[i].path);
      // Money as the scan's JSON and the CSV give it: hourly prices to 1/100 of a cent.
      if (auto h = j.find("hourly_usd"); h != j.end() && h->is_number()) {
        *h = std::round(h->get<double>() * 1e4) / 1e4;
      }
      return j;
    });
    return;
  }
  if (format == "csv") {
    EmitCsv(out, workloads, prices, paths);
    return;
  }
  EmitTable(out, workloads, prices, opts);
}

}  // namespace sagelint
