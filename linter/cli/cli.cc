#include "linter/cli/cli.h"

#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "linter/base/build_info.h"
#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/cache/store.h"
#include "linter/cli/config.h"
#include "linter/cli/gate_config.h"
#include "linter/cli/help_docs.h"
#include "linter/cli/scan_options.h"
#include "linter/cost/alternatives.h"
#include "linter/cost/datasets.h"
#include "linter/cost/offer_file.h"
#include "linter/cost/price_update.h"
#include "linter/cost/prices.h"
#include "linter/engine/baseline.h"
#include "linter/engine/diff.h"
#include "linter/engine/dispatch.h"
#include "linter/engine/fixes.h"
#include "linter/engine/git.h"
#include "linter/engine/parse_cache.h"
#include "linter/iam/iam_policy.h"
#include "linter/merge/identity.h"
#include "linter/merge/merge.h"
#include "linter/model/rule.h"
#include "linter/policy/policy.h"
#include "linter/report/emit.h"
#include "linter/report/inventory.h"
#include "linter/report/model_dump.h"
#include "linter/report/prices_report.h"
#include "linter/report/rules_table.h"
#include "linter/server/server.h"

namespace sagelint {
namespace {

constexpr const char* kUsage = R"(sagelint — finds Amazon SageMaker cost leaks in CloudFormation, Terraform,
SageMaker Python SDK / boto3 code and Jupyter notebooks.

Usage:
  sagelint [scan] [OPTIONS] [PATH ...]   check files and directories (default: .)
  sagelint inventory [OPTIONS] [PATH ...]  every workload: instance, count, spot, modes, idle stop,
                                         autoscaling, cost (--format table|json|csv)
  sagelint rules [--format json]         list the rules (and the configuration's custom policies)
  sagelint explain ID                    explain one rule
  sagelint iam-policy [OPTIONS] [PATH ...]  an IAM/SCP guardrail policy for the findings' classes
  sagelint diff --base REF [OPTIONS] [PATH ...]  what a change adds against git revision REF: new and
                                         resolved findings and the SageMaker spend delta
  sagelint server                        a Language Server (LSP over stdio) for editors
  sagelint completion bash|zsh|fish      a shell completion script (bash: source <(sagelint completion bash))
  sagelint prices [--prices FILE] [--format json]  the price table in use: per workload kind, how many
                                         offered instance types are priced, from which sources and dates
  sagelint prices update [--region R ...|--all-regions]  download AWS's offer files into the user cache
  sagelint prices import OFFER [--region R] [-o FILE]  the AWS Price List offer file for AmazonSageMaker
                                         (JSON or CSV) -> a compact price table for `prices:`
  sagelint merge REPORT.json|DIR ... [--repos FILE] [--format text|json|markdown|html]  one organisation
                                         view from many repositories' scan reports (scan --format json)
  sagelint --version | --help | help

Options of scan:
  --format F[=FILE]      text (default), concise, json, sarif, junit, github, gitlab, markdown;
                         repeatable, each to stdout or FILE
  --baseline FILE        hide the findings recorded in FILE (matched by fingerprint; also
                         `baseline:` in .sagelint.yaml)
  --write-baseline FILE  record the current findings in FILE (exit 0; no report unless --format)
  --report-stale-baseline  list the baseline entries that match no finding any more
  --report-name NAME     scan: the repository's name in the JSON report (default: owner/name of the git
                         remote, else the directory's name)
  --repos FILE           merge: the repositories expected, one a line (a missing report is listed)
  --base REF             diff: the git revision to compare with
  --config-from base|head  diff: check both sides under the base revision's configuration, baseline and
                         policies (base, the default: a change cannot switch its own gate off), or each
                         side under its own (head)
  --fail-on LEVEL        error | warning (default) | note | none: lowest severity that exits 1
  --config FILE          configuration (default: the .sagelint.yaml at the scan root, the git work tree
                         containing the paths, else the named directory; never the current directory's)
  --select ID,...        run only these rules
  --ignore ID,...        skip these rules
  --param KEY=VALUE      CloudFormation parameter value (repeatable)
  --var KEY=VALUE        Terraform variable value (repeatable)
  --context KEY=VALUE    CDK context value, as `cdk --context` passes it (repeatable; over cdk.json
                         and cdk.context.json)
  --param-file FILE      CloudFormation template configuration file ({"Parameters": {...}} or
                         [{"ParameterKey": ..., "ParameterValue": ...}]) applied to every template;
                         repeatable: with several, each template is evaluated once per file
  --var-file FILE        Terraform variable file (repeatable; after the module's terraform.tfvars
                         and *.auto.tfvars, before --var)
  --dataset-size S3URI=SIZE  size of the data under an S3 prefix (e.g. s3://bkt/imagenet/=1.2TB)
  --s3-listing [s3://BUCKET/=]FILE  `aws s3 ls --recursive --summarize` output or an S3 Inventory CSV
  --prices FILE          price file (ours or the AWS Price List offer file for AmazonSageMaker)
  --region R             the region whose prices to use (built-in tables: `sagelint prices`)
  --prices builtin       the built-in table, not the one `sagelint prices update` cached
  --all-regions          prices update: every commercial region with a built-in table
  --output FILE          prices import: write the table to FILE (default: standard output; also -o)
  --lifecycle-arn ARN    iam-policy: an approved lifecycle configuration (repeatable)
  --jobs N               worker threads (default: all cores)
  --cache-dir DIR        where parsed results of unchanged files are kept between scans (default:
                         $XDG_CACHE_HOME/sagelint/scan, else ~/.cache/sagelint/scan)
  --no-cache             parse every file again; read and write no cache
  --no-ignore            do not honour .gitignore files
  --report-unused-ignores  report sagelint:ignore comments that suppress nothing
  --color WHEN           auto (default: colours on a terminal, unless NO_COLOR is set or
                         FORCE_COLOR asks for them), always, never
  --no-color             same as --color never
  --wide                 inventory: every column, nothing abbreviated
  --quiet                findings only, no details and no summary
  --statistics           after the report, one row per rule: count, fixable, avoidable $/month
  --fix                  scan: apply the safe fixes in place, then report what remains
  --unsafe-fixes         scan: with --fix or --diff, also the fixes that change behaviour
  --diff                 scan: print the fixes as a unified diff and write nothing (exit 1 if any)

Every word after `--` is a path, even one that looks like an option.
Exit status: 0 no finding at or above --fail-on, 1 at least one, 2 usage or configuration error
(also a file that cannot be read or written).
)";

struct UsageError {
  std::string message;
};

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

std::pair<std::string, std::string> KeyValue(const std::string& flag, const std::string& v) {
  size_t eq = v.find('=');
  if (eq == std::string::npos || eq == 0) throw UsageError{flag + " expects KEY=VALUE, got '" + v + "'"};
  return {v.substr(0, eq), v.substr(eq + 1)};
}

std::vector<std::string> RuleIds(const std::string& flag, const std::string& v) {
  std::vector<std::string> ids;
  for (const std::string& raw : SplitList(v, ',')) {
    std::string id = Trim(raw);
    // A rule's name works as well as its ID.
    if (const RuleInfo* named = FindRuleByName(id)) id = std::string(named->id);
    if (!id.empty()) ids.push_back(id);
  }
  if (ids.empty()) throw UsageError{flag + " expects rule IDs, e.g. SM401,SM402"};
  return ids;
}

bool IsCommand(const std::string& a) {
  return a == "scan" || a == "rules" || a == "explain" || a == "dump-model" || a == "iam-policy" || a == "inventory" ||
         a == "diff" || a == "prices" || a == "merge" || a == "help" || a == "completion" || a == "manpage" ||
         a == "server";
}

// A first word that is neither a command nor an existing path: a mistyped
// command (`sagelint scna .`), named as such rather than as a missing file.
void CheckFirstWord(const std::string& word) {
  std::error_code ec;
  if (word.empty() || word[0] == '-' || std::filesystem::exists(word, ec)) return;
  if (word.find_first_of("/\\.") != std::string::npos) return;  // a path, reported as missing by the scan
  std::vector<std::string> commands;
  for (const HelpCommand& c : ParseHelp(kUsage).commands) {
    if (std::find(commands.begin(), commands.end(), c.name) == commands.end()) commands.push_back(c.name);
  }
  throw UsageError{"'" + word + "' is neither a command nor an existing path" + DidYouMeanSuffix(word, commands) +
                   " (see sagelint --help)"};
}

// A strict decimal integer: "4" yes; "4x", "1.5", " 4", "+4" no.
std::optional<int> StrictInt(const std::string& v) {
  if (v.empty() || v.size() > 9) return std::nullopt;
  for (char c : v) {
    if (c < '0' || c > '9') return std::nullopt;
  }
  return std::stoi(v);
}

// Which --format values a command accepts (empty: the command takes no --format).
std::vector<std::string> FormatsOf(const std::string& command) {
  if (command == "inventory") return {"table", "json", "csv"};
  if (command == "rules") return {"text", "json", "markdown"};
  if (command == "prices") return {"text", "json"};
  if (command == "merge") return {"text", "json", "markdown", "html"};
  if (command == "explain") return {"text", "markdown"};
  if (command == "scan" || command == "diff") {
    std::vector<std::string> names;
    for (const Emitter& e : Emitters()) names.emplace_back(e.name);
    return names;
  }
  return {};
}

void CheckFormats(const CliOptions& o) {
  // Two reports on standard output would run into each other.
  const Output* on_stdout = nullptr;
  for (const Output& out : o.outputs) {
    if (!out.file.empty()) continue;
    if (on_stdout) {
      throw UsageError{"--format " + on_stdout->format + " and --format " + out.format +
                       " would both write to standard output; send one to a file (--format " + out.format + "=FILE)"};
    }
    on_stdout = &out;
  }
  std::vector<std::string> allowed = FormatsOf(o.command);
  for (const Output& out : o.outputs) {
    if (allowed.empty()) throw UsageError{o.command + " does not take --format"};
    if (std::find(allowed.begin(), allowed.end(), out.format) != allowed.end()) continue;
    std::string list;
    for (size_t i = 0; i < allowed.size(); ++i)
      list += (i ? (i + 1 == allowed.size() ? " and " : ", ") : "") + allowed[i];
    if (o.command == "scan" || o.command == "diff") {
      throw UsageError{"unknown format '" + out.format + "'" + DidYouMeanSuffix(out.format, allowed)};
    }
    throw UsageError{o.command + " formats are " + list + ", not '" + out.format + "'"};
  }
}

CliOptions ParseArgs(int argc, char** argv) {
  CliOptions o;
  std::vector<std::string> args(argv + 1, argv + argc);
  bool only_paths = false, command_given = false;
  for (size_t i = 0; i < args.size(); ++i) {
    std::string a = args[i];
    if (only_paths || a.empty() || a[0] != '-' || a == "-") {
      // The command is the first word that is not an option (`sagelint --no-color scan .`).
      if (!only_paths && !command_given && o.args.empty() && IsCommand(a)) {
        o.command = a;
        command_given = true;
        continue;
      }
      if (!only_paths && !command_given && o.args.empty()) CheckFirstWord(a);
      o.args.push_back(a);
      continue;
    }
    if (a == "--") {
      only_paths = true;
      continue;
    }
    std::string value;
    bool inline_value = false;
    if (a.rfind("--", 0) == 0) {
      size_t eq = a.find('=');
      if (eq != std::string::npos) {
        value = a.substr(eq + 1);
        a = a.substr(0, eq);
        inline_value = true;
      }
    }
    const CliFlag* flag = FindCliFlag(a);
    if (!flag) {
      std::vector<std::string> names;
      for (const CliFlag& f : CliFlags()) {
        if (!f.hidden) names.emplace_back(f.name);
      }
      throw UsageError{"unknown flag '" + a + "'" + DidYouMeanSuffix(a, names) + " (see sagelint --help)"};
    }
    if (inline_value && !flag->takes_value) throw UsageError{a + " takes no value"};
    auto next = [&]() -> std::string {
      if (inline_value) return value;
      if (i + 1 >= args.size()) throw UsageError{a + " needs a value"};
      return args[++i];
    };
    if (a == "--help" || a == "-h") {
      o.help = true;
    } else if (a == "--version" || a == "-V") {
      o.version = true;
    } else if (a == "--format" || a == "-f") {
      std::string v = next();
      // With --format=F=FILE the first '=' was taken as the flag's.
      size_t eq = v.find('=');
      Output out{v.substr(0, eq), eq == std::string::npos ? "" : v.substr(eq + 1)};
      if (eq != std::string::npos && out.file.empty()) throw UsageError{"--format " + v + ": the file name is empty"};
      o.outputs.push_back(out);
    } else if (a == "--fail-on") {
      std::string v = next();
      o.fail_on = FailOnFromName(v);
      if (!o.fail_on) throw UsageError{"--fail-on expects error, warning, note or none, got '" + v + "'"};
    } else if (a == "--config" || a == "-c") {
      o.config_path = next();
    } else if (a == "--select") {
      for (auto& id : RuleIds(a, next())) o.select.push_back(id);
    } else if (a == "--ignore") {
      for (auto& id : RuleIds(a, next())) o.ignore.push_back(id);
    } else if (a == "--param") {
      auto [k, v] = KeyValue(a, next());
      o.params[k] = v;  // a later value wins
    } else if (a == "--var") {
      auto [k, v] = KeyValue(a, next());
      o.vars[k] = v;
    } else if (a == "--context") {
      auto [k, v] = KeyValue(a, next());
      o.context[k] = v;
    } else if (a == "--var-file") {
      o.var_files.push_back(next());
    } else if (a == "--param-file") {
      o.param_files.push_back(next());
    } else if (a == "--dataset-size") {
      o.dataset_sizes.push_back(next());
    } else if (a == "--s3-listing") {
      o.s3_listings.push_back(next());
    } else if (a == "--prices") {
      o.prices = next();
    } else if (a == "--region") {
      o.region = next();
      if (o.region.empty()) throw UsageError{"--region needs a region code, e.g. eu-west-1"};
      o.regions.push_back(o.region);
    } else if (a == "--all-regions") {
      o.all_regions = true;
    } else if (a == "--output" || a == "-o") {
      o.output = next();
    } else if (a == "--report-name") {
      o.report_name = Trim(next());
      if (o.report_name.empty()) throw UsageError{"--report-name needs a name, e.g. my-org/my-repo"};
    } else if (a == "--repos") {
      o.repos = next();
    } else if (a == "--baseline") {
      o.baseline = next();
    } else if (a == "--write-baseline") {
      o.write_baseline = next();
    } else if (a == "--base") {
      o.base = next();
    } else if (a == "--config-from") {
      o.config_from = next();
      if (o.config_from != "base" && o.config_from != "head") {
        throw UsageError{"--config-from expects base or head, got '" + o.config_from + "'"};
      }
    } else if (a == "--lifecycle-arn") {
      o.lifecycle_arns.push_back(next());
    } else if (a == "--jobs" || a == "-j") {
      std::string v = next();
      auto n = StrictInt(v);
      if (!n || *n < 1 || *n > 1024) throw UsageError{"--jobs expects a whole number from 1 to 1024, got '" + v + "'"};
      o.jobs = *n;
    } else if (a == "--timing") {
      o.timing = true;
    } else if (a == "--cache-dir") {
      o.cache_dir = next();
      if (o.cache_dir.empty()) throw UsageError{"--cache-dir needs a directory"};
    } else if (a == "--no-cache") {
      o.no_cache = true;
    } else if (a == "--color") {
      o.color = next();
      if (o.color != "auto" && o.color != "always" && o.color != "never") {
        throw UsageError{"--color expects auto, always or never, got '" + o.color + "'"};
      }
    } else if (a == "--no-color") {
      o.color = "never";
    } else if (a == "--report-stale-baseline") {
      o.report_stale_baseline = true;
    } else if (a == "--wide") {
      o.wide = true;
    } else if (a == "--fix") {
      o.fix = true;
    } else if (a == "--unsafe-fixes") {
      o.unsafe_fixes = true;
    } else if (a == "--diff") {
      o.fix_diff = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--no-ignore") {
      o.no_ignore = true;
    } else if (a == "--report-unused-ignores") {
      o.report_unused = true;
    } else if (a == "--statistics") {
      o.statistics = true;
    } else {
      throw UsageError{"unknown option '" + a + "' (see sagelint --help)"};
    }
  }
  if (o.help) o.command = "help";
  if (o.version && !o.help) o.command = "version";
  if (o.command != "help" && o.command != "version") CheckFormats(o);
  return o;
}

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

Config LoadConfigFor(const CliOptions& o, const FileSource& files = DiskFiles(), const std::string& start = {});

// A rule ID given on the command line or in the config must exist (built-in or a custom policy).
void CheckRuleIds(const std::vector<std::string>& ids, const std::string& flag,
                  const std::vector<Policy>& policies = {}) {
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

std::vector<Policy> LoadConfigPolicies(const Config& c, const FileSource& files = DiskFiles()) {
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

int CommandRules(const CliOptions& o) {
  std::vector<CustomRuleInfo> custom;
  for (const Policy& p : LoadConfigPolicies(LoadConfigFor(o))) custom.push_back({p.id, p.severity, p.message});
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"text", ""}} : o.outputs;
  for (const Output& out : outputs) {
    std::string content = out.format == "markdown" ? RulesMarkdown()
                          : out.format == "json"   ? RulesJson(custom)
                                                   : RulesText(custom);
    WriteOutput(out.file, content);
  }
  return 0;
}

int ExplainTo(const CliOptions& o, std::ostream& out) {
  if (o.args.size() != 1) throw UsageError{"explain expects one rule ID, e.g. sagelint explain SM401"};
  std::string id = o.args[0];
  for (char& c : id) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  const RuleInfo* r = FindRule(id);
  // Accept the rule name as well: `sagelint explain training-without-spot`.
  if (!r) r = FindRuleByName(o.args[0]);
  if (!r) {
    for (const Policy& p : LoadConfigPolicies(LoadConfigFor(o))) {
      if (p.id == o.args[0]) {
        // The policy comes from the scanned repository's configuration: each line printed inert.
        out << "custom policy ";
        for (const std::string& line : SplitList(DescribePolicy(p), '\n')) out << Printable(line) << "\n";
        return 0;
      }
    }
    CheckRuleIds({id}, "explain");
  }
  out << r->id << " " << r->name << " (" << SeverityName(r->severity) << ")\n" << r->summary << "\n";
  // Whether its findings fix themselves (README "Fixes"), and with which flag.
  if (std::optional<Applicability> fix = RuleFix(r->id); !fix) {
    out << "Fix: none\n\n";
  } else if (*fix == Applicability::kSafe) {
    out << "Fix: safe, applied by `sagelint scan --fix` (see Fix below)\n\n";
  } else {
    out << "Fix: unsafe (it changes behaviour: review it), applied by `sagelint scan --fix --unsafe-fixes` (see Fix "
           "below)\n\n";
  }
  if (!r->options.empty()) {
    out << "Options (.sagelint.yaml `rules: {" << r->id << ": {...}}`):\n";
    for (const RuleOption& opt : r->options) {
      out << "  " << opt.name << " (default ";
      if (opt.type == RuleOption::Type::kGlobs) {
        out << "none";
      } else {
        out << opt.default_value;
      }
      out << "): " << opt.help << "\n";
    }
    out << "\n";
  }
  out << RuleDoc(r->id);
  if (r->severity != Severity::kNote || !r->iam.condition_key.empty()) {
    out << "\nPrices in cost estimates: the " << PriceTable::BuiltIn().Describe()
        << ", each figure with its source and date (`sagelint prices` lists them). For exact figures or another "
           "region, run `sagelint prices update --region R`: later scans of that region use AWS's offer file "
           "(docs/cost-data.md).\n";
  }
  return 0;
}

bool UseColor(const std::string& when, bool to_stdout);

// For a terminal by default (no Markdown marks; bold headings with colour);
// --format markdown keeps the rule's documentation as written.
int CommandExplain(const CliOptions& o) {
  std::ostringstream out;
  int rc = ExplainTo(o, out);
  Output where = o.outputs.empty() ? Output{"text", ""} : o.outputs.front();
  WriteOutput(where.file, where.format == "markdown"
                              ? out.str()
                              : MarkdownForTerminal(out.str(), UseColor(o.color, where.file.empty())));
  return rc;
}

// Developer aid: the normalized model of each file, as the golden tests print it.
int CommandDumpModel(const CliOptions& o) {
  ResolveOptions ro;
  ro.cfn_parameters = o.params;
  ro.tf_variables = o.vars;
  ro.cdk_context = o.context;
  std::vector<DiscoveredFile> files;
  bool missing = false;
  for (const std::string& path : o.args) {
    std::string abs = std::filesystem::absolute(path).lexically_normal().string();
    std::error_code ec;
    if (!std::filesystem::is_regular_file(abs, ec)) {
      std::cerr << "sagelint: " << Printable(path) << ": "
                << (std::filesystem::exists(abs, ec) ? "not a file" : "no such file or directory") << "\n";
      missing = true;
      continue;
    }
    files.push_back(DescribeFile(abs, ScanRootOf(abs), true));
  }
  Plan plan = PlanUnits(std::move(files));
  auto dump = [](const std::vector<ParsedFile>& parsed, const std::vector<std::string>& skipped) {
    for (const ParsedFile& pf : parsed) std::cout << DumpFileResult(pf.result);
    for (const std::string& s : skipped) std::cerr << "sagelint: skipped " << Printable(s) << "\n";
  };
  for (const DiscoveredFile& file : plan.files) {
    std::vector<std::string> skipped;
    dump(ParseFile(file, ro, &skipped), skipped);
  }
  for (const WorkUnit& unit : plan.modules) {
    std::vector<std::string> skipped;
    dump(ParseUnit(unit, ro, &skipped), skipped);
  }
  std::cout.flush();
  if (!std::cout) throw UsageError{"cannot write to standard output"};
  return missing ? 2 : 0;
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
  static std::map<std::string, std::shared_ptr<ParseCache>> opened;  // by directory
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
ScanOptions BuildScanOptions(const CliOptions& o, std::optional<PriceTable>* prices, const SideContext& side = {}) {
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

int CommandIamPolicy(const CliOptions& o) {
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  so.keep_workloads = false;
  ScanResult result = Scan(so);
  if (ReportMissing(result)) return 2;
  GuardrailOptions go;
  auto it = so.config.rules.find("SM204");
  if (it != so.config.rules.end() && it->second.options.count("max_keep_alive_seconds")) {
    go.max_keep_alive_seconds = it->second.options.at("max_keep_alive_seconds");
  }
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  go.endpoint_deny_families = TrainingFamiliesWithInferenceAlternative(table, OfferKind::kEndpoint);
  go.transform_deny_families = TrainingFamiliesWithInferenceAlternative(table, OfferKind::kTransform);
  nlohmann::json policy = BuildGuardrailPolicy(result.findings, o.lifecycle_arns, go);
  if (policy.at("Statement").empty()) {
    // IAM rejects a policy without statements: say why there is none instead.
    std::cerr << "sagelint: no IAM policy: no finding of the scan is of a class an IAM condition key can prevent\n";
  } else {
    WriteOutput("", policy.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n");
    for (const std::string& note : GuardrailNotes(result.findings, o.lifecycle_arns)) {
      std::cerr << "note: " << Printable(note) << "\n";
    }
  }
  for (const CiOnlyClass& c : ClassesWithoutConditionKey(result.findings)) {
    std::cerr << "not enforceable by IAM: " << c.rule << " " << Printable(c.what) << "\n";
  }
  return 0;
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

int CommandInventory(const CliOptions& o) {
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  ScanResult result = Scan(so);
  if (ReportMissing(result)) return 2;
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"table", ""}} : o.outputs;
  std::vector<std::pair<std::string, std::string>> written;
  for (const Output& out : outputs) {
    std::ostringstream text;
    InventoryOptions io;
    io.wide = o.wide;
    io.width = TableWidth(out.file.empty());
    io.repository_roots = result.repository_roots;
    EmitInventory(text, out.format, result.workloads, table, io);
    written.emplace_back(out.file, std::move(text).str());
  }
  if (!WriteOutputs(written)) return 2;
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
                 const std::function<void(std::ostream&, const Output&, const EmitOptions&)>& emit,
                 EmitOptions eo = {}) {
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

// `sagelint merge`: scan reports (files, or the *.json files under a
// directory) -> one organisation view (docs/organisation.md). A report that
// cannot be read or is not a sagelint scan is named and skipped.
int CommandMerge(const CliOptions& o) {
  if (o.args.empty()) throw UsageError{"merge expects scan reports: sagelint merge REPORT.json ... (or a directory)"};
  std::vector<ReportText> reports;
  for (const std::string& arg : o.args) {
    std::error_code ec;
    if (std::filesystem::is_directory(arg, ec)) {
      std::vector<std::string> files;
      auto it = std::filesystem::recursive_directory_iterator(arg, ec);
      for (; !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && EndsWithNoCase(it->path().string(), ".json"))
          files.push_back(it->path().string());
      }
      if (ec) throw UsageError{arg + ": " + ec.message()};
      std::sort(files.begin(), files.end());
      if (files.empty()) std::cerr << "sagelint: warning: " << Printable(arg) << ": no .json report in it\n";
      for (const std::string& f : files) reports.push_back({f, "", ""});
    } else if (std::filesystem::exists(arg, ec)) {
      reports.push_back({arg, "", ""});
    } else {
      throw UsageError{arg + ": no such file or directory"};
    }
  }
  for (ReportText& r : reports) {
    if (!ReadFileCapped(r.file, kMaxReportBytes, &r.text, &r.error)) r.text.clear();
  }
  std::optional<std::vector<std::string>> expected;
  if (!o.repos.empty()) {
    std::string text, error;
    if (!ReadFileCapped(o.repos, kMaxConfigBytes * 16, &text, &error))
      throw UsageError{"--repos: " + o.repos + ": " + error};
    expected = ParseRepoList(text);
  }
  MergeResult merged = MergeReports(reports, expected);
  for (const SkippedReport& s : merged.skipped) {
    std::cerr << "sagelint: skipped " << Printable(s.file) << ": " << Printable(s.reason) << "\n";
  }
  for (const SkippedReport& s : merged.other_schema) {
    std::cerr << "sagelint: skipped " << Printable(s.file) << ": " << Printable(s.reason) << "\n";
  }
  for (const std::string& d : merged.duplicates) {
    std::cerr << "sagelint: warning: more than one report for " << Printable(d) << "\n";
  }
  std::vector<Output> outputs = o.outputs.empty() ? std::vector<Output>{{"text", ""}} : o.outputs;
  std::vector<std::pair<std::string, std::string>> written;
  for (const Output& out : outputs) {
    std::ostringstream text;
    if (out.format == "json") {
      EmitMergeJson(text, merged);
    } else if (out.format == "markdown") {
      EmitMergeMarkdown(text, merged);
    } else if (out.format == "html") {
      EmitMergeHtml(text, merged);
    } else {
      EmitMergeText(text, merged);
    }
    written.emplace_back(out.file, std::move(text).str());
  }
  if (!WriteOutputs(written)) return 2;
  return 0;
}

// `sagelint prices update [--region R ...|--all-regions]`: AWS's offer files
// into the user cache (docs/cost-data.md). Exit 1 when a region failed; its
// previous cached table is kept.
int CommandPricesUpdate(const CliOptions& o) {
  if (o.args.size() != 1) throw UsageError{"prices update takes no path: sagelint prices update [--region R ...]"};
  if (o.all_regions && !o.regions.empty()) throw UsageError{"prices update: --region or --all-regions, not both"};
  std::vector<std::string> regions = o.all_regions ? UpdateRegions() : o.regions;
  // Without --region: the region the configuration of this directory names
  // (a region with no table yet is exactly what an update is for).
  if (regions.empty()) {
    CliOptions here = o;
    here.args.clear();
    regions.push_back(LoadConfigFor(here, DiskFiles(), ".").region);
  }
  std::uint64_t cap = kMaxPriceFileBytes;
  // Tests stand in a smaller cap for the 512 MiB one.
  if (const char* v = std::getenv("SAGELINT_PRICE_LIST_MAX_BYTES")) {
    if (auto n = StrictInt(v); n && *n > 0) cap = static_cast<std::uint64_t>(*n);
  }
  int failed = 0;
  for (const std::string& region : regions) {
    PriceUpdate update;
    std::string error;
    if (!UpdatePrices(region, cap, &update, &error)) {
      std::cerr << "sagelint: prices update: " << Printable(error) << "\n";
      ++failed;
      continue;
    }
    std::cout << region << ": " << update.prices << " prices, published "
              << (update.published.empty() ? "(no date)" : update.published) << " -> " << Printable(update.path)
              << "\n";
  }
  return failed ? 1 : 0;
}

// `sagelint prices`: the table in use; `sagelint prices import OFFER`: an
// offer file -> our compact table, with what was skipped on standard error.
int CommandPrices(const CliOptions& o) {
  if (!o.args.empty() && o.args[0] == "import") {
    if (o.args.size() != 2) {
      throw UsageError{"prices import expects one offer file: sagelint prices import OFFER [--region R] [-o FILE]"};
    }
    const std::string& path = o.args[1];
    std::string text, why;
    if (!ReadFileCapped(path, kMaxPriceFileBytes, &text, &why)) throw UsageError{path + ": cannot read: " + why};
    OfferImport offer;
    if (!ImportOffer(text, o.region, &offer, &why)) throw UsageError{path + ": " + why};
    WriteOutput(o.output, CompactTable(offer, std::filesystem::path(path).filename().string()));
    for (const std::string& line : offer.Report()) std::cerr << "sagelint: " << Printable(line) << "\n";
    if (!o.output.empty()) std::cerr << "sagelint: wrote " << Printable(o.output) << "\n";
    return 0;
  }
  if (!o.args.empty() && o.args[0] == "update") return CommandPricesUpdate(o);
  if (!o.args.empty())
    throw UsageError{"prices takes no path; did you mean `sagelint prices import " + o.args[0] + "`?"};
  std::optional<PriceTable> prices;
  ScanOptions so = BuildScanOptions(o, &prices);
  const PriceTable& table = so.prices ? *so.prices : PriceTable::BuiltIn();
  bool json = !o.outputs.empty() && o.outputs.front().format == "json";
  WriteOutput(o.outputs.empty() ? "" : o.outputs.front().file, json ? PricesJson(table) : PricesText(table));
  return 0;
}

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
    if (path.empty()) return;
    gate->baseline_path = path;
    std::string flag = o.baseline.empty() ? "baseline: " : "--baseline ";
    if (!files.Exists(path)) {
      if (&files == tree.get()) notes.push_back(flag + path + " does not exist there; no finding is hidden by it");
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

int CommandCompletion(const CliOptions& o) {
  std::string shells;
  for (const std::string& sh : CompletionShells()) shells += (shells.empty() ? "" : "|") + sh;
  if (o.args.size() != 1) throw UsageError{"completion expects one shell: sagelint completion " + shells};
  std::optional<std::string> script = CompletionScript(o.args[0], kUsage, FormatsOf);
  if (!script) throw UsageError{"completion: unknown shell '" + o.args[0] + "' (" + shells + ")"};
  WriteOutput("", *script);
  return 0;
}

}  // namespace

int RunCli(int argc, char** argv) {
  try {
    CliOptions o = ParseArgs(argc, argv);
    if (o.command == "help") {
      WriteOutput("", kUsage);
      return 0;
    }
    if (o.command == "version") {
      std::string commit(BuildCommit());
      WriteOutput(
          "", std::string("sagelint ") + SAGELINT_VERSION + (commit.empty() ? "" : " (commit " + commit + ")") + "\n");
      return 0;
    }
    if ((o.fix || o.unsafe_fixes || o.fix_diff) && o.command != "scan") {
      throw UsageError{"--fix, --unsafe-fixes and --diff are options of scan"};
    }
    if (o.unsafe_fixes && !o.fix && !o.fix_diff) throw UsageError{"--unsafe-fixes goes with --fix or --diff"};
    if (o.statistics && o.command != "scan") throw UsageError{"--statistics is an option of scan"};
    if ((o.fix || o.fix_diff) && !o.write_baseline.empty()) {
      throw UsageError{"--write-baseline records findings as they are: it does not go with --fix or --diff"};
    }
    if (!o.repos.empty() && o.command != "merge") throw UsageError{"--repos is an option of merge"};
    if (!o.report_name.empty() && o.command != "scan") throw UsageError{"--report-name is an option of scan"};
    if ((!o.cache_dir.empty() || o.no_cache) && o.command != "scan" && o.command != "inventory" &&
        o.command != "iam-policy" && o.command != "diff" && o.command != "dump-model") {
      throw UsageError{std::string(o.no_cache ? "--no-cache" : "--cache-dir") +
                       " is an option of scan, inventory, iam-policy and diff"};
    }
    if (o.no_cache && !o.cache_dir.empty()) throw UsageError{"--no-cache and --cache-dir do not go together"};
    if (o.command == "rules") return CommandRules(o);
    if (o.command == "explain") return CommandExplain(o);
    if (o.command == "dump-model") return CommandDumpModel(o);
    if (o.command == "iam-policy") return CommandIamPolicy(o);
    if (o.command == "inventory") return CommandInventory(o);
    if (o.command == "diff") return CommandDiff(o);
    if (o.command == "completion") return CommandCompletion(o);
    if (o.command == "manpage") {  // hidden: the build writes sagelint.1 with it
      WriteOutput("", ManPage(kUsage, SAGELINT_VERSION));
      return 0;
    }
    if (o.command == "prices") return CommandPrices(o);
    if (o.command == "merge") return CommandMerge(o);
    if (o.command == "server") {
      if (!o.args.empty()) throw UsageError{"server takes no arguments: it speaks LSP on standard input and output"};
      return RunServer(STDIN_FILENO, STDOUT_FILENO);
    }
    return CommandScan(o);
  } catch (const UsageError& e) {
    // Messages quote arguments and file contents: print them inert.
    std::cerr << "sagelint: " << Printable(e.message) << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "sagelint: internal error: " << Printable(e.what()) << "\n";
    return 2;
  }
}

}  // namespace sagelint
