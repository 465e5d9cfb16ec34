// Comment suppressions: `sagelint:ignore=SM401,SM402 reason` in a comment on
// the finding's line, the line above, the first line of the enclosing
// resource/call, or the line above that.
#ifndef SAGELINT_LINTER_ENGINE_SUPPRESS_H_
#define SAGELINT_LINTER_ENGINE_SUPPRESS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/finding.h"

namespace sagelint {

struct IgnoreDirective {
  int line = 0;
  int column = 0;
  std::vector<std::string> ids;
  std::vector<bool> used;  // per id
};

// The directives in a file's text (comment markers `#` and `//`).
std::vector<IgnoreDirective> FindIgnoreDirectives(std::string_view text);

class SuppressionIndex {
 public:
  explicit SuppressionIndex(std::vector<IgnoreDirective> directives);
  // True (and marks the directive used) if a directive covers `f`.
  bool Suppresses(const Finding& f);
  std::vector<IgnoreDirective>& directives() { return directives_; }

 private:
  bool Covers(int line, const std::string& rule);
  std::vector<IgnoreDirective> directives_;
  std::map<int, size_t> by_line_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_SUPPRESS_H_
