// The comments of a Terraform file, from the tree-sitter-hcl parse: what
// `sagelint:` suppressions are read from. Strings, their interpolations and
// heredocs are the grammar's, so a `#` inside them is data.
#include "parsers/terraform/comments.h"

#include <string_view>
#include <vector>

#include "parsers/common/tree_sitter.h"
#include "parsers/terraform/eval.h"

namespace sagelint::tf {

std::vector<Comment> HclComments(std::string_view text) {
  // Parsed as the module's parse reads a file (numbers with an exponent,
  // which the grammar does not read, first blanked), so that both give the
  // same comments.
  auto f = ParseHclFile("", "comments.tf", "comments.tf", std::string(text));
  std::vector<Comment> out;
  if (f->tree) ts::AddComments(ts_tree_root_node(f->tree.get()), text, &out);
  return out;
}

}  // namespace sagelint::tf
