// `sagelint diff` in every output format (SPEC §9). Text, JSON and markdown
// have a diff shape of their own; SARIF, JUnit, GitHub and GitLab carry the
// new findings only, through their scan emitters.
#include <algorithm>
#include <cmath>
#include <map>

#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

// "+$2,203" / "−$146" / "$0".
std::string SignedUsd(double usd) {
  if (std::fabs(usd) < 0.005) return "$0";
  return std::string(usd > 0 ? "+" : "−") + FormatUsd(std::fabs(usd));
}

std::string Headline(const DiffResult& d) {
  std::string spend;
  if (std::fabs(d.total_monthly_usd) >= 0.005) {
    spend = SignedUsd(d.total_monthly_usd) + "/month of always-on SageMaker spend";
  } else {
    spend = "no change in always-on SageMaker spend";
  }
  if (d.unpriced_changes > 0) {
    spend += " (" + std::to_string(d.unpriced_changes) + " more " + (d.unpriced_changes == 1 ? "change" : "changes") +
             " of unknown price)";
  }
  size_t n = d.added.size();
  std::string findings = n == 0 ? "no new findings" : std::to_string(n) + (n == 1 ? " new finding" : " new findings");
  if (!d.resolved.empty()) findings += ", " + std::to_string(d.resolved.size()) + " resolved";
  return spend + "; " + findings;
}

std::string Workload(const std::optional<SpendState>& s) {
  if (!s) return "—";
  std::string out = s->instance_count == "1" || s->instance_count.empty()
                        ? s->instance_type
                        : s->instance_count + " × " + s->instance_type;
  if (s->spot == "true") out += ", Spot";
  if (s->autoscaling == "true") out += ", autoscaled";
  if (s->idle_stop == "true") out += ", idle stop";
  return out;
}

std::string Price(const std::optional<SpendState>& s, bool always_on) {
  if (!s) return "";
  if (always_on) return s->monthly_usd ? FormatUsd(*s->monthly_usd) + "/month" : "?";
  return s->hourly_usd ? FormatUsd(*s->hourly_usd) + "/h" : "?";
}

std::string Delta(const SpendChange& c) {
  if (c.monthly_usd_delta) return SignedUsd(*c.monthly_usd_delta) + "/month";
  if (c.price_unknown) return "?";
  // Jobs bill while they run: say what an hour costs before and after.
  double before = c.before && c.before->hourly_usd ? *c.before->hourly_usd : 0;
  double after = c.after && c.after->hourly_usd ? *c.after->hourly_usd : 0;
  return SignedUsd(after - before) + "/h while running";
}

const char* ChangeName(SpendChange::Kind k) {
  switch (k) {
    case SpendChange::Kind::kAdded:
      return "added";
    case SpendChange::Kind::kRemoved:
      return "removed";
    case SpendChange::Kind::kChanged:
      return "changed";
  }
  return "changed";
}

// The cost a finding puts at stake, for ordering: monthly for always-on resources, else hourly.
double Stake(const Finding& f) {
  if (!f.cost) return 0;
  if (f.cost->monthly_usd) return *f.cost->monthly_usd;
  return f.cost->hourly_usd.value_or(0);
}

std::string CostText(const Finding& f) {
  if (!f.cost || !f.cost->hourly_usd) return "";
  if (f.cost->monthly_usd) return FormatUsd(*f.cost->monthly_usd) + "/month";
  return FormatUsd(*f.cost->hourly_usd) + "/h";
}

ScanResult WithFindings(const DiffResult& d, std::vector<Finding> findings) {
  ScanResult r;
  r.findings = std::move(findings);
  r.files_scanned = d.head.files_scanned;
  r.suppressed = d.head.suppressed;
  r.baselined = d.head.baselined;
  r.custom_rules = d.head.custom_rules;
  return r;
}

// Dollars in JSON: to the cent, or null when unknown.
nlohmann::ordered_json CentsJson(std::optional<double> usd) {
  return usd ? nlohmann::ordered_json(std::round(*usd * 100) / 100) : nlohmann::ordered_json(nullptr);
}

