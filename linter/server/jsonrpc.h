// JSON-RPC messages over a byte stream with `Content-Length` framing, as the
// Language Server Protocol's base protocol has them: a header part of
// `Name: value` lines ending in an empty line, then the body.
#ifndef SAGELINT_LINTER_SERVER_JSONRPC_H_
#define SAGELINT_LINTER_SERVER_JSONRPC_H_

#include <cstddef>
#include <string>
#include <string_view>

namespace sagelint {

// The largest message read (its body is skipped, and the reader stays in step).
inline constexpr size_t kMaxMessageBytes = 64u << 20;

class MessageReader {
 public:
  explicit MessageReader(int fd, size_t max_bytes = kMaxMessageBytes) : fd_(fd), max_bytes_(max_bytes) {}

  enum class Result {
    kMessage,  // `body` holds one message
    kEnd,      // the stream ended (the client went away)
    kBad,      // a header without a usable Content-Length, or a body over the limit: `error` says which
  };
  // The next message. After kBad the reader has skipped what it could not
  // read and looks for the next header, so reading on is safe.
  Result Next(std::string* body, std::string* error);
  // Whether more input is at hand already: bytes buffered or ready to read.
  bool Pending() const;

 private:
  bool Fill();                       // reads more input; false at the end of the stream
  bool ReadLine(std::string* line);  // a header line without its line end; false at the end
  bool Skip(size_t n);               // drops n bytes of input

  int fd_;
  size_t max_bytes_;
  std::string buf_;
  size_t pos_ = 0;
};

// Writes one message with its header; false when the stream is closed.
bool WriteMessage(int fd, std::string_view body);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_SERVER_JSONRPC_H_
