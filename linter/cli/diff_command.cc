// `sagelint diff --base REF`: what a change adds against a git revision.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/cache/store.h"
#include "linter/cli/commands.h"
#include "linter/cli/config.h"
#include "linter/cli/gate_config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/prices.h"
#include "linter/engine/baseline.h"
#include "linter/engine/diff.h"
#include "linter/engine/git.h"
#include "linter/report/emit.h"

namespace sagelint::cli {
namespace {

// The baseline at `path` (none if empty) read from `files` into `gate`. One
// that does not exist hides nothing; at the base, `notes` says so.
void LoadGateBaseline(const CliOptions& o, const FileSource& files, std::vector<std::string>* notes,
                      const std::string& path, GateConfig* gate) {
  if (path.empty()) return;
  gate->baseline_path = path;
  std::string flag = o.baseline.empty() ? "baseline: " : "--baseline ";
  if (!files.Exists(path)) {
    if (notes) notes->push_back(flag + path + " does not exist there; no finding is hidden by it");
    gate->baseline = Baseline{};
    return;
  }
  std::string why;
  if (!files.Read(path, kMaxBaselineBytes, &gate->baseline_text, &why)) {
    throw UsageError{flag + path + ": cannot read the baseline: " + why};
  }
  Baseline b;
  if (!ParseBaseline(gate->baseline_text, path, &b, &why)) throw UsageError{flag + why};
  gate->baseline = std::move(b);
}

}  // namespace

// `sagelint diff --base REF [PATH ...]` (README "Adopting it"): the work tree against the
// same paths at REF, read from git's object store into memory (nothing of
// the base tree is written anywhere).
int CommandDiff(const CliOptions& o) {
  namespace fs = std::filesystem;
  if (o.base.empty()) throw UsageError{"diff needs --base REF (a branch, tag or commit to compare with)"};
  if (!o.write_baseline.empty()) throw UsageError{"diff does not write baselines; use scan --write-baseline"};
  std::vector<std::string> paths = o.args.empty() ? std::vector<std::string>{"."} : o.args;
  std::error_code ec;
  fs::path first = fs::absolute(paths.front(), ec).lexically_normal();
  if (!fs::exists(first, ec)) throw UsageError{paths.front() + ": no such file or directory"};
  auto top = GitTopLevel(fs::is_directory(first, ec) ? first.string() : first.parent_path().string());
  if (!top) throw UsageError{"diff: " + paths.front() + " is not inside a git work tree"};
  std::string top_dir = fs::weakly_canonical(*top, ec).string();
  auto inside_top = [&](const std::string& p) -> std::optional<std::string> {
    return PathBelow(fs::weakly_canonical(fs::absolute(p, ec), ec).string(), top_dir);
  };
  std::vector<std::string> rels;
  for (const std::string& p : paths) {
    auto rel = inside_top(p);
    if (!rel) throw UsageError{"diff: " + p + " is outside the git work tree " + top_dir};
    rels.push_back(*rel);
  }
  std::string error;
  auto commit = GitResolveCommit(top_dir, o.base, &error);
  if (!commit) throw UsageError{"--base: " + error};

  // The base revision's tree, presented at the work tree's own path.
  auto tree = GitTreeFiles::Open(top_dir, *commit, top_dir, GitTreeLimits{}, &error);
  if (!tree) throw UsageError{"diff: cannot read " + o.base + " from git: " + error};
  // Files the command line names outside the work tree are the same on both sides.
  for (const std::vector<std::string>* list : {&o.var_files, &o.param_files}) {
    for (const std::string& f : *list) {
      if (!inside_top(f)) tree->AllowDiskFile(fs::absolute(f, ec).string());
    }
  }
  if (!o.config_path.empty() && !inside_top(o.config_path)) tree->AllowDiskFile(fs::absolute(o.config_path, ec));

  // The gate's configuration: the base revision's for both sides (so that a
  // change cannot switch its own gate off), or each side's own.
  bool from_base = o.config_from == "base";
  std::vector<std::string> notes;
  FlagInputs flags;  // the same on both sides: read once
  SideContext base_side;
  base_side.flags = &flags;
  base_side.files = tree.get();
  base_side.config_files = tree.get();
  base_side.config_start = top_dir;  // the scan root: the configuration at the top of the work tree
  base_side.notes = &notes;
  SideContext head_side;
  head_side.flags = &flags;
  if (from_base) {
    head_side.config_files = tree.get();
    head_side.config_start = base_side.config_start;
  }
  // The baseline: --baseline, else the configuration's `baseline:` (relative to
  // its directory); read where the configuration in force is, and applied to both sides.
  auto load_baseline = [&](const FileSource& files, const std::string& path, GateConfig* gate) {
    LoadGateBaseline(o, files, &files == tree.get() ? &notes : nullptr, path, gate);
  };
  if (!o.baseline.empty() && !inside_top(o.baseline)) tree->AllowDiskFile(fs::absolute(o.baseline, ec));

  // The work tree.
  std::optional<PriceTable> prices;
  ScanOptions head_opts = BuildScanOptions(o, &prices, head_side);
  head_opts.paths = paths;
  GateConfig in_force;
  load_baseline(from_base ? static_cast<const FileSource&>(*tree) : DiskFiles(),
                BaselinePathFor(o, head_opts.config, *head_side.config_files), &in_force);
  Baseline baseline = in_force.baseline.value_or(Baseline{});
  ScanResult head = Scan(head_opts);
  if (ReportMissing(head)) return 2;
  ApplyBaseline(baseline, &head);

  // The base: the same paths, where they exist there.
  std::vector<std::string> base_paths;
  for (const std::string& rel : rels) {
    std::string p = (fs::path(top_dir) / rel).lexically_normal().string();
    while (p.size() > 1 && p.back() == '/') p.pop_back();
    if (tree->Exists(p)) base_paths.push_back(p);
  }
  std::optional<PriceTable> base_prices;
  ScanOptions base_opts = BuildScanOptions(o, &base_prices, base_side);
  ScanResult base;
  if (!base_paths.empty()) {
    base_opts.paths = base_paths;
    base = Scan(base_opts);
    ApplyBaseline(baseline, &base);
  }

  // How the change edits the gate itself (SM006): the work tree's
  // configuration, policies and baseline against the base's.
  std::vector<Finding> gate_changes;
  if (from_base) {
    GateConfig& base_gate = in_force;
    base_gate.config = base_opts.config;
    base_gate.policies = base_opts.policies;
    GateConfig head_gate;
    head_gate.config = LoadConfigFor(o, DiskFiles(), base_side.config_start);
    head_gate.policies = LoadConfigPolicies(head_gate.config);
    // The work tree's own baseline (a deleted or re-pointed one hides nothing there).
    load_baseline(DiskFiles(), BaselinePathFor(o, head_gate.config, DiskFiles()), &head_gate);
    gate_changes = GateConfigChanges(base_gate, head_gate, top_dir);
  }
  for (const std::string& note : tree->Notes()) notes.push_back(note);
  // What the base scan could not read is told once; objects git could not give are in the notes already.
  // What the work tree's scan also said (a loop it does not expand) is not repeated.
  std::set<std::string> said(head.skipped.begin(), head.skipped.end());
  for (const std::string& s : base.skipped) {
    if (!said.count(s) && s.find("git cannot read this object") == std::string::npos) notes.push_back(s);
  }
  DiffSides sides{top_dir, top_dir, {}, &DiskFiles(), tree.get()};
  if (!GitRenames(top_dir, *commit, rels, &sides.renames, &error)) {
    sides.renames.clear();
    notes.push_back("git's rename detection failed (" + error.substr(0, error.find('\n')) +
                    "): a renamed file shows as removed and added");
  }
  DiffResult diff = CompareScans(std::move(head), std::move(base), sides,
                                 head_opts.prices ? *head_opts.prices : PriceTable::BuiltIn());
  diff.base_ref = o.base;
  diff.base_commit = *commit;
  for (Finding& f : gate_changes) {
    diff.head.findings.push_back(f);
    diff.added.push_back(std::move(f));
  }
  std::stable_sort(diff.head.findings.begin(), diff.head.findings.end(), FindingLess);
  std::stable_sort(diff.added.begin(), diff.added.end(), FindingLess);
  diff.notes = std::move(notes);
  for (const std::string& note : diff.notes) std::cerr << "sagelint: note: at the base: " << Printable(note) << "\n";

  // The gate's fail_on: the base's under --config-from base (head_opts has its configuration then).
  FailOn level = o.fail_on.value_or(head_opts.config.fail_on.value_or(FailOn::kWarning));
  if (!EmitOutputs(o, level, [&](std::ostream& out, const Output& output, const EmitOptions& eo) {
        EmitDiff(out, output.format, diff, eo);
      })) {
    return 2;
  }
  for (const Finding& f : diff.added) {
    if (FailsOn(level, f.severity)) return 1;
  }
  return 0;
}

}  // namespace sagelint::cli
