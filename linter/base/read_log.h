// What evaluating one unit of a scan read, for the cache of parsed results
// (README "Large repositories"): every question a front end asks its
// FileSource — a file's content, whether a path exists, a directory's
// entries, where a link leads — is answered by the source and, while a
// ReadLog is current on the thread, written down with its answer. A cached
// result is used again only while every recorded question still gets the
// same answer, so whatever the evaluation read (a Terraform module's files,
// variable files, file() targets, parameter files, a CDK app's imports) is
// covered without the front ends knowing of the cache.
#ifndef SAGELINT_LINTER_BASE_READ_LOG_H_
#define SAGELINT_LINTER_BASE_READ_LOG_H_

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <optional>
#include <shared_mutex>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "linter/base/file_source.h"

namespace sagelint {

// One question asked of a FileSource and its answer, as comparable text
// (a read's answer is the SHA-256 of the content, or the reason it failed).
struct ReadRecord {
  enum class Op : std::uint8_t { kRead, kType, kList, kCanonical, kWeaklyCanonical, kFileSize };
  Op op = Op::kRead;
  std::string path;
  std::uint64_t limit = 0;  // kRead: the size cap asked for
  std::string answer;
  bool operator==(const ReadRecord&) const = default;
};

// A file as stat(2) describes it, its links followed (docs/organisation.md
// "Warm scans"): while a file's stamp is the one recorded with its content's
// hash — and the record is settled — the content is not read again. A write
// changes the size, the modification time or the change time (ctime, which
// no user can set back), and a file replaced by another has another inode.
struct FileStamp {
  std::uint64_t dev = 0, ino = 0, size = 0;
  std::int64_t mtime_ns = 0, ctime_ns = 0;
  bool operator==(const FileStamp&) const = default;
};
// The stamp of `path` on disk; nullopt when it cannot be had or is not a regular file.
std::optional<FileStamp> StampOf(const std::string& path);
// The wall clock (the clock file times are taken from), in nanoseconds.
std::int64_t WallClockNs();

// A stamp and the time just before it was taken and the content read.
struct StampedAt {
  FileStamp stamp;
  std::int64_t taken_ns = 0;
};

// Whether a stamp taken at `taken_ns` tells every later change apart:
// false for a "racy" file, one modified (or whose inode changed) so shortly
// before that a write after the read could have left the same times. The
// margin covers the kernel's coarse clock and file systems of whole-second
// (or two-second) timestamps, seen as nanosecond parts of 0 (docs/organisation.md).
bool Settled(const StampedAt& s);

// What reading files gave, by path and size cap, with the stamp each file
// had when it was read: the warm scan's way of knowing a file unchanged
// without reading it. Shared by a scan's threads.
class KnownContents {
 public:
  struct Entry {
    StampedAt at;
    std::uint64_t limit = 0;
    std::string answer;     // as ReadRecord::answer
    std::int64_t used = 0;  // the day (since the epoch) a scan last relied on it
  };
  // The recorded answer for reading `path` with `limit` when the file's stamp
  // is `now`, if a settled record says it.
  std::optional<std::string> Answer(const std::string& path, std::uint64_t limit, const FileStamp& now);
  // Records an answer (a read of `path` when the file had the stamp `at`);
  // only a settled one is kept.
  void Put(const std::string& path, const StampedAt& at, std::uint64_t limit, const std::string& answer);
  // The answer of reading `path` now: from the record while the stamp is
  // unchanged, else read and hashed (and recorded).
  std::string AnswerNow(const FileSource& files, const std::string& path, std::uint64_t limit);

  // The size of `path` its record holds, if there is one.
  std::optional<std::uint64_t> SizeOf(const std::string& path) const;
  // For saving and loading the records, and the tests.
  std::vector<std::pair<std::string, Entry>> Snapshot() const;
  void Merge(std::string path, Entry e);  // of two for one path and cap, keeps the one used later
  void Reserve(size_t paths);             // room for this many paths in all
  bool changed() const { return changed_; }
  // Reads answered by a record, and reads done again (no record, a new stamp, or not settled).
  size_t trusted() const { return trusted_; }
  size_t reread() const { return reread_; }

 private:
  mutable std::shared_mutex mu_;
  std::unordered_map<std::string, std::vector<Entry>> entries_;  // by path, one per size cap
  std::int64_t today_ = WallClockNs() / 86'400'000'000'000;
  std::atomic<bool> changed_{false};
  std::atomic<size_t> trusted_{0}, reread_{0};
};

class ReadLog {
 public:
  // The log the calling thread records into while the scope lives.
  class Scope {
   public:
    explicit Scope(ReadLog* log);
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    ReadLog* previous_;
  };
  static ReadLog* Current();

  // Adds an answer. A question asked twice with two answers (the file
  // changed while it was read) makes the log unstable: not worth keeping.
  void Add(ReadRecord::Op op, const std::string& path, std::uint64_t limit, std::string answer);
  // A read's content: hashed only when the records are asked for (most reads
  // of a scan are of files that never reach the cache).
  void AddRead(const std::string& path, std::uint64_t limit, bool ok, const std::string& content_or_error);

  bool stable() const { return stable_; }
  // The records in a fixed order (by question).
  std::vector<ReadRecord> Records() const;
  // The stamp each file read had (reads of the disk only), by path and size cap.
  void AddStamp(const std::string& path, std::uint64_t limit, const StampedAt& at);
  const std::map<std::pair<std::string, std::uint64_t>, StampedAt>& stamps() const { return stamps_; }

 private:
  using Question = std::tuple<ReadRecord::Op, std::string, std::uint64_t>;
  void Put(const Question& q, std::string answer);
  std::map<Question, std::string> answers_;
  // Reads whose content is not hashed yet: question -> content ("1"+content, "0"+error).
  std::map<Question, std::string> pending_;
  std::map<std::pair<std::string, std::uint64_t>, StampedAt> stamps_;
  bool stable_ = true;
};

// The answer `files` gives now to the question of `record`.
std::string AnswerOf(const FileSource& files, ReadRecord::Op op, const std::string& path, std::uint64_t limit);
// True when `files` answers every record as recorded. With `known` (the
// disk's files only), a read is answered from its record while the file's
// stamp is unchanged and settled, else the file is read and hashed again.
bool StillAnswered(const FileSource& files, const std::vector<ReadRecord>& records, KnownContents* known = nullptr);

// A FileSource that answers from `inner` and records each answer into the
// calling thread's current ReadLog, if any.
class RecordingFiles final : public FileSource {
 public:
  // `stamps`: `inner` is the disk; each read also records the file's stamp, taken before the read.
  explicit RecordingFiles(const FileSource& inner, bool stamps = false) : inner_(inner), stamps_(stamps) {}
  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override;
  FileType Type(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::optional<std::string> Canonical(const std::string& path) const override;
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override;
  std::optional<std::uintmax_t> FileSize(const std::string& path) const override;
  const FileSource& inner() const { return inner_; }

 private:
  const FileSource& inner_;
  const bool stamps_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_READ_LOG_H_
