#include "parsers/common/comments.h"

#include <string_view>

#include "parsers/common/tree_sitter.h"

namespace sagelint::ts {

void AddComments(TSNode root, std::string_view text, std::vector<Comment>* out) {
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  for (bool more = true; more;) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    bool descend = true;
    if (std::string_view(ts_node_type(n)) == "comment") {
      descend = false;
      size_t begin = ts_node_start_byte(n), end = ts_node_end_byte(n);
      TSPoint at = ts_node_start_point(n);
      if (begin < text.size() && end <= text.size() && begin < end) {
        bool block = text.compare(begin, 2, "/*") == 0;
        if (!block) {
          // A line comment: to the end of its line, as the text has it.
          end = text.find('\n', begin);
          if (end == std::string_view::npos) end = text.size();
        }
        int line = static_cast<int>(at.row) + 1;
        int column = static_cast<int>(at.column) + 1;
        for (size_t b = begin; b < end;) {
          size_t nl = text.find('\n', b);
          size_t e = nl == std::string_view::npos || nl > end ? end : nl;
          out->push_back({line, column, std::string(text.substr(b, e - b))});
          ++line;
          column = 1;
          b = e + 1;
        }
      }
    }
    if (descend && ts_tree_cursor_goto_first_child(&cursor)) continue;
    while (!ts_tree_cursor_goto_next_sibling(&cursor)) {
      if (!ts_tree_cursor_goto_parent(&cursor)) {
        more = false;
        break;
      }
    }
  }
  ts_tree_cursor_delete(&cursor);
}

std::vector<Comment> Comments(const TSLanguage* language, std::string_view text) {
  std::vector<Comment> out;
  Tree tree = Parse(language, text);
  if (tree) AddComments(ts_tree_root_node(tree.get()), text, &out);
  return out;
}

}  // namespace sagelint::ts