nlohmann::ordered_json StateJson(const std::optional<SpendState>& s) {
  using json = nlohmann::ordered_json;
  if (!s) return nullptr;
  auto opt = [](const std::string& v) { return v.empty() ? json(nullptr) : json(v); };
  return {{"instance_type", opt(s->instance_type)},
          {"instance_count", opt(s->instance_count)},
          {"spot", opt(s->spot)},
          {"idle_stop", opt(s->idle_stop)},
          {"autoscaling", opt(s->autoscaling)},
          {"hourly_usd", CentsJson(s->hourly_usd)},
          {"monthly_usd", CentsJson(s->monthly_usd)}};
}

void DiffJson(std::ostream& out, const DiffResult& d) {
  using json = nlohmann::ordered_json;
  auto list = [](const std::vector<Finding>& fs) {
    json a = json::array();
    for (const Finding& f : fs) a.push_back(FindingJson(f));
    return a;
  };
  json workloads = json::array();
  for (const SpendChange& c : d.spend) {
    workloads.push_back({{"resource", c.resource},
                         {"kind", c.kind},
                         {"path", c.path},
                         {"line", c.line > 0 ? json(c.line) : json(nullptr)},
                         {"change", ChangeName(c.change)},
                         {"before", StateJson(c.before)},
                         {"after", StateJson(c.after)},
                         {"monthly_usd_delta", CentsJson(c.monthly_usd_delta)}});
  }
  Tally t = CountFindings(d.added);
  json doc = {
      {"schema_version", 1},
      {"tool", {{"name", "sagelint"}, {"version", SAGELINT_VERSION}}},
      {"base", {{"ref", d.base_ref}, {"commit", d.base_commit}}},
      {"findings", list(d.head.findings)},
      {"new", list(d.added)},
      {"resolved", list(d.resolved)},
      {"spend_delta",
       {{"workloads", workloads},
        {"total_monthly_usd", CentsJson(d.total_monthly_usd)},
        {"unpriced_changes", d.unpriced_changes}}},
      {"notes", d.notes},
      {"summary",
       {{"files_scanned", d.head.files_scanned},
        {"findings", d.head.findings.size()},
        {"new", t.total()},
        {"new_errors", t.errors},
        {"new_warnings", t.warnings},
        {"new_notes", t.notes},
        {"resolved", d.resolved.size()},
        {"suppressed", d.head.suppressed},
        {"baselined", d.head.baselined}}},
  };
  out << DumpJson(doc);
}

void DiffText(std::ostream& out, const DiffResult& d, const EmitOptions& opts) {
  EmitOptions findings_only = opts;
  findings_only.summary = false;
  EmitText(out, WithFindings(d, d.added), findings_only);
  if (opts.quiet) return;
  if (!d.resolved.empty()) {
    out << (d.added.empty() ? "" : "\n") << "Resolved (" << d.resolved.size() << "):\n";
    for (const Finding& f : d.resolved) {
      out << "  " << Printable(f.path) << ":" << f.range.begin.line << ": " << SeverityName(f.severity) << "["
          << Printable(f.rule) << "] " << Printable(f.message) << "\n";
    }
  }
  if (!d.spend.empty()) {
    out << ((d.added.empty() && d.resolved.empty()) ? "" : "\n") << "SageMaker spend:\n";
    for (const SpendChange& c : d.spend) {
      const char* sign = c.change == SpendChange::Kind::kAdded     ? "+"
                         : c.change == SpendChange::Kind::kRemoved ? "-"
                                                                   : "~";
      out << "  " << sign << " " << Printable(c.resource) << " (" << Printable(c.path);
      if (c.line > 0) out << ":" << c.line;
      out << "): ";
      if (c.before && c.after) {
        out << Printable(Workload(c.before)) << " → " << Printable(Workload(c.after));
      } else {
        out << Printable(Workload(c.before ? c.before : c.after));
      }
      out << ", " << Delta(c) << "\n";
    }
  }
  out << "\n" << Headline(d) << " (against " << Printable(d.base_ref) << ")\n";
}

constexpr size_t kMaxFindingsInComment = 50;
constexpr size_t kCommentBudget = 60000;  // GitHub refuses comments over 65,536 characters

