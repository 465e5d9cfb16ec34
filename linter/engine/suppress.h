// Comment suppressions: `sagelint:ignore=SM401,SM402 reason` in a comment on
// the finding's line, the line above, the first line of the enclosing
// resource/call, or the line above that. Only real comments count: the same
// text inside a string, a YAML block scalar or a heredoc is data.
#ifndef SAGELINT_LINTER_ENGINE_SUPPRESS_H_
#define SAGELINT_LINTER_ENGINE_SUPPRESS_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/finding.h"
#include "parsers/common/comments.h"

namespace sagelint {

// Which comments a scanned file has is its front end's (FrontEnd::CommentsIn,
// parsers/common/comments.h); this file reads the directives in them.

// Every comment of `text`, in order (none for CommentSyntax::kNone).
std::vector<Comment> FindComments(std::string_view text, CommentSyntax syntax);

struct IgnoreDirective {
  int line = 0;
  int column = 0;
  std::vector<std::string> ids;
  std::vector<bool> used;  // per id
};

// The comments of `text` that mention sagelint (ignore directives, dataset
// sizes): all a scan keeps of a file's text once the file is parsed.
std::vector<Comment> SagelintComments(std::string_view text, CommentSyntax syntax);
std::vector<Comment> SagelintComments(std::vector<Comment> comments);

// The directives in comments, and in the comments of a file's text.
std::vector<IgnoreDirective> FindIgnoreDirectives(const std::vector<Comment>& comments);
std::vector<IgnoreDirective> FindIgnoreDirectives(std::string_view text, CommentSyntax syntax);

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
