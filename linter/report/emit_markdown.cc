// A pull-request comment: summary, findings table, estimated avoidable spend.
#include "linter/report/emit.h"
#include "linter/cost/prices.h"

namespace sagelint {
namespace {

std::string Cell(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c == '|') out += "\\|";
    else if (c == '\n') out += ' ';
    else out += c;
  }
  return out;
}

}  // namespace

void EmitMarkdown(std::ostream& out, const ScanResult& scan, const EmitOptions&) {
  Tally t = CountFindings(scan.findings);
  double savings = AvoidableMonthlyUsd(scan.findings);
  out << "### sagelint: ";
  if (t.total() == 0) {
    out << "no SageMaker cost findings in " << scan.files_scanned << " files\n";
    return;
  }
  out << t.total() << (t.total() == 1 ? " finding" : " findings") << " (" << TallyText(t) << ") in "
      << scan.files_scanned << " files\n\n";
  if (savings > 0) out << "**Estimated avoidable spend: ≈ " << FormatUsd(savings) << "/month**\n\n";
  out << "| | Rule | Location | Resource | Finding | Est. cost |\n|---|---|---|---|---|---|\n";
  for (const Finding& f : scan.findings) {
    const char* icon = f.severity == Severity::kError ? "🔴" : f.severity == Severity::kWarning ? "🟠" : "🔵";
    std::string cost;
    if (f.cost && f.cost->hourly_usd) {
      cost = FormatUsd(*f.cost->hourly_usd) + "/h";
      if (f.cost->monthly_usd) cost += ", " + FormatUsd(*f.cost->monthly_usd) + "/month";
      if (f.cost->monthly_savings_usd) cost += " (save " + FormatUsd(*f.cost->monthly_savings_usd) + "/month)";
    }
    out << "| " << icon << " | `" << f.rule << "` " << f.name << " | `" << Cell(f.path) << ":" << f.range.begin.line
        << "` | " << Cell(f.resource) << " | " << Cell(f.message);
    if (!f.suggestion.empty()) out << "<br>**Fix:** " << Cell(f.suggestion);
    out << " | " << cost << " |\n";
  }
  out << "\n<sub>Prices are approximate on-demand list prices; `sagelint explain RULE` says why each rule matters.</sub>\n";
}

}  // namespace sagelint
