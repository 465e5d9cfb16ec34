// GitHub Actions workflow commands: annotations on the pull request's files.
#include "linter/base/strings.h"
#include "linter/report/emit.h"

namespace sagelint {
namespace {

std::string Escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%':
        out += "%25";
        break;
      case '\r':
        out += "%0D";
        break;
      case '\n':
        out += "%0A";
        break;
      case ':':
        out += property ? "%3A" : ":";
        break;
      case ',':
        out += property ? "%2C" : ",";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

void EmitGithub(std::ostream& out, const ScanResult& scan, const EmitOptions&) {
  MachinePaths paths(scan.repository_roots);
  for (const Finding& f : scan.findings) {
    const char* level = f.severity == Severity::kError     ? "error"
                        : f.severity == Severity::kWarning ? "warning"
                                                           : "notice";
    // Everything is shown in the log and on the pull request, and may come from a scanned file (its name, a
    // resource name, a custom policy's ID): no control characters, valid UTF-8.
    std::string text = Printable(f.message);
    if (!f.suggestion.empty()) text += "\nhelp: " + Printable(f.suggestion);
    out << "::" << level << " file=" << Escape(Printable(paths(f.path)), true) << ",line=" << f.range.begin.line
        << ",col=" << f.range.begin.column;
    if (f.range.end.valid()) out << ",endLine=" << f.range.end.line;
    out << ",title=" << Escape(Printable(f.rule + " " + f.name), true) << "::" << Escape(text, false) << "\n";
  }
}

}  // namespace sagelint
