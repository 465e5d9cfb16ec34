// JUnit XML: one failed test case per finding at or above --fail-on (CI systems
// show them as failed tests).
#include "linter/base/strings.h"
#include "linter/report/emit.h"

namespace sagelint {
// Text for XML: valid UTF-8, markup escaped, control characters XML forbids dropped.
std::string XmlText(std::string_view raw) {
  std::string s = ValidUtf8(raw);
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') out += c;
    }
  }
  return out;
}

void EmitJunit(std::ostream& out, const ScanResult& scan, const EmitOptions& opts) {
  // A test case per finding that fails the run: a finding below --fail-on is
  // not a failure, so a job that passes never shows a failed test.
  std::vector<const Finding*> failing;
  for (const Finding& f : scan.findings) {
    if (opts.fail_threshold && f.severity >= *opts.fail_threshold) failing.push_back(&f);
  }
  size_t n = failing.size();
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"sagelint\" tests=\"" << std::max<size_t>(n, 1) << "\" failures=\"" << n << "\">\n"
      << "  <testsuite name=\"sagelint\" tests=\"" << std::max<size_t>(n, 1) << "\" failures=\"" << n << "\">\n";
  if (n == 0) {
    out << "    <testcase classname=\"sagelint\" name=\"scan of " << scan.files_scanned << " files";
    if (size_t below = scan.findings.size()) {
      out << " (" << below << (below == 1 ? " finding" : " findings") << " below --fail-on)";
    }
    out << "\"/>\n";
  }
  MachinePaths paths(scan.repository_roots);
  for (const Finding* fp : failing) {
    const Finding& f = *fp;
    std::string path = paths(f.path);
    std::string where = path + ":" + std::to_string(f.range.begin.line) + ":" + std::to_string(f.range.begin.column);
    out << "    <testcase classname=\"" << XmlText(path) << "\" name=\""
        << XmlText(f.rule + " " + f.resource + " (" + where + ")") << "\" file=\"" << XmlText(path) << "\" line=\""
        << f.range.begin.line << "\">\n"
        << "      <failure type=\"" << XmlText(f.rule) << "\" message=\"" << XmlText(f.message) << "\">"
        << XmlText(where) << ": " << SeverityName(f.severity) << "[" << XmlText(f.rule) << "] " << XmlText(f.message);
    if (!f.suggestion.empty()) out << "\nhelp: " << XmlText(f.suggestion);
    out << "</failure>\n    </testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace sagelint
