// The editor server's parts: Content-Length framing over a pipe (bad headers,
// a message over the limit, the end of the stream), UTF-16 positions and
// incremental edits, the notebook assembled from cells, and the server's
// answers to messages it cannot use.
#include "linter/server/server.h"

#include <unistd.h>

#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "linter/server/jsonrpc.h"
#include "linter/server/text_document.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

// The messages a reader finds in `input` (written to a pipe and closed), as
// "body" or "!error", then "end".
std::vector<std::string> ReadAll(const std::string& input, size_t limit = kMaxMessageBytes) {
  int fds[2];
  REQUIRE(::pipe(fds) == 0);
  std::thread writer([&] {
    std::string_view rest = input;
    while (!rest.empty()) {
      ssize_t n = ::write(fds[1], rest.data(), rest.size());
      if (n <= 0) break;
      rest.remove_prefix(static_cast<size_t>(n));
    }
    ::close(fds[1]);
  });
  MessageReader reader(fds[0], limit);
  std::vector<std::string> out;
  for (;;) {
    std::string body, error;
    MessageReader::Result r = reader.Next(&body, &error);
    if (r == MessageReader::Result::kEnd) break;
    out.push_back(r == MessageReader::Result::kMessage ? body : "!" + error);
  }
  out.push_back("end");
  writer.join();
  ::close(fds[0]);
  return out;
}

std::string Framed(const std::string& body) {
  return "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n" + body;
}

}  // namespace

TEST_CASE("framing: messages, other headers, bad headers and resynchronisation", "[server]") {
  CHECK(ReadAll(Framed("{}") +
                "Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: 2\r\n\r\n[]") ==
        std::vector<std::string>{"{}", "[]", "end"});
  // No Content-Length, then a length that is no number: errors, and the next message is read.
  CHECK(ReadAll("Content-Type: x\r\n\r\n" + Framed("1")) ==
        std::vector<std::string>{"!a message without a Content-Length header", "1", "end"});
  CHECK(ReadAll("Content-Length: 1e3\r\n\r\n" + Framed("2")) ==
        std::vector<std::string>{"!a header without a valid Content-Length", "2", "end"});
  // Garbage before a header: the header inside the line starts the next message.
  CHECK(ReadAll("garbage" + Framed("3")) == std::vector<std::string>{"3", "end"});
  // A line with no end longer than a header can be: dropped, the stream read on.
  CHECK(ReadAll(std::string(100000, 'x') + "\r\n\r\n" + Framed("4")) ==
        std::vector<std::string>{"!a header without a valid Content-Length", "4", "end"});
  // A body cut short by the end of the stream, and a stream ending in its header.
  CHECK(ReadAll("Content-Length: 10\r\n\r\n{}") == std::vector<std::string>{"end"});
  CHECK(ReadAll("Content-Length: 10\r\n") == std::vector<std::string>{"end"});
}

TEST_CASE("framing: a message over the limit is skipped whole", "[server]") {
  std::string big(5000, ' ');
  CHECK(ReadAll(Framed(big) + Framed("5"), 4096) ==
        std::vector<std::string>{"!a message of 5000 bytes, over the limit of 4096 bytes: skipped", "5", "end"});
}

TEST_CASE("positions: UTF-16 code units against bytes", "[server]") {
  std::string text = "a: é\n# 🚀 x\r\nlast";
  LineIndex index(text);
  CHECK(index.lines() == 3);
  CHECK(index.Line(text, 1) == "# 🚀 x");  // without its \r\n
  CHECK(Utf16Length("🚀") == 2);
  CHECK(Utf16Length("é") == 1);
  // Byte column 8 of line 2 is the x: "# " (2) + the rocket (4 bytes, 2 units) + " " (1).
  CHECK(index.FromByteColumn(text, 2, 8) == LspPosition{1, 5});
  CHECK(index.Offset(text, {1, 5}) == text.find('x'));
  // Past a line's end: its end; past the last line: the text's end.
  CHECK(index.Offset(text, {0, 99}) == text.find('\n'));
  CHECK(index.Offset(text, {7, 0}) == text.size());
  CHECK(index.LineEnd(text, 2) == LspPosition{2, 4});
}

TEST_CASE("incremental changes apply in order, whole-text changes replace", "[server]") {
  std::string text = "InstanceType: ml.p3.2xlarge\n# 🚀\n";
  ApplyChange(text, {{{{0, 14}, {0, 27}}}, "ml.t3.medium"});
  CHECK(text == "InstanceType: ml.t3.medium\n# 🚀\n");
  ApplyChange(text, {{{{1, 2}, {1, 4}}}, "GPU"});
  CHECK(text == "InstanceType: ml.t3.medium\n# GPU\n");
  ApplyChange(text, {{{{2, 0}, {2, 0}}}, "end\n"});
  CHECK(text == "InstanceType: ml.t3.medium\n# GPU\nend\n");
  ApplyChange(text, {std::nullopt, "new"});
  CHECK(text == "new");
}

