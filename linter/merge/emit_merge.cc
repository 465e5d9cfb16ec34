// `sagelint merge` as text, JSON and markdown (docs/organisation.md).
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/merge/merge.h"
#include "linter/merge/tables.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace merge {
namespace {

std::string Plural(int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); }

Cell Num(double v, const std::string& text) { return {text, v}; }
Cell Int(int v) { return {std::to_string(v), static_cast<double>(v)}; }

// Characters as a terminal shows them: one per UTF-8 code point.
size_t Width(std::string_view s) {
  return static_cast<size_t>(std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

}  // namespace

std::string Money(const std::optional<double>& usd) { return usd ? FormatUsd(*usd) : "?"; }

std::string Headline(const MergeResult& m) {
  int n = static_cast<int>(m.repositories.size());
  std::string s = Plural(n, "repository", "repositories") + " merged; always on ≈ " + FormatUsd(m.always_on_monthly) +
                  "/month; avoidable ≈ " + FormatUsd(m.avoidable_monthly) + "/month; " +
                  TallyText({m.errors, m.warnings, m.notes});
  if (m.unpriced) s += "; " + Plural(m.unpriced, "workload", "workloads") + " without a price";
  if (m.parse_errors) s += "; " + Plural(m.parse_errors, "file", "files") + " that could not be parsed";
  return s;
}

std::vector<Table> Tables(const MergeResult& m) {
  std::vector<Table> tables;
  Table repos{"repositories",
              "Repositories by always-on spend",
              {"repository", "always-on $/month", "avoidable $/month", "errors", "warnings", "notes", "unpriced",
               "parse errors"},
              {false, true, true, true, true, true, true, true},
              {},
              {},
              "no report merged"};
  for (const MergedRepo& r : m.repositories) {
    repos.rows.push_back({{r.name + (r.duplicate ? " (duplicate)" : "")},
                          Num(r.always_on_monthly.value_or(-1), Money(r.always_on_monthly)),
                          Num(r.avoidable_monthly, FormatUsd(r.avoidable_monthly)),
                          Int(r.errors),
                          Int(r.warnings),
                          Int(r.notes),
                          Int(r.unpriced),
                          Int(r.parse_errors)});
  }
  if (!m.repositories.empty()) {
    repos.total = {{"total"},
                   Num(m.always_on_monthly, FormatUsd(m.always_on_monthly)),
                   Num(m.avoidable_monthly, FormatUsd(m.avoidable_monthly)),
                   Int(m.errors),
                   Int(m.warnings),
                   Int(m.notes),
                   Int(m.unpriced),
                   Int(m.parse_errors)};
  }
  tables.push_back(std::move(repos));

  Table rules{"rules",
              "Findings per rule",
              {"rule", "name", "findings", "repositories", "avoidable $/month"},
              {false, false, true, true, true},
              {},
              {},
              "no finding"};
  for (const RuleTotal& r : m.rules) {
    rules.rows.push_back({{r.rule},
                          {r.name},
                          Int(r.findings),
                          Int(r.repositories),
                          Num(r.avoidable_monthly, FormatUsd(r.avoidable_monthly))});
  }
  tables.push_back(std::move(rules));

  Table costly{"workloads",
               "Costliest always-on workloads (top " + std::to_string(kCostliestWorkloads) + ")",
               {"$/month", "repository", "kind", "workload", "location", "instances"},
               {true, false, false, false, false, false},
               {},
               {},
               "no priced always-on workload"};
  for (const MergedWorkload& w : m.costliest) {
    std::string instances = w.instance_type.empty() ? "-" : w.instance_type;
    if (!w.instance_type.empty() && w.instance_count && *w.instance_count != 1) {
      instances = FormatNumber(*w.instance_count) + " × " + w.instance_type;
    }
    costly.rows.push_back({Num(w.monthly, FormatUsd(w.monthly)),
                           {w.repository},
                           {w.kind},
                           {w.label},
                           {w.path + ":" + std::to_string(w.line)},
                           {instances}});
  }
  tables.push_back(std::move(costly));
  return tables;
}

std::vector<std::pair<std::string, std::vector<std::string>>> Problems(const MergeResult& m) {
  std::vector<std::pair<std::string, std::vector<std::string>>> out;
  if (!m.missing.empty()) out.emplace_back("Repositories without a report (expected by --repos)", m.missing);
  auto files = [](const std::vector<SkippedReport>& list) {
    std::vector<std::string> lines;
    for (const SkippedReport& s : list) lines.push_back(s.file + ": " + s.reason);
    return lines;
  };
  if (!m.other_schema.empty())
    out.emplace_back("Reports of another sagelint schema (not merged)", files(m.other_schema));
  if (!m.skipped.empty()) out.emplace_back("Reports skipped", files(m.skipped));
  if (!m.duplicates.empty()) {
    std::vector<std::string> lines;
    for (const std::string& name : m.duplicates) {
      std::string reports;
      for (const MergedRepo& r : m.repositories) {
        if (r.name == name) reports += (reports.empty() ? "" : ", ") + r.file;
      }
      lines.push_back(name + ": " + reports);
    }
    out.emplace_back("Repository names reported more than once (each report counted)", lines);
  }
  return out;
}

}  // namespace merge

using merge::Cell;

