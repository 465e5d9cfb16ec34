#include "parsers/common/tree_sitter.h"

#include <chrono>

namespace sagelint::ts {
namespace {

struct Deadline {
  std::chrono::steady_clock::time_point until;
};

bool Expired(TSParseState* state) {
  auto* d = static_cast<Deadline*>(state->payload);
  return std::chrono::steady_clock::now() > d->until;
}

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

}  // namespace

Tree Parse(const TSLanguage* language, std::string_view text, int deadline_ms) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), language)) return nullptr;
  Deadline d{std::chrono::steady_clock::now() + std::chrono::milliseconds(deadline_ms)};
  TSParseOptions options{&d, Expired};
  struct Source {
    std::string_view text;
  } src{text};
  TSInput input{};
  input.payload = &src;
  input.read = [](void* payload, uint32_t byte, TSPoint, uint32_t* read) -> const char* {
    auto* s = static_cast<Source*>(payload);
    if (byte >= s->text.size()) {
      *read = 0;
      return "";
    }
    // Hand out bounded chunks so the progress callback runs regularly.
    size_t n = std::min<size_t>(s->text.size() - byte, 64 * 1024);
    *read = static_cast<uint32_t>(n);
    return s->text.data() + byte;
  };
  input.encoding = TSInputEncodingUTF8;
  return Tree(ts_parser_parse_with_options(parser.get(), nullptr, input, options));
}

std::optional<SyntaxError> FirstError(TSNode root, std::string_view src) {
  if (!ts_node_has_error(root)) return std::nullopt;
  TSTreeCursor cursor = ts_tree_cursor_new(root);
  std::optional<SyntaxError> found;
  while (!found) {
    TSNode n = ts_tree_cursor_current_node(&cursor);
    if (ts_node_is_missing(n)) {
      found = SyntaxError{Start(n), "syntax error: missing " + std::string(ts_node_type(n))};
      break;
    }
    if (ts_node_is_error(n)) {
      std::string_view text = Text(n, src);
      size_t nl = text.find('\n');
      if (nl != std::string_view::npos) text = text.substr(0, nl);
      if (text.size() > 40) text = text.substr(0, 40);
      found = SyntaxError{Start(n), "syntax error near '" + std::string(text) + "'"};
      break;
    }
    // Descend only into subtrees that contain an error.
    if (ts_node_has_error(n) && ts_tree_cursor_goto_first_child(&cursor)) continue;
    bool moved = false;
    while (!moved) {
      if (ts_tree_cursor_goto_next_sibling(&cursor)) {
        moved = true;
      } else if (!ts_tree_cursor_goto_parent(&cursor)) {
        break;
      }
    }
    if (!moved) break;
  }
  ts_tree_cursor_delete(&cursor);
  return found;
}

}  // namespace sagelint::ts
