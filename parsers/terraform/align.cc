// Attribute alignment as `terraform fmt` writes it (see align.h): each line is
// read on its own — strings, template interpolations, comments and brackets —
// with only heredocs and block comments carried from one line to the next.
#include "parsers/terraform/align.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace sagelint::tf {
namespace {

// What one line holds, in offsets from the line's start.
struct LineInfo {
  size_t begin = 0;      // the line's first byte in the text
  size_t end = 0;        // before its line break (and a \r before it)
  bool assign = false;   // `key = value` with the value whole on the line
  size_t eq = 0;         // the `=` of an assignment
  bool comment = false;  // ends with a `#` or `//` comment after code
  size_t comment_at = 0;
};

bool Space(char c) { return c == ' ' || c == '\t'; }

// Reads the lines of a text in order, carrying heredocs and block comments.
class LineReader {
 public:
  LineInfo Read(std::string_view line) {
    LineInfo info;
    if (!heredoc_.empty()) {
      size_t a = 0, b = line.size();
      while (a < b && Space(line[a])) ++a;
      while (b > a && Space(line[b - 1])) --b;
      if (line.substr(a, b - a) == heredoc_) heredoc_.clear();
      return info;
    }
    // Contexts: code (with its bracket depth) or a string; an interpolation
    // inside a string is code again until its closing brace.
    enum class Ctx { kCode, kString };
    std::vector<std::pair<Ctx, int>> stack = {{Ctx::kCode, 0}};
    bool content = false;  // code before this point on the line
    bool seen_eq = false;
    int net = 0;  // brackets opened since the `=`
    size_t eq = 0;
    std::string heredoc;
    for (size_t i = 0; i < line.size(); ++i) {
      char c = line[i];
      char next = i + 1 < line.size() ? line[i + 1] : '\0';
      if (in_block_comment_) {
        if (c == '*' && next == '/') {
          in_block_comment_ = false;
          ++i;
        }
        continue;
      }
      auto& [ctx, depth] = stack.back();
      if (ctx == Ctx::kString) {
        if (c == '\\') {
          ++i;
        } else if (c == '"') {
          stack.pop_back();
        } else if ((c == '$' || c == '%') && next == '{') {
          // `$${` and `%%{` are literal text.
          if (i > 0 && line[i - 1] == c) continue;
          stack.push_back({Ctx::kCode, 0});
          if (seen_eq) ++net;
          ++i;
        }
        continue;
      }
      if (c == '#' || (c == '/' && next == '/')) {
        if (content) {
          info.comment = true;
          info.comment_at = i;
        }
        break;
      }
      if (c == '/' && next == '*') {
        in_block_comment_ = true;
        ++i;
        continue;
      }
      if (Space(c) || c == '\r') continue;
      if (c == '"') {
        stack.push_back({Ctx::kString, 0});
        content = true;
        continue;
      }
      if (c == '<' && next == '<' && heredoc.empty()) {
        size_t k = i + 2;
        if (k < line.size() && line[k] == '-') ++k;
        size_t start = k;
        while (k < line.size() && (std::isalnum(static_cast<unsigned char>(line[k])) || line[k] == '_')) ++k;
        if (k > start) {
          heredoc = std::string(line.substr(start, k - start));
          content = true;
          i = k - 1;
          continue;
        }
      }
      if (c == '{' || c == '[' || c == '(') {
        ++depth;
        if (seen_eq) ++net;
      } else if (c == '}' || c == ']' || c == ')') {
        if (seen_eq) --net;
        if (c == '}' && depth == 0 && stack.size() > 1) {
          stack.pop_back();  // the end of an interpolation: back in its string
        } else {
          --depth;
        }
      } else if (c == '=' && !seen_eq && content && stack.size() == 1) {
        char prev = line[i - 1];
        bool op = next == '=' || next == '>' || prev == '=' || prev == '!' || prev == '<' || prev == '>';
        if (!op) {
          seen_eq = true;
          eq = i;
        }
      }
      content = true;
    }
    if (!heredoc.empty()) heredoc_ = heredoc;
    if (seen_eq && net == 0) {
      info.assign = true;
      info.eq = eq;
    }
    return info;
  }

