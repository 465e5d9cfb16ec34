// What the commands share: writing outputs, the configuration, policies,
// baseline and cache in force, and the scan options built from flags and configuration.
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/cache/store.h"
#include "linter/cli/commands.h"
#include "linter/cli/config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/datasets.h"
#include "linter/cost/price_update.h"
#include "linter/cost/prices.h"
#include "linter/engine/dispatch.h"
#include "linter/engine/git.h"
#include "linter/engine/parse_cache.h"
#include "linter/model/rule.h"
#include "linter/policy/policy.h"
#include "linter/report/emit.h"

namespace sagelint::cli {

// Where an output goes: stdout, or FILE written whole (a temporary file renamed
// over it). A write that fails is an error naming the file (exit 2).
void WriteOutput(const std::string& file, const std::string& content) {
  if (file.empty()) {
    std::cout << content;
    std::cout.flush();
    if (!std::cout) throw UsageError{"cannot write to standard output"};
    return;
  }
  std::string error;
  if (!WriteFileAtomic(file, content, &error)) throw UsageError{"cannot write " + file + ": " + error};
}
// Writes every (file, content) pair; one that fails is reported and the others
// are still written. False if any failed.
bool WriteOutputs(const std::vector<std::pair<std::string, std::string>>& outputs) {
  bool ok = true;
  for (const auto& [file, content] : outputs) {
    try {
      WriteOutput(file, content);
    } catch (const UsageError& e) {
      std::cerr << "sagelint: " << Printable(e.message) << "\n";
      ok = false;
    }
  }
  return ok;
}
// A rule ID given on the command line or in the config must exist (built-in or a custom policy).
void CheckRuleIds(const std::vector<std::string>& ids, const std::string& flag, const std::vector<Policy>& policies) {
  std::vector<std::string> known;
  for (const RuleInfo& r : AllRules()) known.emplace_back(r.id);
  for (const Policy& p : policies) known.push_back(p.id);
  for (const std::string& id : ids) {
    if (std::find(known.begin(), known.end(), id) == known.end()) {
      throw UsageError{flag + ": unknown rule ID '" + id + "'" + DidYouMeanSuffix(id, known)};
    }
  }
}
// The scan root of a configuration file: files it names are read only inside it.
std::string ConfigRoot(const Config& c, const FileSource& files) {
  return ScanRootOf(c.dir.empty() ? "." : c.dir, files);
}
// The baseline in force: --baseline, else the configuration's `baseline:`
// (relative to its directory, and only inside its scan root).
std::string BaselinePathFor(const CliOptions& o, const Config& c, const FileSource& files) {
  if (!o.baseline.empty() || c.baseline.empty()) return o.baseline;
  std::filesystem::path p = c.baseline;
  std::string path = p.is_absolute() ? p.string() : (std::filesystem::path(c.dir) / p).lexically_normal().string();
  if (!ResolveInside(files, path, ConfigRoot(c, files))) {
    throw UsageError{DisplayPath(c.path) + ": baseline: " + c.baseline + " is outside the scan root"};
  }
  return path;
}
std::vector<Policy> LoadConfigPolicies(const Config& c, const FileSource& files) {
  std::vector<Policy> policies;
  std::string error;
  std::string root = c.path.empty() ? std::string() : ConfigRoot(c, files);
  if (!LoadPolicies(c.policies, DisplayPath(c.path), c.policy_files, c.dir, &policies, &error, files, root)) {
    throw UsageError{error};
  }
  // `rules:` may name custom policies too; anything else is a typo.
  std::vector<std::string> config_ids;
  for (const auto& [id, setting] : c.rules) config_ids.push_back(id);
  CheckRuleIds(config_ids, DisplayPath(c.path) + ": rules", policies);
  return policies;
}
// The path whose scan root's configuration a scan uses: the first path named
// (default "."). Paths under scan roots with different configurations cannot
// share one run: which would apply is not for sagelint to guess.
std::string ConfigStart(const CliOptions& o) {
  if (o.args.empty()) return ".";
  if (o.config_path.empty()) {
    std::string first = FindConfig(o.args.front());
    for (const std::string& p : o.args) {
      if (!DiskFiles().Exists(p)) continue;  // reported as missing by the scan
      std::string other = FindConfig(p);
      if (other != first) {
        throw UsageError{p + " and " + o.args.front() + " lie under scan roots with different configurations (" +
                         (other.empty() ? "none" : DisplayPath(other)) + ", " +
                         (first.empty() ? "none" : DisplayPath(first)) +
                         "): scan them separately, or name one with --config"};
      }
    }
  }
  return o.args.front();
}
Config LoadConfigFor(const CliOptions& o, const FileSource& files, const std::string& start) {
  std::string path = o.config_path;
  if (path.empty()) {
    path = FindConfig(start.empty() ? "." : start, files);
    if (!path.empty()) path = DisplayPath(path);  // as messages name it
  } else if (!files.Exists(path)) {
    throw UsageError{"--config: " + path + " does not exist"};
  }
  if (path.empty()) return Config{};
  ConfigError err;
  auto c = LoadConfig(path, &err, files);
  if (!c) throw UsageError{err.message};
  return *c;
}
// The cache of parsed results (README "Large repositories"): --cache-dir, else
// the user cache directory; none with --no-cache. Opened once per run; a
// directory that cannot be used is said once, and the run goes on without it.
std::shared_ptr<ParseCache> OpenParseCache(const CliOptions& o) {
  // By directory. Never destroyed: the records of a large tree are freed by
  // the process's exit, not one by one after the scan (its files and entries
  // are written by then: Scan persists them).
  static auto& opened = *new std::map<std::string, std::shared_ptr<ParseCache>>;
  if (o.no_cache) return nullptr;
  std::string dir = o.cache_dir.empty() ? cache::DefaultDir() : o.cache_dir;
  if (dir.empty()) return nullptr;                   // neither XDG_CACHE_HOME nor HOME: no user cache to use
  if (CacheBuildIdentity().empty()) return nullptr;  // a build of changed sources it cannot tell apart
  auto [it, fresh] = opened.try_emplace(dir);
  if (!fresh) return it->second;
  std::string why;
  if (std::unique_ptr<cache::Store> store = cache::Store::Open(dir, &why)) {
    it->second = std::make_shared<ParseCache>(std::move(store));
  } else {
    std::cerr << "sagelint: note: cache directory " << Printable(dir) << " " << Printable(why) << "; not used\n";
  }
  return it->second;
}
// Everything a scan needs from flags and configuration; `prices` keeps a loaded price file alive.
ScanOptions BuildScanOptions(const CliOptions& o, std::optional<PriceTable>* prices, const SideContext& side) {
  ScanOptions so;
  so.files = side.files;
  so.config = LoadConfigFor(o, *side.config_files, side.config_start.empty() ? ConfigStart(o) : side.config_start);
  so.policies = LoadConfigPolicies(so.config, *side.config_files);
  CheckRuleIds(o.select, "--select", so.policies);
  CheckRuleIds(o.ignore, "--ignore", so.policies);
  so.paths = o.args;
  so.select.insert(o.select.begin(), o.select.end());
  so.ignore.insert(o.ignore.begin(), o.ignore.end());
  so.no_ignore = o.no_ignore;
  so.report_unused_ignores = o.report_unused;
  so.jobs = o.jobs;
  so.resolve.cfn_parameters = so.config.parameters;
  for (const auto& [k, v] : o.params) so.resolve.cfn_parameters[k] = v;
  so.resolve.cfn_cli_parameters = o.params;
  so.resolve.cdk_context = o.context;
  for (const std::string& f : o.param_files) {
    std::string text, error;
    std::map<std::string, std::string> values;
    ParseError bad;
    if (!ReadWholeFile(*side.files, f, &text, &error)) {
      if (side.notes) {
        side.notes->push_back("--param-file " + f + ": " + error + " at the base; not applied there");
        continue;
      }
      throw UsageError{"--param-file: " + f + ": " + error};
    }
    if (!LoadTemplateConfiguration(text, &values, &bad)) {
      throw UsageError{"--param-file: " + f + ":" + std::to_string(bad.pos.line) + ":" +
                       std::to_string(bad.pos.column) + ": " + bad.message};
    }
    so.resolve.cfn_param_files.push_back(f);
  }

  so.resolve.tf_variables = so.config.variables;
  for (const auto& [k, v] : o.vars) so.resolve.tf_variables[k] = v;
  so.resolve.tf_var_files = o.var_files;
  for (const std::string& f : o.var_files) {
    std::optional<std::string> error;
    if (!side.files->Exists(f)) {
      error = f + " does not exist";
    } else {
      error = CheckTerraformVarFile(f, *side.files);
    }
    if (error && side.notes) {
      side.notes->push_back("--var-file " + *error + " at the base; not applied there");
    } else if (error) {
      throw UsageError{"--var-file: " + *error};
    }
  }
  for (const auto& [uri, size] : so.config.datasets) {
    so.datasets.AddPrefix(uri, *ParseSize(size), "datasets: in " + DisplayPath(so.config.path));
  }
  FlagInputs own;
  FlagInputs& flags = side.flags ? *side.flags : own;
  std::string error;
  if (!flags.loaded) {
    for (const std::string& a : o.dataset_sizes) {
      if (!AddDatasetSizeArg(a, &flags.datasets, &error)) throw UsageError{"--dataset-size: " + error};
    }
    for (const std::string& a : o.s3_listings) {
      if (!AddS3ListingArg(a, &flags.datasets, &error)) throw UsageError{"--s3-listing: " + error};
    }
    flags.loaded = true;
  }
  so.datasets.Merge(flags.datasets);
  // `--prices builtin`: the built-in table, whatever the cache holds.
  std::string price_file = o.prices == "builtin" ? "" : o.prices;
  if (o.prices.empty() && !so.config.prices.empty()) {
    std::filesystem::path p = so.config.prices;
    price_file = p.is_absolute() ? p.string() : (std::filesystem::path(so.config.dir) / p).string();
  }
  if (!o.region.empty()) so.config.region = o.region;  // --region wins over `region:`
  if (!price_file.empty()) {
    // `prices:` is read where the configuration is, inside its scan root; --prices from the disk.
    const FileSource& price_files = o.prices.empty() ? *side.config_files : DiskFiles();
    if (o.prices.empty()) {
      if (!ResolveInside(price_files, price_file, ConfigRoot(so.config, price_files))) {
        throw UsageError{DisplayPath(so.config.path) + ": prices: " + so.config.prices + " is outside the scan root"};
      }
    }
    // --prices is read once per region however many sides use it.
    auto cached = o.prices.empty() ? flags.prices.end() : flags.prices.find(so.config.region);
    if (cached != flags.prices.end()) {
      *prices = cached->second;
    } else {
      *prices = PriceTable::Load(price_file, so.config.region, &error, price_files);
      if (!*prices) throw UsageError{"prices: " + error};
      if (!o.prices.empty() && side.flags) flags.prices.emplace(so.config.region, **prices);
    }
    so.prices = &**prices;
  } else if (o.prices != "builtin" && !CachedPricePath(so.config.region).empty()) {
    // The table `sagelint prices update` keeps in the user cache wins over the built-in one.
    std::string note, cache_error;
    *prices = LoadCachedPrices(so.config.region, "", &note, &cache_error);
    if (!cache_error.empty()) throw UsageError{"prices: " + cache_error};
    if (*prices) {
      so.prices = &**prices;
      static bool noted = false;
      if (!note.empty() && !noted) std::cerr << "note: " << Printable(note) << "\n";
      noted = true;
    }
  }
  // Only the disk's files are cached: not a base revision's tree.
  if (side.files == &DiskFiles()) so.cache = OpenParseCache(o);
  if (so.prices == nullptr && so.config.region != "us-east-1") {
    so.prices = PriceTable::BuiltInFor(so.config.region);
    if (so.prices == nullptr) {
      throw UsageError{"no prices for " + so.config.region + ": run sagelint prices update --region " +
                       so.config.region};
    }
  }
  return so;
}
// Named paths that do not exist are a usage error (exit 2); unreadable entries are reported and skipped.
bool ReportMissing(const ScanResult& result) {
  for (const std::string& m : result.missing) {
    std::cerr << "sagelint: " << Printable(m) << ": no such file or directory";
    // After `--` every word is a path: an option there is a misplaced option, not a file.
    if (!m.empty() && m[0] == '-') std::cerr << " (options go before `--`)";
    std::cerr << "\n";
  }
  for (const std::string& s : result.skipped) std::cerr << "sagelint: skipped " << Printable(s) << "\n";
  for (const std::string& w : result.warnings) std::cerr << "sagelint: warning: " << Printable(w) << "\n";
  return !result.missing.empty();
}
// How wide a table may be: the terminal's width when standard output is one,
// else $COLUMNS when it is exported, else no limit (0): a pipe or a file gets
// every label whole.
size_t TableWidth(bool to_stdout) {
  struct winsize ws {};
  if (to_stdout && ::isatty(STDOUT_FILENO) == 1 && ::ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) {
    return ws.ws_col;
  }
  if (const char* columns = std::getenv("COLUMNS")) {
    if (auto n = StrictInt(columns); n && *n >= 40) return static_cast<size_t>(*n);
  }
  return 0;
}
// Where a pull-request comment links findings: SAGELINT_BLOB_URL, else the
// commit the CI checked out (GitHub Actions, GitLab CI).
std::string BlobUrl() {
  auto env = [](const char* name) {
    const char* v = std::getenv(name);
    return std::string(v ? v : "");
  };
  std::string url = env("SAGELINT_BLOB_URL");
  if (url.empty() && !env("GITHUB_SERVER_URL").empty() && !env("GITHUB_REPOSITORY").empty() &&
      !env("GITHUB_SHA").empty()) {
    url = env("GITHUB_SERVER_URL") + "/" + env("GITHUB_REPOSITORY") + "/blob/" + env("GITHUB_SHA") + "/";
  }
  if (url.empty() && !env("CI_PROJECT_URL").empty() && !env("CI_COMMIT_SHA").empty()) {
    url = env("CI_PROJECT_URL") + "/-/blob/" + env("CI_COMMIT_SHA") + "/";
  }
  if (!url.empty() && url.back() != '/') url += '/';
  return url;
}
// Whether an output is coloured (README "Usage"): --color always/never wins; else a
// non-empty NO_COLOR turns colours off, a FORCE_COLOR other than 0 on, and
// otherwise standard output is coloured when it is a terminal. Files are
// coloured only with --color always.
bool UseColor(const std::string& when, bool to_stdout) {
  if (when == "always") return true;
  if (when == "never" || !to_stdout) return false;
  const char* no_color = std::getenv("NO_COLOR");
  if (no_color && *no_color) return false;
  const char* force = std::getenv("FORCE_COLOR");
  if (force && *force && std::string_view(force) != "0") return true;
  return ::isatty(STDOUT_FILENO) == 1;
}
// Renders each --format output (text on stdout by default; colours per UseColor) and writes it: a file atomically
// (WriteOutputs), standard output as it is rendered, so that a large report is never held whole. One output that cannot
// be written does not stop the others. False if a write failed.
bool EmitOutputs(const CliOptions& o, FailOn level,
                 const std::function<void(std::ostream&, const Output&, const EmitOptions&)>& emit, EmitOptions eo) {
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"text", ""}} : o.outputs;
  eo.quiet = o.quiet;
  eo.blob_url = BlobUrl();
  eo.fail_threshold = FailThreshold(level);
  eo.report_stale_baseline = o.report_stale_baseline;
  bool ok = true;
  for (const Output& out : outputs) {
    eo.color = UseColor(o.color, out.file.empty());
    if (out.file.empty()) {
      emit(std::cout, out, eo);
      std::cout.flush();
      if (!std::cout) {
        std::cerr << "sagelint: cannot write to standard output\n";
        ok = false;
      }
      continue;
    }
    std::ostringstream text;
    emit(text, out, eo);
    ok = WriteOutputs({{out.file, std::move(text).str()}}) && ok;
  }
  return ok;
}

}  // namespace sagelint::cli
