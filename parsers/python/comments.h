// The Python front end's comments: taken from the tree its parse builds, so a
// file is not parsed a second time for its `sagelint:` comments.
#ifndef SAGELINT_PARSERS_PYTHON_COMMENTS_H_
#define SAGELINT_PARSERS_PYTHON_COMMENTS_H_

#include <tree_sitter/api.h>

#include <optional>
#include <string_view>
#include <vector>

#include "parsers/common/comments.h"
#include "parsers/frontend.h"

namespace sagelint {

// ParsePython and ParseNotebook that also leave in `comments` every comment
// of the tree they parse, as py::PythonComments and py::NotebookComments find
// them. Nullopt when they build no tree: code that cannot declare a workload,
// a file over the size limit, a notebook of another language.
FileResult ParsePythonKeepingComments(const SourceFile& file, const ResolveOptions& opts,
                                      std::optional<std::vector<Comment>>* comments);
FileResult ParseNotebookKeepingComments(const SourceFile& file, const ResolveOptions& opts,
                                        std::optional<std::vector<Comment>>* comments);

namespace py {
struct NotebookSource;
// The comments of a tree-sitter-python tree over `python`; of a notebook's
// code (`nb`), at their lines in the .ipynb file.
std::vector<Comment> TreeComments(TSNode root, std::string_view python, const NotebookSource* nb);
}  // namespace py

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_PYTHON_COMMENTS_H_
