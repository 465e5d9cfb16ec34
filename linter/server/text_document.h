// An editor's document as the Language Server Protocol describes it: the
// text, positions in UTF-16 code units (LSP's default encoding) against the
// byte columns findings carry, incremental edits, and a notebook's cells put
// together into the .ipynb the notebook front end reads.
#ifndef SAGELINT_LINTER_SERVER_TEXT_DOCUMENT_H_
#define SAGELINT_LINTER_SERVER_TEXT_DOCUMENT_H_

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sagelint {

// A position as LSP counts it: 0-based line, UTF-16 code units in the line.
struct LspPosition {
  int line = 0;
  int character = 0;
  bool operator==(const LspPosition&) const = default;
};

class LineIndex {
 public:
  explicit LineIndex(std::string_view text);
  int lines() const { return static_cast<int>(starts_.size()); }
  // The byte offset of `pos`; a line past the end is the end of the text, a
  // character past the line's end is the line's end (as LSP asks).
  size_t Offset(std::string_view text, LspPosition pos) const;
  // The LSP position of a 1-based line and 1-based byte column (a column
  // past the line's end is its end; 0 is the line's start).
  LspPosition FromByteColumn(std::string_view text, int line, int column) const;
  // The position of the end of the 0-based line `line` (before its newline).
  LspPosition LineEnd(std::string_view text, int line) const;
  std::string_view Line(std::string_view text, int line) const;  // 0-based, without its newline

 private:
  std::vector<size_t> starts_;
};

// UTF-16 code units of `s` (invalid UTF-8 bytes count one each).
int Utf16Length(std::string_view s);
// The byte offset in `s` after `units` UTF-16 code units (clamped to s.size()).
size_t ByteOffsetOfUtf16(std::string_view s, int units);

// One change of textDocument/didChange: a range and its new text, or the whole text.
struct ContentChange {
  std::optional<std::pair<LspPosition, LspPosition>> range;
  std::string text;
};
void ApplyChange(std::string& text, const ContentChange& change);

// A notebook cell as the editor holds it: its kind and its text.
struct NotebookCellText {
  bool code = true;
  std::string text;
};

// Where a line of an assembled notebook comes from.
struct NotebookLine {
  int cell = -1;  // 0-based cell index; -1: a line of the notebook's own JSON
  int line = 0;   // 0-based line inside the cell
};

// The .ipynb (nbformat 4) of these cells, each source line a JSON string on a
// line of its own, and where each of its lines comes from.
struct AssembledNotebook {
  std::string json;
  std::vector<NotebookLine> lines;  // per line of `json`
};
AssembledNotebook AssembleNotebook(const std::vector<NotebookCellText>& cells, const std::string& metadata_json);

// The byte offset inside a cell's line that a 1-based byte column of an
// assembled notebook's line stands for (the JSON string's escapes undone).
size_t CellColumn(std::string_view json_line, int column);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_SERVER_TEXT_DOCUMENT_H_
