#include "linter/base/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

extern char** environ;

namespace sagelint {
namespace {

constexpr size_t kMaxStderr = 64 << 10;

class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { Close(); }
  int get() const { return fd_; }
  void Reset(int fd) {
    Close();
    fd_ = fd;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

bool MakePipe(Fd* read_end, Fd* write_end) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return false;
  read_end->Reset(fds[0]);
  write_end->Reset(fds[1]);
  return true;
}

}  // namespace

bool RunProcess(const std::vector<std::string>& argv, std::string_view input,
                const std::function<bool(std::string_view)>& on_output, ProcessResult* result, std::string* error) {
  Fd in_r, in_w, out_r, out_w, err_r, err_w;
  if (!MakePipe(&in_r, &in_w) || !MakePipe(&out_r, &out_w) || !MakePipe(&err_r, &err_w)) {
    *error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.get(), 2);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return false;
  }
  in_r.Close();
  out_w.Close();
  err_w.Close();
  if (input.empty()) in_w.Close();
  for (Fd* fd : {&in_w, &out_r, &err_r}) {
    if (fd->get() >= 0) ::fcntl(fd->get(), F_SETFL, ::fcntl(fd->get(), F_GETFL) | O_NONBLOCK);
  }
  // SIGPIPE from a program that stops reading must not end sagelint.
  struct sigaction ignore {
  }, old{};
  ignore.sa_handler = SIG_IGN;
  ::sigaction(SIGPIPE, &ignore, &old);

  size_t written = 0;
  bool stopped = false;
  char buf[1 << 16];
  while (out_r.get() >= 0 || err_r.get() >= 0) {
    pollfd fds[3];
    int n = 0;
    if (in_w.get() >= 0) fds[n++] = {in_w.get(), POLLOUT, 0};
    if (out_r.get() >= 0) fds[n++] = {out_r.get(), POLLIN, 0};
    if (err_r.get() >= 0) fds[n++] = {err_r.get(), POLLIN, 0};
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (int i = 0; i < n; ++i) {
      if (fds[i].revents == 0) continue;
      if (fds[i].fd == in_w.get()) {
        ssize_t w = ::write(in_w.get(), input.data() + written, input.size() - written);
        if (w > 0) written += static_cast<size_t>(w);
        if ((w < 0 && errno != EAGAIN) || written == input.size()) in_w.Close();
      } else {
        Fd& fd = fds[i].fd == out_r.get() ? out_r : err_r;
        ssize_t r = ::read(fd.get(), buf, sizeof buf);
        if (r > 0) {
          if (&fd == &err_r) {
            if (result->err.size() < kMaxStderr)
              result->err.append(buf, std::min<size_t>(r, kMaxStderr - result->err.size()));
          } else if (!stopped && !on_output(std::string_view(buf, static_cast<size_t>(r)))) {
            stopped = true;
            ::kill(pid, SIGTERM);
          }
        } else if (r == 0 || errno != EAGAIN) {
          fd.Close();
        }
      }
    }
  }
  in_w.Close();
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  ::sigaction(SIGPIPE, &old, nullptr);
  result->exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return true;
}

bool RunProcess(const std::vector<std::string>& argv, std::string* out, ProcessResult* result, std::string* error) {
  return RunProcess(
      argv, {},
      [&](std::string_view chunk) {
        out->append(chunk);
        return true;
      },
      result, error);
}

}  // namespace sagelint
