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

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
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

 private:
  using Question = std::tuple<ReadRecord::Op, std::string, std::uint64_t>;
  void Put(const Question& q, std::string answer);
  std::map<Question, std::string> answers_;
  // Reads whose content is not hashed yet: question -> content ("1"+content, "0"+error).
  std::map<Question, std::string> pending_;
  bool stable_ = true;
};

// The answer `files` gives now to the question of `record`.
std::string AnswerOf(const FileSource& files, ReadRecord::Op op, const std::string& path, std::uint64_t limit);
// True when `files` answers every record as recorded.
bool StillAnswered(const FileSource& files, const std::vector<ReadRecord>& records);

// A FileSource that answers from `inner` and records each answer into the
// calling thread's current ReadLog, if any.
class RecordingFiles final : public FileSource {
 public:
  explicit RecordingFiles(const FileSource& inner) : inner_(inner) {}
  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override;
  FileType Type(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::optional<std::string> Canonical(const std::string& path) const override;
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override;
  std::optional<std::uintmax_t> FileSize(const std::string& path) const override;
  const FileSource& inner() const { return inner_; }

 private:
  const FileSource& inner_;
};

}  // namespace sagelint

#endif  // SAGELINT_LINTER_BASE_READ_LOG_H_
