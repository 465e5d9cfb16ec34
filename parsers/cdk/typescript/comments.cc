// The comments of a CDK app's TypeScript or JavaScript file, from the
// tree-sitter-typescript parse the evaluator reads (modules.cc): what
// `sagelint:` suppressions are read from. Strings, template literals and
// regular expressions are the grammar's, so a `//` inside them is data.
#include "parsers/common/comments.h"

#include <string_view>
#include <vector>

#include "parsers/common/tree_sitter.h"

extern "C" const TSLanguage* tree_sitter_typescript(void);

namespace sagelint::cdk {

std::vector<Comment> ScriptComments(std::string_view text) { return ts::Comments(tree_sitter_typescript(), text); }

}  // namespace sagelint::cdk
