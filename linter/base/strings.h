// String helpers: edit distance for "did you mean", glob matching for paths.
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
// spans segments (also none), `[abc]` classes.
bool GlobMatch(std::string_view pattern, std::string_view path);

std::vector<std::string> SplitList(std::string_view s, char sep);
std::string Trim(std::string_view s);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_STRINGS_H_
