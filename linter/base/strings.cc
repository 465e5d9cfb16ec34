#include "linter/base/strings.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>

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

// One pattern element of a segment matches one character `c`: `?`, a class
// `[a-z]` (`[!…]`/`[^…]` negated) or a literal. Sets `len` to the element's length.
bool MatchOne(std::string_view p, size_t pi, char c, size_t* len) {
  if (p[pi] == '[') {
    size_t close = p.find(']', pi + 2 <= p.size() ? pi + 2 : p.size());
    if (close != std::string_view::npos) {
      std::string_view cls = p.substr(pi + 1, close - pi - 1);
      bool negate = cls.size() > 1 && (cls[0] == '!' || cls[0] == '^');
      if (negate) cls.remove_prefix(1);
      bool in = false;
      for (size_t k = 0; k < cls.size(); ++k) {
        if (k + 2 < cls.size() && cls[k + 1] == '-') {
          in = in || (c >= cls[k] && c <= cls[k + 2]);
          k += 2;
        } else {
          in = in || c == cls[k];
        }
      }
      *len = close - pi + 1;
      return in != negate;
    }
    // An unclosed '[' is a literal.
  }
  *len = 1;
  return p[pi] == '?' || p[pi] == c;
}

// Wildcard matching where `*` is the only element of variable length: the
// classic greedy scan that, on a mismatch, lets the last `*` absorb one more
// character. It never revisits an earlier `*`, so it takes O(|p|·|s|) steps.
bool MatchSegment(std::string_view p, std::string_view s) {
  size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;
  while (si < s.size()) {
    if (pi < p.size() && p[pi] == '*') {
      star = pi++;
      mark = si;
      continue;
    }
    size_t len = 0;
    if (pi < p.size() && MatchOne(p, pi, s[si], &len)) {
      pi += len;
      ++si;
      continue;
    }
    if (star == std::string_view::npos) return false;
    pi = star + 1;
    si = ++mark;
  }
  while (pi < p.size() && p[pi] == '*') ++pi;
  return pi == p.size();
}

// The same greedy scan one level up: `**` matches any run of segments (none
// included), every other pattern segment exactly one path segment. Consecutive
// `**` behave as one, and earlier `**` are never retried, so a pattern like
// `**/**/**/b` costs O(|p|·|s|) segment comparisons instead of exponential time.
// The segment of `s` at or after byte `pos` (slashes skipped: empty segments
// do not count), empty at the end; `*next` receives where the search for the
// one after it starts. Paths are split in place, without allocating.
std::string_view SegmentAt(std::string_view s, size_t pos, size_t* next) {
  while (pos < s.size() && s[pos] == '/') ++pos;
  size_t end = std::min(s.find('/', pos), s.size());
  *next = end;
  return s.substr(pos, end - pos);
}

bool MatchSegments(std::string_view p, std::string_view s) {
  size_t pi = 0, si = 0, star = std::string_view::npos, mark = 0;  // byte positions of segments
  while (true) {
    size_t si_next = 0, pi_next = 0;
    std::string_view seg = SegmentAt(s, si, &si_next);
    if (seg.empty()) break;
    std::string_view pat = SegmentAt(p, pi, &pi_next);
    if (pat == "**") {
      star = pi = pi_next;
      mark = si;
      continue;
    }
    if (!pat.empty() && MatchSegment(pat, seg)) {
      pi = pi_next;
      si = si_next;
      continue;
    }
    if (star == std::string_view::npos) return false;
    pi = star;
    SegmentAt(s, mark, &mark);  // the `**` absorbs one more segment
    si = mark;
  }
  while (true) {
    size_t next = 0;
    std::string_view pat = SegmentAt(p, pi, &next);
    if (pat.empty()) return true;
    if (pat != "**") return false;
    pi = next;
  }
}

