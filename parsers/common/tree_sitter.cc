#include "parsers/common/tree_sitter.h"

#include <algorithm>
#include <ctime>

namespace sagelint::ts {
namespace {

// tree-sitter calls the progress callback once per this many parse operations.
constexpr long kOperationsPerCallback = 100;

long ThreadCpuMilliseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<long>(t.tv_sec) * 1000 + t.tv_nsec / 1'000'000;
}

struct Budget {
  long callbacks_left;
  long cpu_until;
};

bool Spent(TSParseState* state) {
  auto* b = static_cast<Budget*>(state->payload);
  // The clock is read every 16th time: it is a system call.
  return --b->callbacks_left < 0 || (b->callbacks_left % 16 == 0 && ThreadCpuMilliseconds() > b->cpu_until);
}

struct ParserDeleter {
  void operator()(TSParser* p) const { ts_parser_delete(p); }
};

}  // namespace

Tree Parse(const TSLanguage* language, std::string_view text) {
  std::unique_ptr<TSParser, ParserDeleter> parser(ts_parser_new());
  if (!ts_parser_set_language(parser.get(), language)) return nullptr;
  long operations = kParseBaseOperations + kParseOperationsPerByte * static_cast<long>(text.size());
  Budget b{operations / kOperationsPerCallback, ThreadCpuMilliseconds() + kParseCpuMilliseconds};
  TSParseOptions options{&b, Spent};
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

std::optional<SyntaxError> InnermostFirstError(TSNode root, std::string_view src, const Recovered& kept) {
  if (!ts_node_has_error(root)) return std::nullopt;
  auto is = [](TSNode c, std::initializer_list<std::string_view> types) {
    return !ts_node_has_error(c) && std::find(types.begin(), types.end(), ts_node_type(c)) != types.end();
  };
  TSNode n = root;
  for (int depth = 0; depth < 100000; ++depth) {
    if (ts_node_is_missing(n)) return SyntaxError{Start(n), "syntax error: missing " + std::string(ts_node_type(n))};
    uint32_t count = ts_node_child_count(n), i = 0;
    if (count == 0) break;  // an empty ERROR: the first error found in order says where
    if (ts_node_is_error(n)) {
      // Inside an ERROR: past the complete constructs and block headers the
      // parser kept, the first token it could not place, unless that part
      // holds the error.
      while (i + 1 < count) {
        if (is(ts_node_child(n, i), kept.constructs)) {
          ++i;
          continue;
        }
        uint32_t j = i;
        if (is(ts_node_child(n, j), {kept.header_start})) {
          for (++j; j < count && is(ts_node_child(n, j), kept.labels);) ++j;
        }
        if (j == i || j + 1 >= count || !is(ts_node_child(n, j), {kept.block_open})) break;
        i = j + 1;
      }
      TSNode c = ts_node_child(n, std::min(i, count - 1));
      if (!ts_node_has_error(c) && !ts_node_is_missing(c)) {
        uint32_t a = ts_node_start_byte(c), b = ts_node_end_byte(n);
        std::string_view text = a <= b && b <= src.size() ? src.substr(a, b - a) : std::string_view();
        text = text.substr(0, std::min(text.find('\n'), size_t{40}));
        return SyntaxError{Start(c), "syntax error near '" + std::string(text) + "'"};
      }
      n = c;
      continue;
    }
    // A construct: down to its first child that is or holds an error.
    while (i < count && !ts_node_has_error(ts_node_child(n, i)) && !ts_node_is_missing(ts_node_child(n, i))) ++i;
    if (i == count) break;
    n = ts_node_child(n, i);
  }
  return FirstError(root, src);
}

}  // namespace sagelint::ts