 private:
  std::string heredoc_;  // inside a heredoc: its closing marker
  bool in_block_comment_ = false;
};

std::vector<LineInfo> Lines(std::string_view text) {
  std::vector<LineInfo> out;
  LineReader reader;
  size_t at = 0;
  while (at <= text.size()) {
    size_t nl = text.find('\n', at);
    size_t stop = nl == std::string_view::npos ? text.size() : nl;
    size_t end = stop > at && text[stop - 1] == '\r' ? stop - 1 : stop;
    LineInfo info = reader.Read(text.substr(at, end - at));
    info.begin = at;
    info.end = end;
    out.push_back(info);
    if (nl == std::string_view::npos) break;
    at = nl + 1;
  }
  return out;
}

// The width of a line's text before `at`, trailing blanks aside.
size_t Width(std::string_view line, size_t at) {
  while (at > 0 && Space(line[at - 1])) --at;
  return at;
}

// The cell at `at[k]` of each run of consecutive lines that have one (not
// npos), where the run holds a line `wanted` takes: one space after the
// widest text before the cells of the run. `at` follows the lines it moves;
// `changed` gets them.
template <class Wanted>
void AlignRuns(std::vector<std::string>& out, std::vector<size_t>& at, Wanted&& wanted, std::set<int>* changed) {
  int n = static_cast<int>(out.size());
  for (int i = 0; i < n;) {
    if (at[i] == std::string::npos) {
      ++i;
      continue;
    }
    int j = i;
    bool hit = false;
    size_t width = 0;
    for (; j < n && at[j] != std::string::npos; ++j) {
      hit = hit || wanted(j);
      width = std::max(width, Width(out[j], at[j]));
    }
    for (int k = i; hit && k < j; ++k) {
      size_t lead = Width(out[k], at[k]);
      std::string aligned = out[k].substr(0, lead) + std::string(width - lead + 1, ' ') + out[k].substr(at[k]);
      if (aligned != out[k]) changed->insert(k);
      out[k] = std::move(aligned);
      at[k] = width + 1;
    }
    i = j;
  }
}

}  // namespace

std::string AlignAttributes(std::string_view text, const std::vector<int>& touched) {
  std::vector<LineInfo> lines = Lines(text);
  std::vector<std::string> out;
  for (const LineInfo& l : lines) out.emplace_back(text.substr(l.begin, l.end - l.begin));
  std::set<int> marked(touched.begin(), touched.end());
  std::set<int> changed;
  size_t n = lines.size();
  std::vector<size_t> eq(n, std::string::npos), comment(n, std::string::npos), tail(n, 0);
  for (size_t k = 0; k < n; ++k) {
    if (lines[k].assign) eq[k] = lines[k].eq;
    if (lines[k].comment) tail[k] = out[k].size() - lines[k].comment_at;  // the comment from the line's end
  }
  // The `=` of each group holding a touched line.
  AlignRuns(
      out, eq, [&](int k) { return marked.count(k) > 0; }, &changed);
  // The trailing comments of each run of commented lines holding a touched or re-aligned line.
  for (size_t k = 0; k < n; ++k) {
    if (lines[k].comment) comment[k] = out[k].size() - tail[k];
  }
  AlignRuns(
      out, comment, [&](int k) { return marked.count(k) > 0 || changed.count(k) > 0; }, &changed);
  std::string result;
  for (size_t i = 0; i < n; ++i) {
    result += out[i];
    size_t after = lines[i].end;
    size_t next = i + 1 < n ? lines[i + 1].begin : text.size();
    result += text.substr(after, next - after);  // the line break as it was
  }
  return result;
}

std::optional<TextEdit> AlignedEdit(std::string_view before, const std::vector<TextEdit>& edits) {
  if (edits.empty()) return std::nullopt;
  // The edits applied from the end back; insertions at one place keep their order.
  std::vector<size_t> order(edits.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return edits[a].begin != edits[b].begin ? edits[a].begin > edits[b].begin : a > b;
  });
  std::string after(before);
  for (size_t i : order) {
    const TextEdit& e = edits[i];
    if (e.end < e.begin || e.end > after.size()) return std::nullopt;
    after.replace(e.begin, e.end - e.begin, e.content);
  }
  // Where each edit's text stands in the result: every edit before it moved it.
  auto line_of = [&](size_t offset) {
    return static_cast<int>(std::count(after.begin(), after.begin() + std::min(offset, after.size()), '\n'));
  };
  std::vector<int> touched;
  for (size_t i = 0; i < edits.size(); ++i) {
    long shift = 0;
    for (size_t k = 0; k < edits.size(); ++k) {
      bool earlier = edits[k].begin < edits[i].begin || (edits[k].begin == edits[i].begin && k < i);
      if (earlier)
        shift += static_cast<long>(edits[k].content.size()) - static_cast<long>(edits[k].end - edits[k].begin);
    }
    size_t start = edits[i].begin + shift, stop = start + edits[i].content.size();
    // Its lines, the line before them and the line after (where the text goes on).
    for (int l = line_of(start) - 1; l <= line_of(stop); ++l) touched.push_back(l);
  }
  std::string aligned = AlignAttributes(after, touched);
  if (aligned == after) return std::nullopt;
  // One edit of whole lines from the first difference to the last.
  size_t prefix = 0;
  while (prefix < before.size() && prefix < aligned.size() && before[prefix] == aligned[prefix]) ++prefix;
  size_t suffix = 0;
  while (suffix < before.size() - prefix && suffix < aligned.size() - prefix &&
         before[before.size() - 1 - suffix] == aligned[aligned.size() - 1 - suffix]) {
    ++suffix;
  }
  size_t begin = prefix;
  while (begin > 0 && before[begin - 1] != '\n') --begin;
  size_t end = before.size() - suffix;
  while (end < before.size() && (end == 0 || before[end - 1] != '\n')) ++end;  // to the next line's start
  size_t tail = before.size() - end;
  if (tail > aligned.size() - begin) return std::nullopt;
  return TextEdit{begin, end, aligned.substr(begin, aligned.size() - begin - tail)};
}

}  // namespace sagelint::tf
