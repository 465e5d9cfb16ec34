// Jupyter notebooks (nbformat 4) as Python source: the code cells in order,
// magics neutralised, with a map from each Python line back to the .ipynb
// file line and to the cell view. Outputs are skipped without being stored.
#ifndef SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_
#define SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_

#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint::py {

struct LineOrigin {
  int file_line = 0;    // line in the .ipynb file
  int file_column = 0;  // column of the line's first character there (approximate when escapes precede it)
  int cell = 0;         // 1-based, markdown cells counted
  int cell_line = 0;    // 1-based line within the cell
};

struct NotebookSource {
  std::string python;             // code cells joined, one Python line per source line
  std::vector<LineOrigin> lines;  // index = Python line - 1
};

// Returns false and sets `error` (with its position in the file) if the
// notebook is not valid JSON of the expected shape.
bool ExtractNotebook(std::string_view json, NotebookSource* out, ParseError* error);

// Replaces IPython magics (`%x`, `!cmd`, `x = !cmd`) by `pass` with the same
// indentation, and blanks a cell whose first line is a cell magic that runs no
// Python (`%%bash`, …). Keeps the line count.
std::vector<std::string> NeutraliseMagics(const std::vector<std::string>& lines);

// Maps a position in the joined Python text to the notebook file.
SourceRange MapRange(const NotebookSource& nb, SourceRange r);

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_
