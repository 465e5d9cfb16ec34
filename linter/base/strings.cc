#include "linter/base/strings.h"

#include <algorithm>

namespace sagelint {

size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diag = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  size_t best_d = std::max<size_t>(2, word.size() / 3) + 1;
  for (const std::string& c : candidates) {
    // A truncated name ("max_keep_alive" for "max_keep_alive_seconds") is a likely slip too.
    if (word.size() >= 4 && c.size() > word.size() && c.compare(0, word.size(), word) == 0) return c;
    size_t d = EditDistance(word, c);
    if (d < best_d) {
      best_d = d;
      best = c;
    }
  }
  return best;
}

std::string DidYouMeanSuffix(std::string_view word, const std::vector<std::string>& candidates) {
  std::string m = DidYouMean(word, candidates);
  return m.empty() ? "" : " (did you mean '" + m + "'?)";
}

namespace {

bool MatchSegment(std::string_view p, std::string_view s) {
  // Iterative wildcard match with backtracking on the last '*'.
  size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '[') {
      size_t close = p.find(']', pi + 1);
      if (close != std::string_view::npos) {
        std::string_view cls = p.substr(pi + 1, close - pi - 1);
        bool negate = !cls.empty() && (cls[0] == '!' || cls[0] == '^');
        if (negate) cls.remove_prefix(1);
        bool in = false;
        for (size_t k = 0; k < cls.size(); ++k) {
          if (k + 2 < cls.size() && cls[k + 1] == '-') {
            in = in || (s[si] >= cls[k] && s[si] <= cls[k + 2]);
            k += 2;
          } else {
            in = in || s[si] == cls[k];
          }
        }
        if (in != negate) {
          pi = close + 1;
          ++si;
          continue;
        }
      }
    } else if (pi < p.size() && (p[pi] == '?' || p[pi] == s[si])) {
      ++pi;
      ++si;
      continue;
    } else if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
      continue;
    }
    if (star == std::string_view::npos) return false;
    pi = star + 1;
    si = ++mark;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

bool MatchSegments(const std::vector<std::string>& p, size_t pi, const std::vector<std::string>& s, size_t si) {
  while (pi < p.size()) {
    if (p[pi] == "**") {
      for (size_t k = si; k <= s.size(); ++k) {
        if (MatchSegments(p, pi + 1, s, k)) return true;
      }
      return false;
    }
    if (si >= s.size() || !MatchSegment(p[pi], s[si])) return false;
    ++pi;
    ++si;
  }
  return si == s.size();
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) {
  return MatchSegments(SplitList(pattern, '/'), 0, SplitList(path, '/'), 0);
}

std::vector<std::string> SplitList(std::string_view s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string_view::npos) end = s.size();
    if (end > start) out.emplace_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r' || s.front() == '\n'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r' || s.back() == '\n'))
    s.remove_suffix(1);
  return std::string(s);
}

}  // namespace sagelint
