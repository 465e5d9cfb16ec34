// SageMaker Python SDK / boto3 front end: Python files and notebooks ->
// workloads. The file is parsed with tree-sitter-python and run by the
// analyzer (analyzer.h); a syntax error becomes one SM000 and the statements
// around it are still read.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "linter/base/strings.h"
#include "parsers/common/tree_sitter.h"
#include "parsers/frontend.h"
#include "parsers/python/comments.h"
#include "parsers/python/notebook.h"
#include "parsers/python/sdk_model.h"

namespace sagelint {
namespace py {
namespace {

constexpr size_t kMaxBytes = 8u << 20;

// The text of 1-based line `n` of `src`.
std::string_view LineOf(std::string_view src, int n) {
  size_t start = 0;
  for (int l = 1; l < n; ++l) {
    size_t nl = src.find('\n', start);
    if (nl == std::string_view::npos) return {};
    start = nl + 1;
  }
  size_t end = src.find('\n', start);
  return src.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
}

// "near '<text>'", quoting only what the file holds: in a notebook, the line
// as the cell has it (a line whose IPython syntax was replaced is quoted whole).
std::string ErrorMessage(const ts::SyntaxError& err, std::string_view src, const NotebookSource* nb) {
  if (!nb || err.message.rfind("syntax error near '", 0) != 0 || err.pos.line < 1 ||
      err.pos.line > static_cast<int>(nb->lines.size())) {
    return err.message;
  }
  const LineOrigin& o = nb->lines[err.pos.line - 1];
  std::string_view line = nb->original[err.pos.line - 1];
  std::string_view quoted;
  if (o.rewritten) {
    size_t b = line.find_first_not_of(" \t");
    if (b != std::string_view::npos) quoted = line.substr(b);
  } else {
    // The Python line is the cell line without the indentation / prompt IPython strips.
    std::string_view processed = LineOf(src, err.pos.line);
    size_t prefix = line.size() >= processed.size() ? line.size() - processed.size() : 0;
    size_t col = static_cast<size_t>(err.pos.column - 1) + prefix;
    if (col < line.size()) quoted = line.substr(col);
  }
  quoted = quoted.substr(0, 40);
  size_t end = quoted.find_last_not_of(" \t\r");
  quoted = end == std::string_view::npos ? std::string_view() : quoted.substr(0, end + 1);
  if (quoted.empty()) return "syntax error at the end of a line";
  return "syntax error near '" + std::string(quoted) + "'";
}

// Code that names neither the SDK nor boto3 nor a SageMaker API method cannot
// declare a workload (the engine's byte scan also matched comments, markdown
// and outputs): it is not parsed, like any file that never mentions SageMaker.
bool MayDeclareWorkloads(std::string_view src) {
  for (std::string_view word : {"sagemaker", "boto3", "create_", "register_scalable_target"}) {
    if (src.find(word) != std::string_view::npos) return true;
  }
  return false;
}

// Jupyter compiles each cell on its own: a syntax error ends only its cell,
// and a cell that Python accepts is never reported. When the joined code of a
// notebook does not parse, each code cell is parsed alone; every cell that
// fails alone is one SM000 (at its first error) and is blanked — its lines
// kept, emptied — before the notebook is parsed again, so tree-sitter's error
// recovery cannot spread a broken cell into the cells around it.
void BrokenCells(const NotebookSource& nb, std::string* text, FileResult* out) {
  std::vector<std::string_view> lines;
  for (size_t start = 0;;) {
    size_t nl = text->find('\n', start);
    lines.push_back(std::string_view(*text).substr(start, nl == std::string::npos ? std::string::npos : nl - start));
    if (nl == std::string::npos) break;
    start = nl + 1;
  }
  std::vector<std::pair<size_t, size_t>> cells;  // [first, end) Python lines of each cell, in order
  for (size_t i = 0; i < lines.size() && i < nb.lines.size(); ++i) {
    if (i == 0 || nb.lines[i].cell != nb.lines[i - 1].cell)
      cells.emplace_back(i, i + 1);
    else
      cells.back().second = i + 1;
  }
  std::vector<bool> blank(lines.size(), false);
  for (const auto& [first, end] : cells) {
    std::string cell;
    for (size_t i = first; i < end; ++i) (cell += lines[i]) += '\n';
    if (cell.find_first_not_of(" \t\r\n") == std::string::npos) continue;
    ts::Tree tree = ts::Parse(PythonGrammar().language, cell);
    if (!tree) continue;
    auto err = ts::FirstError(ts_tree_root_node(tree.get()), cell);
    if (!err) continue;
    err->pos.line += static_cast<int>(first);  // the same line of the joined code
    SourceRange r = MapRange(nb, SourceRange{err->pos, err->pos});
    ParseError e{ErrorMessage(*err, *text, &nb), r.begin};
    e.cell = r.cell;
    e.cell_line = r.cell_line;
    out->errors.push_back(std::move(e));
    for (size_t i = first; i < end; ++i) blank[i] = true;
  }
  std::string joined;
  joined.reserve(text->size());
  for (size_t i = 0; i < lines.size(); ++i) {
    if (i) joined += '\n';
    if (!blank[i]) joined += lines[i];
  }
  *text = std::move(joined);
}

// `comments`: where the comments of the tree go (nullptr: not asked).
void Analyze(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out,
             const ResolveOptions& opts, std::optional<std::vector<Comment>>* comments) {
  if (!MayDeclareWorkloads(src)) return;
  std::string text(src);
  ts::Tree tree = ts::Parse(PythonGrammar().language, text);
  if (tree && comments) {
    // From the tree of the whole file, before a notebook's broken cells are blanked.
    *comments = TreeComments(ts_tree_root_node(tree.get()), text, nb);
    // Columns of the file's text: its first line starts after a byte order mark.
    size_t bom = nb ? 0 : file.text.size() - src.size();
    for (Comment& c : **comments) c.column += c.line == 1 ? static_cast<int>(bom) : 0;
  }
  if (tree && nb && ts_node_has_error(ts_tree_root_node(tree.get()))) {
    size_t reported = out->errors.size();
    BrokenCells(*nb, &text, out);
    if (out->errors.size() > reported) tree = ts::Parse(PythonGrammar().language, text);
  }
  if (!tree) {
    out->errors.push_back({"parsing took too long; file skipped", {1, 1}});
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  // A Python file (or what a notebook's cells still hold): its first syntax error.
  if (auto err = ts::FirstError(root, text)) {
    SourceRange r{err->pos, err->pos};
    if (nb) r = MapRange(*nb, r);
    ParseError e{ErrorMessage(*err, text, nb), r.begin};
    e.cell = r.cell;
    e.cell_line = r.cell_line;
    out->errors.push_back(std::move(e));
  }
  Analyzer analyzer(file, text, nb, out);
  analyzer.opts_ = &opts;
  SdkModel sdk(analyzer);
  analyzer.Run(root, {&sdk});
  sdk.Emit();  // the SDK's objects and client calls -> workloads
}

}  // namespace
}  // namespace py

FileResult ParsePython(const SourceFile& file, const ResolveOptions& opts) {
  return ParsePythonKeepingComments(file, opts, nullptr);
}

FileResult ParsePythonKeepingComments(const SourceFile& file, const ResolveOptions& opts,
                                      std::optional<std::vector<Comment>>* comments) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kPython;
  if (file.text.size() > py::kMaxBytes) {
    out.errors.push_back({"file larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, StripUtf8Bom(file.text), nullptr, &out, opts, comments);
  return out;
}

FileResult ParseNotebook(const SourceFile& file, const ResolveOptions& opts) {
  return ParseNotebookKeepingComments(file, opts, nullptr);
}

FileResult ParseNotebookKeepingComments(const SourceFile& file, const ResolveOptions& opts,
                                        std::optional<std::vector<Comment>>* comments) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kNotebook;
  py::NotebookSource nb;
  ParseError error;
  if (!py::ExtractNotebook(StripUtf8Bom(file.text), &nb, &error)) {
    out.errors.push_back(error);
    return out;
  }
  if (!nb.python_kernel) return out;  // an R, Scala, … notebook: not ours to read
  if (nb.python.size() > py::kMaxBytes) {
    out.errors.push_back({"notebook code larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, nb.python, &nb, &out, opts, comments);
  return out;
}

}  // namespace sagelint
