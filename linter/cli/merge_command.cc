// `sagelint merge`: one organisation view from many repositories' scan reports.
#include <algorithm>
#include <filesystem>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <system_error>
#include <utility>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/cli/commands.h"
#include "linter/merge/merge.h"

namespace sagelint::cli {

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

}  // namespace sagelint::cli
