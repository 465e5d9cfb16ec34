// tree-sitter with guards: a budget of parse work, owned trees, positions,
// and the first syntax error of a tree.
#ifndef SAGELINT_PARSERS_COMMON_TREE_SITTER_H_
#define SAGELINT_PARSERS_COMMON_TREE_SITTER_H_

#include <tree_sitter/api.h>

#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "linter/model/model.h"
#include "parsers/common/comments.h"

namespace sagelint::ts {

struct TreeDeleter {
  void operator()(TSTree* t) const { ts_tree_delete(t); }
};
using Tree = std::unique_ptr<TSTree, TreeDeleter>;

// Parses `text` with `language`; nullptr when the parse needs more work than
// a text of its size may take (pathological input). The budget counts parse
// operations, so whether a file parses never depends on how busy the machine
// is: `kParseBaseOperations` plus `kParseOperationsPerByte` for each byte —
// several times what the densest real code needs. Error recovery can make
// one operation some thirty times costlier than a plain one, so a crafted
// file could run long within that count: a backstop of
// `kParseCpuMilliseconds` of the parsing thread's CPU time bounds it. CPU
// time, not wall-clock time: time spent waiting for a processor on a loaded
// machine does not count, and no real file comes near it.
inline constexpr long kParseBaseOperations = 400'000;
inline constexpr long kParseOperationsPerByte = 8;
inline constexpr long kParseCpuMilliseconds = 5'000;
Tree Parse(const TSLanguage* language, std::string_view text);

inline std::string_view Text(TSNode n, std::string_view src) {
  uint32_t a = ts_node_start_byte(n), b = ts_node_end_byte(n);
  if (a > src.size() || b > src.size() || b < a) return {};
  return src.substr(a, b - a);
}
inline std::string_view Type(TSNode n) { return ts_node_type(n); }
inline TSNode Field(TSNode n, const char* name) {
  return ts_node_child_by_field_name(n, name, static_cast<uint32_t>(std::char_traits<char>::length(name)));
}
// 1-based line and byte column of the node's start.
inline SourcePos Start(TSNode n) {
  TSPoint p = ts_node_start_point(n);
  return {static_cast<int>(p.row) + 1, static_cast<int>(p.column) + 1};
}
inline SourcePos End(TSNode n) {
  TSPoint p = ts_node_end_point(n);
  return {static_cast<int>(p.row) + 1, static_cast<int>(p.column) + 1};
}

struct SyntaxError {
  SourcePos pos;
  std::string message;
};
// The first ERROR or MISSING node in document order (iterative walk).
std::optional<SyntaxError> FirstError(TSNode root, std::string_view src);

// What a grammar's error recovery keeps before the broken part of an ERROR
// node: complete constructs, and block headers (a type, labels, an opening
// brace). Tokens that might start something else are not skipped: after a
// stray quote, the strings that follow are misread.
struct Recovered {
  std::initializer_list<std::string_view> constructs;
  std::string_view header_start;
  std::initializer_list<std::string_view> labels;
  std::string_view block_open;
};
// Where a parser that stops at the first error (Terraform's) would report it.
// Tree-sitter wraps what it cannot recover from in an ERROR node, which may be
// a whole block or file: inside one, past what `kept` describes, the first
// other child — or the error it holds.
std::optional<SyntaxError> InnermostFirstError(TSNode root, std::string_view src, const Recovered& kept);

// The `comment` nodes of a tree over `text`, in order: a line comment runs
// from its marker to the end of its line; a block comment (`/* */`) gives one
// Comment per line it spans, so a directive keeps its own line. An
// error-tolerant parse still has the comments around the error.
void AddComments(TSNode root, std::string_view text, std::vector<Comment>* out);
// The comments of `text` parsed with `language` (none when the parse is refused).
std::vector<Comment> Comments(const TSLanguage* language, std::string_view text);

}  // namespace sagelint::ts

#endif  // SAGELINT_PARSERS_COMMON_TREE_SITTER_H_
