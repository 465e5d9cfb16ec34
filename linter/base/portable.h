// What the C and C++ libraries of the supported systems do differently, behind
// one interface: glibc and libstdc++ on Linux, libc++ and Apple's libc on macOS.
// Each function has a POSIX / standard-C++ fallback; building with
// -DSAGELINT_POSIX_FALLBACKS=ON uses the fallbacks everywhere, so they are
// built and tested on Linux as well (docs/maintaining.md).
#ifndef SAGELINT_LINTER_BASE_PORTABLE_H_
#define SAGELINT_LINTER_BASE_PORTABLE_H_

#include <functional>
#include <optional>
#include <string_view>

namespace sagelint {

// Hands memory that threads freed back to the system where the allocator keeps
// it per thread (glibc's arenas); elsewhere nothing to do.
void ReleaseFreedMemory();

// A pipe whose two ends are closed on exec; false (errno set) if it fails.
bool MakeCloseOnExecPipe(int fds[2]);

// Calls `entry(dir_fd, name, type)` for each entry of the directory `path`
// ("." and ".." too; `type` a dirent d_type, DT_UNKNOWN where the file
// system gives none), the directory open as `dir_fd` meanwhile (for a
// fstatat of an entry). False (errno set) if it cannot be opened. Linux:
// getdents64 into a buffer, with neither a stat of the directory nor a
// stream allocated as opendir has; elsewhere opendir and readdir.
bool ListDirectory(const char* path, const std::function<void(int, const char*, unsigned char)>& entry);

// The decimal number `s` is, read the same in every locale: digits with an
// optional '-' sign, fraction and exponent (what std::from_chars accepts for
// double); nullopt unless all of `s` is one number. libc++ before 17 has no
// floating-point std::from_chars.
std::optional<double> ParseDouble(std::string_view s);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_PORTABLE_H_
