// GitLab Code Quality report (a JSON list of issues).
#include <nlohmann/json.hpp>

#include "linter/report/emit.h"

namespace sagelint {

void EmitGitlab(std::ostream& out, const ScanResult& scan, const EmitOptions&) {
  MachinePaths paths(scan.repository_roots);
  nlohmann::ordered_json issues = nlohmann::ordered_json::array();
  for (const Finding& f : scan.findings) {
    const char* severity = f.severity == Severity::kError     ? "critical"
                           : f.severity == Severity::kWarning ? "major"
                                                              : "minor";
    issues.push_back({{"type", "issue"},
                      {"check_name", f.rule},
                      {"description", f.rule + " " + f.message},
                      {"content", {{"body", f.suggestion}}},
                      {"categories", {"Performance"}},
                      {"severity", severity},
                      {"fingerprint", f.fingerprint},
                      {"location", {{"path", paths(f.path)}, {"lines", {{"begin", f.range.begin.line}}}}}});
  }
  out << DumpJson(issues);
}

}  // namespace sagelint