void EmitMergeText(std::ostream& out, const MergeResult& m) {
  out << Printable(merge::Headline(m)) << "\n";
  for (const merge::Table& t : merge::Tables(m)) {
    out << "\n" << t.title << ":\n";
    if (t.rows.empty()) {
      out << "  (" << t.empty << ")\n";
      continue;
    }
    std::vector<std::vector<std::string>> lines;
    lines.push_back(t.head);
    auto add = [&](const std::vector<Cell>& row) {
      std::vector<std::string> cells;
      for (const Cell& c : row) cells.push_back(Printable(c.text));
      lines.push_back(std::move(cells));
    };
    for (const auto& row : t.rows) add(row);
    if (!t.total.empty()) add(t.total);
    std::vector<size_t> width(t.head.size());
    for (const auto& l : lines) {
      for (size_t i = 0; i < l.size(); ++i) width[i] = std::max(width[i], merge::Width(l[i]));
    }
    for (const auto& l : lines) {
      std::string text = " ";
      for (size_t i = 0; i < l.size(); ++i) {
        std::string pad(width[i] - merge::Width(l[i]), ' ');
        text += " " + (t.numeric[i] ? pad + l[i] : l[i] + pad);
        if (i + 1 < l.size()) text += " ";
      }
      while (!text.empty() && text.back() == ' ') text.pop_back();
      out << text << "\n";
    }
  }
  for (const auto& [heading, lines] : merge::Problems(m)) {
    out << "\n" << heading << ":\n";
    for (const std::string& l : lines) out << "  " << Printable(l) << "\n";
  }
}

void EmitMergeMarkdown(std::ostream& out, const MergeResult& m) {
  out << "## SageMaker spend across the organisation\n\n" << MarkdownText(merge::Headline(m)) << "\n";
  for (const merge::Table& t : merge::Tables(m)) {
    out << "\n### " << t.title << "\n\n";
    if (t.rows.empty()) {
      out << "_" << t.empty << "_\n";
      continue;
    }
    auto row = [&](const std::vector<std::string>& cells) {
      out << "|";
      for (const std::string& c : cells) out << " " << c << " |";
      out << "\n";
    };
    std::vector<std::string> head, rule;
    for (size_t i = 0; i < t.head.size(); ++i) {
      head.push_back(t.head[i]);
      rule.push_back(t.numeric[i] ? "---:" : "---");
    }
    row(head);
    row(rule);
    auto cells = [](const std::vector<Cell>& r, bool bold) {
      std::vector<std::string> v;
      for (const Cell& c : r) v.push_back(bold ? "**" + MarkdownText(c.text) + "**" : MarkdownText(c.text));
      return v;
    };
    for (const auto& r : t.rows) row(cells(r, false));
    if (!t.total.empty()) row(cells(t.total, true));
  }
  for (const auto& [heading, lines] : merge::Problems(m)) {
    out << "\n### " << heading << "\n\n";
    for (const std::string& l : lines) out << "- " << MarkdownText(l) << "\n";
  }
}

void EmitMergeJson(std::ostream& out, const MergeResult& m) {
  using json = nlohmann::ordered_json;
  auto usd = [](double v) { return std::round(v * 100) / 100; };
  json repos = json::array(), rules = json::array(), workloads = json::array();
  for (const MergedRepo& r : m.repositories) {
    repos.push_back({{"name", r.name},
                     {"report", r.file},
                     {"commit", r.commit.empty() ? json() : json(r.commit)},
                     {"always_on_monthly_usd", r.always_on_monthly ? json(usd(*r.always_on_monthly)) : json()},
                     {"avoidable_monthly_usd", usd(r.avoidable_monthly)},
                     {"errors", r.errors},
                     {"warnings", r.warnings},
                     {"notes", r.notes},
                     {"workloads", r.workloads},
                     {"unpriced_workloads", r.unpriced},
                     {"parse_errors", r.parse_errors},
                     {"duplicate", r.duplicate}});
  }
  for (const RuleTotal& r : m.rules) {
    rules.push_back({{"rule", r.rule},
                     {"name", r.name},
                     {"findings", r.findings},
                     {"repositories", r.repositories},
                     {"avoidable_monthly_usd", usd(r.avoidable_monthly)}});
  }
  for (const MergedWorkload& w : m.costliest) {
    workloads.push_back({{"repository", w.repository},
                         {"kind", w.kind},
                         {"label", w.label},
                         {"path", w.path},
                         {"line", w.line},
                         {"instance_type", w.instance_type.empty() ? json() : json(w.instance_type)},
                         {"instance_count", w.instance_count ? json(*w.instance_count) : json()},
                         {"monthly_usd", usd(w.monthly)}});
  }
  auto reports = [](const std::vector<SkippedReport>& list) {
    json a = json::array();
    for (const SkippedReport& s : list) a.push_back({{"report", s.file}, {"reason", s.reason}});
    return a;
  };
  json doc = {{"schema_version", 1},
              {"tool", {{"name", "sagelint"}, {"version", SAGELINT_VERSION}}},
              {"summary",
               {{"repositories", m.repositories.size()},
                {"always_on_monthly_usd", usd(m.always_on_monthly)},
                {"avoidable_monthly_usd", usd(m.avoidable_monthly)},
                {"errors", m.errors},
                {"warnings", m.warnings},
                {"notes", m.notes},
                {"unpriced_workloads", m.unpriced},
                {"parse_errors", m.parse_errors}}},
              {"repositories", repos},
              {"rules", rules},
              {"costliest_workloads", workloads},
              {"missing", m.missing},
              {"other_schema", reports(m.other_schema)},
              {"skipped", reports(m.skipped)},
              {"duplicates", m.duplicates}};
  out << DumpJson(doc);
}

}  // namespace sagelint
