#include "linter/base/portable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include <charconv>
#include <locale>
#include <sstream>
#include <string>

#if defined(__GLIBC__) && !defined(SAGELINT_POSIX_FALLBACKS)
#include <malloc.h>  // malloc_trim
#define SAGELINT_HAVE_MALLOC_TRIM 1
#endif
#if defined(__linux__) && !defined(SAGELINT_POSIX_FALLBACKS)
#define SAGELINT_HAVE_PIPE2 1
#endif
#if defined(__GLIBC__) && !defined(SAGELINT_POSIX_FALLBACKS)
#define SAGELINT_HAVE_GETDENTS64 1  // glibc's wrapper (2.30 and later)
#endif
#if defined(__cpp_lib_to_chars) && __cpp_lib_to_chars >= 201611L && !defined(SAGELINT_POSIX_FALLBACKS)
#define SAGELINT_HAVE_FLOAT_FROM_CHARS 1
#endif

namespace sagelint {

void ReleaseFreedMemory() {
#ifdef SAGELINT_HAVE_MALLOC_TRIM
  ::malloc_trim(0);
#endif
}

bool MakeCloseOnExecPipe(int fds[2]) {
#ifdef SAGELINT_HAVE_PIPE2
  return ::pipe2(fds, O_CLOEXEC) == 0;
#else
  if (::pipe(fds) != 0) return false;
  for (int i = 0; i < 2; ++i) {
    int flags = ::fcntl(fds[i], F_GETFD);
    if (flags < 0 || ::fcntl(fds[i], F_SETFD, flags | FD_CLOEXEC) != 0) {
      ::close(fds[0]);
      ::close(fds[1]);
      return false;
    }
  }
  return true;
#endif
}

bool ListDirectory(const char* path, const std::function<void(int, const char*, unsigned char)>& entry) {
#ifdef SAGELINT_HAVE_GETDENTS64
  const int fd = ::open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return false;
  alignas(struct dirent64) char buffer[32768];
  for (;;) {
    ssize_t n = ::getdents64(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;  // the end (an error ends the listing, as it ends readdir's)
    for (ssize_t at = 0; at < n;) {
      const auto* ent = reinterpret_cast<const struct dirent64*>(buffer + at);
      entry(fd, ent->d_name, ent->d_type);
      at += ent->d_reclen;
    }
  }
  ::close(fd);
#else
  DIR* d = ::opendir(path);
  if (!d) return false;
  const int fd = ::dirfd(d);
  while (const dirent* ent = ::readdir(d)) entry(fd, ent->d_name, ent->d_type);
  ::closedir(d);
#endif
  return true;
}

std::optional<double> ParseDouble(std::string_view s) {
  if (s.empty()) return std::nullopt;
#ifdef SAGELINT_HAVE_FLOAT_FROM_CHARS
  double d = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), d);
  if (ec != std::errc() || ptr != s.data() + s.size()) return std::nullopt;
  return d;
#else
  // The same grammar as from_chars: [-] digits [. digits] [(e|E) [+|-] digits],
  // at least one digit before the exponent; then the classic locale converts.
  size_t i = 0;
  if (s[i] == '-') ++i;
  size_t digits = 0;
  while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && s[i] >= '0' && s[i] <= '9') ++i, ++digits;
  }
  if (digits == 0) return std::nullopt;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    size_t j = i + 1;
    if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
    size_t exp_digits = 0;
    while (j < s.size() && s[j] >= '0' && s[j] <= '9') ++j, ++exp_digits;
    if (exp_digits == 0) return std::nullopt;
    i = j;
  }
  if (i != s.size()) return std::nullopt;
  std::istringstream in{std::string(s)};
  in.imbue(std::locale::classic());
  double d = 0;
  in >> d;
  if (in.fail()) return std::nullopt;
  return d;
#endif
}

}  // namespace sagelint
