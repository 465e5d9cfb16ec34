#include "linter/engine/scan.h"

#include <time.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <exception>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <tuple>
#include <vector>

#include "linter/base/portable.h"
#include "linter/cost/prices.h"
#include "linter/engine/analyze.h"
#include "linter/engine/dispatch.h"
#include "linter/engine/fixes.h"
#include "linter/engine/front_ends.h"
#include "linter/engine/parse_cache.h"

namespace sagelint {
namespace {

double ThreadCpuSeconds() {
  timespec ts{};  // a system call, not a vDSO read: only with ScanSetup::measure_cpu
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The row of the timing figures a unit counts in: what its front end calls its files.
std::string_view FilesName(const WorkUnit& unit) {
  const FrontEnd* front_end = unit.files.empty() ? nullptr : unit.files.front().front_end;
  return front_end ? front_end->files : "other";
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

void ReturnFreedMemory() { ReleaseFreedMemory(); }

uintmax_t UnitBytes(const WorkUnit& unit, const FileSource& files) {
  uintmax_t total = 0;
  for (const DiscoveredFile& f : unit.files) {
    if (auto n = files.FileSize(f.abs_path())) total += *n;
  }
  return total;
}

// A unit of work as discovery hands it to the workers.
struct Job {
  WorkUnit unit;
  size_t module = 0;  // Terraform modules: their place among the modules
};

// Units on their way from discovery to the workers. Discovery waits while it
// is full, so the tree is never listed in memory: a file costs its record
// only between being found and being parsed.
class JobQueue {
 public:
  explicit JobQueue(size_t capacity) : capacity_(capacity) {}
  void Push(Job job) {
    std::unique_lock<std::mutex> lock(mu_);
    not_full_.wait(lock, [&] { return jobs_.size() < capacity_; });
    jobs_.push_back(std::move(job));
    ++pushed_;
    // A worker is woken once a few units wait (it takes them all before it
    // sleeps again), not for each: a warm scan's units take less time than
    // the wake-up (Close wakes the workers for the last few).
    if (jobs_.size() >= kWakeAt) not_empty_.notify_one();
  }
  // False once the queue is closed and empty.
  bool Pop(Job* job) {
    std::unique_lock<std::mutex> lock(mu_);
    not_empty_.wait(lock, [&] { return !jobs_.empty() || closed_; });
    if (jobs_.empty()) return false;
    *job = std::move(jobs_.front());
    jobs_.pop_front();
    // The producer, stopped by a full queue, goes on once half of it is
    // taken, not after each unit (each wake-up is a system call or two).
    if (jobs_.size() <= capacity_ / 2) not_full_.notify_one();
    return true;
  }
  void Close() {
    std::lock_guard<std::mutex> lock(mu_);
    closed_ = true;
    not_empty_.notify_all();
  }
  size_t pushed() {
    std::lock_guard<std::mutex> lock(mu_);
    return pushed_;
  }

 private:
  static constexpr size_t kWakeAt = 8;
  std::mutex mu_;
  std::condition_variable not_full_, not_empty_;
  std::deque<Job> jobs_;
  size_t pushed_ = 0;
  bool closed_ = false;
  const size_t capacity_;
};

constexpr size_t kQueuedUnits = 256;

// What a unit gave, kept only for the units that gave something, with its
// place in scan order: single files by display path (the order Discover
// sorts them in), then the Terraform modules in plan order.
struct UnitOutput {
  bool module = false;
  std::string display;
  size_t index = 0;
  std::vector<FileOutcome> files;
  std::vector<std::string> skipped;
};

bool ScanOrder(const UnitOutput& a, const UnitOutput& b) {
  return std::tie(a.module, a.display, a.index) < std::tie(b.module, b.display, b.index);
}

bool Empty(const FileOutcome& f) {
  return !f.parsed && !f.pending && f.analysis.findings.empty() && f.analysis.workloads.empty() &&
         f.analysis.suppressed == 0;
}

Job SingleFile(DiscoveredFile f) {
  Job job;
  job.unit.files.push_back(std::move(f));
  return job;
}

void PushModules(Plan plan, JobQueue& queue) {
  for (size_t i = 0; i < plan.modules.size(); ++i) queue.Push(Job{std::move(plan.modules[i]), i});
}

// Parses a unit, or takes what it gave from the cache while nothing it read
// has changed (a unit that gave nothing — most files do not mention
// SageMaker — is kept too, as a line in the cache's record of such units).
std::vector<ParsedFile> Parse(const WorkUnit& unit, ParseCache* store, const cache::Key& key,
                              const ResolveOptions& resolve, std::vector<std::string>* skipped) {
  if (!store) return ParseUnit(unit, resolve, skipped);
  std::vector<ParsedFile> parsed;
  ReadLog log;
  std::vector<std::string> lines;
  {
    ReadLog::Scope scope(&log);
    parsed = ParseUnit(unit, resolve, &lines);
  }
  store->Save(key, log, parsed, lines);
  for (std::string& l : lines) skipped->push_back(std::move(l));
  return parsed;
}

// Finds the files and hands them to the workers as units. One directory (a
// scan's common case) is walked while the workers parse, its Terraform files
// kept back and planned into modules once the walk is over; anything else
// (files named on the command line, several paths) is listed and planned
// first, as pre-commit needs the named files' modules planned together.
// `facts`: where the Terraform planner takes a file's facts from (nullptr: it reads each file).
DiscoverResult Produce(const std::vector<std::string>& paths, const DiscoverOptions& discover,
                       const TerraformFacts* facts, JobQueue& queue) {
  if (paths.size() == 1 && discover.files->IsDirectory(paths[0])) {
    std::vector<DiscoveredFile> terraform;
    DiscoverResult found = DiscoverDirectory(paths[0], discover, [&](DiscoveredFile f) {
      if (f.in_module()) {
        terraform.push_back(std::move(f));
      } else {
        queue.Push(SingleFile(std::move(f)));
      }
    });
    SortAndDeduplicate(terraform);
    PushModules(PlanUnits(std::move(terraform), discover, facts), queue);
    return found;
  }
  DiscoverResult found = Discover(paths, discover);
  Plan plan = PlanUnits(std::move(found.files), discover, facts);
  for (DiscoveredFile& f : plan.files) queue.Push(SingleFile(std::move(f)));
  plan.files = {};
  PushModules(std::move(plan), queue);
  return found;
}

// Discovers and parses on `setup.jobs` workers, analyses each file as far as
// it can be alone right away, and finishes the analysis across the scan. Of
// a file only its findings (and what links to other files) are kept: memory
// grows with the findings, not with the tree. What discovery reports, the
// per-front-end figures and skipped entries go to `result`.
Analysis DiscoverAndAnalyze(const std::vector<std::string>& paths, const ScanSetup& setup, const Analyzer& analyzer,
                            ScanResult* result) {
  // With a cache, the front ends read through a RecordingFiles: what a unit's
  // parse read is its entry's inputs. Only the disk is cached: not a base
  // revision's tree, nor the editor's unsaved buffers.
  ParseCache* store = setup.resolve.files == &DiskFiles() ? setup.cache : nullptr;
  // The Terraform planner's facts of a file too, while the walk reads the disk.
  std::optional<TerraformFacts> facts;
  if (store && setup.discover.files == &DiskFiles()) {
    facts.emplace([store](const DiscoveredFile& f) { return store->PlannerFacts(f); });
  }
  JobQueue queue(kQueuedUnits);
  DiscoverResult found;
  std::exception_ptr failed;
  std::thread producer([&] {
    try {
      found = Produce(paths, setup.discover, facts ? &*facts : nullptr, queue);
    } catch (...) {
      failed = std::current_exception();
    }
    queue.Close();
  });
  std::optional<RecordingFiles> recording;
  ResolveOptions resolve = setup.resolve;
  if (store) resolve.files = &recording.emplace(*setup.resolve.files, true);
  std::error_code cwd_error;
  const std::string cwd = std::filesystem::current_path(cwd_error).string();  // for the cache keys
  std::optional<ParseCache::Keys> keys;
  if (store) keys.emplace(resolve, &cwd);

  std::vector<UnitOutput> outputs;
  std::mutex mu;  // outputs, result->front_ends, analysis CPU, progress
  double analysis_cpu = 0;
  size_t done = 0;
  ParseBudget budget(kParseBudgetBytes);
  auto worker = [&] {
    std::map<std::string_view, FrontEndStats> stats;
    double cpu = 0;
    for (Job job; queue.Pop(&job);) {
      const WorkUnit& unit = job.unit;
      double start = setup.measure_cpu ? ThreadCpuSeconds() : 0;
      UnitOutput out;
      out.module = unit.terraform_module;
      out.index = job.module;
      std::vector<ParsedFile> parsed;
      // From the cache (no parse, so no share of the budget), else parsed.
      cache::Key key{};
      if (store) key = keys->Of(unit);
      uintmax_t bytes = 0;
      if (store && store->Load(key, DiskFiles(), &parsed, &out.skipped)) {
        bytes = store->KnownBytes(unit);
      } else {
        bytes = UnitBytes(unit, *setup.resolve.files);
        budget.Acquire(bytes);
        parsed = Parse(unit, store, key, resolve, &out.skipped);
        budget.Release(bytes);
        if (bytes >= kTrimAfterBytes) ReturnFreedMemory();
      }
      double parsed_at = setup.measure_cpu ? ThreadCpuSeconds() : 0;
      FrontEndStats& s = stats[FilesName(unit)];
      s.files += static_cast<int>(unit.files.size());
      s.parsed += static_cast<int>(parsed.size());
      s.bytes += bytes;
      s.cpu_seconds += parsed_at - start;
      for (ParsedFile& pf : parsed) {
        FileOutcome o = analyzer.Start(std::move(pf));
        if (!Empty(o)) out.files.push_back(std::move(o));
      }
      if (setup.measure_cpu) cpu += ThreadCpuSeconds() - parsed_at;
      bool kept = !out.files.empty() || !out.skipped.empty();
      if (kept && !out.module) out.display = unit.files.front().display();
      job = Job{};
      size_t total = setup.progress ? queue.pushed() : 0;
      std::lock_guard<std::mutex> lock(mu);
      if (kept) outputs.push_back(std::move(out));
      ++done;
      if (setup.progress) setup.progress(done, std::max(done, total));
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
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();
  producer.join();
  if (failed) std::rethrow_exception(failed);

  // What discovery could not read is a finding of its own (SM008), in scan order with the files.
  for (NotScanned& n : found.not_scanned) {
    UnitOutput out;
    out.display = n.display;
    Format format = n.front_end ? n.front_end->format : Format::kCloudFormation;
    FileOutcome o = analyzer.Start(NotScannedFile(n.display, std::move(n.root_path), format, std::move(n.why)));
    if (Empty(o)) continue;
    out.files.push_back(std::move(o));
    outputs.push_back(std::move(out));
  }
  result->missing = std::move(found.missing);
  result->skipped = std::move(found.skipped);
  result->warnings = std::move(found.warnings);
  result->files_scanned = found.found;
  std::sort(outputs.begin(), outputs.end(), ScanOrder);
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
  Analyzer analyzer(rules, setup.prices ? *setup.prices : PriceTable::BuiltIn(), setup.resolve.root,
                    setup.keep_workloads);
  Analysis a = DiscoverAndAnalyze(paths, setup, analyzer, &result);
  result.findings = std::move(a.findings);
  // Fixes edit the files on disk: a scan of another tree (diff's base) has none.
  if (setup.cache && setup.resolve.files == &DiskFiles()) {
    setup.cache->ResolveFixes(result.findings, DiskFiles());
    setup.cache->Persist();
  } else if (setup.resolve.files == &DiskFiles() || setup.fixes_in_files) {
    ResolveFixes(result.findings, *setup.resolve.files);
  } else {
    for (Finding& f : result.findings) f.fix.reset();
  }
  result.workloads = std::move(a.workloads);
  result.suppressed = a.suppressed;
  // The git work trees the paths lie in: machine formats print paths relative to them.
  if (setup.resolve.files == &DiskFiles()) {
    for (const std::string& p : paths) {
      std::error_code ec;
      std::string root = ScanRootOf(std::filesystem::absolute(p, ec).lexically_normal().string());
      bool repository = DiskFiles().Exists(root + "/.git");
      auto& roots = result.repository_roots;
      if (repository && std::find(roots.begin(), roots.end(), root) == roots.end()) roots.push_back(root);
    }
  }
  for (const Policy& p : rules.all_policies()) result.custom_rules.push_back({p.id, p.severity, p.message});
  return result;
}

}  // namespace sagelint
