#include "linter/engine/analyze.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <tuple>

#include "linter/model/catalog.h"
#include "linter/cost/datasets.h"
#include "linter/iam/iam_policy.h"
#include "linter/cost/prices.h"
#include "linter/engine/link.h"
#include "linter/model/rule.h"
#include "linter/engine/fingerprint.h"
#include "linter/engine/rule_set.h"
#include "linter/engine/scan.h"
#include "linter/engine/suppress.h"

namespace sagelint {
namespace {

std::string JoinConditions(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty() || a == b) return a;
  return a + " and " + b;
}

// The Deny statements of each IAM policy, by file and policy name: SM501 sees
// one statement at a time, but a Deny elsewhere in the same policy can
// already restrict the instance types an Allow grants.
using DenyIndex = std::map<std::pair<std::string, std::string>, std::vector<const IamStatement*>>;

DenyIndex IndexDenies(const std::vector<Workload*>& all) {
  DenyIndex index;
  for (const Workload* w : all) {
    if (w->kind == WorkloadKind::kIamStatement && w->iam.effect.known() && w->iam.effect.text == "Deny") {
      index[{w->path, w->iam.policy}].push_back(&w->iam);
    }
  }
  return index;
}

bool GuardedByDeny(const Workload& w, const IamHint& hint, const DenyIndex& denies) {
  auto it = denies.find({w.path, w.iam.policy});
  if (it == denies.end() || hint.actions.empty()) return false;
  for (const std::string& action : hint.actions) {
    bool guarded = false;
    for (const IamStatement* s : it->second) guarded = guarded || DenyGuardsInstanceTypes(*s, action);
    if (!guarded) return false;
  }
  return true;
}

class FindingSink : public Sink {
 public:
  FindingSink(const ActiveRule& rule, const PriceTable& prices, const DenyIndex& denies, std::vector<Finding>& out,
              int& suppressed)
      : rule_(rule), prices_(prices), denies_(denies), out_(out), suppressed_(suppressed) {}

  void Emit(const Workload& w, Report r) override {
    if (w.kind == WorkloadKind::kIamStatement && r.iam && GuardedByDeny(w, *r.iam, denies_)) return;
    // A stand-in reports only findings at a value its file set.
    if (w.stand_in && !r.at.valid()) return;
    if (std::find(w.suppressed.begin(), w.suppressed.end(), rule_.info->id) != w.suppressed.end()) {
      ++suppressed_;
      return;
    }
    Finding f;
    f.rule = std::string(rule_.info->id);
    f.name = std::string(rule_.info->name);
    f.severity = rule_.severity;
    f.path = w.path;
    f.format = w.format;
    f.range = r.at.valid() ? r.at : w.range;
    f.resource_range = w.range;
    f.resource = w.label;
    f.condition = JoinConditions(w.condition, r.condition);
    f.value = std::move(r.value);
    f.message = std::move(r.message);
    f.suggestion = std::move(r.suggestion);
    // The condition key comes from one table, so every finding names only keys that exist for the action.
    f.iam = r.iam ? std::move(r.iam) : IamHintFor(rule_.info->id, w.kind);
    if (r.cost && !r.cost->instance_type.empty()) f.cost = EstimateCost(*r.cost, w.kind, prices_);
    out_.push_back(std::move(f));
  }

