// `sagelint rules` and `sagelint explain ID`.
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/help_docs.h"
#include "linter/cost/prices.h"
#include "linter/engine/git.h"
#include "linter/model/rule.h"
#include "linter/policy/policy.h"
#include "linter/report/rules_table.h"

namespace sagelint::cli {
namespace {

int ExplainTo(const CliOptions& o, std::ostream& out) {
  if (o.args.size() != 1) throw UsageError{"explain expects one rule ID, e.g. sagelint explain SM401"};
  std::string id = o.args[0];
  for (char& c : id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const RuleInfo* r = FindRule(id);
  // Accept the rule name as well: `sagelint explain training-without-spot`.
  if (!r) r = FindRuleByName(o.args[0]);
  if (!r) {
    for (const Policy& p : LoadConfigPolicies(LoadConfigFor(o))) {
      if (p.id == o.args[0]) {
        // The policy comes from the scanned repository's configuration: each line printed inert.
        out << "custom policy ";
        for (const std::string& line : SplitList(DescribePolicy(p), '\n')) out << Printable(line) << "\n";
        return 0;
      }
    }
    CheckRuleIds({id}, "explain");
  }
  out << r->id << " " << r->name << " (" << SeverityName(r->severity) << ")\n" << r->summary << "\n";
  // Whether its findings fix themselves (README "Fixes"), and with which flag.
  if (std::optional<Applicability> fix = RuleFix(r->id); !fix) {
    out << "Fix: none\n\n";
  } else if (*fix == Applicability::kSafe) {
    out << "Fix: safe, applied by `sagelint scan --fix` (see Fix below)\n\n";
  } else {
    out << "Fix: unsafe (it changes behaviour: review it), applied by `sagelint scan --fix --unsafe-fixes` (see Fix "
           "below)\n\n";
  }
  if (!r->options.empty()) {
    out << "Options (.sagelint.yaml `rules: {" << r->id << ": {...}}`):\n";
    for (const RuleOption& opt : r->options) {
      out << "  " << opt.name << " (default ";
      if (opt.type == RuleOption::Type::kGlobs) {
        out << "none";
      } else {
        out << opt.default_value;
      }
      out << "): " << opt.help << "\n";
    }
    out << "\n";
  }
  out << RuleDoc(r->id);
  if (r->severity != Severity::kNote || !r->iam.condition_key.empty()) {
    out << "\nPrices in cost estimates: the " << PriceTable::BuiltIn().Describe()
        << ", each figure with its source and date (`sagelint prices` lists them). For exact figures or another "
           "region, run `sagelint prices update --region R`: later scans of that region use AWS's offer file "
           "(docs/cost-data.md).\n";
  }
  return 0;
}

}  // namespace

int CommandRules(const CliOptions& o) {
  std::vector<CustomRuleInfo> custom;
  for (const Policy& p : LoadConfigPolicies(LoadConfigFor(o))) custom.push_back({p.id, p.severity, p.message});
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"text", ""}} : o.outputs;
  for (const Output& out : outputs) {
    std::string content = out.format == "markdown" ? RulesMarkdown()
                          : out.format == "json"   ? RulesJson(custom)
                                                   : RulesText(custom);
    WriteOutput(out.file, content);
  }
  return 0;
}
// For a terminal by default (no Markdown marks; bold headings with colour);
// --format markdown keeps the rule's documentation as written.
int CommandExplain(const CliOptions& o) {
  std::ostringstream out;
  int rc = ExplainTo(o, out);
  Output where = o.outputs.empty() ? Output{"text", ""} : o.outputs.front();
  WriteOutput(where.file, where.format == "markdown"
                              ? out.str()
                              : MarkdownForTerminal(out.str(), UseColor(o.color, where.file.empty())));
  return rc;
}

}  // namespace sagelint::cli
