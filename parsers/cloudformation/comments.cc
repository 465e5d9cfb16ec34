// CloudFormation's comments: the YAML library it loads templates with drops
// them, so they are found here, line by line.
#include "parsers/common/comments.h"

#include <string>
#include <string_view>
#include <vector>

#include "linter/base/strings.h"

namespace sagelint::cfn {

std::vector<Comment> YamlComments(std::string_view text) {
  std::vector<Comment> out;
  int line_number = 0;
  enum class State { kPlain, kDouble, kSingle } state = State::kPlain;
  bool in_block = false;
  int block_parent = 0, block_indent = -1;
  int flow = 0;  // depth of [ and { (in flow style a ':' may touch the value)
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    int indent = 0;
    while (indent < static_cast<int>(line.size()) && line[indent] == ' ') ++indent;
    bool blank = line.find_first_not_of(" \t") == std::string_view::npos;
    if (in_block) {
      // A block scalar holds every blank line and every line indented at least
      // as far as its first content line (which is deeper than its parent).
      if (blank) {
        start = end + 1;
        continue;
      }
      if (block_indent < 0 && indent > block_parent) block_indent = indent;
      if (block_indent >= 0 && indent >= block_indent) {
        start = end + 1;
        continue;
      }
      in_block = false;
    }
    bool value_start = state == State::kPlain;  // a quote here opens a quoted scalar
    bool after_quote = false;
    size_t comment_at = std::string_view::npos;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      if (state == State::kDouble) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          state = State::kPlain;
          value_start = false;
          after_quote = true;
        }
        continue;
      }
      if (state == State::kSingle) {
        if (c == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
          ++i;
        } else if (c == '\'') {
          state = State::kPlain;
          value_start = false;
          after_quote = true;
        }
        continue;
      }
      if (IsBlank(c)) continue;
      if (c == '#' && (i == 0 || IsBlank(line[i - 1]))) {
        comment_at = i;
        break;
      }
      bool closing_quote = after_quote;
      after_quote = false;
      if ((c == '"' || c == '\'') && value_start) {
        state = c == '"' ? State::kDouble : State::kSingle;
        continue;
      }
      bool spaced = i + 1 == line.size() || IsBlank(line[i + 1]);
      if (c == '[' || c == '{') {
        ++flow;
        value_start = true;
      } else if (c == ',') {
        value_start = true;
      } else if (c == ']' || c == '}') {
        if (flow > 0) --flow;
        value_start = false;
      } else if (c == ':' && (spaced || closing_quote || flow > 0)) {
        value_start = true;
      } else if ((c == '-' || c == '?') && spaced) {
        value_start = true;
      } else if ((c == '!' || c == '&') && value_start) {
        // A tag or an anchor before the value: the value still starts after it.
        while (i + 1 < line.size() && !IsBlank(line[i + 1])) ++i;
      } else {
        value_start = false;
      }
    }
    if (comment_at != std::string_view::npos) {
      // From the marker to the end of the line (a `\r` before it included).
      out.push_back({line_number, static_cast<int>(comment_at) + 1,
                     std::string(text.substr(start + comment_at, end - start - comment_at))});
    }
    if (state == State::kPlain) {
      // A block scalar header: the line's last token is `|` or `>` with optional indicators.
      std::string_view content = line.substr(0, comment_at == std::string_view::npos ? line.size() : comment_at);
      while (!content.empty() && IsBlank(content.back())) content.remove_suffix(1);
      size_t sp = content.find_last_of(" \t");
      std::string_view token = sp == std::string_view::npos ? content : content.substr(sp + 1);
      bool header = !token.empty() && (token[0] == '|' || token[0] == '>');
      for (size_t k = 1; header && k < token.size(); ++k) {
        header = token[k] == '-' || token[k] == '+' || (token[k] >= '0' && token[k] <= '9');
      }
      if (header && flow == 0) {
        in_block = true;
        block_parent = indent;
        block_indent = -1;
      }
    }
    start = end + 1;
  }
  return out;
}

}  // namespace sagelint::cfn
