// The comments of a Python file or notebook, from the tree-sitter-python
// parse: what `sagelint:` suppressions and annotations are read from. A file
// with a syntax error still has them (the parse is error-tolerant).
#include "parsers/common/comments.h"

#include <string_view>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/notebook.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sagelint::py {

std::vector<Comment> PythonComments(std::string_view text) {
  std::vector<Comment> out;
  ts::Tree tree = ts::Parse(tree_sitter_python(), text);
  if (tree) ts::AddComments(ts_tree_root_node(tree.get()), text, &out);
  return out;
}

std::vector<Comment> NotebookComments(std::string_view text) {
  NotebookSource nb;
  ParseError error;
  if (!ExtractNotebook(text, &nb, &error)) return {};
  std::vector<Comment> out;
  for (Comment& c : PythonComments(nb.python)) {
    if (c.line < 1 || c.line > static_cast<int>(nb.lines.size())) continue;
    const LineOrigin& o = nb.lines[c.line - 1];
    c.column = o.file_column + c.column - 1;
    c.line = o.file_line;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace sagelint::py
