// Jupyter notebooks (nbformat 4, and 3) as Python source: the code cells in
// order, IPython syntax neutralised the way IPython itself transforms a cell,
// with a map from each Python line back to the .ipynb file line and to the
// cell view. Outputs are skipped without being stored.
#ifndef SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_
#define SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint::py {

struct LineOrigin {
  int file_line = 0;       // line in the .ipynb file
  int file_column = 0;     // column there of the Python line's first character (approximate after escapes)
  int cell = 0;            // 1-based, markdown cells counted
  int cell_line = 0;       // 1-based line within the cell
  bool rewritten = false;  // IPython syntax replaced by `pass` (or blanked)
  // Exactly where the line is stored: the opening quote of the JSON string it
  // starts in, the offset in that string's value where it starts, and how
  // many leading bytes IPython's transformations stripped from it.
  SourcePos token;
  int decoded = 0;
  int shift = 0;
};

struct NotebookSource {
  std::string python;                 // code cells joined, one Python line per source line
  std::vector<LineOrigin> lines;      // index = Python line - 1
  std::vector<std::string> original;  // the cell's own text of each Python line
  bool python_kernel = true;          // false: a notebook of another language (skipped)
  std::string language;               // as the metadata names it
};

// Returns false and sets `error` (with its position in the file) if the
// notebook is not valid JSON of the expected shape.
bool ExtractNotebook(std::string_view json, NotebookSource* out, ParseError* error);

// One cell's lines after IPython's own input transformations, line for line:
// leading indentation and pasted prompts stripped (`shift` says how many
// bytes), `%%time`/`%%capture`-style cell magics dropped and other cell
// magics blanked, `!cmd` / `%magic` / `x = !cmd` / `obj?` logical lines
// (backslash continuations included) and single-line automagic cells
// (`pip install x`) replaced by `pass` at their indentation.
struct CellLines {
  std::vector<std::string> text;
  std::vector<int> shift;
  std::vector<bool> rewritten;
};
CellLines NeutraliseCell(const std::vector<std::string>& lines);

// Maps a position in the joined Python text to the notebook file.
SourceRange MapRange(const NotebookSource& nb, SourceRange r);
// The exact position in the .ipynb text `json` (as read, a BOM stripped) of
// the byte at `p` in the joined Python text: escapes in the JSON string before
// it counted as stored. nullopt where the line continues into the next string
// before `p`, or `p` falls inside an escape.
std::optional<SourcePos> ExactPosition(const NotebookSource& nb, std::string_view json, SourcePos p);
// The cell and cell line of a line of the .ipynb file (0 when none).
SourceRange CellOf(const NotebookSource& nb, int file_line);

}  // namespace sagelint::py

#endif  // SAGELINT_PARSERS_PYTHON_NOTEBOOK_H_
