#include "linter/base/read_log.h"

#include <sys/stat.h>
#include <time.h>

#include <algorithm>

#include "linter/base/sha256.h"

namespace sagelint {
namespace {

thread_local ReadLog* current_log = nullptr;

constexpr size_t kHoldAtMostBytes = 1u << 20;

std::string Digest(std::string_view data) {
  Sha256 h;
  h.Update(data);
  std::array<std::uint8_t, 32> d = h.Finish();
  return std::string(d.begin(), d.end());
}

std::string ReadAnswer(bool ok, const std::string& content_or_error) {
  return ok ? "1" + Digest(content_or_error) : "0" + content_or_error;
}

std::string TypeAnswer(FileType t) { return std::string(1, static_cast<char>('0' + static_cast<int>(t))); }

// The entries in name order: the source lists them in no particular order.
std::string ListAnswer(bool ok, std::vector<DirEntry> entries, const std::string& error) {
  if (!ok) return "0" + error;
  std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
  Sha256 h;
  for (const DirEntry& e : entries) {
    h.Update(e.name);
    char tail[3] = {'\0', static_cast<char>(e.link ? '1' : '0'), static_cast<char>('0' + static_cast<int>(e.type))};
    h.Update(std::string_view(tail, 3));
  }
  std::array<std::uint8_t, 32> d = h.Finish();
  return "1" + std::string(d.begin(), d.end());
}

std::string PathAnswer(const std::optional<std::string>& p) { return p ? "1" + *p : "0"; }

std::string SizeAnswer(const std::optional<std::uintmax_t>& n) { return n ? "1" + std::to_string(*n) : "0"; }

}  // namespace

std::optional<FileStamp> StampOf(const std::string& path) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  FileStamp s;
  s.dev = static_cast<std::uint64_t>(st.st_dev);
  s.ino = static_cast<std::uint64_t>(st.st_ino);
  s.size = static_cast<std::uint64_t>(st.st_size);
  s.mtime_ns = static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
  s.ctime_ns = static_cast<std::int64_t>(st.st_ctim.tv_sec) * 1'000'000'000 + st.st_ctim.tv_nsec;
  return s;
}

