#include "linter/scan.h"

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <sstream>
#include <thread>

#include "linter/analyze.h"
#include "linter/discover.h"
#include "linter/dispatch.h"

namespace sagelint {
namespace fs = std::filesystem;

bool RuleEnabled(const ScanOptions& opts, const std::string& id) {
  auto it = opts.config.rules.find(id);
  if (it != opts.config.rules.end() && it->second.off) return false;
  if (opts.ignore.count(id)) return false;
  // Parse and internal errors are never hidden by --select: a file that was not checked must show.
  if (id == "SM000" || id == "SM001") return true;
  return opts.select.empty() || opts.select.count(id) > 0;
}

ScanResult Scan(const ScanOptions& opts) {
  ScanResult result;
  DiscoverOptions dopts;
  dopts.exclude = opts.config.exclude;
  std::error_code ec;
  dopts.exclude_base = opts.config.dir.empty() ? fs::current_path(ec).string() : opts.config.dir;
  dopts.no_ignore = opts.no_ignore;
  std::vector<std::string> paths = opts.paths.empty() ? std::vector<std::string>{"."} : opts.paths;
  DiscoverResult found = Discover(paths, dopts);
  result.missing = std::move(found.missing);
  result.skipped = std::move(found.skipped);

  std::vector<WorkUnit> units = PlanUnits(found.files);
  std::vector<std::vector<ParsedFile>> parsed(units.size());
  std::vector<std::vector<std::string>> skipped(units.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mu;
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      parsed[i] = ParseUnit(units[i], opts.resolve, &skipped[i]);
      size_t d = ++done;
      if (opts.progress) {
        std::lock_guard<std::mutex> lock(progress_mu);
        opts.progress(d, units.size());
      }
    }
  };
  int jobs = opts.jobs > 0 ? opts.jobs : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  jobs = std::min<int>(jobs, static_cast<int>(std::max<size_t>(1, units.size())));
  std::vector<std::thread> threads;
  for (int t = 1; t < jobs; ++t) threads.emplace_back(worker);
  worker();
  for (std::thread& t : threads) t.join();

  std::vector<ParsedFile> files;
  for (size_t i = 0; i < units.size(); ++i) {
    for (ParsedFile& pf : parsed[i]) files.push_back(std::move(pf));
    for (std::string& s : skipped[i]) result.skipped.push_back(std::move(s));
  }
  result.files_scanned = static_cast<int>(found.files.size());
  Analysis a = Analyze(std::move(files), opts);
  result.findings = std::move(a.findings);
  result.workloads = std::move(a.workloads);
  result.suppressed = a.suppressed;
  return result;
}

}  // namespace sagelint
