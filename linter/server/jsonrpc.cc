#include "linter/server/jsonrpc.h"

#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>

namespace sagelint {
namespace {

constexpr size_t kMaxHeaderLine = 8192;
constexpr std::string_view kLengthHeader = "content-length:";

bool EqualsIgnoringCase(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

// Where a Content-Length header starts in `s` (any case), or npos.
size_t FindLengthHeader(std::string_view s) {
  for (size_t i = 0; i + kLengthHeader.size() <= s.size(); ++i) {
    if (EqualsIgnoringCase(s.substr(i, kLengthHeader.size()), kLengthHeader)) return i;
  }
  return std::string_view::npos;
}

}  // namespace

bool MessageReader::Fill() {
  if (pos_ > 0 && pos_ >= buf_.size() / 2) {
    buf_.erase(0, pos_);
    pos_ = 0;
  }
  char chunk[65536];
  for (;;) {
    ssize_t n = ::read(fd_, chunk, sizeof chunk);
    if (n > 0) {
      buf_.append(chunk, static_cast<size_t>(n));
      return true;
    }
    if (n < 0 && errno == EINTR) continue;
    return false;
  }
}

bool MessageReader::Pending() const {
  if (pos_ < buf_.size()) return true;
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP)) != 0;
}

bool MessageReader::ReadLine(std::string* line) {
  for (;;) {
    size_t nl = buf_.find('\n', pos_);
    if (nl != std::string::npos) {
      size_t end = nl > pos_ && buf_[nl - 1] == '\r' ? nl - 1 : nl;
      line->assign(buf_, pos_, end - pos_);
      pos_ = nl + 1;
      return true;
    }
    if (buf_.size() - pos_ > kMaxHeaderLine) {
      // No line end in sight: keep only what may start a header.
      size_t at = FindLengthHeader(std::string_view(buf_).substr(pos_));
      pos_ = at == std::string::npos ? buf_.size() - (kLengthHeader.size() - 1) : pos_ + at;
      *line = "\x01";  // stands for a line that was no header
      return true;
    }
    if (!Fill()) return false;
  }
}

bool MessageReader::Skip(size_t n) {
  while (n > 0) {
    if (pos_ >= buf_.size() && !Fill()) return false;
    size_t take = std::min(n, buf_.size() - pos_);
    pos_ += take;
    n -= take;
  }
  return true;
}

MessageReader::Result MessageReader::Next(std::string* body, std::string* error) {
  std::string line;
  bool have_length = false, bad = false;
  size_t length = 0;
  bool any = false;
  for (;;) {
    if (!ReadLine(&line)) return Result::kEnd;
    if (line.empty()) {
      if (!any) continue;  // blank lines between messages
      break;
    }
    // Garbage, or what is left of a message that could not be read: a
    // Content-Length header inside it starts the next message.
    size_t at = FindLengthHeader(line);
    if (at != std::string::npos && at > 0) line.erase(0, at);
    size_t colon = line.find(':');
    if (colon == std::string::npos || line[0] == '\x01') {
      bad = true;
      any = true;
      continue;
    }
    any = true;
    std::string_view name = std::string_view(line).substr(0, colon);
    std::string_view value = std::string_view(line).substr(colon + 1);
    while (!value.empty() && (value.front() == ' ' || value.front() == '\t')) value.remove_prefix(1);
    while (!value.empty() && (value.back() == ' ' || value.back() == '\t')) value.remove_suffix(1);
    if (!EqualsIgnoringCase(name, "content-length")) continue;  // Content-Type and others: nothing to do
    bool digits = !value.empty() && value.size() <= 18 &&
                  std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; });
    if (!digits) {
      bad = true;
      continue;
    }
    length = std::stoull(std::string(value));
    have_length = true;
    bad = false;  // what came before belonged to no message
  }
  if (!have_length) {
    *error = bad ? "a header without a valid Content-Length" : "a message without a Content-Length header";
    return Result::kBad;
  }
  if (length > max_bytes_) {
    *error = "a message of " + std::to_string(length) + " bytes, over the limit of " + std::to_string(max_bytes_) +
             " bytes: skipped";
    return Skip(length) ? Result::kBad : Result::kEnd;
  }
  while (buf_.size() - pos_ < length) {
    if (!Fill()) return Result::kEnd;
  }
  body->assign(buf_, pos_, length);
  pos_ += length;
  return Result::kMessage;
}

bool WriteMessage(int fd, std::string_view body) {
  std::string out = "Content-Length: " + std::to_string(body.size()) + "\r\n\r\n";
  out += body;
  std::string_view rest = out;
  while (!rest.empty()) {
    ssize_t n = ::write(fd, rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    rest.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace sagelint
