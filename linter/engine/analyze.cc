#include "linter/engine/analyze.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <map>
#include <set>
#include <tuple>

#include "linter/cost/datasets.h"
#include "linter/cost/prices.h"
#include "linter/engine/fingerprint.h"
#include "linter/engine/front_ends.h"
#include "linter/engine/group.h"
#include "linter/engine/link.h"
#include "linter/engine/rule_set.h"
#include "linter/engine/scan.h"
#include "linter/engine/suppress.h"
#include "linter/iam/iam_policy.h"
#include "linter/model/catalog.h"
#include "linter/model/rule.h"

namespace sagelint {
namespace {

std::string JoinConditions(const std::string& a, const std::string& b) {
  if (a.empty()) return b;
  if (b.empty() || a == b) return a;
  return a + " and " + b;
}

// SM501 sees one statement at a time, but a Deny elsewhere in the same policy
// can already restrict the instance types an Allow grants.
using DenyIndex = Analyzer::DenyIndex;

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
    f.severity = r.at_most ? std::min(rule_.severity, *r.at_most) : rule_.severity;
    f.path = w.path;
    f.format = w.format;
    f.range = r.at.valid() ? r.at : w.range;
    f.resource_range = w.range;
    f.resource = w.label;
    f.condition = JoinConditions(w.condition, r.condition);
    f.member_of = w.member_of;
    f.value = std::move(r.value);
    f.message = std::move(r.message);
    f.suggestion = std::move(r.suggestion);
    // The condition key comes from one table, so every finding names only keys that exist for the action.
    f.iam = r.iam ? std::move(r.iam) : IamHintFor(rule_.info->id, w.kind);
    if (r.cost && !r.cost->instance_type.empty()) f.cost = EstimateCost(*r.cost, w.kind, prices_);
    if (f.cost && r.cost->saving_is_deletion) CountDeletionAsSaving(&*f.cost);
    if (r.fix) {  // a CDK app's literals at its construct calls too (docs/cdk.md "Fixes")
      f.fix = std::move(r.fix);
      for (FixChange& c : f.fix->changes) {
        if (c.path.empty()) c.path = w.path;
      }
    } else {
      f.fix_unavailable = std::move(r.fix_unavailable);
    }
    out_.push_back(std::move(f));
  }

 private:
  const ActiveRule& rule_;
  const PriceTable& prices_;
  const DenyIndex& denies_;
  std::vector<Finding>& out_;
  int& suppressed_;
};

// A finding the engine reports itself: a tool rule's (named by its row) or a
// custom policy's (named by its id).
Finding ToolFinding(std::string_view id, Severity sev, const std::string& path, SourcePos pos, std::string message,
                    Format format) {
  Finding f;
  f.rule = id;
  const RuleInfo* info = FindRule(id);
  f.name = info ? info->name : id;
  f.severity = sev;
  f.path = path;
  f.format = format;
  f.range.begin = pos.valid() ? pos : SourcePos{1, 1};
  f.range.end = f.range.begin;
  f.message = std::move(message);
  return f;
}

// Calls `fn` with each `ml.*` type of `w` the catalog does not know (SM004).
template <typename Fn>
void ForEachUnknownInstanceType(const Workload& w, Fn&& fn) {
  auto check = [&](const Val& v) {
    v.ForEach([&](const Val& t) {
      if (!t.known() || t.text.rfind("ml.", 0) != 0 || IsKnownInstanceType(t.text)) return;
      if (w.stand_in && !t.range.valid()) return;
      fn(t);
    });
  };
  check(w.instance_type);
  for (const InstanceGroup& g : w.instance_groups) check(g.instance_type);
  for (const StudioApp& app : w.apps) check(app.instance_type);
}

