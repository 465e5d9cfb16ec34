#include "linter/engine/scan.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include "linter/cost/prices.h"
#include "linter/engine/analyze.h"
#include "linter/engine/dispatch.h"

namespace sagelint {

ScanResult Scan(const ScanSetup& setup, const RuleSet& rules) {
  ScanResult result;
  std::vector<std::string> paths = setup.paths.empty() ? std::vector<std::string>{"."} : setup.paths;
  DiscoverResult found = Discover(paths, setup.discover);
  result.missing = std::move(found.missing);
  result.skipped = std::move(found.skipped);

  std::vector<WorkUnit> units = PlanUnits(found.files, setup.discover);
  std::vector<std::vector<ParsedFile>> parsed(units.size());
  std::vector<std::vector<std::string>> skipped(units.size());
  std::atomic<size_t> next{0}, done{0};
  std::mutex progress_mu;
  auto worker = [&] {
    for (size_t i = next++; i < units.size(); i = next++) {
      parsed[i] = ParseUnit(units[i], setup.resolve, &skipped[i]);
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
  for (size_t i = 0; i < units.size(); ++i) {
    for (ParsedFile& pf : parsed[i]) files.push_back(std::move(pf));
    for (std::string& s : skipped[i]) result.skipped.push_back(std::move(s));
  }
  result.files_scanned = static_cast<int>(found.files.size());
  Analysis a = Analyze(std::move(files), rules, setup.prices ? *setup.prices : PriceTable::BuiltIn(), setup.resolve.root);
  result.findings = std::move(a.findings);
  result.workloads = std::move(a.workloads);
  result.suppressed = a.suppressed;
  for (const Policy& p : rules.all_policies()) result.custom_rules.push_back({p.id, p.severity, p.message});
  return result;
}

}  // namespace sagelint
