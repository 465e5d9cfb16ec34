// `sagelint merge --format html`: one self-contained page (docs/organisation.md).
// Nothing is fetched when it is viewed: style, script and charts are inline,
// and its content security policy allows exactly the inline style and script
// by their SHA-256 digests, nothing else (no network, no other script, no
// inline event handler). Every string from a report is escaped.
#include <algorithm>
#include <sstream>

#include "linter/base/sha256.h"
#include "linter/base/strings.h"
#include "linter/cost/prices.h"
#include "linter/merge/merge.h"
#include "linter/merge/tables.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

constexpr const char* kStyle = R"(
body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1d232a}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;width:100%;margin:.5em 0}
th,td{padding:.3em .6em;border-bottom:1px solid #d8dde3;text-align:left;vertical-align:top}
th.num,td.num{text-align:right;font-variant-numeric:tabular-nums}
th button{all:unset;cursor:pointer;font-weight:600}
th[aria-sort=ascending] button::after{content:" \25B2"}th[aria-sort=descending] button::after{content:" \25BC"}
tfoot td{font-weight:600;border-top:2px solid #8a96a3}
.chart{max-width:100%;height:auto}.chart text{font-size:12px;fill:#1d232a}.chart rect{fill:#3b6ea5}
.chart text.v{fill:#4a5561}.empty,.meta{color:#5c6773}.dup{color:#a4471d}
)";

constexpr const char* kScript = R"(
(function () {
  function key(cell, numeric) {
    return numeric ? parseFloat(cell.getAttribute('data-v')) : cell.textContent;
  }
  document.querySelectorAll('table.sortable').forEach(function (table) {
    var heads = table.tHead.rows[0].cells;
    Array.prototype.forEach.call(heads, function (th, col) {
      th.querySelector('button').addEventListener('click', function () {
        var ascending = th.getAttribute('aria-sort') !== 'ascending';
        Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
        th.setAttribute('aria-sort', ascending ? 'ascending' : 'descending');
        var numeric = th.classList.contains('num');
        var body = table.tBodies[0];
        var rows = Array.prototype.slice.call(body.rows);
        rows.sort(function (a, b) {
          var x = key(a.cells[col], numeric), y = key(b.cells[col], numeric);
          var c = numeric ? x - y : x.localeCompare(y);
          return ascending ? c : -c;
        });
        rows.forEach(function (r) { body.appendChild(r); });
      });
    });
  });
})();
)";

// Text from a report as HTML text or attribute value: control and
// bidirectional characters shown as escapes, markup characters as entities.
std::string Escape(std::string_view s) { return XmlText(Printable(s)); }

// The first `n` code points of `s`, then "…" (a chart's label).
std::string Clip(const std::string& s, size_t n) {
  size_t seen = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    if ((s[i] & 0xC0) != 0x80 && seen++ == n) return s.substr(0, i) + "…";
  }
  return s;
}

std::string Number(double v) {
  std::ostringstream s;
  s.precision(15);
  s << v;
  return s.str();
}

// A horizontal bar chart as inline SVG: one bar per (label, value), the
// largest value the full width; at most `limit` bars.
void BarChart(std::ostream& out, const std::string& title, std::vector<std::pair<std::string, double>> bars,
              size_t limit, const std::string& empty) {
  out << "<h2>" << Escape(title) << "</h2>\n";
  size_t all = bars.size();
  if (bars.empty()) {
    out << "<p class=\"empty\">" << Escape(empty) << "</p>\n";
    return;
  }
  if (bars.size() > limit) bars.resize(limit);
  constexpr int kLabel = 230, kBar = 380, kRow = 22, kValue = 90;
  double max = 0;
  for (const auto& b : bars) max = std::max(max, b.second);
  int height = static_cast<int>(bars.size()) * kRow + 4;
  out << "<svg class=\"chart\" role=\"img\" width=\"" << kLabel + kBar + kValue << "\" height=\"" << height
      << "\" viewBox=\"0 0 " << kLabel + kBar + kValue << " " << height << "\" aria-label=\"" << Escape(title)
      << "\">\n";
  for (size_t i = 0; i < bars.size(); ++i) {
    const auto& [label, value] = bars[i];
    int y = static_cast<int>(i) * kRow + 2;
    int w = max > 0 ? static_cast<int>(value / max * kBar + 0.5) : 0;
    out << "<g><title>" << Escape(label) << ": " << Escape(FormatUsd(value)) << "</title>";
    out << "<text x=\"" << kLabel - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">" << Escape(Clip(label, 30))
        << "</text>";
    out << "<rect x=\"" << kLabel << "\" y=\"" << y + 3 << "\" width=\"" << std::max(w, 1) << "\" height=\"" << kRow - 6
        << "\"/>";
    out << "<text class=\"v\" x=\"" << kLabel + std::max(w, 1) + 6 << "\" y=\"" << y + 15 << "\">"
        << Escape(FormatUsd(value)) << "</text></g>\n";
  }
  out << "</svg>\n";
  if (all > bars.size()) {
    out << "<p class=\"meta\">the " << bars.size() << " largest of " << all << "</p>\n";
  }
}

void HtmlTable(std::ostream& out, const merge::Table& t) {
  out << "<h2>" << Escape(t.title) << "</h2>\n";
  if (t.rows.empty()) {
    out << "<p class=\"empty\">" << Escape(t.empty) << "</p>\n";
    return;
  }
  out << "<table class=\"sortable\" id=\"" << t.id << "\">\n<thead><tr>";
  for (size_t i = 0; i < t.head.size(); ++i) {
    out << "<th" << (t.numeric[i] ? " class=\"num\"" : "") << "><button type=\"button\">" << Escape(t.head[i])
        << "</button></th>";
  }
  out << "</tr></thead>\n<tbody>\n";
  auto row = [&](const std::vector<merge::Cell>& cells) {
    out << "<tr>";
    for (size_t i = 0; i < cells.size(); ++i) {
      const merge::Cell& c = cells[i];
      out << "<td";
      if (t.numeric[i]) out << " class=\"num\" data-v=\"" << Number(c.sort.value_or(0)) << "\"";
      out << ">" << Escape(c.text) << "</td>";
    }
    out << "</tr>\n";
  };
  for (const auto& r : t.rows) row(r);
  out << "</tbody>\n";
  if (!t.total.empty()) {
    out << "<tfoot>";
    row(t.total);
    out << "</tfoot>\n";
  }
  out << "</table>\n";
}

}  // namespace

