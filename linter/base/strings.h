// String helpers: edit distance for "did you mean", glob matching for paths,
// safe display of text that comes from scanned files.
#ifndef SAGELINT_LINTER_BASE_STRINGS_H_
#define SAGELINT_LINTER_BASE_STRINGS_H_

#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

size_t EditDistance(std::string_view a, std::string_view b);
// The closest candidate within a small edit distance, or empty.
std::string DidYouMean(std::string_view word, const std::vector<std::string>& candidates);
// " (did you mean 'x'?)" or "".
std::string DidYouMeanSuffix(std::string_view word, const std::vector<std::string>& candidates);

// Glob over '/'-separated paths: `*` and `?` stay within a segment, `**`
// spans segments (also none), `[abc]` classes. Time is at most proportional to
// the pattern's length times the path's, whatever the number of wildcards.
bool GlobMatch(std::string_view pattern, std::string_view path);

// `s` with every ill-formed UTF-8 sequence replaced by U+FFFD (one per maximal
// ill-formed subpart, as Unicode recommends). Valid text is returned unchanged.
std::string ValidUtf8(std::string_view s);
// ValidUtf8(s) safe to print on a terminal: C0 and C1 control characters,
// DEL and the bidirectional formatting characters are written as escapes
// (`\n`, `\r`, `\t`, `\x1b`, `\u202e`), so text from a scanned file cannot
// move the cursor, recolour, or forge lines of the output.
std::string Printable(std::string_view s);

std::vector<std::string> SplitList(std::string_view s, char sep);
// A number as people write it: "1", "1.5", "0.25" (up to 15 significant digits).
std::string FormatNumber(double v);
std::string Trim(std::string_view s);
// A space or a tab: the blanks inside a line.
inline bool IsBlank(char c) { return c == ' ' || c == '\t'; }
// `s` without a leading UTF-8 byte order mark.
inline std::string_view StripUtf8Bom(std::string_view s) { return s.substr(0, 3) == "\xEF\xBB\xBF" ? s.substr(3) : s; }
// `s` with its ASCII letters in lower case (other bytes as they are).
std::string AsciiLower(std::string_view s);
// Whether `s` ends with `lower_suffix` (lower-case ASCII), ignoring the case of `s`.
bool EndsWithNoCase(std::string_view s, std::string_view lower_suffix);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_STRINGS_H_
