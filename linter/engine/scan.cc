#include "linter/engine/scan.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <filesystem>
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

std::string_view FrontEndName(const WorkUnit& unit) {
  if (unit.terraform_module) return "terraform";
  switch (unit.files.front().kind) {
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

uintmax_t UnitBytes(const WorkUnit& unit) {
  uintmax_t total = 0;
  for (const DiscoveredFile& f : unit.files) {
    std::error_code ec;
    uintmax_t n = std::filesystem::file_size(f.abs_path, ec);
    if (!ec) total += n;
  }
  return total;
}

// Parses every unit on `setup.jobs` workers and returns the parsed files in
// unit order; the per-front-end figures and skipped entries go to `result`.
// A unit's paths are released as soon as it is parsed.
std::vector<ParsedFile> ParseUnits(std::vector<WorkUnit> units, const ScanSetup& setup, ScanResult* result) {
  std::vector<std::vector<ParsedFile>> parsed(units.size());
  std::vector<FrontEndStats> stats(units.size());
  std::vector<std::string_view> front_end(units.size());
  std::vector<std::vector<std::string>> skipped(units.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mu;
  ParseBudget budget(kParseBudgetBytes);
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      uintmax_t bytes = UnitBytes(units[i]);
      budget.Acquire(bytes);
      double start = setup.measure_cpu ? ThreadCpuSeconds() : 0;
      parsed[i] = ParseUnit(units[i], setup.resolve, &skipped[i]);
      if (setup.measure_cpu) stats[i].cpu_seconds = ThreadCpuSeconds() - start;
      budget.Release(bytes);
      if (bytes >= kTrimAfterBytes) ReturnFreedMemory();
      stats[i].files = static_cast<int>(units[i].files.size());
      stats[i].parsed = static_cast<int>(parsed[i].size());
      stats[i].bytes = bytes;
      front_end[i] = FrontEndName(units[i]);
      units[i] = WorkUnit{};
      size_t d = ++done;
      if (setup.progress) {
        std::lock_guard<std::mutex> lock(progress_mu);
        setup.progress(d, units.size());
      }
    }
  };
  int jobs = setup.jobs > 0 ? setup.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(std::max<size_t>(1, units.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  std::vector<ParsedFile> files;
  size_t parsed_files = 0;
  for (const auto& p : parsed) parsed_files += p.size();
  files.reserve(parsed_files);
  for (size_t i = 0; i < units.size(); ++i) {
    FrontEndStats& s = result->front_ends[std::string(front_end[i])];
    s.files += stats[i].files;
    s.parsed += stats[i].parsed;
    s.bytes += stats[i].bytes;
    s.cpu_seconds += stats[i].cpu_seconds;
    for (ParsedFile& pf : parsed[i]) files.push_back(std::move(pf));
    for (std::string& line : skipped[i]) result->skipped.push_back(std::move(line));
  }
  return files;
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
  std::vector<ParsedFile> files = ParseUnits(PlanUnits(std::move(found.files), setup.discover), setup, &result);
  double analysis_start = setup.measure_cpu ? ThreadCpuSeconds() : 0;
  Analysis a = Analyze(std::move(files), rules, setup.prices ? *setup.prices : PriceTable::BuiltIn(),
                       setup.resolve.root, setup.keep_workloads);
  result.findings = std::move(a.findings);
  result.workloads = std::move(a.workloads);
  result.suppressed = a.suppressed;
  if (setup.measure_cpu) result.analysis_cpu_seconds = ThreadCpuSeconds() - analysis_start;
  for (const Policy& p : rules.all_policies()) result.custom_rules.push_back({p.id, p.severity, p.message});
  return result;
}

}  // namespace sagelint
