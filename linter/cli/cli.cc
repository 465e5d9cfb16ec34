// The command line's entry: the options parsed, then the command they name
// (each in its own file, linter/cli/commands.h).
#include "linter/cli/cli.h"

#include <unistd.h>

#include <iostream>
#include <optional>
#include <string>

#include "linter/base/build_info.h"
#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/cli/help_docs.h"
#include "linter/server/server.h"

namespace sagelint::cli {
namespace {

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
}  // namespace sagelint::cli

namespace sagelint {

int RunCli(int argc, char** argv) {
  using namespace cli;
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
