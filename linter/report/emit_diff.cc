// `sagelint diff` in every output format (README "Adopting it"). Text, JSON and markdown
// have a diff shape of their own; SARIF, JUnit, GitHub and GitLab carry the
// new findings only, through their scan emitters.
#include <algorithm>
#include <cmath>
#include <map>
#include <nlohmann/json.hpp>

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

std::string WorkloadCell(const std::optional<SpendState>& s) {
  if (!s) return "—";
  // A type that is not written (a cluster of instance groups, say) is said so, never left blank.
  std::string type = s->instance_type.empty() ? "instance type not set" : s->instance_type;
  std::string out = s->instance_count == "1" || s->instance_count.empty() ? type : s->instance_count + " × " + type;
  if (s->spot == "true") out += ", Spot";
  if (s->autoscaling == "true") out += ", autoscaled";
  if (s->idle_stop == "true") out += ", idle stop";
  return out;
}

std::string Price(const std::optional<SpendState>& s, bool always_on) {
  if (!s) return "";
  // An always-on workload is priced per month; an ephemeral side of one (a
  // notebook endpoint its workflow deletes) per hour.
  if (always_on && s->monthly_usd) return FormatUsd(*s->monthly_usd) + "/month";
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
  r.repository_roots = d.head.repository_roots;
  return r;
}

// Dollars in JSON: to the cent, or null when unknown.
nlohmann::ordered_json CentsJson(std::optional<double> usd) {
  return usd ? nlohmann::ordered_json(std::round(*usd * 100) / 100) : nlohmann::ordered_json(nullptr);
}

// A side's settings with JSON types, as inventory JSON writes them: counts are
// integers, flags booleans, and what is unknown or does not apply is null.
nlohmann::ordered_json StateJson(const std::optional<SpendState>& s) {
  using json = nlohmann::ordered_json;
  if (!s) return nullptr;
  auto text = [](const std::string& v) { return v.empty() || v == "?" ? json(nullptr) : json(v); };
  auto flag = [](const std::string& v) {
    return v == "true" ? json(true) : v == "false" ? json(false) : json(nullptr);
  };
  auto count = [](const std::string& v) {
    if (v.empty() || v.size() > 9 || v.find_first_not_of("0123456789") != std::string::npos) return json(nullptr);
    return json(std::stoi(v));
  };
  return {{"instance_type", text(s->instance_type)},
          {"instance_count", count(s->instance_count)},
          {"spot", flag(s->spot)},
          {"idle_stop", flag(s->idle_stop)},
          {"autoscaling", flag(s->autoscaling)},
          {"hourly_usd", CentsJson(s->hourly_usd)},
          {"monthly_usd", CentsJson(s->monthly_usd)}};
}

void DiffJson(std::ostream& out, const DiffResult& d) {
  using json = nlohmann::ordered_json;
  MachinePaths paths(d.head.repository_roots);
  auto list = [&](const std::vector<Finding>& fs) {
    json a = json::array();
    for (const Finding& f : fs) a.push_back(FindingJson(f, paths));
    return a;
  };
  json workloads = json::array();
  for (const SpendChange& c : d.spend) {
    workloads.push_back({{"resource", c.resource},
                         {"kind", c.kind},
                         {"path", paths(c.path)},
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
        out << Printable(WorkloadCell(c.before)) << " → " << Printable(WorkloadCell(c.after));
      } else {
        out << Printable(WorkloadCell(c.before ? c.before : c.after));
      }
      out << ", " << Delta(c) << "\n";
    }
  }
  out << "\n" << Headline(d) << " (against " << Printable(d.base_ref) << ")\n";
}

constexpr size_t kMaxFindingsInComment = 50;
constexpr size_t kMaxNotesInComment = 10;