TEST_CASE("a notebook assembled from cells, and its columns back in the cells", "[server]") {
  AssembledNotebook nb =
      AssembleNotebook({{false, "# Title\n"}, {true, "x = \"ml.p3.2xlarge\"\ny = 1"}, {true, ""}}, "");
  nlohmann::json j = nlohmann::json::parse(nb.json);
  REQUIRE(j["cells"].size() == 3);
  CHECK(j["cells"][0]["cell_type"] == "markdown");
  CHECK(j["cells"][1]["source"] == nlohmann::json::array({"x = \"ml.p3.2xlarge\"\n", "y = 1"}));
  CHECK(j["cells"][2]["source"] == nlohmann::json::array());
  CHECK(j["nbformat"] == 4);
  // Each source line of each cell is a line of its own.
  std::vector<std::pair<int, int>> sources;
  for (const NotebookLine& l : nb.lines) {
    if (l.cell >= 0) sources.push_back({l.cell, l.line});
  }
  CHECK(sources == std::vector<std::pair<int, int>>{{0, 0}, {1, 0}, {1, 1}});
  std::string line = "    \"x = \\\"ml.p3.2xlarge\\\"\\n\",";
  // The byte column of `m` in the JSON line stands for byte 5 of the cell's line.
  CHECK(CellColumn(line, static_cast<int>(line.find("ml.")) + 1) == 5);
  CHECK(CellColumn(line, 6) == 0);
}

TEST_CASE("the server answers what it cannot use with errors and keeps going", "[server]") {
  std::vector<nlohmann::json> sent;
  Server server([&](const std::string& body) {
    sent.push_back(nlohmann::json::parse(body));
    return true;
  });
  server.Handle("not json");
  server.Handle(R"({"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}})");
  server.Handle(R"({"jsonrpc":"2.0","id":2,"method":"initialize","params":{}})");
  server.Handle(R"({"jsonrpc":"2.0","id":3,"method":"initialize","params":{}})");
  server.Handle(R"({"jsonrpc":"2.0","id":{"x":1},"method":"shutdown"})");
  server.Handle(R"({"jsonrpc":"2.0","id":4,"method":"textDocument/codeAction","params":{"textDocument":7}})");
  server.Handle(
      R"({"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///nowhere.yaml"},"contentChanges":[]}})");
  server.Handle(R"({"jsonrpc":"2.0","id":5,"method":"shutdown"})");
  server.Handle(R"({"jsonrpc":"2.0","id":6,"method":"textDocument/hover","params":{}})");
  REQUIRE(sent.size() == 8);
  CHECK(sent[0]["error"]["code"] == -32700);
  CHECK(sent[0]["id"].is_null());
  CHECK(sent[1]["error"]["code"] == -32002);  // before initialize
  CHECK(sent[2]["result"]["capabilities"]["hoverProvider"] == true);
  CHECK(sent[3]["error"]["code"] == -32600);  // initialize twice
  CHECK(sent[4]["error"]["code"] == -32600);  // an id that is an object
  CHECK(sent[5]["error"]["code"] == -32602);  // bad parameters
  CHECK(sent[6]["result"].is_null());         // shutdown
  CHECK(sent[7]["error"]["code"] == -32600);  // after shutdown
  CHECK_FALSE(server.exited());
  server.Handle(R"({"jsonrpc":"2.0","method":"exit"})");
  CHECK(server.exited());
  CHECK(server.exit_code() == 0);
}

TEST_CASE("documents closed are forgotten", "[server]") {
  Server server([](const std::string&) { return true; });
  server.Handle(R"({"jsonrpc":"2.0","id":1,"method":"initialize","params":{}})");
  for (int i = 0; i < 100; ++i) {
    std::string uri = "untitled:doc" + std::to_string(i);
    server.Handle(R"({"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":")" + uri +
                  R"(","languageId":"yaml","version":1,"text":"a: 1"}}})");
  }
  CHECK(server.documents() == 100);
  for (int i = 0; i < 100; ++i) {
    std::string uri = "untitled:doc" + std::to_string(i);
    server.Handle(R"({"jsonrpc":"2.0","method":"textDocument/didClose","params":{"textDocument":{"uri":")" + uri +
                  R"("}}})");
  }
  server.Flush();
  CHECK(server.documents() == 0);
}