std::int64_t WallClockNs() {
  timespec ts{};
  ::clock_gettime(CLOCK_REALTIME, &ts);
  return static_cast<std::int64_t>(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

bool Settled(const StampedAt& s) {
  constexpr std::int64_t kSecond = 1'000'000'000;
  // The kernel stamps files from a clock that lags the wall clock by up to a
  // tick (10 ms at most); a file system that keeps whole seconds (or FAT's
  // two) needs more than its granularity.
  bool whole_seconds = s.stamp.mtime_ns % kSecond == 0 && s.stamp.ctime_ns % kSecond == 0;
  std::int64_t margin = whole_seconds ? 3 * kSecond : kSecond / 10;
  return std::max(s.stamp.mtime_ns, s.stamp.ctime_ns) < s.taken_ns - margin;
}

std::optional<std::string> KnownContents::Answer(const std::string& path, std::uint64_t limit, const FileStamp& now) {
  auto find = [&]() -> Entry* {
    auto it = entries_.find(path);
    if (it == entries_.end()) return nullptr;
    for (Entry& e : it->second) {
      if (e.limit == limit) return e.at.stamp == now ? &e : nullptr;
    }
    return nullptr;
  };
  {
    std::shared_lock lock(mu_);
    const Entry* e = find();
    if (!e) return std::nullopt;
    if (e->used == today_) return e->answer;
  }
  std::unique_lock lock(mu_);
  Entry* e = find();
  if (!e) return std::nullopt;
  e->used = today_;
  changed_ = true;
  return e->answer;
}

void KnownContents::Put(const std::string& path, const StampedAt& at, std::uint64_t limit, const std::string& answer) {
  if (!Settled(at)) return;
  std::unique_lock lock(mu_);
  std::vector<Entry>& all = entries_[path];
  auto it = std::find_if(all.begin(), all.end(), [&](const Entry& e) { return e.limit == limit; });
  Entry e{at, limit, answer, today_};
  if (it != all.end()) {
    if (it->at.stamp == at.stamp && it->answer == answer && it->used == today_) return;
    *it = std::move(e);
  } else {
    all.push_back(std::move(e));
  }
  changed_ = true;
}

std::string KnownContents::AnswerNow(const FileSource& files, const std::string& path, std::uint64_t limit) {
  StampedAt at;
  at.taken_ns = WallClockNs();
  std::optional<FileStamp> stamp = StampOf(path);
  if (stamp) {
    at.stamp = *stamp;
    if (std::optional<std::string> known = Answer(path, limit, *stamp)) {
      ++trusted_;
      return *known;
    }
  }
  ++reread_;
  std::string answer = AnswerOf(files, ReadRecord::Op::kRead, path, limit);
  if (stamp) Put(path, at, limit, answer);
  return answer;
}

std::optional<std::uint64_t> KnownContents::SizeOf(const std::string& path) const {
  std::shared_lock lock(mu_);
  auto it = entries_.find(path);
  if (it == entries_.end() || it->second.empty()) return std::nullopt;
  return it->second.front().at.stamp.size;
}

std::vector<std::pair<std::string, KnownContents::Entry>> KnownContents::Snapshot() const {
  std::shared_lock lock(mu_);
  std::vector<std::pair<std::string, Entry>> out;
  out.reserve(entries_.size());
  for (const auto& [path, all] : entries_) {
    for (const Entry& e : all) out.emplace_back(path, e);
  }
  return out;
}

void KnownContents::Merge(std::string path, Entry e) {
  std::unique_lock lock(mu_);
  std::vector<Entry>& all = entries_.try_emplace(std::move(path)).first->second;
  auto it = std::find_if(all.begin(), all.end(), [&](const Entry& x) { return x.limit == e.limit; });
  if (it == all.end()) {
    all.push_back(std::move(e));
  } else if (e.used > it->used) {
    *it = std::move(e);
  }
}

void KnownContents::Reserve(size_t paths) {
  std::unique_lock lock(mu_);
  entries_.reserve(paths);
}

ReadLog::Scope::Scope(ReadLog* log) : previous_(current_log) { current_log = log; }
ReadLog::Scope::~Scope() { current_log = previous_; }
ReadLog* ReadLog::Current() { return current_log; }

void ReadLog::Put(const Question& q, std::string answer) {
  auto [it, fresh] = answers_.try_emplace(q, std::move(answer));
  if (!fresh && it->second != answer) stable_ = false;
}

void ReadLog::Add(ReadRecord::Op op, const std::string& path, std::uint64_t limit, std::string answer) {
  Put({op, path, limit}, std::move(answer));
}

void ReadLog::AddRead(const std::string& path, std::uint64_t limit, bool ok, const std::string& content_or_error) {
  Question q{ReadRecord::Op::kRead, path, limit};
  // A large file is hashed at once rather than held twice in memory.
  if (content_or_error.size() > kHoldAtMostBytes) {
    if (pending_.count(q)) stable_ = false;  // held smaller before: it changed
    Put(q, ReadAnswer(ok, content_or_error));
    return;
  }
  if (answers_.count(q)) stable_ = false;  // hashed larger before: it changed
  std::string held = (ok ? "1" : "0") + content_or_error;
  auto [it, fresh] = pending_.try_emplace(q, std::move(held));
  if (!fresh && it->second.compare(0, 1, ok ? "1" : "0") != 0) stable_ = false;
  if (!fresh && it->second.compare(1, std::string::npos, content_or_error) != 0) stable_ = false;
}

void ReadLog::AddStamp(const std::string& path, std::uint64_t limit, const StampedAt& at) {
  stamps_.try_emplace({path, limit}, at);
}

std::vector<ReadRecord> ReadLog::Records() const {
  std::map<Question, std::string> all = answers_;
  for (const auto& [q, held] : pending_) {
    all.emplace(q, ReadAnswer(held[0] == '1', held.substr(1)));
  }
  std::vector<ReadRecord> out;
  out.reserve(all.size());
  for (auto& [q, answer] : all) out.push_back({std::get<0>(q), std::get<1>(q), std::get<2>(q), std::move(answer)});
  return out;
}

std::string AnswerOf(const FileSource& files, ReadRecord::Op op, const std::string& path, std::uint64_t limit) {
  switch (op) {
    case ReadRecord::Op::kRead: {
      std::string text, error;
      bool ok = files.Read(path, static_cast<size_t>(limit), &text, &error);
      return ReadAnswer(ok, ok ? text : error);
    }
    case ReadRecord::Op::kType:
      return TypeAnswer(files.Type(path));
    case ReadRecord::Op::kList: {
      std::vector<DirEntry> entries;
      std::string error;
      bool ok = files.List(path, &entries, &error);
      return ListAnswer(ok, std::move(entries), error);
    }
    case ReadRecord::Op::kCanonical:
      return PathAnswer(files.Canonical(path));
    case ReadRecord::Op::kWeaklyCanonical:
      return PathAnswer(files.WeaklyCanonical(path));
    case ReadRecord::Op::kFileSize:
      return SizeAnswer(files.FileSize(path));
  }
  return {};
}

bool StillAnswered(const FileSource& files, const std::vector<ReadRecord>& records, KnownContents* known) {
  return std::all_of(records.begin(), records.end(), [&](const ReadRecord& r) {
    if (known && r.op == ReadRecord::Op::kRead) return known->AnswerNow(files, r.path, r.limit) == r.answer;
    return AnswerOf(files, r.op, r.path, r.limit) == r.answer;
  });
}

bool RecordingFiles::Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const {
  ReadLog* log = ReadLog::Current();
  if (log && stamps_) {
    // Taken before the read: a write after it changes the stamp (or leaves the record unsettled).
    StampedAt at;
    at.taken_ns = WallClockNs();
    if (std::optional<FileStamp> stamp = StampOf(path)) {
      at.stamp = *stamp;
      log->AddStamp(path, max_bytes, at);
    }
  }
  bool ok = inner_.Read(path, max_bytes, out, error);
  if (log) log->AddRead(path, max_bytes, ok, ok ? *out : *error);
  return ok;
}

FileType RecordingFiles::Type(const std::string& path) const {
  FileType t = inner_.Type(path);
  if (ReadLog* log = ReadLog::Current()) log->Add(ReadRecord::Op::kType, path, 0, TypeAnswer(t));
  return t;
}

bool RecordingFiles::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  size_t before = out->size();
  bool ok = inner_.List(dir, out, error);
  if (ReadLog* log = ReadLog::Current()) {
    std::vector<DirEntry> entries(out->begin() + static_cast<std::ptrdiff_t>(before), out->end());
    log->Add(ReadRecord::Op::kList, dir, 0, ListAnswer(ok, std::move(entries), ok ? "" : *error));
  }
  return ok;
}

std::optional<std::string> RecordingFiles::Canonical(const std::string& path) const {
  std::optional<std::string> c = inner_.Canonical(path);
  if (ReadLog* log = ReadLog::Current()) log->Add(ReadRecord::Op::kCanonical, path, 0, PathAnswer(c));
  return c;
}

std::optional<std::string> RecordingFiles::WeaklyCanonical(const std::string& path) const {
  std::optional<std::string> c = inner_.WeaklyCanonical(path);
  if (ReadLog* log = ReadLog::Current()) log->Add(ReadRecord::Op::kWeaklyCanonical, path, 0, PathAnswer(c));
  return c;
}

std::optional<std::uintmax_t> RecordingFiles::FileSize(const std::string& path) const {
  std::optional<std::uintmax_t> n = inner_.FileSize(path);
  if (ReadLog* log = ReadLog::Current()) log->Add(ReadRecord::Op::kFileSize, path, 0, SizeAnswer(n));
  return n;
}

}  // namespace sagelint
