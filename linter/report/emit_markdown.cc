// A pull-request comment: summary, findings table, estimated avoidable spend.
#include "linter/cost/prices.h"
#include "linter/report/emit.h"

namespace sagelint {
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
  // Within a comment's limit: rows in the findings' order, the rest counted.
  size_t used = 1024, shown = 0;
  for (const Finding& f : scan.findings) {
    std::string cost;
    if (f.cost && f.cost->hourly_usd) {
      cost = FormatUsd(*f.cost->hourly_usd) + "/h";
      if (f.cost->monthly_usd) cost += ", " + FormatUsd(*f.cost->monthly_usd) + "/month";
      if (f.cost->monthly_savings_usd) cost += " (save " + FormatUsd(*f.cost->monthly_savings_usd) + "/month)";
    }
    // Everything from a scanned file is escaped: a resource name cannot add HTML, links or mentions to the comment.
    std::string row = "| " + std::string(SeverityIcon(f.severity)) + " | `" + f.rule + "` " + f.name + " | " +
                      MarkdownCode(f.path + ":" + std::to_string(f.range.begin.line)) + " | " +
                      MarkdownText(f.resource) + " | " + MarkdownText(f.message);
    if (!f.suggestion.empty()) row += "<br>**Fix:** " + MarkdownText(f.suggestion);
    row += " | " + cost + " |\n";
    size_t chars = 0;
    for (unsigned char c : row) chars += (c & 0xC0) != 0x80;
    if (used + chars > kCommentLimit) break;
    used += chars;
    ++shown;
    out << row;
  }
  if (shown < scan.findings.size()) {
    out << "\n…and " << scan.findings.size() - shown << " more findings: see the code scanning (SARIF) results.\n";
  }
  out << "\n<sub>Prices are approximate on-demand list prices; `sagelint explain RULE` says why each rule "
         "matters.</sub>\n";
}

}  // namespace sagelint
