// SageMaker Python SDK / boto3 front end: Python files and notebooks ->
// workloads. The file is parsed with tree-sitter-python and run by the
// analyzer (analyzer.h); a syntax error becomes one SM000 and the statements
// around it are still read.
#include <algorithm>
#include <string>

#include "parsers/common/tree_sitter.h"
#include "parsers/frontend.h"
#include "parsers/python/analyzer.h"
#include "parsers/python/notebook.h"

namespace sagelint {
namespace py {
namespace {

constexpr size_t kMaxBytes = 8u << 20;
constexpr int kDeadlineMs = 3000;

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

void Analyze(const SourceFile& file, std::string_view src, const NotebookSource* nb, FileResult* out) {
  if (!MayDeclareWorkloads(src)) return;
  ts::Tree tree = ts::Parse(PythonGrammar().language, src, kDeadlineMs);
  if (!tree) {
    out->errors.push_back({"parsing took too long; file skipped", {1, 1}});
    return;
  }
  TSNode root = ts_tree_root_node(tree.get());
  if (auto err = ts::FirstError(root, src)) {
    SourceRange r{err->pos, err->pos};
    if (nb) r = MapRange(*nb, r);
    ParseError e{ErrorMessage(*err, src, nb), r.begin};
    e.cell = r.cell;
    e.cell_line = r.cell_line;
    out->errors.push_back(std::move(e));
  }
  Analyzer(file, src, nb, out).Run(root);
}

std::string_view StripBom(std::string_view s) { return s.substr(0, 3) == "\xEF\xBB\xBF" ? s.substr(3) : s; }

}  // namespace
}  // namespace py

FileResult ParsePython(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kPython;
  if (file.text.size() > py::kMaxBytes) {
    out.errors.push_back({"file larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, py::StripBom(file.text), nullptr, &out);
  return out;
}

FileResult ParseNotebook(const SourceFile& file, const ResolveOptions&) {
  FileResult out;
  out.path = file.path;
  out.format = Format::kNotebook;
  py::NotebookSource nb;
  ParseError error;
  if (!py::ExtractNotebook(py::StripBom(file.text), &nb, &error)) {
    out.errors.push_back(error);
    return out;
  }
  if (!nb.python_kernel) return out;  // an R, Scala, … notebook: not ours to read
  if (nb.python.size() > py::kMaxBytes) {
    out.errors.push_back({"notebook code larger than 8 MiB; not parsed", {1, 1}});
    return out;
  }
  py::Analyze(file, nb.python, &nb, &out);
  return out;
}

}  // namespace sagelint
