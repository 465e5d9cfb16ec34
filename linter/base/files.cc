#include "linter/base/files.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace sagelint {
namespace fs = std::filesystem;

namespace {

std::string SystemError(int err) { return std::strerror(err); }

bool WriteAll(int fd, std::string_view content, std::string* error) {
  while (!content.empty()) {
    ssize_t n = ::write(fd, content.data(), content.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      *error = SystemError(errno);
      return false;
    }
    content.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

}  // namespace

std::string FormatCap(size_t bytes) {
  if (bytes >= (1u << 20) && bytes % (1u << 20) == 0) return std::to_string(bytes >> 20) + " MiB";
  if (bytes >= (1u << 10) && bytes % (1u << 10) == 0) return std::to_string(bytes >> 10) + " KiB";
  return std::to_string(bytes) + " bytes";
}

bool ReadFileCapped(const std::string& path, size_t max_bytes, std::string* out, std::string* error) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; the type is checked on the open descriptor.
  int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) {
    *error = errno == EISDIR ? "is a directory" : SystemError(errno);
    return false;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    *error = SystemError(errno);
    ::close(fd);
    return false;
  }
  if (S_ISDIR(st.st_mode)) {
    *error = "is a directory";
    ::close(fd);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *error = "not a regular file";
    ::close(fd);
    return false;
  }
  if (static_cast<unsigned long long>(st.st_size) > max_bytes) {
    *error = "larger than " + FormatCap(max_bytes);
    ::close(fd);
    return false;
  }
  // A regular file reads the same with O_NONBLOCK set; should a file system
  // still answer "would block", the flag is cleared and the read repeated.
  auto read_some = [fd](char* p, size_t n) -> ssize_t {
    while (true) {
      ssize_t got = ::read(fd, p, n);
      if (got >= 0) return got;
      if (errno == EINTR) continue;
      int flags = errno == EAGAIN ? ::fcntl(fd, F_GETFL) : -1;
      if (flags < 0 || !(flags & O_NONBLOCK) || ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) return -1;
    }
  };
  // The size fstat gave is read straight into the string (one read for most
  // files). A size of 0 may still hold text (/proc, some FUSE file systems):
  // that is read to the end in 64 KiB steps, capped.
  const size_t size = static_cast<size_t>(st.st_size);
  size_t have = 0;
  out->clear();
  while (size == 0 || have < size) {
    size_t room = size > 0 ? size - have : size_t{1} << 16;
    out->resize(have + room);
    ssize_t n = read_some(out->data() + have, room);
    if (n < 0) {
      *error = SystemError(errno);
      out->clear();
      ::close(fd);
      return false;
    }
    if (n == 0) break;  // the end (or the file shrank since fstat)
    have += static_cast<size_t>(n);
    if (have > max_bytes) {
      *error = "larger than " + FormatCap(max_bytes);
      out->clear();
      ::close(fd);
      return false;
    }
  }
  out->resize(have);
  ::close(fd);
  return true;
}

bool WriteFileAtomic(const std::string& path, std::string_view content, std::string* error) {
  fs::path target = path;
  std::error_code ec;
  std::string abs = fs::absolute(target, ec).lexically_normal().string();
  // /dev/stdout, /dev/fd/N, /proc/self/fd/N name an already open file (a pipe, a
  // terminal, the file a shell redirected to): write through them, never replace them.
  bool through = abs.rfind("/dev/", 0) == 0 || abs.rfind("/proc/", 0) == 0;
  struct stat st;
  bool exists = ::lstat(target.c_str(), &st) == 0;
  if (exists && S_ISDIR(st.st_mode)) {
    *error = "is a directory";
    return false;
  }
  if (through || (exists && !S_ISREG(st.st_mode) && !S_ISLNK(st.st_mode))) {
    // A device or FIFO: it cannot be replaced, only written.
    int fd = ::open(target.c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (fd < 0) {
      *error = SystemError(errno);
      return false;
    }
    bool ok = WriteAll(fd, content, error);
    if (::close(fd) != 0 && ok) {
      *error = SystemError(errno);
      ok = false;
    }
    return ok;
  }
  // Anywhere else a symbolic link at the target is replaced, never followed: a
  // link planted where a report goes cannot redirect the write to another file.
  fs::path dir = target.parent_path();
  std::string tmpl = (dir.empty() ? fs::path(".") : dir).string() + "/." + target.filename().string() + ".XXXXXX";
  int fd = ::mkstemp(tmpl.data());
  if (fd < 0) {
    *error = SystemError(errno);
    return false;
  }
  // The permissions a plain create would give (or the old file's), not mkstemp's 0600.
  mode_t mode;
  if (exists && S_ISREG(st.st_mode)) {
    mode = st.st_mode & 07777;
  } else {
    mode_t mask = ::umask(0);
    ::umask(mask);
    mode = 0666 & ~mask;
  }
  ::fchmod(fd, mode);
  bool ok = WriteAll(fd, content, error);
  if (ok && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
    *error = SystemError(errno);
    ok = false;
  }
  if (::close(fd) != 0 && ok) {
    *error = SystemError(errno);
    ok = false;
  }
  if (ok && ::rename(tmpl.c_str(), target.c_str()) != 0) {
    *error = SystemError(errno);
    ok = false;
  }
  if (!ok) ::unlink(tmpl.c_str());
  return ok;
}

}  // namespace sagelint
