// The comments of a Terraform file, from the tree-sitter-hcl parse: what
// `sagelint:` suppressions are read from. Strings, their interpolations and
// heredocs are the grammar's, so a `#` inside them is data.
#include "parsers/common/comments.h"

#include <string_view>
#include <vector>

#include "parsers/common/tree_sitter.h"

extern "C" const TSLanguage* tree_sitter_hcl(void);

namespace sagelint::tf {

std::vector<Comment> HclComments(std::string_view text) {
  std::vector<Comment> out;
  ts::Tree tree = ts::Parse(tree_sitter_hcl(), text);
  if (tree) ts::AddComments(ts_tree_root_node(tree.get()), text, &out);
  return out;
}

}  // namespace sagelint::tf
