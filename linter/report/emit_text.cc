// The default output, for people (README "Usage").
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/model/rule.h"
#include "linter/report/cost_line.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

struct TextStyle {
  bool on;
  std::string operator()(const char* code, const std::string& s) const {
    return on ? std::string("\x1b[") + code + "m" + s + "\x1b[0m" : s;
  }
};

const char* SeverityColor(Severity s) {
  switch (s) {
    case Severity::kError:
      return "1;31";
    case Severity::kWarning:
      return "1;33";
    case Severity::kNote:
      return "1;36";
  }
  return "0";
}

// A finding's first line, as text and concise print it: "path:line:col: severity[ID] message [fix]".
void FindingLine(std::ostream& out, const Finding& f, const TextStyle& st) {
  out << st("1", Printable(f.path) + ":" + std::to_string(f.range.begin.line) + ":" +
                     std::to_string(f.range.begin.column) + ":")
      << " " << st(SeverityColor(f.severity), std::string(SeverityName(f.severity)) + "[" + Printable(f.rule) + "]")
      << " " << Printable(f.message) << (f.fix ? " " + st("32", "[fix]") : std::string()) << "\n";
}

void Summary(std::ostream& out, const ScanResult& scan, const EmitOptions& opts);

}  // namespace

std::string CostLine(const CostEstimate& c) {
  if (!c.hourly_usd) return c.basis;  // why there is no price
  // A group of mixed instance types names each with its count already ("2 × ml.t3.medium + ml.g5.xlarge").
  bool mixed = c.instance_type.find(" + ") != std::string::npos;
  std::string type = c.count > 1 && !mixed ? std::to_string(c.count) + " × " + c.instance_type : c.instance_type;
  std::string s = type + " ≈ " + FormatUsd(*c.hourly_usd) + "/h";
  if (c.monthly_usd) s += ", ≈ " + FormatUsd(*c.monthly_usd) + "/month while running";
  if (c.monthly_savings_usd) s += "; the suggested change saves ≈ " + FormatUsd(*c.monthly_savings_usd) + "/month";
  return s;
}

void EmitText(std::ostream& out, const ScanResult& scan, const EmitOptions& opts) {
  TextStyle st{opts.color};
  // Paths, names and values come from scanned files: printed inert (no control characters reach the terminal).
  for (const Finding& f : scan.findings) {
    FindingLine(out, f, st);
    if (opts.quiet) continue;
    if (f.range.cell > 0) {
      out << "  " << st("2", "cell:") << " " << f.range.cell << ", line " << f.range.cell_line << "\n";
    }
    if (!f.condition.empty()) out << "  " << st("2", "when:") << " " << Printable(f.condition) << "\n";
    if (!f.suggestion.empty()) out << "  " << st("32", "help:") << " " << Printable(f.suggestion) << "\n";
    if (f.fix) {
      out << "  " << st("32", "fix:") << " " << Printable(f.fix->message)
          << (f.fix->applicability == Applicability::kSafe ? " (sagelint --fix)" : " (sagelint --fix --unsafe-fixes)")
          << "\n";
    }
    if (f.cost) {
      std::string line = CostLine(*f.cost);
      if (!line.empty()) out << "  " << st("35", "cost:") << " " << Printable(line) << "\n";
    }
    if (f.iam && !f.iam->actions.empty()) {
      out << "  " << st("34", "guard:") << " " << f.iam->condition_key << " on " << f.iam->actions.front()
          << " (see `sagelint iam-policy`)\n";
    }
  }
  if (opts.quiet || !opts.summary) return;
  if (!scan.findings.empty()) out << "\n";
  Summary(out, scan, opts);
}

void EmitConcise(std::ostream& out, const ScanResult& scan, const EmitOptions& opts) {
  TextStyle st{opts.color};
  for (const Finding& f : scan.findings) FindingLine(out, f, st);
  if (opts.quiet || !opts.summary) return;
  // Each rule's help once, after the list, in the order the rules first appear: the suggestion its findings
  // share, else the rule's summary (their suggestions name each finding's own values).
  std::vector<std::string> order;
  std::map<std::string, std::set<std::string>> suggestions;
  for (const Finding& f : scan.findings) {
    auto [it, added] = suggestions.try_emplace(f.rule);
    if (added) order.push_back(f.rule);
    it->second.insert(f.suggestion);
  }
  if (!order.empty()) out << "\n";
  for (const std::string& id : order) {
    const std::set<std::string>& said = suggestions[id];
    const RuleInfo* rule = FindRule(id);
    std::string help = said.size() == 1 && !said.begin()->empty() ? *said.begin()
                       : rule                                     ? std::string(rule->summary)
                                                                  : std::string();
    out << st("32", "help[" + Printable(id) + "]:") << " " << Printable(help);
    if (rule) out << " (sagelint explain " << id << ")";
    out << "\n";
  }
  if (!scan.findings.empty()) out << "\n";
  Summary(out, scan, opts);
}