// Characters as GitHub counts them (code points), not bytes.
size_t Chars(std::string_view s) {
  size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

// Rows taken in order while they fit `cap` characters; the number taken.
size_t Fit(const std::vector<std::string>& rows, size_t cap, size_t* used) {
  size_t n = 0;
  for (const std::string& r : rows) {
    size_t c = Chars(r);
    if (*used + c > cap) break;
    *used += c;
    ++n;
  }
  return n;
}

// The pull-request comment. It always fits GitHub's limit (kCommentLimit
// characters): the headline, notes and footer first, then the spend table
// and the new findings share what is left — each in its own order, largest
// first, so that when they do not both fit each keeps at least half and the
// rows left out are counted — and the resolved findings take what remains.
void DiffMarkdown(std::ostream& out, const DiffResult& d, const EmitOptions& opts) {
  std::string head = "<!-- sagelint-diff -->\n### sagelint: " + MarkdownText(Headline(d)) + "\n\n";
  std::string notes;
  if (!d.notes.empty()) {
    notes = "⚠️ Not read at the base (" + MarkdownText(d.base_ref) + "); what it holds is absent there:\n\n";
    for (size_t i = 0; i < d.notes.size() && i < kMaxNotesInComment; ++i) {
      std::string n = d.notes[i].size() > 300 ? d.notes[i].substr(0, 300) + "…" : d.notes[i];
      notes += "- " + MarkdownText(n) + "\n";
    }
    if (d.notes.size() > kMaxNotesInComment) {
      notes += "- …and " + std::to_string(d.notes.size() - kMaxNotesInComment) + " more (see the job's log)\n";
    }
    notes += "\n";
  }
  std::string foot = "<sub>Against " + MarkdownText(d.base_ref) + " (" + d.base_commit.substr(0, 12) +
                     "). Prices are approximate on-demand list prices; `sagelint explain RULE` says why each rule "
                     "matters.</sub>\n";
  // The lines that count what was left out, at most this long each.
  constexpr size_t kCountLines = 3 * 120;
  size_t fixed = Chars(head) + Chars(notes) + Chars(foot) + kCountLines;
  size_t budget = kCommentLimit > fixed ? kCommentLimit - fixed : 0;

  // The spend table, largest change first (d.spend's order).
  const std::string spend_head = "| Workload | Before | After | Monthly Δ |\n|---|---|---|---|\n";
  std::vector<std::string> spend_rows;
  for (const SpendChange& c : d.spend) {
    spend_rows.push_back("| " + MarkdownText(c.resource) + "<br><sub>" + MarkdownText(c.path) +
                         (c.line > 0 ? ":" + std::to_string(c.line) : "") + "</sub> | " +
                         MarkdownText(WorkloadCell(c.before)) + (c.before ? " · " + Price(c.before, c.always_on) : "") +
                         " | " + MarkdownText(WorkloadCell(c.after)) +
                         (c.after ? " · " + Price(c.after, c.always_on) : "") + " | " + Delta(c) + " |\n");
  }

  // The new findings, grouped by file: files with the most at stake first,
  // then findings by cost. Each item carries its file's heading when it is
  // the first of its file.
  struct Item {
    std::string path;
    std::string text;
  };
  std::vector<Item> items;
  if (!d.added.empty()) {
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
    for (const auto& [neg, path] : files) {
      for (const Finding* f : by_file[path]) {
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
        items.push_back({path, std::move(item)});
      }
    }
  }
  const std::string findings_head = "**New findings**\n\n";
  auto file_heading = [](const std::string& path) { return MarkdownCode(path) + "\n\n"; };
  // What the findings would take whole (with their file headings), at most kMaxFindingsInComment of them.
  std::vector<std::string> finding_rows;
  for (size_t i = 0; i < items.size() && i < kMaxFindingsInComment; ++i) {
    bool first_of_file = i == 0 || items[i - 1].path != items[i].path;
    bool last_of_file = i + 1 == items.size() || items[i + 1].path != items[i].path;
    finding_rows.push_back((first_of_file ? file_heading(items[i].path) : "") + items[i].text +
                           (last_of_file ? "\n" : ""));
  }
  size_t spend_whole = spend_rows.empty() ? 0 : Chars(spend_head) + 1;
  for (const std::string& r : spend_rows) spend_whole += Chars(r);
  size_t findings_whole = finding_rows.empty() ? 0 : Chars(findings_head) + 1;
  for (const std::string& r : finding_rows) findings_whole += Chars(r);
  // Each table keeps at least half the budget when both do not fit.
  size_t spend_cap = std::max(budget / 2, budget > findings_whole ? budget - findings_whole : 0);

  std::string md = head + notes;
  size_t used = 0;
  if (!spend_rows.empty() && Chars(spend_head) + 1 <= spend_cap) {
    used = Chars(spend_head) + 1;
    size_t shown = Fit(spend_rows, spend_cap, &used);
    md += spend_head;
    for (size_t i = 0; i < shown; ++i) md += spend_rows[i];
    if (shown < spend_rows.size()) {
      md += "\n…and " + std::to_string(spend_rows.size() - shown) +
            " more changed workloads, smaller changes: see the JSON or text output.\n";
    }
    md += "\n";
  } else if (!spend_rows.empty()) {
    md += "…" + std::to_string(spend_rows.size()) + " changed workloads: see the JSON or text output.\n\n";
  }
  if (!items.empty()) {
    size_t shown = 0;
    size_t findings_used = used + Chars(findings_head);
    if (findings_used <= budget) {
      md += findings_head;
      shown = Fit(finding_rows, budget, &findings_used);
      for (size_t i = 0; i < shown; ++i) md += finding_rows[i];
      // A file whose findings were cut keeps its blank line after the last one shown.
      if (shown > 0 && shown < items.size() && items[shown].path == items[shown - 1].path) md += "\n";
      used = findings_used;
    }
    if (shown < items.size()) {
      md += "…and " + std::to_string(items.size() - shown) +
            " more new findings: see the code scanning (SARIF) results.\n\n";
    }
  }
  if (!d.resolved.empty()) {
    std::vector<std::string> rows;
    for (const Finding& f : d.resolved) {
      if (rows.size() >= kMaxFindingsInComment) break;
      rows.push_back("- `" + f.rule + "` " + MarkdownText(f.path) + ":" + std::to_string(f.range.begin.line) + " " +
                     MarkdownText(f.message) + "\n");
    }
    std::string open = "<details><summary>✅ " + std::to_string(d.resolved.size()) + " resolved</summary>\n\n";
    std::string close = "\n</details>\n\n";
    size_t resolved_used = used + Chars(open) + Chars(close);
    if (resolved_used <= budget) {
      size_t shown = Fit(rows, budget, &resolved_used);
      md += open;
      for (size_t i = 0; i < shown; ++i) md += rows[i];
      if (shown < d.resolved.size()) md += "- …and " + std::to_string(d.resolved.size() - shown) + " more\n";
      md += close;
    }
  }
  md += foot;
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
