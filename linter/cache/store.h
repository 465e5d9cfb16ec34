// The directory the cache of parsed results lives in (README "Large
// repositories"): one file per entry, named by its key's SHA-256. An entry is
// written to a temporary file in the directory and renamed over its name, so
// a reader (another scan sharing the cache) sees the old entry or the whole
// new one. Each entry carries a header (format, key, length and a 64-bit
// check of its body): a truncated, corrupt or foreign file is a miss, never
// trusted.
// A directory that others may write to, or that another user owns, is not
// used at all: its entries could be planted.
#ifndef SAGELINT_LINTER_CACHE_STORE_H_
#define SAGELINT_LINTER_CACHE_STORE_H_

#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace sagelint::cache {

using Key = std::array<std::uint8_t, 32>;

// $XDG_CACHE_HOME/sagelint/scan, else $HOME/.cache/sagelint/scan; empty when neither is set.
std::string DefaultDir();

class Store {
 public:
  // Opens `dir`, creating it (and missing parents) private to the user.
  // nullptr, with `why` saying so, when it cannot be made, is not a
  // directory, is owned by another user or is writable by group or others.
  static std::unique_ptr<Store> Open(const std::string& dir, std::string* why);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  // The body stored under `key`, if an intact entry of this format holds it.
  std::optional<std::string> Load(const Key& key) const;
  // Stores `body` under `key`; a failure to write is a miss next time, nothing more.
  void Save(const Key& key, std::string_view body) const;

  // Removes what is no longer worth keeping (docs/organisation.md "Warm
  // scans"): entries not used (read or written — a read marks an entry used
  // once a day) for `max_age_days` days, then the least recently used ones
  // while the entries take more than `max_bytes`, and the temporary files a
  // killed scan left (an hour old). Returns the number of files removed.
  size_t Prune(std::int64_t max_age_days, std::uint64_t max_bytes) const;
  // Prune with the default limits, at most once a day (a marker file tells when it last ran).
  void PruneDaily() const;

  const std::string& dir() const { return dir_; }

 private:
  Store(std::string dir, int fd, std::uint32_t uid) : dir_(std::move(dir)), fd_(fd), uid_(uid) {}
  std::string dir_;
  int fd_;             // the directory, held open: entries are read and written relative to it
  std::uint32_t uid_;  // the user (effective) whose entries alone are read: asked once, not per entry
  mutable std::atomic<std::uint64_t> temp_counter_{0};
};

// The limits of PruneDaily: 30 days unused, 2 GiB in all.
inline constexpr std::int64_t kPruneUnusedDays = 30;
inline constexpr std::uint64_t kPruneMaxBytes = std::uint64_t{2} << 30;

// The name of an entry in the directory: two hex digits / the other 62.
std::string EntryName(const Key& key);

}  // namespace sagelint::cache

#endif  // SAGELINT_LINTER_CACHE_STORE_H_
