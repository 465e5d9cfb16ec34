// The comments of a Python file or notebook, from the tree-sitter-python
// parse: what `sagelint:` suppressions and annotations are read from. A file
// with a syntax error still has them (the parse is error-tolerant).
#include "parsers/python/comments.h"

#include <string_view>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/python/notebook.h"

extern "C" const TSLanguage* tree_sitter_python(void);

namespace sagelint::py {

std::vector<Comment> TreeComments(TSNode root, std::string_view python, const NotebookSource* nb) {
  std::vector<Comment> found;
  ts::AddComments(root, python, &found);
  if (!nb) return found;
  std::vector<Comment> out;
  for (Comment& c : found) {
    if (c.line < 1 || c.line > static_cast<int>(nb->lines.size())) continue;
    const LineOrigin& o = nb->lines[c.line - 1];
    c.column = o.file_column + c.column - 1;
    c.line = o.file_line;
    out.push_back(std::move(c));
  }
  return out;
}

namespace {

std::vector<Comment> CommentsOfPython(std::string_view python, const NotebookSource* nb) {
  ts::Tree tree = ts::Parse(tree_sitter_python(), python);
  return tree ? TreeComments(ts_tree_root_node(tree.get()), python, nb) : std::vector<Comment>{};
}

}  // namespace

std::vector<Comment> PythonComments(std::string_view text) { return CommentsOfPython(text, nullptr); }

std::vector<Comment> NotebookComments(std::string_view text) {
  NotebookSource nb;
  ParseError error;
  if (!ExtractNotebook(text, &nb, &error)) return {};
  return CommentsOfPython(nb.python, &nb);
}

}  // namespace sagelint::py
