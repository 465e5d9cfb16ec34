#include "linter/report/emit.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/report/json_list.h"

namespace sagelint {

const std::vector<Emitter>& Emitters() {
  static const std::vector<Emitter> emitters = {
      {"text", EmitText},     {"json", EmitJson},     {"sarif", EmitSarif},       {"junit", EmitJunit},
      {"github", EmitGithub}, {"gitlab", EmitGitlab}, {"markdown", EmitMarkdown}, {"concise", EmitConcise},
  };
  return emitters;
}

const Emitter* FindEmitter(std::string_view name) {
  for (const Emitter& e : Emitters()) {
    if (e.name == name) return &e;
  }
  return nullptr;
}

MachinePaths::MachinePaths(std::vector<std::string> repository_roots) : roots_(std::move(repository_roots)) {
  std::error_code ec;
  cwd_ = std::filesystem::current_path(ec).generic_string();
  // The innermost repository wins (a submodule inside its superproject).
  std::stable_sort(roots_.begin(), roots_.end(),
                   [](const std::string& a, const std::string& b) { return a.size() > b.size(); });
}

MachinePaths::Located MachinePaths::Locate(const std::string& display) const {
  namespace fs = std::filesystem;
  if (auto it = cache_.find(display); it != cache_.end()) return it->second;
  Located out{display, roots_.size()};
  if (!roots_.empty()) {
    // The roots are canonical: so is the file's directory (the file itself may be a link, named where it stands).
    std::error_code ec;
    fs::path abs = fs::absolute(display, ec).lexically_normal();
    fs::path dir = fs::weakly_canonical(abs.parent_path(), ec);
    std::string full = (dir / abs.filename()).generic_string();
    for (size_t i = 0; i < roots_.size(); ++i) {
      if (auto rel = PathBelow(full, roots_[i])) {
        out = {*rel, i};
        break;
      }
    }
  }
  if (out.base == roots_.size()) uses_cwd_ = true;
  cache_.emplace(display, out);
  return out;
}

std::vector<std::string> MachinePaths::Bases() const {
  std::vector<std::string> bases = roots_;
  if (uses_cwd_ || roots_.empty()) bases.push_back(cwd_);
  return bases;
}

const char* SeverityIcon(Severity s) {
  switch (s) {
    case Severity::kError:
      return "🔴";
    case Severity::kWarning:
      return "🟠";
    default:
      return "🔵";
  }
}

Tally CountFindings(const std::vector<Finding>& findings) {
  Tally t;
  for (const Finding& f : findings) {
    switch (f.severity) {
      case Severity::kError:
        ++t.errors;
        break;
      case Severity::kWarning:
        ++t.warnings;
        break;
      case Severity::kNote:
        ++t.notes;
        break;
    }
  }
  return t;
}

std::string DumpJson(const nlohmann::ordered_json& doc) {
  return doc.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

void WriteJsonWithList(std::ostream& out, const nlohmann::ordered_json& doc, size_t count,
                       const std::function<nlohmann::ordered_json(size_t)>& element) {
  WriteJsonWithTextList(out, doc, count, [&](size_t i, std::string_view step, std::string* text) {
    std::string e = element(i).dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
    // A newline in a dumped document only ever separates lines: strings escape theirs.
    size_t from = 0;
    for (size_t nl = e.find('\n'); nl != std::string::npos; from = nl + 1, nl = e.find('\n', from)) {
      text->append(e, from, nl + 1 - from);
      text->append(step);
    }
    text->append(e, from, std::string::npos);
  });
}

void WriteJsonWithTextList(std::ostream& out, const nlohmann::ordered_json& doc, size_t count,
                           const std::function<void(size_t, std::string_view, std::string*)>& element) {
  std::string text = DumpJson(doc);
  std::string marker = nlohmann::ordered_json(std::string(kJsonListHere)).dump();
  size_t at = text.find(marker);
  if (at == std::string::npos) {
    out << text;
    return;
  }
  // The list is indented as its member's line; its elements one step (2) further.
  size_t line = text.rfind('\n', at);
  line = line == std::string::npos ? 0 : line + 1;
  std::string indent(text.find_first_not_of(' ', line) - line, ' ');
  std::string step = indent + "  ";
  out.write(text.data(), static_cast<std::streamsize>(at));
  if (count == 0) {
    out << "[]";
  } else {
    out << "[\n";
    std::string e;
    for (size_t i = 0; i < count; ++i) {
      e.clear();
      element(i, step, &e);
      out << step;
      out.write(e.data(), static_cast<std::streamsize>(e.size()));
      out << (i + 1 < count ? ",\n" : "\n");
    }
    out << indent << "]";
  }
  out.write(text.data() + at + marker.size(), static_cast<std::streamsize>(text.size() - at - marker.size()));
}

std::string MarkdownText(std::string_view s) {
  std::string text = Printable(s);
  std::string out;
  out.reserve(text.size() + text.size() / 4);
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    switch (c) {
      // HTML and entities: shown as typed, never interpreted.
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        out += "&amp;";
        break;
      // Links and images (no `[` `]`, so no `](…)`), emphasis, code,
      // strike-through, table cells, mentions and e-mail autolinks: a
      // backslash makes each literal.
      case '[':
      case ']':
      case '*':
      case '_':
      case '`':
      case '~':
      case '|':
      case '\\':
      case '@':
        out += '\\';
        out += c;
        break;
      case ':':
        // "https://…" starts an autolink.
        if (text.compare(i + 1, 2, "//") == 0) out += '\\';
        out += c;
        break;
      case '.':
        // "www." starts an autolink.
        if (i >= 3 && (text.compare(i - 3, 3, "www") == 0 || text.compare(i - 3, 3, "WWW") == 0)) out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string UriPath(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '/' || c == '.' || c == '-' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string MarkdownCode(std::string_view s) {
  std::string text = Printable(s);
  // A code span is closed only by a backtick run of its own length: use one longer than any inside.
  size_t longest = 0, run = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
  }
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';  // a table cell ends at '|' even inside a code span
    out += c;
  }
  std::string fence(longest + 1, '`');
  bool pad = !out.empty() && (out.front() == '`' || out.back() == '`');
  return fence + (pad ? " " : "") + out + (pad ? " " : "") + fence;
}

std::string TallyText(const Tally& t) {
  auto part = [](int n, const char* one, const char* many) { return std::to_string(n) + " " + (n == 1 ? one : many); };
  return part(t.errors, "error", "errors") + ", " + part(t.warnings, "warning", "warnings") + ", " +
         part(t.notes, "note", "notes");
}

}  // namespace sagelint
