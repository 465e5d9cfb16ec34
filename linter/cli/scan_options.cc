#include "linter/cli/scan_options.h"

#include <filesystem>

namespace sagelint {

RuleSet BuildRuleSet(const ScanOptions& opts) {
  RuleSelection selection;
  selection.settings = opts.config.rules;
  selection.select = opts.select;
  selection.ignore = opts.ignore;
  selection.policies = opts.policies;
  selection.datasets = opts.datasets;
  selection.report_unused_ignores = opts.report_unused_ignores;
  return RuleSet::Resolve(std::move(selection));
}

ScanSetup BuildScanSetup(const ScanOptions& opts) {
  ScanSetup setup;
  setup.paths = opts.paths;
  setup.discover.exclude = opts.config.exclude;
  std::error_code ec;
  setup.discover.exclude_base = opts.config.dir.empty() ? std::filesystem::current_path(ec).string() : opts.config.dir;
  setup.discover.no_ignore = opts.no_ignore;
  setup.discover.files = opts.files;
  setup.resolve = opts.resolve;
  setup.resolve.files = opts.files;
  // config `parameter_files:` globs are relative to the configuration's directory, like `exclude:`.
  if (setup.resolve.cfn_param_file_globs.empty()) setup.resolve.cfn_param_file_globs = opts.config.parameter_files;
  setup.resolve.cfn_param_base = std::filesystem::absolute(setup.discover.exclude_base, ec).lexically_normal().string();
  setup.jobs = opts.jobs;
  setup.prices = opts.prices;
  setup.progress = opts.progress;
  setup.keep_workloads = opts.keep_workloads;
  setup.measure_cpu = opts.measure_cpu;
  setup.cache = opts.cache.get();
  return setup;
}

ScanResult Scan(const ScanOptions& opts) { return Scan(BuildScanSetup(opts), BuildRuleSet(opts)); }

}  // namespace sagelint
