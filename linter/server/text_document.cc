#include "linter/server/text_document.h"

#include <algorithm>
#include <nlohmann/json.hpp>

namespace sagelint {
namespace {

// The length in bytes of the UTF-8 sequence starting with `b` (1 for a byte that starts none).
size_t SequenceLength(unsigned char b) {
  if (b >= 0xF0 && b < 0xF8) return 4;
  if (b >= 0xE0) return b < 0xF0 ? 3 : 1;
  if (b >= 0xC0) return 2;
  return 1;
}

}  // namespace

int Utf16Length(std::string_view s) {
  int units = 0;
  for (size_t i = 0; i < s.size();) {
    size_t n = std::min(SequenceLength(static_cast<unsigned char>(s[i])), s.size() - i);
    units += n == 4 ? 2 : 1;  // beyond the basic plane: a surrogate pair
    i += n;
  }
  return units;
}

size_t ByteOffsetOfUtf16(std::string_view s, int units) {
  size_t i = 0;
  while (i < s.size() && units > 0) {
    size_t n = std::min(SequenceLength(static_cast<unsigned char>(s[i])), s.size() - i);
    units -= n == 4 ? 2 : 1;
    i += n;
  }
  return i;
}

LineIndex::LineIndex(std::string_view text) {
  starts_.push_back(0);
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\n') starts_.push_back(i + 1);
  }
}

std::string_view LineIndex::Line(std::string_view text, int line) const {
  if (line < 0 || line >= lines()) return {};
  size_t begin = std::min(starts_[line], text.size());
  size_t end = line + 1 < lines() ? starts_[line + 1] - 1 : text.size();
  if (end > begin && text[end - 1] == '\r') --end;
  return text.substr(begin, end - begin);
}

size_t LineIndex::Offset(std::string_view text, LspPosition pos) const {
  if (pos.line < 0) return 0;
  if (pos.line >= lines()) return text.size();
  std::string_view line = Line(text, pos.line);
  return starts_[pos.line] + ByteOffsetOfUtf16(line, std::max(0, pos.character));
}

LspPosition LineIndex::FromByteColumn(std::string_view text, int line, int column) const {
  int l = std::clamp(line - 1, 0, lines() - 1);
  std::string_view s = Line(text, l);
  size_t bytes = std::min<size_t>(column > 0 ? column - 1 : 0, s.size());
  return {l, Utf16Length(s.substr(0, bytes))};
}

LspPosition LineIndex::LineEnd(std::string_view text, int line) const {
  int l = std::clamp(line, 0, lines() - 1);
  return {l, Utf16Length(Line(text, l))};
}

void ApplyChange(std::string& text, const ContentChange& change) {
  if (!change.range) {
    text = change.text;
    return;
  }
  LineIndex index(text);
  size_t begin = index.Offset(text, change.range->first);
  size_t end = index.Offset(text, change.range->second);
  if (end < begin) std::swap(begin, end);
  text.replace(begin, end - begin, change.text);
}

AssembledNotebook AssembleNotebook(const std::vector<NotebookCellText>& cells, const std::string& metadata_json) {
  AssembledNotebook nb;
  auto line = [&nb](const std::string& s, NotebookLine from = {}) {
    nb.json += s;
    nb.json += '\n';
    nb.lines.push_back(from);
  };
  line("{");
  line(" \"cells\": [");
  for (size_t c = 0; c < cells.size(); ++c) {
    const NotebookCellText& cell = cells[c];
    line("  {");
    line(std::string("   \"cell_type\": \"") + (cell.code ? "code" : "markdown") + "\",");
    if (cell.code) line("   \"execution_count\": null,");
    line("   \"id\": \"cell-" + std::to_string(c + 1) + "\",");
    line("   \"metadata\": {},");
    if (cell.code) line("   \"outputs\": [],");
    // Source lines as nbformat writes them: each keeps its newline, no empty last one.
    std::vector<std::string_view> parts;
    std::string_view rest = cell.text;
    while (!rest.empty()) {
      size_t nl = rest.find('\n');
      size_t n = nl == std::string_view::npos ? rest.size() : nl + 1;
      parts.push_back(rest.substr(0, n));
      rest.remove_prefix(n);
    }
    if (parts.empty()) {
      line("   \"source\": []");
    } else {
      line("   \"source\": [");
      for (size_t i = 0; i < parts.size(); ++i) {
        std::string s =
            "    " +
            nlohmann::json(std::string(parts[i])).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
        if (i + 1 < parts.size()) s += ',';
        line(s, {static_cast<int>(c), static_cast<int>(i)});
      }
      line("   ]");
    }
    line(c + 1 < cells.size() ? "  }," : "  }");
  }
  line(" ],");
  line(" \"metadata\": " + (metadata_json.empty() ? std::string("{}") : metadata_json) + ",");
  line(" \"nbformat\": 4,");
  line(" \"nbformat_minor\": 5");
  line("}");
  return nb;
}

size_t CellColumn(std::string_view json_line, int column) {
  size_t quote = json_line.find('"');
  if (quote == std::string_view::npos) return 0;
  size_t target = column > 0 ? static_cast<size_t>(column - 1) : 0;
  size_t raw = 0;
  for (size_t i = quote + 1; i < json_line.size() && i < target;) {
    if (json_line[i] == '"') break;  // the string's end
    if (json_line[i] == '\\' && i + 1 < json_line.size()) {
      i += json_line[i + 1] == 'u' ? 6 : 2;
    } else {
      ++i;
    }
    ++raw;
  }
  return raw;
}

}  // namespace sagelint
