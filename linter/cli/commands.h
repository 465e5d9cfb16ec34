// The commands of the command line, one file each (`<command>_command.cc`),
// and what they share: the parsed options (options.cc) and the configuration,
// outputs and scan options every command builds the same way
// (command_support.cc). `RunCli` (cli.cc) picks the command.
#ifndef SAGELINT_LINTER_CLI_COMMANDS_H_
#define SAGELINT_LINTER_CLI_COMMANDS_H_

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/cli/config.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/datasets.h"
#include "linter/cost/prices.h"
#include "linter/model/scan_result.h"
#include "linter/policy/policy.h"
#include "linter/report/emit.h"

namespace sagelint {

class ParseCache;

namespace cli {

// A usage or configuration error: printed as "sagelint: MESSAGE", exit 2.
struct UsageError {
  std::string message;
};

// One --format: its name and its file (empty: standard output).
struct Output {
  std::string format;
  std::string file;  // empty = stdout
};

struct CliOptions {
  std::string command = "scan";
  std::vector<std::string> args;  // positional
  std::vector<Output> outputs;
  std::optional<FailOn> fail_on;
  std::string config_path;
  std::vector<std::string> select, ignore;
  std::map<std::string, std::string> params, vars;
  std::map<std::string, std::string> context;  // --context (CDK)
  std::vector<std::string> var_files, param_files;
  std::vector<std::string> dataset_sizes, s3_listings;
  std::string prices;
  std::string region;                       // --region; empty: the configuration's
  std::vector<std::string> regions;         // every --region (prices update)
  bool all_regions = false;                 // prices update --all-regions
  std::string output;                       // prices import -o FILE
  std::string report_name;                  // scan --report-name
  std::string repos;                        // merge --repos FILE
  std::vector<std::string> lifecycle_arns;  // iam-policy
  std::string baseline, write_baseline;
  std::string base;                  // diff --base REF
  std::string config_from = "base";  // diff --config-from base|head
  int jobs = 0;
  std::string color = "auto";  // --color auto|always|never (--no-color = never)
  bool quiet = false, no_ignore = false, report_unused = false;
  bool wide = false;  // inventory: every column, nothing abbreviated
  bool report_stale_baseline = false;
  bool statistics = false;                                   // --statistics: a row per rule after the report
  bool fix = false, unsafe_fixes = false, fix_diff = false;  // --fix, --unsafe-fixes, --diff
  bool timing = false;                                       // developer aid: CPU time per front end on stderr
  std::string cache_dir;                                     // --cache-dir DIR (empty: the user cache directory)
  bool no_cache = false;                                     // --no-cache
  bool help = false, version = false;
};

// ---- options.cc ----

// `sagelint --help`: the commands and options (the man page and the shell
// completions are made from it).
extern const char* const kUsage;
// The command line; UsageError for anything it does not accept.
CliOptions ParseArgs(int argc, char** argv);
// A strict decimal integer: "4" yes; "4x", "1.5", " 4", "+4" no.
std::optional<int> StrictInt(const std::string& v);
// Which --format values a command accepts (empty: the command takes no --format).
std::vector<std::string> FormatsOf(const std::string& command);

// ---- command_support.cc ----

// Where an output goes: stdout, or FILE written whole (a temporary file renamed
// over it). A write that fails is an error naming the file (exit 2).
void WriteOutput(const std::string& file, const std::string& content);
// Writes every (file, content) pair; one that fails is reported and the others
// are still written. False if any failed.
bool WriteOutputs(const std::vector<std::pair<std::string, std::string>>& outputs);

// Where one side of a scan reads: a plain scan reads the disk; the base side
// of `diff` reads the base revision's tree.
// What the command line alone gives (--dataset-size, --s3-listing, --prices):
// read once, and shared by both sides of a diff.
struct FlagInputs {
  bool loaded = false;  // the datasets are read
  DatasetSizes datasets;
  std::map<std::string, PriceTable> prices;  // --prices, by region
};

struct SideContext {
  std::string config_start;                       // a path whose scan root's configuration applies (empty: the paths')
  FlagInputs* flags = nullptr;                    // shared flag inputs (none: read for this side alone)
  const FileSource* files = &DiskFiles();         // the scanned tree, var and parameter files
  const FileSource* config_files = &DiskFiles();  // the configuration and the files it names
  // The base side of a diff: a file option (--var-file, --param-file) that the
  // base revision lacks is told here instead of failing the run.
  std::vector<std::string>* notes = nullptr;
};

// A rule ID given on the command line or in the config must exist (built-in or a custom policy).
void CheckRuleIds(const std::vector<std::string>& ids, const std::string& flag,
                  const std::vector<Policy>& policies = {});
// The scan root of a configuration file: files it names are read only inside it.
std::string ConfigRoot(const Config& c, const FileSource& files);
// The baseline in force: --baseline, else the configuration's `baseline:`
// (relative to its directory, and only inside its scan root).
std::string BaselinePathFor(const CliOptions& o, const Config& c, const FileSource& files);
// The configuration's custom policies; its `rules:` may name them.
std::vector<Policy> LoadConfigPolicies(const Config& c, const FileSource& files = DiskFiles());
// The path whose scan root's configuration a scan uses: the first path named
// (default "."); paths under scan roots with different configurations are refused.
std::string ConfigStart(const CliOptions& o);
// --config, else the configuration found from `start` (default ".").
Config LoadConfigFor(const CliOptions& o, const FileSource& files = DiskFiles(), const std::string& start = {});
// The cache of parsed results: --cache-dir, else the user cache directory; none with --no-cache.
std::shared_ptr<ParseCache> OpenParseCache(const CliOptions& o);
// Everything a scan needs from flags and configuration; `prices` keeps a loaded price file alive.
ScanOptions BuildScanOptions(const CliOptions& o, std::optional<PriceTable>* prices, const SideContext& side = {});
// Named paths that do not exist are a usage error (true: exit 2); unreadable entries are reported and skipped.
bool ReportMissing(const ScanResult& result);
// How wide a table may be (0: no limit).
size_t TableWidth(bool to_stdout);
// Where a pull-request comment links findings: SAGELINT_BLOB_URL, else the commit the CI checked out.
std::string BlobUrl();
// Whether an output is coloured: --color, then NO_COLOR, then FORCE_COLOR, then the terminal.
bool UseColor(const std::string& when, bool to_stdout);
// Renders each --format output and writes it; false if a write failed.
bool EmitOutputs(const CliOptions& o, FailOn level,
                 const std::function<void(std::ostream&, const Output&, const EmitOptions&)>& emit,
                 EmitOptions eo = {});

// ---- the commands: exit status 0, 1 (findings at or above --fail-on) or 2 ----

int CommandScan(const CliOptions& o);       // scan_command.cc
int CommandDiff(const CliOptions& o);       // diff_command.cc
int CommandInventory(const CliOptions& o);  // inventory_command.cc
int CommandIamPolicy(const CliOptions& o);  // iam_policy_command.cc
int CommandRules(const CliOptions& o);      // rules_command.cc
int CommandExplain(const CliOptions& o);    // rules_command.cc
int CommandDumpModel(const CliOptions& o);  // dump_model_command.cc
int CommandPrices(const CliOptions& o);     // prices_command.cc
int CommandMerge(const CliOptions& o);      // merge_command.cc

}  // namespace cli
}  // namespace sagelint

#endif  // SAGELINT_LINTER_CLI_COMMANDS_H_