// The length of the well-formed UTF-8 sequence at s[i], or 0 if none starts
// there; `*bad` receives the length of the maximal ill-formed subpart (>= 1).
size_t Utf8Length(std::string_view s, size_t i, size_t* bad) {
  auto u = [&](size_t k) { return static_cast<unsigned char>(s[k]); };
  unsigned char c = u(i);
  *bad = 1;
  if (c < 0x80) return 1;
  size_t need;
  unsigned char lo = 0x80, hi = 0xBF;  // range of the second byte
  if (c >= 0xC2 && c <= 0xDF) {
    need = 2;
  } else if (c >= 0xE0 && c <= 0xEF) {
    need = 3;
    if (c == 0xE0) lo = 0xA0;
    if (c == 0xED) hi = 0x9F;  // no surrogates
  } else if (c >= 0xF0 && c <= 0xF4) {
    need = 4;
    if (c == 0xF0) lo = 0x90;
    if (c == 0xF4) hi = 0x8F;
  } else {
    return 0;
  }
  for (size_t k = 1; k < need; ++k) {
    if (i + k >= s.size()) return 0;
    unsigned char b = u(i + k);
    bool ok = k == 1 ? (b >= lo && b <= hi) : (b >= 0x80 && b <= 0xBF);
    if (!ok) return 0;
    *bad = k + 1;
  }
  return need;
}

// The code point of the well-formed sequence of `len` bytes at s[i].
uint32_t Decode(std::string_view s, size_t i, size_t len) {
  auto u = [&](size_t k) { return static_cast<uint32_t>(static_cast<unsigned char>(s[k])); };
  if (len == 1) return u(i);
  if (len == 2) return ((u(i) & 0x1F) << 6) | (u(i + 1) & 0x3F);
  if (len == 3) return ((u(i) & 0x0F) << 12) | ((u(i + 1) & 0x3F) << 6) | (u(i + 2) & 0x3F);
  return ((u(i) & 0x07) << 18) | ((u(i + 1) & 0x3F) << 12) | ((u(i + 2) & 0x3F) << 6) | (u(i + 3) & 0x3F);
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

bool NeedsEscape(uint32_t cp) {
  return cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F) || cp == 0x200E || cp == 0x200F ||
         (cp >= 0x202A && cp <= 0x202E) || (cp >= 0x2066 && cp <= 0x2069);
}

}  // namespace

bool GlobMatch(std::string_view pattern, std::string_view path) { return MatchSegments(pattern, path); }

namespace {

// `s` into a new string: each well-formed UTF-8 sequence through `valid(out,
// code point, its bytes)`, each ill-formed subpart as U+FFFD.
template <typename F>
std::string MapUtf8(std::string_view s, F valid) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    size_t bad = 1;
    size_t len = Utf8Length(s, i, &bad);
    if (len == 0) {
      out += kReplacement;
      i += bad;
      continue;
    }
    valid(out, Decode(s, i, len), s.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace

std::string ValidUtf8(std::string_view s) {
  return MapUtf8(s, [](std::string& out, uint32_t, std::string_view bytes) { out.append(bytes); });
}

std::string Printable(std::string_view s) {
  return MapUtf8(s, [](std::string& out, uint32_t cp, std::string_view bytes) {
    if (!NeedsEscape(cp)) {
      out.append(bytes);
    } else if (cp == '\n') {
      out += "\\n";
    } else if (cp == '\r') {
      out += "\\r";
    } else if (cp == '\t') {
      out += "\\t";
    } else {
      char buf[12];
      std::snprintf(buf, sizeof buf, cp < 0x80 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
      out += buf;
    }
  });
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

std::string AsciiLower(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

bool EndsWithNoCase(std::string_view s, std::string_view lower_suffix) {
  if (s.size() < lower_suffix.size()) return false;
  std::string_view tail = s.substr(s.size() - lower_suffix.size());
  for (size_t i = 0; i < tail.size(); ++i) {
    char c = tail[i];
    if ((c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c) != lower_suffix[i]) return false;
  }
  return true;
}

std::string FormatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace sagelint
