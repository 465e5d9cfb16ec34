#include "linter/engine/suppress.h"

#include <cctype>

#include "linter/model/rule.h"

namespace sagelint {
std::vector<Comment> FindComments(std::string_view text, CommentSyntax syntax) {
  return syntax.find ? syntax.find(text) : std::vector<Comment>{};
}

std::vector<Comment> SagelintComments(std::string_view text, CommentSyntax syntax) {
  if (text.find("sagelint:") == std::string_view::npos) return {};
  return SagelintComments(FindComments(text, syntax));
}

std::vector<Comment> SagelintComments(std::vector<Comment> comments) {
  std::vector<Comment> out;
  for (Comment& c : comments) {
    if (c.text.find("sagelint:") != std::string::npos) out.push_back(std::move(c));
  }
  return out;
}

std::vector<IgnoreDirective> FindIgnoreDirectives(std::string_view text, CommentSyntax syntax) {
  return FindIgnoreDirectives(SagelintComments(text, syntax));
}

std::vector<IgnoreDirective> FindIgnoreDirectives(const std::vector<Comment>& comments) {
  static constexpr std::string_view kMarker = "sagelint:ignore=";
  std::vector<IgnoreDirective> out;
  for (const Comment& c : comments) {
    for (size_t pos = c.text.find(kMarker); pos != std::string::npos; pos = c.text.find(kMarker, pos)) {
      IgnoreDirective d;
      d.line = c.line;
      d.column = c.column + static_cast<int>(pos);
      pos += kMarker.size();
      std::string id;
      auto flush = [&] {
        // A rule's name works as well as its ID, as in the configuration (rules/SMxxx.md "Suppress").
        if (const RuleInfo* named = id.empty() ? nullptr : FindRuleByName(id)) id = std::string(named->id);
        if (!id.empty()) d.ids.push_back(id);
        id.clear();
      };
      for (; pos < c.text.size(); ++pos) {
        char ch = c.text[pos];
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_' || ch == '-') {
          id += ch;
        } else if (ch == ',') {
          flush();
        } else {
          break;
        }
      }
      flush();
      d.used.assign(d.ids.size(), false);
      if (!d.ids.empty()) out.push_back(std::move(d));
    }
  }
  return out;
}

SuppressionIndex::SuppressionIndex(std::vector<IgnoreDirective> directives) : directives_(std::move(directives)) {
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