std::vector<RuleStatistics> Statistics(const std::vector<Finding>& findings) {
  std::map<std::string, RuleStatistics> rows;
  // A workload's avoidable spend is the largest saving among its findings (SM101 and SM102 on one endpoint are two
  // ways to save the same money), credited to the rule whose finding carries it. A workload is its file and label.
  std::map<std::pair<std::string, std::string>, const Finding*> largest;
  for (const Finding& f : findings) {
    RuleStatistics& r = rows[f.rule];
    r.rule = f.rule;
    r.name = f.name;
    ++r.count;
    if (f.fix) ++r.fixable;
    if (!f.cost || !f.cost->monthly_savings_usd || *f.cost->monthly_savings_usd <= 0) continue;
    const Finding*& best = largest[{f.root_path.empty() ? f.path : f.root_path, f.resource}];
    if (!best || *f.cost->monthly_savings_usd > *best->cost->monthly_savings_usd) best = &f;
  }
  for (const auto& [workload, f] : largest) rows[f->rule].avoidable_monthly_usd += *f->cost->monthly_savings_usd;
  std::vector<RuleStatistics> out;
  for (auto& [id, r] : rows) out.push_back(std::move(r));
  // The most frequent first, as ruff's --statistics orders them.
  std::stable_sort(out.begin(), out.end(), [](const RuleStatistics& a, const RuleStatistics& b) {
    return std::tie(b.count, a.rule) < std::tie(a.count, b.rule);
  });
  return out;
}

void EmitStatistics(std::ostream& out, const ScanResult& scan) {
  std::vector<RuleStatistics> rows = Statistics(scan.findings);
  if (rows.empty()) {
    out << "No findings\n";
    return;
  }
  std::vector<std::vector<std::string>> cells;
  cells.push_back({"count", "fixable", "avoidable $/month", "rule"});
  for (const RuleStatistics& r : rows) {
    std::string fixable = "-";
    if (r.fixable) fixable = std::to_string(r.fixable) + " (" + std::to_string(100 * r.fixable / r.count) + "%)";
    cells.push_back({std::to_string(r.count), fixable,
                     r.avoidable_monthly_usd > 0 ? FormatUsd(r.avoidable_monthly_usd) : "-",
                     Printable(r.rule) + " " + Printable(r.name)});
  }
  std::vector<size_t> width(4, 0);
  for (const auto& row : cells) {
    for (size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
  }
  for (const auto& row : cells) {
    std::string line;
    for (size_t i = 0; i < 3; ++i) line += std::string(width[i] - row[i].size(), ' ') + row[i] + "  ";
    out << line << row[3] << "\n";
  }
  // Why the rest has no fix (README "Fixes"): each rule's most frequent reasons.
  std::map<std::string, std::map<std::string, int>> reasons;
  for (const Finding& f : scan.findings) {
    if (!f.fix && !f.fix_unavailable.empty()) ++reasons[f.rule][f.fix_unavailable];
  }
  if (reasons.empty()) return;
  out << "\nwithout a fix, by reason:\n";
  for (const RuleStatistics& r : rows) {
    auto it = reasons.find(r.rule);
    if (it == reasons.end()) continue;
    std::vector<std::pair<int, std::string>> top;
    for (const auto& [why, n] : it->second) top.push_back({-n, why});
    std::sort(top.begin(), top.end());
    constexpr size_t kShown = 3;
    for (size_t i = 0; i < top.size() && i < kShown; ++i) {
      out << "  " << Printable(r.rule) << "  " << -top[i].first << "  " << Printable(top[i].second) << "\n";
    }
    if (top.size() > kShown) out << "  " << Printable(r.rule) << "  (" << top.size() - kShown << " more reasons)\n";
  }
}

namespace {

// The last line of text and concise: counts, what was hidden, fixable, avoidable spend.
void Summary(std::ostream& out, const ScanResult& scan, const EmitOptions& opts) {
  TextStyle st{opts.color};
  Tally t = CountFindings(scan.findings);
  std::string files = std::to_string(scan.files_scanned) + (scan.files_scanned == 1 ? " file" : " files");
  std::string summary = t.total() == 0 ? "No findings in " + files
                                       : std::to_string(t.total()) + (t.total() == 1 ? " finding (" : " findings (") +
                                             TallyText(t) + ") in " + files;
  if (scan.suppressed > 0) summary += ", " + std::to_string(scan.suppressed) + " suppressed";
  if (scan.baselined > 0) summary += ", " + std::to_string(scan.baselined) + " in the baseline";
  auto fixable =
      std::count_if(scan.findings.begin(), scan.findings.end(), [](const Finding& f) { return f.fix.has_value(); });
  if (fixable > 0) summary += ", " + std::to_string(fixable) + " fixable";
  double savings = AvoidableMonthlyUsd(scan.findings);
  if (savings > 0) summary += " · est. avoidable spend ≈ " + FormatUsd(savings) + "/month";
  if (int unpriced = UnpricedFindings(scan.findings); unpriced > 0) {
    summary += " · " + std::to_string(unpriced) + (unpriced == 1 ? " finding" : " findings") +
               " without a price (see `sagelint prices`)";
  }
  out << st("1", summary) << "\n";
  size_t stale = scan.stale_baseline.size();
  if (stale == 0) return;
  out << stale << (stale == 1 ? " baseline entry matches" : " baseline entries match")
      << " no finding any more (fixed or changed)";
  if (!opts.report_stale_baseline) {
    out << "; --report-stale-baseline lists " << (stale == 1 ? "it" : "them") << "\n";
    return;
  }
  out << ":\n";
  // Baseline entries are text from a file of the repository: printed inert.
  for (const StaleBaselineEntry& e : scan.stale_baseline) {
    out << "  " << Printable(e.path) << ": " << Printable(e.rule) << " " << Printable(e.resource) << " ("
        << Printable(e.fingerprint.substr(0, 16)) << ")\n";
  }
}

}  // namespace

}  // namespace sagelint
