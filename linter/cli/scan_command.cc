// `sagelint scan` (the default command): findings, baselines, fixes and statistics.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/prices.h"
#include "linter/engine/baseline.h"
#include "linter/engine/fixes.h"
#include "linter/engine/parse_cache.h"
#include "linter/merge/identity.h"
#include "linter/report/emit.h"

namespace sagelint::cli {
namespace {

void PrintTiming(const ScanResult& r, const ParseCache* cache) {
  std::fprintf(stderr, "%-10s %8s %8s %10s %8s\n", "front end", "files", "parsed", "MB", "cpu s");
  for (const auto& [name, s] : r.front_ends) {
    std::fprintf(stderr, "%-10s %8d %8d %10.1f %8.3f\n", name.c_str(), s.files, s.parsed, s.bytes / 1e6, s.cpu_seconds);
  }
  std::fprintf(stderr, "%-10s %8s %8s %10s %8.3f\n", "analysis", "", "", "", r.analysis_cpu_seconds);
  // Units taken from the cache, looked up but parsed, and kept (README "Large repositories").
  if (cache)
    std::fprintf(stderr,
                 "cache: %zu hits, %zu misses, %zu stored; %zu known to give nothing; %zu files unchanged by stat, %zu "
                 "read again\n",
                 cache->hits(), cache->misses(), cache->stored(), cache->empty_hits(), cache->known().trusted(),
                 cache->known().reread());
}
// --statistics, after the report: on standard output when the report there is
// for people (text, concise) or there is none; else on standard error, so that
// a machine format on standard output stays what it is.
void PrintStatistics(const CliOptions& o, const ScanResult& result) {
  bool machine_on_stdout = std::any_of(o.outputs.begin(), o.outputs.end(), [](const Output& out) {
    return out.file.empty() && out.format != "text" && out.format != "concise";
  });
  std::ostream& to = machine_on_stdout ? std::cerr : std::cout;
  bool after_report = o.outputs.empty() || std::any_of(o.outputs.begin(), o.outputs.end(),
                                                       [](const Output& out) { return out.file.empty(); });
  if (after_report && !machine_on_stdout) to << "\n";
  EmitStatistics(to, result);
  to.flush();
}
// --fix and --diff (README "Fixes"): the fixes of the findings that `result` keeps
// (baselined ones are accepted, not fixed). --diff prints them and gives the
// exit status; --fix writes them and returns nothing, the caller then reports
// what a new scan still finds.
std::optional<int> ApplyFixes(const CliOptions& o, const ScanResult& result) {
  FixPlan plan = PlanFixes(result.findings, o.unsafe_fixes, FixRoots(o.args));
  for (const std::string& note : plan.notes) std::cerr << "sagelint: note: " << Printable(note) << "\n";
  auto count = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  std::string more;
  if (plan.unsafe_skipped > 0) {
    more = " (" + count(plan.unsafe_skipped, "more fix", "more fixes") + " with --unsafe-fixes)";
  }
  if (o.fix_diff) {
    std::string diff;
    for (const FileFix& f : plan.files) diff += UnifiedDiff(f.path, f.before, f.after);
    WriteOutput("", diff);
    if (!o.quiet) {
      std::cerr << "sagelint: " << count(plan.fixes, "fix", "fixes") << " in "
                << count(static_cast<int>(plan.files.size()), "file", "files") << more << "\n";
    }
    return plan.fixes > 0 ? 1 : 0;
  }
  // A file that changed since the plan, or may not be replaced, is left with a note.
  int files = 0;
  for (const FileFix& f : plan.files) {
    std::string why;
    WriteOutcome written = WriteFix(f, &why);
    if (written == WriteOutcome::kFailed) throw UsageError{"cannot write " + f.path + ": " + why};
    if (written == WriteOutcome::kLeft) {
      std::cerr << "sagelint: note: " << Printable(f.path + ": " + why) << "\n";
      plan.fixes -= f.fixes;
      continue;
    }
    ++files;
  }
  if (!o.quiet) {
    std::cerr << "sagelint: fixed " << count(plan.fixes, "finding", "findings") << " in "
              << count(files, "file", "files") << more << "\n";
  }
  return std::nullopt;
}
// Whose repository a JSON report describes: the scan root its paths share,
// else (files of several roots named) the current directory's.
std::string ReportRoot(const std::vector<std::string>& paths) {
  std::set<std::string> roots;
  for (const std::string& p : paths) roots.insert(ScanRootOf(p));
  return ScanRootOf(roots.size() == 1 ? *roots.begin() : ".");
}

}  // namespace

int CommandScan(const CliOptions& o) {
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  so.keep_workloads = false;  // findings are all a scan reports
  so.measure_cpu = o.timing;
  // A progress line on a terminal, for long scans; it is erased when done.
  bool progress = !o.quiet && ::isatty(STDERR_FILENO) == 1;
  if (progress) {
    so.progress = [](size_t done, size_t total) {
      if (total >= 200 && (done % 50 == 0 || done == total)) std::fprintf(stderr, "\rscanning %zu/%zu", done, total);
    };
  }
  // --baseline, else the configuration's `baseline:` (relative to the configuration's directory).
  std::string baseline_path = BaselinePathFor(o, so.config, DiskFiles());
  std::string baseline_flag = o.baseline.empty() ? DisplayPath(so.config.path) + ": baseline" : "--baseline";
  Baseline baseline;
  std::string error;
  // Writing a baseline records the findings as they are: an existing one is not applied first.
  bool writing = !o.write_baseline.empty();
  if (!writing && !baseline_path.empty() && !LoadBaseline(baseline_path, &baseline, &error)) {
    throw UsageError{baseline_flag + ": " + error};
  }
  // The JSON report names its repository and revision and lists the workloads (docs/organisation.md).
  EmitOptions report;
  bool json_report =
      std::any_of(o.outputs.begin(), o.outputs.end(), [](const Output& out) { return out.format == "json"; });
  if (json_report) {
    so.keep_workloads = true;
    ReportIdentity id = IdentityOf(ReportRoot(o.args));
    report.report_name = o.report_name.empty() ? id.name : o.report_name;
    report.commit = id.commit;
    report.prices = so.prices;
  }
  ScanResult result = Scan(so);
  if (progress) std::fprintf(stderr, "\r\x1b[K");
  if (ReportMissing(result)) return 2;
  if (o.timing) PrintTiming(result, so.cache.get());
  if (writing) {
    // Recording today's findings accepts them: say how many, print no report
    // unless one was asked for, and succeed.
    if (!WriteBaseline(o.write_baseline, result.findings, &error)) throw UsageError{"--write-baseline: " + error};
    size_t n = result.findings.size();
    std::cerr << "sagelint: recorded " << n << (n == 1 ? " finding" : " findings") << " in "
              << Printable(o.write_baseline) << "\n";
    if (!o.outputs.empty() && !EmitOutputs(
                                  o, FailOn::kNone,
                                  [&](std::ostream& out, const Output& output, const EmitOptions& eo) {
                                    FindEmitter(output.format)->emit(out, result, eo);
                                  },
                                  report)) {
      return 2;
    }
    return 0;
  }
  if (baseline.schema_version == 1) {
    std::cerr << "sagelint: note: " << Printable(baseline_path)
              << " is a schema 1 baseline, matched by its old fingerprints; rewrite it with --write-baseline\n";
  }
  if (o.fix || o.fix_diff) {
    ApplyBaseline(Baseline(baseline), &result);
    std::optional<int> status = ApplyFixes(o, result);
    if (status) return *status;
    // What remains after the edits: the files scanned again.
    result = Scan(so);
  }
  ApplyBaseline(std::move(baseline), &result);

  FailOn level = o.fail_on.value_or(so.config.fail_on.value_or(FailOn::kWarning));
  if (!EmitOutputs(
          o, level,
          [&](std::ostream& out, const Output& output, const EmitOptions& eo) {
            FindEmitter(output.format)->emit(out, result, eo);
          },
          report)) {
    return 2;
  }
  if (o.statistics) PrintStatistics(o, result);
  for (const Finding& f : result.findings) {
    if (FailsOn(level, f.severity)) return 1;
  }
  return 0;
}

}  // namespace sagelint::cli
