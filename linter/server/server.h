// `sagelint server`: a Language Server (LSP over stdio) that publishes the
// findings of the files an editor has open as diagnostics, offers their
// fixes and an ignore comment as code actions, and describes an instance type
// on hover (README.md, "Editors"). Unsaved buffers are scanned in memory with
// the rest of the workspace read from the disk; a change re-scans only the
// document it touches (with a Terraform module's other open files).
#ifndef SAGELINT_LINTER_SERVER_SERVER_H_
#define SAGELINT_LINTER_SERVER_SERVER_H_

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <string_view>

namespace sagelint {

class Server {
 public:
  // `send` writes one message to the client; false once the client is gone.
  explicit Server(std::function<bool(const std::string&)> send);
  ~Server();
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // One message from the client (a request, a response or a notification).
  void Handle(std::string_view body);
  // An error response for a message that could not be read (id null).
  void ReportUnreadable(const std::string& why);
  // Scans what changed since the last call and publishes the diagnostics.
  void Flush();

  bool exited() const;
  int exit_code() const;  // 0 after shutdown then exit, else 1
  bool shutdown_requested() const;
  size_t documents() const;  // open text documents and notebook cells

 private:
  struct State;
  std::unique_ptr<State> state_;
};

// Runs the server on two file descriptors until the client sends `exit` or
// goes away; returns the process's exit status.
int RunServer(int in_fd, int out_fd);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_SERVER_SERVER_H_
