// GitHub Actions workflow commands: annotations on the pull request's files.
#include "linter/report/emit.h"

namespace sagelint {
namespace {

std::string Escape(std::string_view s, bool property) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      case ':': out += property ? "%3A" : ":"; break;
      case ',': out += property ? "%2C" : ","; break;
      default: out += c;
    }
  }
  return out;
}

}  // namespace

void EmitGithub(std::ostream& out, const ScanResult& scan, const EmitOptions&) {
  for (const Finding& f : scan.findings) {
    const char* level = f.severity == Severity::kError ? "error" : f.severity == Severity::kWarning ? "warning" : "notice";
    std::string text = f.message;
    if (!f.suggestion.empty()) text += "\nhelp: " + f.suggestion;
    out << "::" << level << " file=" << Escape(f.path, true) << ",line=" << f.range.begin.line
        << ",col=" << f.range.begin.column;
    if (f.range.end.valid()) out << ",endLine=" << f.range.end.line;
    out << ",title=" << Escape(f.rule + " " + f.name, true) << "::" << Escape(text, false) << "\n";
  }
}

}  // namespace sagelint
