// The command line read into CliOptions: the usage text, the flags, formats
// per command and the checks that need no file (docs/maintaining.md).
#include <algorithm>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/config.h"
#include "linter/cli/help_docs.h"
#include "linter/model/rule.h"
#include "linter/report/emit.h"

namespace sagelint::cli {
namespace {

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

// One flag `a` (a known one: FindCliFlag found it) into `o`; `next` gives its value.
void SetFlag(const std::string& a, const std::function<std::string()>& next, CliOptions* o) {
  if (a == "--help" || a == "-h") {
    o->help = true;
  } else if (a == "--version" || a == "-V") {
    o->version = true;
  } else if (a == "--format" || a == "-f") {
    std::string v = next();
    // With --format=F=FILE the first '=' was taken as the flag's.
    size_t eq = v.find('=');
    Output out{v.substr(0, eq), eq == std::string::npos ? "" : v.substr(eq + 1)};
    if (eq != std::string::npos && out.file.empty()) throw UsageError{"--format " + v + ": the file name is empty"};
    o->outputs.push_back(out);
  } else if (a == "--fail-on") {
    std::string v = next();
    o->fail_on = FailOnFromName(v);
    if (!o->fail_on) throw UsageError{"--fail-on expects error, warning, note or none, got '" + v + "'"};
  } else if (a == "--config" || a == "-c") {
    o->config_path = next();
  } else if (a == "--select") {
    for (auto& id : RuleIds(a, next())) o->select.push_back(id);
  } else if (a == "--ignore") {
    for (auto& id : RuleIds(a, next())) o->ignore.push_back(id);
  } else if (a == "--param") {
    auto [k, v] = KeyValue(a, next());
    o->params[k] = v;  // a later value wins
  } else if (a == "--var") {
    auto [k, v] = KeyValue(a, next());
    o->vars[k] = v;
  } else if (a == "--context") {
    auto [k, v] = KeyValue(a, next());
    o->context[k] = v;
  } else if (a == "--var-file") {
    o->var_files.push_back(next());
  } else if (a == "--param-file") {
    o->param_files.push_back(next());
  } else if (a == "--dataset-size") {
    o->dataset_sizes.push_back(next());
  } else if (a == "--s3-listing") {
    o->s3_listings.push_back(next());
  } else if (a == "--prices") {
    o->prices = next();
  } else if (a == "--region") {
    o->region = next();
    if (o->region.empty()) throw UsageError{"--region needs a region code, e.g. eu-west-1"};
    o->regions.push_back(o->region);
  } else if (a == "--all-regions") {
    o->all_regions = true;
  } else if (a == "--output" || a == "-o") {
    o->output = next();
  } else if (a == "--report-name") {
    o->report_name = Trim(next());
    if (o->report_name.empty()) throw UsageError{"--report-name needs a name, e.g. my-org/my-repo"};
  } else if (a == "--repos") {
    o->repos = next();
  } else if (a == "--baseline") {
    o->baseline = next();
  } else if (a == "--write-baseline") {
    o->write_baseline = next();
  } else if (a == "--base") {
    o->base = next();
  } else if (a == "--config-from") {
    o->config_from = next();
    if (o->config_from != "base" && o->config_from != "head") {
      throw UsageError{"--config-from expects base or head, got '" + o->config_from + "'"};
    }
  } else if (a == "--lifecycle-arn") {
    o->lifecycle_arns.push_back(next());
  } else if (a == "--jobs" || a == "-j") {
    std::string v = next();
    auto n = StrictInt(v);
    if (!n || *n < 1 || *n > 1024) throw UsageError{"--jobs expects a whole number from 1 to 1024, got '" + v + "'"};
    o->jobs = *n;
  } else if (a == "--timing") {
    o->timing = true;
  } else if (a == "--cache-dir") {
    o->cache_dir = next();
    if (o->cache_dir.empty()) throw UsageError{"--cache-dir needs a directory"};
  } else if (a == "--no-cache") {
    o->no_cache = true;
  } else if (a == "--color") {
    o->color = next();
    if (o->color != "auto" && o->color != "always" && o->color != "never") {
      throw UsageError{"--color expects auto, always or never, got '" + o->color + "'"};
    }
  } else if (a == "--no-color") {
    o->color = "never";
  } else if (a == "--report-stale-baseline") {
    o->report_stale_baseline = true;
  } else if (a == "--wide") {
    o->wide = true;
  } else if (a == "--fix") {
    o->fix = true;
  } else if (a == "--unsafe-fixes") {
    o->unsafe_fixes = true;
  } else if (a == "--diff") {
    o->fix_diff = true;
  } else if (a == "--quiet" || a == "-q") {
    o->quiet = true;
  } else if (a == "--no-ignore") {
    o->no_ignore = true;
  } else if (a == "--report-unused-ignores") {
    o->report_unused = true;
  } else if (a == "--statistics") {
    o->statistics = true;
  } else {
    throw UsageError{"unknown option '" + a + "' (see sagelint --help)"};
  }
}

}  // namespace

const char* const kUsage = R"(sagelint — finds Amazon SageMaker cost leaks in CloudFormation, Terraform,
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
    SetFlag(a, next, &o);
  }
  if (o.help) o.command = "help";
  if (o.version && !o.help) o.command = "version";
  if (o.command != "help" && o.command != "version") CheckFormats(o);
  return o;
}

}  // namespace sagelint::cli