// An `ml.*` type the catalog does not know is reported once per scan rather
// than guessed at: every instance rule skips it.
Finding UnknownTypeFinding(const Workload& w, const Val& t, const RuleSet& rules) {
  Finding f = ToolFinding(
      tool_rule::kUnknownInstanceType, rules.SeverityOf(tool_rule::kUnknownInstanceType), w.path,
      t.range.valid() ? t.range.begin : w.range.begin,
      w.label + " uses " + t.text + ", an instance type sagelint does not know: no instance rule checked it", w.format);
  f.value = t.text;
  f.range = t.range.valid() ? t.range : w.range;
  f.resource = w.label;
  f.resource_range = w.range;
  f.suggestion =
      "check the spelling against the SageMaker instance types; if it is new, report it so the "
      "catalog can learn it";
  return f;
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
      pf.result.errors.push_back(
          {"sagelint:dataset-size='" + size + "' is not a size such as 2TB or 500GB", {line, column}});
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

void KeepComments(ParsedFile& pf, std::string_view text, CommentSyntax syntax) {
  pf.comments = SagelintComments(text, syntax);
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
    Finding f = ToolFinding(p.id, active.severity, w.path, at.begin, w.label + ": " + p.message, w.format);
    f.range = at;
    f.resource = w.label;
    f.resource_range = w.range;
    f.condition = w.condition;
    f.member_of = w.member_of;
    if (w.instance_type.known()) {
      CostRequest c;
      c.instance_type = w.instance_type.text;
      c.count = w.instance_count.number().value_or(1);
      c.always_on = AlwaysOn(w);
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

namespace {

// A file that failed to parse gives only its SM000 unless its front end keeps
// partial results (FrontEnd::keeps_partial_results): what was extracted from a
// broken template or HCL file may be partial, so no rule judges it.
// (Decided before the dataset annotations are read: their errors are not the parser's.)
bool Unparsed(const ParsedFile& pf) {
  return !pf.result.errors.empty() && !FrontEndOf(pf.result.format).keeps_partial_results;
}

// Dataset annotations applied and each workload's path and scope filled in.
void Prepare(ParsedFile& pf, std::vector<Workload*>& all) {
  ApplyDatasetAnnotations(pf);
  for (Workload& w : pf.result.workloads) {
    if (w.scope.empty()) w.scope = w.path.empty() ? pf.result.path : w.path;
    if (w.path.empty()) w.path = pf.result.path;
    all.push_back(&w);
  }
}

}  // namespace

// The findings of one workload of a pending file.
struct PendingWorkload {
  // SM004 findings, each reported only if its type is first used here in the scan.
  std::vector<std::pair<std::string, PackedFinding>> unknown_types;
  // The rules' and policies' findings for each value a link can give the
  // workload (index: LinkValue), or one entry if nothing links to it; most
  // are the same whatever the link says, so each is held once in `findings`
  // and the alternatives list positions in it. A notebook endpoint whose
  // deletion another notebook of its workflow may decide has its
  // alternatives in pairs: as its own notebook leaves it, and deleted there.
  std::vector<PackedFinding> findings;
  std::vector<std::vector<uint32_t>> found;
  std::vector<int> suppressed;
  enum class Link { kNone, kAutoscaling, kIdleStop } link = Link::kNone;
  bool workflow_delete = false;
  // What the links look up: an endpoint variant's keys, completeness and
  // scope (its workflow, for a notebook), or a notebook instance's references.
  std::vector<std::string> keys;
  bool complete = true;
  std::string scope;

  // Adds one alternative.
  void AddFound(const std::vector<Finding>& list, int suppressed_here, FindingPool& pool) {
    std::vector<uint32_t>& positions = found.emplace_back();
    for (const Finding& finding : list) {
      PackedFinding f = pool.Pack(finding);
      size_t at = std::find(findings.begin(), findings.end(), f) - findings.begin();
      if (at == findings.size()) findings.push_back(f);
      positions.push_back(static_cast<uint32_t>(at));
    }
    suppressed.push_back(suppressed_here);
  }
  size_t Alternative(size_t link_value, bool deleted_elsewhere) const {
    return workflow_delete ? link_value * 2 + (deleted_elsewhere ? 1 : 0) : link_value;
  }
  bool Same(size_t a, size_t b) const { return found[a] == found[b] && suppressed[a] == suppressed[b]; }
  // Keeps the alternatives at `keep`, in order.
  void Keep(const std::vector<size_t>& keep) {
    std::vector<std::vector<uint32_t>> f;
    std::vector<int> s;
    for (size_t i : keep) {
      f.push_back(std::move(found[i]));
      s.push_back(suppressed[i]);
    }
    found = std::move(f);
    suppressed = std::move(s);
  }

  // Forgets each link whose every value finds the same.
  void DropUndecidingLink() {
    if (workflow_delete) {
      bool decides = false;
      for (size_t i = 0; i + 1 < found.size(); i += 2) decides = decides || !Same(i, i + 1);
      if (!decides) {
        std::vector<size_t> keep;
        for (size_t i = 0; i < found.size(); i += 2) keep.push_back(i);
        Keep(keep);
        workflow_delete = false;
      }
    }
    if (link != Link::kNone) {
      size_t per_value = workflow_delete ? 2 : 1;
      bool decides = false;
      for (size_t i = per_value; i < found.size(); ++i) decides = decides || !Same(i, i % per_value);
      if (!decides) {
        std::vector<size_t> keep;
        for (size_t i = 0; i < per_value; ++i) keep.push_back(i);
        Keep(keep);
        link = Link::kNone;
      }
    }
    if (link == Link::kNone && !workflow_delete) {
      keys = {};
      scope = {};
    }
  }
  bool Waits() const { return link != Link::kNone || workflow_delete; }
  // Gives nothing to its file, whatever the rest of the scan says.
  bool Empty() const { return unknown_types.empty() && !Waits() && found[0].empty() && suppressed[0] == 0; }
};

struct PendingFile {
  std::string path, root_path;
  Format format = Format::kCloudFormation;
  std::vector<Comment> comments;
  std::vector<PackedFinding> head;  // SM000, SM007, SM008
  std::vector<PendingWorkload> workloads;
  bool done = false;  // its findings are final: only `links` is still needed
  LinkIndex links;    // what its scalable targets and lifecycle scripts say
};

struct Analyzer::FileFacts {
  const std::string& path;
  Format format;
  const std::string& root_path;
  const std::vector<Comment>& comments;
};

Analyzer::Analyzer(const RuleSet& rules, const PriceTable& prices, std::string root, bool keep_workloads)
    : rules_(rules), prices_(prices), root_(std::move(root)), keep_workloads_(keep_workloads), checks_(rules.checks()) {
  for (ActiveRule& rule : checks_) rule.ctx.prices = &prices_;
}

FileOutcome Analyzer::Start(ParsedFile pf) const {
  FileOutcome out;
  if (keep_workloads_ || pf.result.context || pf.result.format == Format::kTerraform) {
    pf.result.workloads.shrink_to_fit();  // kept until Finish: no spare capacity (a workload is ~5 KB)
    out.parsed = std::move(pf);
    return out;
  }
  bool unparsed = Unparsed(pf);
  std::vector<Workload*> all;
  Prepare(pf, all);
  const DenyIndex denies = IndexDenies(all);  // a policy lies in one file
  auto p = std::make_shared<PendingFile>();
  for (const Finding& f : ParseErrorFindings(pf)) p->head.push_back(pool_.Pack(f));
  bool waits = false;
  p->links.AddWorkflowDeletes(pf.result.path, pf.result.workflow_deletes);
  for (Workload& w : pf.result.workloads) {
    DeriveAttributes(w);
    p->links.Add(w);
    if (unparsed) continue;
    PendingWorkload pw;
    if (rules_.Enabled(tool_rule::kUnknownInstanceType)) {
      ForEachUnknownInstanceType(w, [&](const Val& t) {
        pw.unknown_types.emplace_back(t.text, pool_.Pack(UnknownTypeFinding(w, t, rules_)));
      });
    }
    Val* linked = nullptr;
    SourceRange at;
    if (w.kind == WorkloadKind::kEndpointVariant) {
      pw.link = PendingWorkload::Link::kAutoscaling;
      pw.keys = w.keys;
      pw.complete = w.complete;
      pw.scope = w.scope;
      linked = &w.autoscaling;
      at = w.range;
    } else if (NotebookLinked(w)) {
      pw.link = PendingWorkload::Link::kIdleStop;
      pw.keys = w.refs;
      linked = &w.idle_stop;
      at = w.lifecycle_config.range;
    }
    // Another notebook of the workflow may delete a notebook's endpoint.
    pw.workflow_delete = WorkflowDeleteLinked(w);
    const Val own_deleted = w.deleted;
    const Val deleted_elsewhere = pw.workflow_delete ? WorkflowDeleted(w) : Val();
    for (LinkValue v : kLinkValues) {
      if (linked) *linked = LinkVal(v, at);
      for (bool elsewhere : {false, true}) {
        if (elsewhere && !pw.workflow_delete) break;
        w.deleted = elsewhere ? deleted_elsewhere : own_deleted;
        std::vector<Finding> found;
        int suppressed = 0;
        CheckWorkload(w, denies, found, suppressed);
        pw.AddFound(found, suppressed, pool_);
      }
      if (!linked) break;
    }
    w.deleted = own_deleted;
    pw.DropUndecidingLink();
    if (pw.Empty()) continue;
    waits = waits || pw.Waits() || !pw.unknown_types.empty();
    p->workloads.push_back(std::move(pw));
  }
  p->path = std::move(pf.result.path);
  p->root_path = std::move(pf.result.root_path);
  p->format = pf.result.format;
  p->comments = std::move(pf.comments);
  if (waits) {
    out.pending = std::move(p);
    return out;
  }
  // Nothing here depends on the rest of the scan: no link to look up, no SM004 to place.
  std::set<std::string> no_types;
  Resolve(*p, LinkIndex{}, no_types, out.analysis);
  if (!p->links.empty()) {
    // Its scalable targets or lifecycle scripts still count for other files.
    p->workloads = {};
    p->head = {};
    p->comments = {};
    p->done = true;
    out.pending = std::move(p);
  }
  return out;
}

std::vector<Finding> Analyzer::ParseErrorFindings(const ParsedFile& pf) const {
  std::vector<Finding> found;
  auto add = [&](std::string_view id, const ParseError& e) {
    if (!rules_.Enabled(id)) return;
    found.push_back(ToolFinding(id, rules_.SeverityOf(id), pf.result.path, e.pos, e.message, pf.result.format));
    found.back().value = e.message;
    found.back().range.cell = e.cell;
    found.back().range.cell_line = e.cell_line;
  };
  for (const ParseError& e : pf.result.errors) add(tool_rule::kParseError, e);
  // A bound that stopped the evaluation early is said, never silent (SM007).
  for (const ParseError& e : pf.result.bounds) add(tool_rule::kEvaluationIncomplete, e);
  // What could not be read is said too, and can fail the gate (SM008).
  for (const ParseError& e : pf.result.unread) add(tool_rule::kFileNotScanned, e);
  return found;
}

void Analyzer::CheckWorkload(const Workload& w, const DenyIndex& denies, std::vector<Finding>& found,
                             int& suppressed) const {
  CheckPolicies(w, rules_, prices_, found, suppressed);
  bool internal_errors = rules_.Enabled(tool_rule::kInternalError);
  for (const ActiveRule& rule : checks_) {
    if (!rule.AppliesTo(w.kind)) continue;
    FindingSink sink(rule, prices_, denies, found, suppressed);
    try {
      rule.info->check(w, rule.ctx, sink);
    } catch (const std::exception& e) {
      if (internal_errors) {
        found.push_back(ToolFinding(
            tool_rule::kInternalError, Severity::kError, w.path, w.range.begin,
            "internal error while checking " + std::string(rule.info->id) + " on " + w.label + ": " + e.what(),
            w.format));
        found.back().value = rule.info->id;
      }
    }
  }
}

void Analyzer::Check(ParsedFile& pf, bool unparsed, const DenyIndex& denies, std::set<std::string>& seen_types,
                     FileAnalysis& out) const {
  std::vector<Finding> found = ParseErrorFindings(pf);
  int suppressed = 0;
  bool unknown_types = rules_.Enabled(tool_rule::kUnknownInstanceType);
  for (const Workload& w : pf.result.workloads) {
    if (unparsed) break;
    if (unknown_types) {
      ForEachUnknownInstanceType(w, [&](const Val& t) {
        if (seen_types.insert(t.text).second) found.push_back(UnknownTypeFinding(w, t, rules_));
      });
    }
    CheckWorkload(w, denies, found, suppressed);
  }
  Finalize({pf.result.path, pf.result.format, pf.result.root_path, pf.comments}, std::move(found), suppressed, out);
}

void Analyzer::Resolve(const PendingFile& p, const LinkIndex& links, std::set<std::string>& seen_types,
                       FileAnalysis& out) const {
  std::vector<Finding> found;
  for (const PackedFinding& f : p.head) found.push_back(FindingPool::Unpack(f));
  int suppressed = 0;
  for (const PendingWorkload& pw : p.workloads) {
    for (const auto& [type, f] : pw.unknown_types) {
      if (seen_types.insert(type).second) found.push_back(FindingPool::Unpack(f));
    }
    LinkValue v = LinkValue::kTrue;  // index 0: the only entry when nothing links
    if (pw.link == PendingWorkload::Link::kAutoscaling) v = links.Autoscaling(pw.keys, pw.complete, pw.scope);
    if (pw.link == PendingWorkload::Link::kIdleStop) v = links.IdleStop(pw.keys);
    bool elsewhere = pw.workflow_delete && links.WorkflowDeletes(pw.keys, pw.scope, p.path) == LinkValue::kTrue;
    size_t alternative = pw.Alternative(static_cast<size_t>(v), elsewhere);
    for (uint32_t i : pw.found[alternative]) found.push_back(FindingPool::Unpack(pw.findings[i]));
    suppressed += pw.suppressed[alternative];
  }
  Finalize({p.path, p.format, p.root_path, p.comments}, std::move(found), suppressed, out);
}

void Analyzer::Finalize(const FileFacts& file, std::vector<Finding> found, int suppressed, FileAnalysis& out) const {
  const RuleSet& rules = rules_;
  SuppressionIndex index(FindIgnoreDirectives(file.comments));
  std::vector<Finding> kept;
  // One construct, one finding per rule (README "Usage"): its instances' or branches' identical findings merge first,
  // so a comment on the construct suppresses the one finding.
  for (Finding& f : GroupConstructFindings(std::move(found))) {
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
        if (rules.Enabled(tool_rule::kUnknownSuppressionRule)) {
          kept.push_back(ToolFinding(tool_rule::kUnknownSuppressionRule,
                                     rules.SeverityOf(tool_rule::kUnknownSuppressionRule), file.path, pos,
                                     "sagelint:ignore names an unknown rule ID '" + id + "'", file.format));
          kept.back().value = id;
        }
      } else if (rules.report_unused_ignores() && !d.used[i] && rules.Enabled(tool_rule::kUnusedSuppression)) {
        kept.push_back(ToolFinding(tool_rule::kUnusedSuppression, rules.SeverityOf(tool_rule::kUnusedSuppression),
                                   file.path, pos, "sagelint:ignore=" + id + " suppresses nothing here", file.format));
        kept.back().value = id;
      }
    }
  }
  out.suppressed += suppressed;
  std::string root_path = file.root_path.empty() ? RootRelative(file.path, root_) : file.root_path;
  for (Finding& f : kept) {
    f.root_path = root_path;
    out.findings.push_back(pool_.Pack(f));
  }
}

void Analyzer::KeepWorkloads(ParsedFile& pf, std::vector<Workload*>& kept) const {
  if (!keep_workloads_ || pf.result.context) return;
  for (Workload& w : pf.result.workloads) {
    if (!w.stand_in) kept.push_back(&w);
  }
}

Analysis Analyzer::Finish(std::vector<FileOutcome> files) const {
  // The files that wait whole, in scan order.
  std::vector<ParsedFile> parsed;
  std::vector<size_t> slot;  // each one's place in `files`
  for (size_t i = 0; i < files.size(); ++i) {
    if (!files[i].parsed) continue;
    parsed.push_back(std::move(*files[i].parsed));
    files[i].parsed.reset();
    slot.push_back(i);
  }
  DropStandaloneModuleCopies(parsed);
  std::vector<bool> unparsed;
  for (const ParsedFile& pf : parsed) unparsed.push_back(Unparsed(pf));
  std::vector<Workload*> all;
  for (ParsedFile& pf : parsed) Prepare(pf, all);

  // What the scan's scalable targets and lifecycle scripts say, in scan order.
  LinkIndex links;
  for (size_t i = 0, k = 0; i < files.size(); ++i) {
    if (k < slot.size() && slot[k] == i) {
      links.AddWorkflowDeletes(parsed[k].result.path, parsed[k].result.workflow_deletes);
      for (Workload& w : parsed[k].result.workloads) {
        DeriveAttributes(w);
        links.Add(w);
      }
      ++k;
    } else if (files[i].pending) {
      links.Merge(files[i].pending->links);
    }
  }
  for (Workload* w : all) ApplyLinks(links, *w);

  const DenyIndex denies = IndexDenies(all);
  std::set<std::string> seen_types;
  for (size_t i = 0, k = 0; i < files.size(); ++i) {
    if (k < slot.size() && slot[k] == i) {
      if (!parsed[k].result.context) Check(parsed[k], unparsed[k], denies, seen_types, files[i].analysis);
      ++k;
    } else if (files[i].pending && !files[i].pending->done) {
      Resolve(*files[i].pending, links, seen_types, files[i].analysis);
    }
    files[i].pending.reset();
  }

  // Merged in scan order, as if every file had waited: ties in the sort keep that order.
  Analysis out;
  size_t findings = 0;
  for (const FileOutcome& f : files) findings += f.analysis.findings.size();
  out.findings.reserve(findings);
  // Workloads sorted by position through pointers, then moved once (from
  // where their files keep them): a Workload is large to move.
  std::vector<Workload*> order;
  for (size_t i = 0, k = 0; i < files.size(); ++i) {
    for (Workload& w : files[i].analysis.workloads) order.push_back(&w);
    if (k < slot.size() && slot[k] == i) KeepWorkloads(parsed[k++], order);
  }
  out.workloads.reserve(order.size());
  std::stable_sort(order.begin(), order.end(), [](const Workload* a, const Workload* b) {
    return std::tie(a->path, a->range.begin.line, a->range.begin.column) <
           std::tie(b->path, b->range.begin.line, b->range.begin.column);
  });
  for (Workload* w : order) out.workloads.push_back(std::move(*w));
  order = {};
  parsed = {};
  for (FileOutcome& f : files) {
    out.suppressed += f.analysis.suppressed;
    for (const PackedFinding& finding : f.analysis.findings) out.findings.push_back(FindingPool::Unpack(finding));
    f.analysis = {};
  }
  std::sort(out.findings.begin(), out.findings.end(), FindingLess);
  out.findings = MergeModuleCalls(std::move(out.findings));
  AssignFingerprints(out.findings);
  return out;
}

}  // namespace sagelint