void DiffMarkdown(std::ostream& out, const DiffResult& d, const EmitOptions& opts) {
  std::string md = "<!-- sagelint-diff -->\n### sagelint: " + MarkdownText(Headline(d)) + "\n\n";
  if (!d.spend.empty()) {
    md += "| Workload | Before | After | Monthly Δ |\n|---|---|---|---|\n";
    for (const SpendChange& c : d.spend) {
      md += "| " + MarkdownText(c.resource) + "<br><sub>" + MarkdownText(c.path) +
            (c.line > 0 ? ":" + std::to_string(c.line) : "") + "</sub> | " + MarkdownText(Workload(c.before)) +
            (c.before ? " · " + Price(c.before, c.always_on) : "") + " | " + MarkdownText(Workload(c.after)) +
            (c.after ? " · " + Price(c.after, c.always_on) : "") + " | " + Delta(c) + " |\n";
    }
    md += "\n";
  }
  if (!d.added.empty()) {
    // Group by file; files with the most at stake first, then findings by cost and line.
    std::map<std::string, std::vector<const Finding*>> by_file;
    for (const Finding& f : d.added) by_file[f.path].push_back(&f);
    std::vector<std::pair<double, std::string>> files;
    for (auto& [path, fs] : by_file) {
      double stake = 0;
      for (const Finding* f : fs) stake += Stake(*f);
      std::stable_sort(fs.begin(), fs.end(), [](const Finding* a, const Finding* b) { return Stake(*a) > Stake(*b); });
      files.push_back({-stake, path});
    }
    std::sort(files.begin(), files.end());
    md += "**New findings**\n\n";
    size_t shown = 0;
    bool truncated = false;
    for (const auto& [neg, path] : files) {
      if (shown >= kMaxFindingsInComment || md.size() > kCommentBudget) break;
      md += MarkdownCode(path) + "\n\n";
      for (const Finding* f : by_file[path]) {
        if (shown >= kMaxFindingsInComment || md.size() > kCommentBudget) {
          truncated = true;
          break;
        }
        std::string where = "L" + std::to_string(f->range.begin.line);
        if (!opts.blob_url.empty())
          where = "[" + where + "](" + opts.blob_url + UriPath(f->root_path) + "#L" +
                  std::to_string(f->range.begin.line) + ")";
        std::string cost = CostText(*f);
        std::string item = "- " + std::string(SeverityIcon(f->severity)) + " `" + f->rule + "` " + where + " " +
                           MarkdownText(f->message) + (cost.empty() ? "" : " — **" + cost + "**") + "\n";
        std::string details;
        if (!f->suggestion.empty()) details += "<b>Fix:</b> " + MarkdownText(f->suggestion) + "<br>";
        if (!f->condition.empty()) details += "<b>When:</b> " + MarkdownText(f->condition) + "<br>";
        if (f->cost && !f->cost->basis.empty()) details += "<b>Cost:</b> " + MarkdownText(f->cost->basis) + "<br>";
        if (f->iam) details += "<b>Guard:</b> " + MarkdownText(f->iam->condition_key) + "<br>";
        if (!details.empty()) item += "  <details><summary>help</summary>" + details + "</details>\n";
        md += item;
        ++shown;
      }
      md += "\n";
    }
    if (shown < d.added.size() || truncated) {
      md += "…and " + std::to_string(d.added.size() - shown) +
            " more new findings: see the code scanning (SARIF) results.\n\n";
    }
  }
  if (!d.resolved.empty() && md.size() < kCommentBudget) {
    md += "<details><summary>✅ " + std::to_string(d.resolved.size()) + " resolved</summary>\n\n";
    size_t listed = 0;
    for (const Finding& f : d.resolved) {
      if (listed >= kMaxFindingsInComment || md.size() > kCommentBudget) {
        md += "- …and " + std::to_string(d.resolved.size() - listed) + " more\n";
        break;
      }
      md += "- `" + f.rule + "` " + MarkdownText(f.path) + ":" + std::to_string(f.range.begin.line) + " " +
            MarkdownText(f.message) + "\n";
      ++listed;
    }
    md += "\n</details>\n\n";
  }
  md += "<sub>Against " + MarkdownText(d.base_ref) + " (" + d.base_commit.substr(0, 12) +
        "). Prices are approximate on-demand list prices; `sagelint explain RULE` says why each rule matters.</sub>\n";
  out << md;
}

}  // namespace

void EmitDiff(std::ostream& out, std::string_view format, const DiffResult& diff, const EmitOptions& opts) {
  if (format == "text") return DiffText(out, diff, opts);
  if (format == "json") return DiffJson(out, diff);
  if (format == "markdown") return DiffMarkdown(out, diff, opts);
  // The machine formats that gate or annotate: only what the change adds.
  FindEmitter(format)->emit(out, WithFindings(diff, diff.added), opts);
}

}  // namespace sagelint
