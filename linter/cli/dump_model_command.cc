// `sagelint dump-model FILE ...`: the normalized model of each file (a developer aid).
#include <filesystem>
#include <iostream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/engine/dispatch.h"
#include "linter/report/model_dump.h"

namespace sagelint::cli {

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

}  // namespace sagelint::cli