 private:
  const ActiveRule& rule_;
  const PriceTable& prices_;
  const DenyIndex& denies_;
  std::vector<Finding>& out_;
  int& suppressed_;
};

Finding ToolFinding(const char* id, const char* name, Severity sev, const std::string& path, SourcePos pos,
                    std::string message, Format format) {
  Finding f;
  f.rule = id;
  f.name = name;
  f.severity = sev;
  f.path = path;
  f.format = format;
  f.range.begin = pos.valid() ? pos : SourcePos{1, 1};
  f.range.end = f.range.begin;
  f.message = std::move(message);
  return f;
}

// An `ml.*` type the catalog does not know is reported once per scan rather
// than guessed at: every instance rule skips it.
void ReportUnknownInstanceTypes(const Workload& w, const RuleSet& rules, std::set<std::string>& seen,
                                std::vector<Finding>& out) {
  auto check = [&](const Val& v) {
    v.ForEach([&](const Val& t) {
      if (!t.known() || t.text.rfind("ml.", 0) != 0 || IsKnownInstanceType(t.text)) return;
      if (w.stand_in && !t.range.valid()) return;
      if (!seen.insert(t.text).second) return;
      Finding f = ToolFinding("SM004", "unknown-instance-type", rules.SeverityOf("SM004"), w.path,
                              t.range.valid() ? t.range.begin : w.range.begin,
                              w.label + " uses " + t.text +
                                  ", an instance type sagelint does not know: no instance rule checked it",
                              w.format);
      f.value = t.text;
      f.range = t.range.valid() ? t.range : w.range;
      f.resource = w.label;
      f.resource_range = w.range;
      f.suggestion = "check the spelling against the SageMaker instance types; if it is new, report it so the "
                     "catalog can learn it";
      out.push_back(std::move(f));
    });
  };
  check(w.instance_type);
  for (const InstanceGroup& g : w.instance_groups) check(g.instance_type);
  for (const StudioApp& app : w.apps) check(app.instance_type);
}

// `# sagelint:dataset-size=2TB` on the line of a channel's S3 URI, or on the
// line above it, states the size of the data that channel reads.
void ApplyDatasetAnnotations(ParsedFile& pf) {
  static constexpr std::string_view kMarker = "sagelint:dataset-size=";
  std::map<int, Val> sizes;  // by line
  // Only a real comment states a size: the same text inside a string is data.
  for (const Comment& c : pf.comments) {
    size_t at = c.text.find(kMarker);
    if (at == std::string::npos) continue;
    std::string_view rest = std::string_view(c.text).substr(at + kMarker.size());
    size_t end = rest.find_first_of(" \t\r\",\\");
    std::string size(rest.substr(0, end));
    int line = c.line;
    int column = c.column + static_cast<int>(at);
    if (auto gb = ParseSize(size)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%g", *gb);
      sizes[line] = Val::Known(buf, {{line, column}, {line, column}}, "sagelint:dataset-size annotation");
    } else {
      pf.result.errors.push_back({"sagelint:dataset-size='" + size + "' is not a size such as 2TB or 500GB",
                                  {line, column}});
    }
  }
  for (Workload& w : pf.result.workloads) {
    for (Channel& c : w.channels) {
      if (c.dataset_size_gb.present() || !c.s3_uri.range.valid()) continue;
      int l = c.s3_uri.range.begin.line;
      auto it = sizes.find(l);
      if (it == sizes.end()) it = sizes.find(l - 1);
      if (it != sizes.end()) c.dataset_size_gb = it->second;
    }
  }
}

}  // namespace

void KeepComments(ParsedFile& pf, std::string_view text) {
  pf.comments = SagelintComments(text, CommentSyntaxOf(pf.result.format, pf.result.path));
}

namespace {

// Custom policies: a finding where every condition holds.
void CheckPolicies(const Workload& w, const RuleSet& rules, const PriceTable& prices, std::vector<Finding>& out,
                   int& suppressed) {
  for (const ActivePolicy& active : rules.policies()) {
    const Policy& p = *active.policy;
    SourceRange at = w.range;
    if (!PolicyMatches(p, w, &prices, &at)) continue;
    if (w.stand_in && !at.valid()) continue;
    if (std::find(w.suppressed.begin(), w.suppressed.end(), p.id) != w.suppressed.end()) {
      ++suppressed;
      continue;
    }
    Finding f = ToolFinding(p.id.c_str(), p.id.c_str(), active.severity, w.path, at.begin,
                            w.label + ": " + p.message, w.format);
    f.range = at;
    f.resource = w.label;
    f.resource_range = w.range;
    f.condition = w.condition;
    if (w.instance_type.known()) {
      CostRequest c;
      c.instance_type = w.instance_type.text;
      c.count = w.instance_count.number().value_or(1);
      c.always_on = AlwaysOn(w.kind);
      f.cost = EstimateCost(c, w.kind, prices);
    }
    out.push_back(std::move(f));
  }
}

}  // namespace

// A Terraform child module is evaluated on its own (its directory was scanned)
// and through each module call (with the caller's inputs). The same resource
// then appears twice: keep the evaluation through a call, which knows more.
void DropStandaloneModuleCopies(std::vector<ParsedFile>& files) {
  std::set<std::tuple<std::string, int, int, WorkloadKind>> called;
  for (const ParsedFile& pf : files) {
    for (const Workload& w : pf.result.workloads) {
      if (w.format == Format::kTerraform && w.name.rfind("module.", 0) == 0) {
        called.insert({w.path, w.range.begin.line, w.range.begin.column, w.kind});
      }
    }
  }
  if (called.empty()) return;
  for (ParsedFile& pf : files) {
    auto& ws = pf.result.workloads;
    ws.erase(std::remove_if(ws.begin(), ws.end(),
                            [&](const Workload& w) {
                              return w.format == Format::kTerraform && w.name.rfind("module.", 0) != 0 &&
                                     called.count({w.path, w.range.begin.line, w.range.begin.column, w.kind});
                            }),
             ws.end());
  }
}

