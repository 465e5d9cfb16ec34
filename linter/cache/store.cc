#include "linter/cache/store.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include "linter/base/user_cache.h"
#include "linter/cache/codec.h"

namespace sagelint::cache {
namespace {

// "sagelint-cache" and the entry format: a change of layout is a new format, whose entries the old one ignores.
constexpr std::string_view kMagic = "sagelint-cache\n";
constexpr std::uint32_t kFormat = 2;
constexpr size_t kHeaderBytes = kMagic.size() + 4 + 32 + 8 + 8;
// An entry is one unit's parsed files; anything larger is not ours.
constexpr std::uint64_t kMaxBodyBytes = 256u << 20;

// The check of an entry's body against damage (a torn write, a flipped
// byte), not against forgery: only the user can write the directory
// (docs/organisation.md "Warm scans"). Four lanes of 8-byte words, each step
// a bijection of the lane given the word and of the word given the lane, so
// any change of one word always changes the result; several times faster
// than SHA-256, which a warm scan would spend on every entry it reads.
std::uint64_t BodyCheck(std::string_view data) {
  constexpr std::uint64_t kOdd = 0x9E3779B97F4A7C15ull;  // 2^64 divided by the golden ratio, odd
  auto word = [&](size_t at) {
    std::uint64_t w;
    std::memcpy(&w, data.data() + at, sizeof w);
    return w;
  };
  auto step = [](std::uint64_t lane, std::uint64_t w) { return std::rotl((lane ^ w) * kOdd, 29); };
  std::uint64_t lanes[4] = {data.size(), kOdd, ~kOdd, ~static_cast<std::uint64_t>(data.size())};
  size_t at = 0;
  for (; at + 32 <= data.size(); at += 32) {
    for (int k = 0; k < 4; ++k) lanes[k] = step(lanes[k], word(at + 8 * static_cast<size_t>(k)));
  }
  for (; at + 8 <= data.size(); at += 8) lanes[0] = step(lanes[0], word(at));
  // The 0–7 bytes left, zero-padded (the size is where two lanes start).
  std::uint64_t last = 0;
  if (at < data.size()) std::memcpy(&last, data.data() + at, data.size() - at);
  lanes[1] = step(lanes[1], last);
  // Each lane scrambled (xor-shifts and odd multiplications: bijective) and the four combined.
  std::uint64_t out = 0;
  for (int k = 0; k < 4; ++k) {
    std::uint64_t h = lanes[k];
    h ^= h >> 31;
    h *= 0xD6E8FEB86659FD93ull;
    h ^= h >> 29;
    out ^= std::rotl(h, 16 * k);
  }
  return out;
}

// Creates the missing directories of `dir`, each private to the user.
bool MakeDirs(const std::string& dir, std::string* why) {
  std::filesystem::path p = std::filesystem::path(dir).lexically_normal();
  std::filesystem::path so_far;
  for (const auto& part : p) {
    so_far /= part;
    if (part == so_far.root_path() || part.empty()) continue;
    if (::mkdir(so_far.c_str(), 0700) != 0 && errno != EEXIST) {
      *why = "cannot be created (" + std::string(std::strerror(errno)) + ")";
      return false;
    }
  }
  return true;
}

bool WriteAll(int fd, std::string_view data) {
  while (!data.empty()) {
    ssize_t n = ::write(fd, data.data(), data.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    data.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

constexpr std::int64_t kDaySeconds = 86'400;
// A temporary file older than this was left by a scan that did not finish.
constexpr std::int64_t kLeftoverSeconds = 3'600;
constexpr const char* kPrunedMarker = ".pruned";

bool IsHex(std::string_view s) { return s.find_first_not_of("0123456789abcdef") == std::string_view::npos; }

}  // namespace

size_t Store::Prune(std::int64_t max_age_days, std::uint64_t max_bytes) const {
  const std::int64_t now = ::time(nullptr);
  struct Kept {
    std::int64_t used;
    std::uint64_t bytes;
    std::string name;
  };
  std::vector<Kept> kept;
  std::uint64_t total = 0;
  size_t removed = 0;
  for (int i = 0; i < 256; ++i) {
    static const char kHex[] = "0123456789abcdef";
    const std::string sub = {kHex[i >> 4], kHex[i & 15]};
    int dfd = ::openat(fd_, sub.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (dfd < 0) continue;
    DIR* d = ::fdopendir(dfd);
    if (!d) {
      ::close(dfd);
      continue;
    }
    std::vector<std::string> names;
    while (const dirent* e = ::readdir(d)) names.emplace_back(e->d_name);
    for (const std::string& name : names) {
      struct stat st;
      if (::fstatat(dfd, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) continue;
      const std::int64_t age = now - static_cast<std::int64_t>(st.st_mtim.tv_sec);
      bool entry = name.size() == 62 && IsHex(name);
      bool leftover = name.starts_with(".tmp-") && age > kLeftoverSeconds;
      if (leftover || (entry && age > max_age_days * kDaySeconds)) {
        if (::unlinkat(dfd, name.c_str(), 0) == 0) ++removed;
      } else if (entry) {
        kept.push_back({st.st_mtim.tv_sec, static_cast<std::uint64_t>(st.st_size), sub + "/" + name});
        total += static_cast<std::uint64_t>(st.st_size);
      }
    }
    ::closedir(d);
  }
  if (total > max_bytes) {
    std::sort(kept.begin(), kept.end(), [](const Kept& a, const Kept& b) { return a.used < b.used; });
    for (const Kept& k : kept) {
      if (total <= max_bytes) break;
      if (::unlinkat(fd_, k.name.c_str(), 0) == 0) ++removed;
      total -= k.bytes;
    }
  }
  return removed;
}

void Store::PruneDaily() const {
  struct stat st;
  if (::fstatat(fd_, kPrunedMarker, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
      st.st_mtim.tv_sec > ::time(nullptr) - kDaySeconds) {
    return;
  }
  int fd = ::openat(fd_, kPrunedMarker, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  ::futimens(fd, nullptr);
  ::close(fd);
  Prune(kPruneUnusedDays, kPruneMaxBytes);
}

std::string DefaultDir() {
  std::string base = UserCacheDir();
  return base.empty() ? base : base + "/scan";
}

std::string EntryName(const Key& key) {
  static const char kHex[] = "0123456789abcdef";
  std::string out;
  for (size_t i = 0; i < key.size(); ++i) {
    if (i == 1) out += '/';
    out += kHex[key[i] >> 4];
    out += kHex[key[i] & 15];
  }
  return out;
}

std::unique_ptr<Store> Store::Open(const std::string& dir, std::string* why) {
  if (dir.empty()) {
    *why = "has no place: set XDG_CACHE_HOME or HOME, or give --cache-dir";
    return nullptr;
  }
  if (!MakeDirs(dir, why)) return nullptr;
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) {
    *why = "cannot be opened (" + std::string(std::strerror(errno)) + ")";
    return nullptr;
  }
  struct stat st;
  if (::fstat(fd, &st) != 0 || !S_ISDIR(st.st_mode)) {
    *why = "is not a directory";
  } else if (st.st_uid != ::geteuid()) {
    *why = "is owned by another user";
  } else if ((st.st_mode & (S_IWGRP | S_IWOTH)) != 0) {
    *why = "is writable by others";
  } else {
    return std::unique_ptr<Store>(new Store(dir, fd, static_cast<std::uint32_t>(::geteuid())));
  }
  ::close(fd);
  return nullptr;
}

Store::~Store() { ::close(fd_); }

std::optional<std::string> Store::Load(const Key& key) const {
  int fd = ::openat(fd_, EntryName(key).c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  struct stat st;
  std::string data;
  bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && static_cast<std::uint32_t>(st.st_uid) == uid_ &&
            static_cast<std::uint64_t>(st.st_size) >= kHeaderBytes &&
            static_cast<std::uint64_t>(st.st_size) <= kHeaderBytes + kMaxBodyBytes;
  if (ok) {
    data.resize(static_cast<size_t>(st.st_size));
    size_t got = 0;
    while (got < data.size()) {
      ssize_t n = ::read(fd, data.data() + got, data.size() - got);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      got += static_cast<size_t>(n);
    }
    ok = got == data.size();
  }
  // Used: its time says so, once a day at most (PruneDaily removes what no scan used).
  if (ok && st.st_mtim.tv_sec < ::time(nullptr) - kDaySeconds) ::futimens(fd, nullptr);
  ::close(fd);
  if (!ok) return std::nullopt;
  Reader in(data);
  if (in.Raw(kMagic.size()) != kMagic || in.U32() != kFormat) return std::nullopt;
  std::string_view stored_key = in.Raw(32);
  std::uint64_t length = in.U64();
  std::uint64_t check = in.U64();
  if (!in.ok() || std::memcmp(stored_key.data(), key.data(), 32) != 0 || length != data.size() - kHeaderBytes) {
    return std::nullopt;
  }
  if (BodyCheck(std::string_view(data).substr(kHeaderBytes)) != check) return std::nullopt;
  data.erase(0, kHeaderBytes);  // the body, in place
  return data;
}

void Store::Save(const Key& key, std::string_view body) const {
  if (body.size() > kMaxBodyBytes) return;
  std::string name = EntryName(key);
  std::string sub = name.substr(0, 2);
  if (::mkdirat(fd_, sub.c_str(), 0700) != 0 && errno != EEXIST) return;
  Writer w;
  w.Raw(kMagic);
  w.U32(kFormat);
  w.Raw(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
  w.U64(body.size());
  w.U64(BodyCheck(body));
  std::string tmp =
      sub + "/.tmp-" + std::to_string(::getpid()) + "-" + std::to_string(temp_counter_++) + "-" + name.substr(3, 16);
  int fd = ::openat(fd_, tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return;
  bool ok = WriteAll(fd, w.bytes()) && WriteAll(fd, body);
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::renameat(fd_, tmp.c_str(), fd_, name.c_str()) != 0) ::unlinkat(fd_, tmp.c_str(), 0);
}

}  // namespace sagelint::cache
