// The comments of a Terraform file, from the tree-sitter-hcl parse: what
// `sagelint:` suppressions are read from. Strings, their interpolations and
// heredocs are the grammar's, so a `#` inside them is data.
#include "parsers/common/comments.h"

#include <string_view>
#include <vector>

#include "parsers/common/tree_sitter.h"

extern "C" const TSLanguage* tree_sitter_hcl(void);

namespace sagelint::tf {

std::vector<Comment> HclComments(std::string_view text) { return ts::Comments(tree_sitter_hcl(), text); }

}  // namespace sagelint::tf