Analysis Analyze(std::vector<ParsedFile> files, const RuleSet& rules, const PriceTable& prices,
                 const std::string& root, bool keep_workloads) {
  Analysis out;
  DropStandaloneModuleCopies(files);
  std::vector<Workload*> all;
  // A template or HCL file that failed to parse gives only its SM000: what
  // was extracted from it may be partial, so no rule judges it. Python and
  // notebooks keep the findings of the statements outside the broken one.
  std::vector<bool> unparsed;
  for (const ParsedFile& pf : files) {
    unparsed.push_back(!pf.result.errors.empty() && (pf.result.format == Format::kCloudFormation ||
                                                     pf.result.format == Format::kTerraform));
  }
  for (ParsedFile& pf : files) {
    ApplyDatasetAnnotations(pf);
    for (Workload& w : pf.result.workloads) {
      if (w.scope.empty()) w.scope = w.path.empty() ? pf.result.path : w.path;
      if (w.path.empty()) w.path = pf.result.path;
      all.push_back(&w);
    }
  }
  LinkWorkloads(all);

  const DenyIndex denies = IndexDenies(all);
  bool unknown_types = rules.Enabled("SM004");
  std::set<std::string> seen_types;
  bool parse_errors = rules.Enabled("SM000");
  bool internal_errors = rules.Enabled("SM001");
  // The rules' contexts, with the scan's price table (SM005 and SM104 compare prices).
  std::vector<ActiveRule> checks = rules.checks();
  for (ActiveRule& rule : checks) rule.ctx.prices = &prices;
  for (size_t file = 0; file < files.size(); ++file) {
    ParsedFile& pf = files[file];
    if (pf.result.context) continue;  // linked above, never reported
    std::vector<Finding> found;
    int suppressed = 0;
    if (parse_errors) {
      for (const ParseError& e : pf.result.errors) {
        found.push_back(ToolFinding("SM000", "parse-error", rules.SeverityOf("SM000"),
                                    pf.result.path, e.pos, e.message, pf.result.format));
        found.back().value = e.message;
        found.back().range.cell = e.cell;
        found.back().range.cell_line = e.cell_line;
      }
    }
    for (const Workload& w : pf.result.workloads) {
      if (unparsed[file]) break;
      if (unknown_types) ReportUnknownInstanceTypes(w, rules, seen_types, found);
      CheckPolicies(w, rules, prices, found, suppressed);
      for (const ActiveRule& rule : checks) {
        if (!rule.AppliesTo(w.kind)) continue;
        FindingSink sink(rule, prices, denies, found, suppressed);
        try {
          rule.info->check(w, rule.ctx, sink);
        } catch (const std::exception& e) {
          if (internal_errors) {
            found.push_back(ToolFinding("SM001", "internal-error", Severity::kError, w.path, w.range.begin,
                                        "internal error while checking " + std::string(rule.info->id) + " on " +
                                            w.label + ": " + e.what(),
                                        w.format));
            found.back().value = rule.info->id;
          }
        }
      }
    }
    // Comment suppressions.
    SuppressionIndex index(FindIgnoreDirectives(pf.comments));
    std::vector<Finding> kept;
    for (Finding& f : found) {
      if (index.Suppresses(f)) {
        ++suppressed;
      } else {
        kept.push_back(std::move(f));
      }
    }
    for (const IgnoreDirective& d : index.directives()) {
      for (size_t i = 0; i < d.ids.size(); ++i) {
        const std::string& id = d.ids[i];
        SourcePos pos{d.line, d.column};
        if (!rules.Known(id)) {
          if (rules.Enabled("SM002")) {
            kept.push_back(ToolFinding("SM002", "suppression-unknown-rule", rules.SeverityOf("SM002"),
                                       pf.result.path, pos, "sagelint:ignore names an unknown rule ID '" + id + "'",
                                       pf.result.format));
            kept.back().value = id;
          }
        } else if (rules.report_unused_ignores() && !d.used[i] && rules.Enabled("SM003")) {
          kept.push_back(ToolFinding("SM003", "unused-suppression", rules.SeverityOf("SM003"),
                                     pf.result.path, pos, "sagelint:ignore=" + id + " suppresses nothing here",
                                     pf.result.format));
          kept.back().value = id;
        }
      }
    }
    out.suppressed += suppressed;
    std::string root_path = pf.result.root_path.empty() ? RootRelative(pf.result.path, root) : pf.result.root_path;
    for (Finding& f : kept) {
      f.root_path = root_path;
      out.findings.push_back(std::move(f));
    }
  }
  std::sort(out.findings.begin(), out.findings.end(), FindingLess);
  AssignFingerprints(out.findings);
  if (!keep_workloads) return out;
  size_t kept_workloads = 0;
  for (const ParsedFile& pf : files) {
    if (!pf.result.context) kept_workloads += pf.result.workloads.size();
  }
  out.workloads.reserve(kept_workloads);
  for (ParsedFile& pf : files) {
    if (pf.result.context) continue;
    for (Workload& w : pf.result.workloads) {
      if (!w.stand_in) out.workloads.push_back(std::move(w));
    }
    pf.result.workloads = {};  // the moved-from shells, freed as they go
  }
  std::stable_sort(out.workloads.begin(), out.workloads.end(), [](const Workload& a, const Workload& b) {
    return std::tie(a.path, a.range.begin.line, a.range.begin.column) <
           std::tie(b.path, b.range.begin.line, b.range.begin.column);
  });
  return out;
}


}  // namespace sagelint
