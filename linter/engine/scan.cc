#include "linter/engine/scan.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <vector>
#ifdef __GLIBC__
#include <malloc.h>  // malloc_trim
#endif

#include "linter/cost/prices.h"
#include "linter/engine/analyze.h"
#include "linter/engine/dispatch.h"

namespace sagelint {
namespace {

double ThreadCpuSeconds() {
  timespec ts{};  // a system call, not a vDSO read: only with ScanSetup::measure_cpu
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

std::string_view FrontEndName(FileKind kind, bool terraform_module) {
  if (terraform_module) return "terraform";
  switch (kind) {
    case FileKind::kPython:
      return "python";
    case FileKind::kNotebook:
      return "notebook";
    case FileKind::kYamlOrJson:
      return "yaml/json";
    default:
      return "other";
  }
}

// Parsing takes memory in proportion to the input (a YAML DOM is 30–170 times
// the file's size), so the input being parsed at once is bounded, whatever
// --jobs says: a worker takes its unit's bytes from this budget before
// parsing and returns them after. A unit larger than the whole budget runs
// alone. Peak memory is then about budget × the parser's factor, plus one
// unit's own, and no longer grows with the number of threads.
class ParseBudget {
 public:
  explicit ParseBudget(uintmax_t bytes) : budget_(bytes) {}
  void Acquire(uintmax_t n) {
    std::unique_lock<std::mutex> lock(mu_);
    cv_.wait(lock, [&] { return in_use_ == 0 || in_use_ + n <= budget_; });
    in_use_ += n;
  }
  void Release(uintmax_t n) {
    {
      std::lock_guard<std::mutex> lock(mu_);
      in_use_ -= n;
    }
    cv_.notify_all();
  }

 private:
  std::mutex mu_;
  std::condition_variable cv_;
  uintmax_t in_use_ = 0;
  const uintmax_t budget_;
};

// glibc keeps what a thread freed in that thread's arena, so after large
// parses each worker would hold its own peak: hand it back to the system.
constexpr uintmax_t kTrimAfterBytes = 1u << 20;

void ReturnFreedMemory() {
#ifdef __GLIBC__
  ::malloc_trim(0);
#endif
}

uintmax_t FileBytes(const DiscoveredFile& f) {
  std::error_code ec;
  uintmax_t n = std::filesystem::file_size(f.abs_path(), ec);
  return ec ? 0 : n;
}

uintmax_t UnitBytes(const WorkUnit& unit) {
  uintmax_t total = 0;
  for (const DiscoveredFile& f : unit.files) total += FileBytes(f);
  return total;
}

// What a unit gave: kept only for the units that gave something.
struct UnitOutput {
  size_t unit = 0;
  std::vector<FileOutcome> files;
  std::vector<std::string> skipped;
};

bool Empty(const FileOutcome& f) {
  return !f.parsed && !f.pending && f.analysis.findings.empty() && f.analysis.workloads.empty() && f.analysis.suppressed == 0;
}

// Parses every unit on `setup.jobs` workers, analyses each file as far as it
// can be alone right away, and finishes the analysis across the scan. A
// unit's paths are released as soon as it is parsed, and of a file only its
// findings (and what links to other files) are kept: memory grows with the
// findings, not with the tree. The per-front-end figures and
// skipped entries go to `result`.
Analysis ParseAndAnalyze(Plan plan, const ScanSetup& setup, const Analyzer& analyzer, ScanResult* result) {
  const size_t total = plan.size(), singles = plan.files.size();
  std::vector<UnitOutput> outputs;
  std::mutex mu;  // outputs, result->front_ends, analysis CPU, progress
  double analysis_cpu = 0;
  std::atomic<size_t> next{0}, done{0};
  ParseBudget budget(kParseBudgetBytes);
  auto worker = [&] {
    std::map<std::string_view, FrontEndStats> stats;
    double cpu = 0;
    for (size_t i = next++; i < total; i = next++) {
      bool single = i < singles;
      uintmax_t bytes = single ? FileBytes(plan.files[i]) : UnitBytes(plan.modules[i - singles]);
      budget.Acquire(bytes);
      double start = setup.measure_cpu ? ThreadCpuSeconds() : 0;
      UnitOutput out;
      out.unit = i;
      std::vector<ParsedFile> parsed = single ? ParseFile(plan.files[i], setup.resolve, &out.skipped)
                                              : ParseUnit(plan.modules[i - singles], setup.resolve, &out.skipped);
      double parsed_at = setup.measure_cpu ? ThreadCpuSeconds() : 0;
      budget.Release(bytes);
      if (bytes >= kTrimAfterBytes) ReturnFreedMemory();
      FrontEndStats& s = stats[single ? FrontEndName(plan.files[i].kind, false) : FrontEndName(FileKind::kOther, true)];
      s.files += single ? 1 : static_cast<int>(plan.modules[i - singles].files.size());
      s.parsed += static_cast<int>(parsed.size());
      s.bytes += bytes;
      s.cpu_seconds += parsed_at - start;
      if (single) {
        plan.files[i] = DiscoveredFile{};
      } else {
        plan.modules[i - singles] = WorkUnit{};
      }
      for (ParsedFile& pf : parsed) {
        FileOutcome o = analyzer.Start(std::move(pf));
        if (!Empty(o)) out.files.push_back(std::move(o));
      }
      if (setup.measure_cpu) cpu += ThreadCpuSeconds() - parsed_at;
      std::lock_guard<std::mutex> lock(mu);
      if (!out.files.empty() || !out.skipped.empty()) outputs.push_back(std::move(out));
      size_t d = ++done;
      if (setup.progress) setup.progress(d, total);
    }
    std::lock_guard<std::mutex> lock(mu);
    for (const auto& [name, s] : stats) {
      FrontEndStats& r = result->front_ends[std::string(name)];
      r.files += s.files;
      r.parsed += s.parsed;
      r.bytes += s.bytes;
      r.cpu_seconds += s.cpu_seconds;
    }
    analysis_cpu += cpu;
  };
  int jobs = setup.jobs > 0 ? setup.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(std::max<size_t>(1, total)));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  plan = {};

  std::sort(outputs.begin(), outputs.end(), [](const UnitOutput& a, const UnitOutput& b) { return a.unit < b.unit; });
  std::vector<FileOutcome> files;
  for (UnitOutput& u : outputs) {
    for (FileOutcome& f : u.files) files.push_back(std::move(f));
    for (std::string& line : u.skipped) result->skipped.push_back(std::move(line));
  }
  outputs = {};
  double start = setup.measure_cpu ? ThreadCpuSeconds() : 0;
  Analysis a = analyzer.Finish(std::move(files));
  if (setup.measure_cpu) result->analysis_cpu_seconds = analysis_cpu + ThreadCpuSeconds() - start;
  return a;
}

}  // namespace

ScanResult Scan(const ScanSetup& setup, const RuleSet& rules) {
  ScanResult result;
  std::vector<std::string> paths = setup.paths.empty() ? std::vector<std::string>{"."} : setup.paths;
  DiscoverResult found = Discover(paths, setup.discover);
  result.missing = std::move(found.missing);
  result.skipped = std::move(found.skipped);
  result.warnings = std::move(found.warnings);
  result.files_scanned = static_cast<int>(found.files.size());
  Analyzer analyzer(rules, setup.prices ? *setup.prices : PriceTable::BuiltIn(), setup.resolve.root,
                    setup.keep_workloads);
  Analysis a = ParseAndAnalyze(PlanUnits(std::move(found.files), setup.discover), setup, analyzer, &result);
  result.findings = std::move(a.findings);
  result.workloads = std::move(a.workloads);
  result.suppressed = a.suppressed;
  for (const Policy& p : rules.all_policies()) result.custom_rules.push_back({p.id, p.severity, p.message});
  return result;
}

}  // namespace sagelint
