#include "linter/base/process.h"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "linter/base/portable.h"

extern char** environ;  // NOLINT(readability-redundant-declaration): not every C library declares it

namespace sagelint {
namespace {

constexpr size_t kMaxStderr = 64 << 10;

class OwnedFd {
 public:
  OwnedFd() = default;
  explicit OwnedFd(int fd) : fd_(fd) {}
  OwnedFd(const OwnedFd&) = delete;
  OwnedFd& operator=(const OwnedFd&) = delete;
  ~OwnedFd() { Close(); }
  int get() const { return fd_; }
  void Reset(int fd) {
    Close();
    fd_ = fd;
  }
  int Release() {
    int fd = fd_;
    fd_ = -1;
    return fd;
  }
  void Close() {
    if (fd_ >= 0) ::close(fd_);
    fd_ = -1;
  }

 private:
  int fd_ = -1;
};

bool MakePipe(OwnedFd* read_end, OwnedFd* write_end) {
  int fds[2];
  if (!MakeCloseOnExecPipe(fds)) return false;
  read_end->Reset(fds[0]);
  write_end->Reset(fds[1]);
  return true;
}

}  // namespace

bool RunProcess(const std::vector<std::string>& argv, std::string_view input,
                const std::function<bool(std::string_view)>& on_output, ProcessResult* result, std::string* error) {
  OwnedFd in_r, in_w, out_r, out_w, err_r, err_w;
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
  for (OwnedFd* fd : {&in_w, &out_r, &err_r}) {
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
        OwnedFd& fd = fds[i].fd == out_r.get() ? out_r : err_r;
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

Coprocess::~Coprocess() { Stop(); }

bool Coprocess::Start(const std::vector<std::string>& argv, const std::vector<std::string>& env, std::string* error) {
  Stop();
  OwnedFd in_r, in_w, out_r, out_w, err_r, err_w;
  if (!MakePipe(&in_r, &in_w) || !MakePipe(&out_r, &out_w) || !MakePipe(&err_r, &err_w)) {
    *error = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  // The environment: sagelint's, with `env` added or replacing.
  std::vector<std::string> vars;
  for (char** e = environ; e && *e; ++e) {
    std::string_view v(*e);
    std::string_view name = v.substr(0, v.find('='));
    bool replaced = false;
    for (const std::string& add : env) replaced = replaced || std::string_view(add).substr(0, add.find('=')) == name;
    if (!replaced) vars.emplace_back(v);
  }
  vars.insert(vars.end(), env.begin(), env.end());
  std::vector<char*> envp;
  for (std::string& v : vars) envp.push_back(v.data());
  envp.push_back(nullptr);
  std::vector<char*> args;
  for (const std::string& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, in_r.get(), 0);
  posix_spawn_file_actions_adddup2(&actions, out_w.get(), 1);
  posix_spawn_file_actions_adddup2(&actions, err_w.get(), 2);
  pid_t pid = 0;
  int rc = posix_spawnp(&pid, args[0], &actions, nullptr, args.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    *error = "cannot run " + argv[0] + ": " + std::strerror(rc);
    return false;
  }
  pid_ = pid;
  // Ours are kept; the OwnedFd destructors close the child's ends.
  in_ = in_w.Release();
  out_ = out_r.Release();
  errfd_ = err_r.Release();
  ::fcntl(errfd_, F_SETFL, ::fcntl(errfd_, F_GETFL) | O_NONBLOCK);
  buf_.clear();
  pos_ = 0;
  err_.clear();
  return true;
}

bool Coprocess::Write(std::string_view data) {
  if (in_ < 0) return false;
  // A program that has ended would raise SIGPIPE: block it in this thread for
  // the write and take back one that the write raised.
  sigset_t pipe_set, old_set;
  sigemptyset(&pipe_set);
  sigaddset(&pipe_set, SIGPIPE);
  sigset_t pending;
  sigpending(&pending);
  bool was_pending = sigismember(&pending, SIGPIPE) == 1;
  pthread_sigmask(SIG_BLOCK, &pipe_set, &old_set);
  bool ok = true;
  while (!data.empty()) {
    ssize_t n = ::write(in_, data.data(), data.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      ok = false;
      break;
    }
    data.remove_prefix(static_cast<size_t>(n));
  }
  if (!ok && errno == EPIPE && !was_pending) {
    timespec zero{0, 0};
    sigtimedwait(&pipe_set, nullptr, &zero);
  }
  pthread_sigmask(SIG_SETMASK, &old_set, nullptr);
  return ok;
}

bool Coprocess::Fill() {
  if (out_ < 0) return false;
  if (pos_ > 0 && pos_ == buf_.size()) {
    buf_.clear();
    pos_ = 0;
  }
  char chunk[1 << 16];
  while (true) {
    pollfd fds[2] = {{out_, POLLIN, 0}, {errfd_, POLLIN, 0}};
    int n = errfd_ >= 0 ? 2 : 1;
    if (::poll(fds, n, -1) < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    if (n == 2 && fds[1].revents != 0) {
      ssize_t r = ::read(errfd_, chunk, sizeof chunk);
      if (r > 0) {
        if (err_.size() < kMaxStderr) err_.append(chunk, std::min<size_t>(r, kMaxStderr - err_.size()));
      } else if (r == 0 || errno != EAGAIN) {
        ::close(errfd_);
        errfd_ = -1;
      }
    }
    if (fds[0].revents != 0) {
      ssize_t r = ::read(out_, chunk, sizeof chunk);
      if (r < 0 && errno == EINTR) continue;
      if (r <= 0) return false;
      buf_.append(chunk, static_cast<size_t>(r));
      return true;
    }
  }
}

bool Coprocess::ReadLine(std::string* line, size_t max) {
  size_t scanned = pos_;
  while (true) {
    size_t nl = buf_.find('\n', scanned);
    if (nl != std::string::npos) {
      if (nl - pos_ > max) return false;
      line->assign(buf_, pos_, nl - pos_);
      pos_ = nl + 1;
      return true;
    }
    if (buf_.size() - pos_ > max) return false;
    scanned = buf_.size();
    size_t before = pos_;
    if (!Fill()) return false;
    scanned -= before - pos_;  // Fill may have dropped consumed bytes
  }
}

bool Coprocess::Read(std::uint64_t n, std::string* out) {
  while (n > 0) {
    if (pos_ == buf_.size() && !Fill()) return false;
    size_t take = static_cast<size_t>(std::min<std::uint64_t>(n, buf_.size() - pos_));
    if (out) out->append(buf_, pos_, take);
    pos_ += take;
    n -= take;
  }
  return true;
}

int Coprocess::Stop() {
  if (pid_ <= 0) return -1;
  // Closing its input ends a batch program; closing its output ends one that
  // is still writing (it gets EPIPE).
  for (int* fd : {&in_, &out_, &errfd_}) {
    if (*fd >= 0) ::close(*fd);
    *fd = -1;
  }
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  buf_.clear();
  pos_ = 0;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

}  // namespace sagelint
