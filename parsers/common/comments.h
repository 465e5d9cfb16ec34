// Comments, as each front end finds them in its files: what `sagelint:`
// suppressions and annotations are read from (docs/suppressions.md). Only real
// comments count: the same text inside a string, a YAML block scalar or a
// heredoc is data. The front ends that parse with tree-sitter take them from
// their grammar's comment nodes; CloudFormation's YAML has its own finder
// (the YAML library drops comments).
#ifndef SAGELINT_PARSERS_COMMON_COMMENTS_H_
#define SAGELINT_PARSERS_COMMON_COMMENTS_H_

#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

struct Comment {
  int line = 0;      // 1-based line in the file
  int column = 0;    // 1-based byte column of the comment marker (approximate in a notebook)
  std::string text;  // from the marker to the end of the line (a block comment: of this line)
};

// How a file writes comments: its front end's finder of every comment of a
// file's text, in order (nullptr: the format has none, as JSON), and what
// starts a line comment (the LSP server's quick fix writes one).
struct CommentSyntax {
  std::vector<Comment> (*find)(std::string_view text) = nullptr;
  std::string_view marker;

  bool operator==(const CommentSyntax&) const = default;

  static const CommentSyntax kNone, kYaml, kHcl, kPython, kNotebook, kScript;
};

namespace cfn {
// YAML (and JSON, YAML's flow style): `#` at a line's start or after a blank,
// outside quoted and block scalars (parsers/cloudformation/comments.cc).
std::vector<Comment> YamlComments(std::string_view text);
}  // namespace cfn
namespace tf {
// HCL: `#`, `//` and `/* */` comments of the tree-sitter-hcl parse (parsers/terraform/comments.cc).
std::vector<Comment> HclComments(std::string_view text);
}  // namespace tf
namespace py {
// Python: the comments of the tree-sitter-python parse; a notebook's are those
// of its code cells, at their lines in the .ipynb file (parsers/python/comments.cc).
std::vector<Comment> PythonComments(std::string_view text);
std::vector<Comment> NotebookComments(std::string_view text);
}  // namespace py
namespace cdk {
// TypeScript / JavaScript: `//` and `/* */` comments of the tree-sitter-typescript
// parse (parsers/cdk/typescript/comments.cc).
std::vector<Comment> ScriptComments(std::string_view text);
}  // namespace cdk

inline constexpr CommentSyntax CommentSyntax::kNone{};
inline constexpr CommentSyntax CommentSyntax::kYaml{cfn::YamlComments, "#"};
inline constexpr CommentSyntax CommentSyntax::kHcl{tf::HclComments, "#"};
inline constexpr CommentSyntax CommentSyntax::kPython{py::PythonComments, "#"};
inline constexpr CommentSyntax CommentSyntax::kNotebook{py::NotebookComments, "#"};
inline constexpr CommentSyntax CommentSyntax::kScript{cdk::ScriptComments, "//"};

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_COMMON_COMMENTS_H_
