#include "linter/engine/suppress.h"

#include <cctype>

namespace sagelint {

std::vector<IgnoreDirective> FindIgnoreDirectives(std::string_view text) {
  static constexpr std::string_view kMarker = "sagelint:ignore=";
  std::vector<IgnoreDirective> out;
  size_t pos = 0;
  while ((pos = text.find(kMarker, pos)) != std::string_view::npos) {
    size_t line_start = text.rfind('\n', pos);
    line_start = line_start == std::string_view::npos ? 0 : line_start + 1;
    std::string_view before = text.substr(line_start, pos - line_start);
    size_t ids_start = pos + kMarker.size();
    pos = ids_start;
    if (before.find('#') == std::string_view::npos && before.find("//") == std::string_view::npos) continue;
    IgnoreDirective d;
    d.line = 1;
    for (size_t i = 0; i < line_start; ++i) d.line += text[i] == '\n';
    d.column = static_cast<int>(pos - kMarker.size() - line_start) + 1;
    std::string id;
    auto flush = [&] {
      if (!id.empty()) d.ids.push_back(id);
      id.clear();
    };
    for (size_t i = ids_start; i < text.size(); ++i) {
      char c = text[i];
      if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') {
        id += c;
      } else if (c == ',') {
        flush();
      } else {
        break;
      }
    }
    flush();
    d.used.assign(d.ids.size(), false);
    if (!d.ids.empty()) out.push_back(std::move(d));
  }
  return out;
}

SuppressionIndex::SuppressionIndex(std::vector<IgnoreDirective> directives)
    : directives_(std::move(directives)) {
  for (size_t i = 0; i < directives_.size(); ++i) by_line_[directives_[i].line] = i;
}

bool SuppressionIndex::Covers(int line, const std::string& rule) {
  auto it = by_line_.find(line);
  if (it == by_line_.end()) return false;
  IgnoreDirective& d = directives_[it->second];
  for (size_t i = 0; i < d.ids.size(); ++i) {
    if (d.ids[i] == rule) {
      d.used[i] = true;
      return true;
    }
  }
  return false;
}

bool SuppressionIndex::Suppresses(const Finding& f) {
  if (directives_.empty()) return false;
  int l = f.range.begin.line;
  int r = f.resource_range.begin.line;
  bool hit = Covers(l, f.rule) || Covers(l - 1, f.rule);
  if (r > 0) hit = Covers(r, f.rule) || Covers(r - 1, f.rule) || hit;
  return hit;
}

}  // namespace sagelint