void EmitMergeHtml(std::ostream& out, const MergeResult& m) {
  out << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  out << "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'sha256-"
      << Sha256Base64(kStyle) << "'; script-src 'sha256-" << Sha256Base64(kScript)
      << "'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'\">\n";
  out << "<meta name=\"referrer\" content=\"no-referrer\">\n";
  out << "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  out << "<title>SageMaker spend across the organisation</title>\n<style>" << kStyle << "</style>\n</head>\n<body>\n";
  out << "<h1>SageMaker spend across the organisation</h1>\n";
  out << "<p>" << Escape(merge::Headline(m)) << "</p>\n";

  std::vector<std::pair<std::string, double>> spend, avoidable;
  for (const MergedRepo& r : m.repositories) {
    if (r.always_on_monthly && *r.always_on_monthly > 0) spend.emplace_back(r.name, *r.always_on_monthly);
  }
  for (const RuleTotal& r : m.rules) {
    if (r.avoidable_monthly > 0) avoidable.emplace_back(r.rule + " " + r.name, r.avoidable_monthly);
  }
  std::stable_sort(avoidable.begin(), avoidable.end(),
                   [](const auto& a, const auto& b) { return a.second > b.second; });
  BarChart(out, "Always-on spend per repository ($/month)", spend, 25, "no priced always-on workload");
  BarChart(out, "Avoidable spend per rule ($/month)", avoidable, 25, "no finding with a computed saving");

  for (const merge::Table& t : merge::Tables(m)) HtmlTable(out, t);
  for (const auto& [heading, lines] : merge::Problems(m)) {
    out << "<h2>" << Escape(heading) << "</h2>\n<ul>\n";
    for (const std::string& l : lines) out << "<li>" << Escape(l) << "</li>\n";
    out << "</ul>\n";
  }
  out << "<p class=\"meta\">sagelint " << SAGELINT_VERSION << " merge</p>\n";
  out << "<script>" << kScript << "</script>\n</body>\n</html>\n";
}

}  // namespace sagelint
