// Warm scans (README "Large repositories"): what a unit of work gave when it
// was parsed — its files' models and comments, and what it read but did not
// evaluate — kept in the cache directory, and used again while nothing the
// parse read has changed. The entry of a unit is found by its key: the
// sagelint build, the working directory, the values from outside the files
// (ResolveOptions) and the unit itself (its files, display paths, scan root,
// front end). It is used only if every question its parse asked of the files
// (each file read, with its content's SHA-256; each directory listed, each
// path tested or resolved) still gets the same answer: a Terraform module's
// sibling and called files, variable and parameter files, file() targets and
// a CDK app's imports all count, as the front ends read them through
// RecordingFiles. Rules, prices and suppressions are applied after the cache,
// so neither they nor the configuration that sets them can make a cached
// result stale.
#ifndef SAGELINT_LINTER_ENGINE_PARSE_CACHE_H_
#define SAGELINT_LINTER_ENGINE_PARSE_CACHE_H_

#include <atomic>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "linter/base/read_log.h"
#include "linter/base/sha256.h"
#include "linter/cache/store.h"
#include "linter/engine/analyze.h"
#include "linter/engine/dispatch.h"

namespace sagelint {

class ParseCache {
 public:
  // Reads the store's record of known contents and of the units that gave nothing.
  explicit ParseCache(std::unique_ptr<cache::Store> store);

  // The key of a unit's entry.
  // `cwd`: the working directory, when the caller has it already.
  static cache::Key KeyOf(const WorkUnit& unit, const ResolveOptions& opts, const std::string* cwd = nullptr);

  // KeyOf for the units of one scan: what the keys share (the build, the
  // working directory, the options) is hashed once.
  class Keys {
   public:
    explicit Keys(const ResolveOptions& opts, const std::string* cwd = nullptr);
    cache::Key Of(const WorkUnit& unit) const;

   private:
    Sha256 shared_;
  };

  // The unit's parsed files and skipped lines from its entry, if one holds
  // them and `files` still answers everything its parse asked.
  bool Load(const cache::Key& key, const FileSource& files, std::vector<ParsedFile>* parsed,
            std::vector<std::string>* skipped);
  // The size of the unit's files as their stamps recorded it (a unit just
  // loaded: each was found unchanged), else as the disk gives it.
  std::uintmax_t KnownBytes(const WorkUnit& unit) const;
  // Keeps what a parse gave, with what it read (`log`): in an entry of its
  // own, or — a unit that gave nothing, as most files do not mention
  // SageMaker — in the record of such units, with the stamps of the files read.
  void Save(const cache::Key& key, const ReadLog& log, const std::vector<ParsedFile>& parsed,
            const std::vector<std::string>& skipped);

  // The Terraform planner's facts of a file of the disk (PlanUnits), kept by
  // its path and content: while the file's stamp is unchanged it is not read
  // again; nullopt when it cannot be read.
  std::optional<TerraformFileFacts> PlannerFacts(const DiscoveredFile& file);

  // ResolveFixes (linter/engine/fixes.h) with the cache: the fixes of the
  // findings in one file are resolved into edits once per content of that
  // file and the changes the rules asked for (an editor re-parses the file
  // for each change: on a warm scan that would be most of the work).
  void ResolveFixes(std::vector<Finding>& findings, const FileSource& files);

  // Writes the record of known contents and of the units that gave nothing,
  // if the scan added to it (merged with what another scan wrote meanwhile;
  // what no scan used for kUnusedDays days is dropped).
  void Persist();

  // For --timing and the tests: units taken from the cache, parsed, and stored.
  size_t hits() const { return hits_; }
  size_t empty_hits() const { return empty_hits_; }  // units known to give nothing
  const KnownContents& known() const { return known_; }
  size_t misses() const { return misses_; }
  size_t stored() const { return stored_; }
  const std::string& dir() const { return store_->dir(); }

 private:
  struct Nothing {
    std::vector<ReadRecord> records;
    std::int64_t used = 0;  // the day a scan last relied on it
  };
  // The key of the entry holding the record of known contents and of the units that gave nothing.
  static cache::Key IndexKey();
  std::string EncodeIndex() const;
  void DecodeIndex(std::string_view body, bool merge);

  std::unique_ptr<cache::Store> store_;
  std::atomic<size_t> hits_{0}, empty_hits_{0}, misses_{0}, stored_{0};
  KnownContents known_;
  mutable std::shared_mutex nothing_mu_;
  // A key is a SHA-256: any eight of its bytes are as good a hash as any.
  struct KeyHash {
    size_t operator()(const cache::Key& k) const {
      size_t h;
      std::memcpy(&h, k.data(), sizeof h);
      return h;
    }
  };
  std::unordered_map<cache::Key, Nothing, KeyHash> nothing_;  // by key
  std::atomic<bool> nothing_changed_{false};
  struct Facts {
    TerraformFileFacts facts;
    std::int64_t used = 0;  // the day a scan last relied on it
  };
  mutable std::shared_mutex facts_mu_;
  std::unordered_map<std::string, Facts> facts_;  // by the read's answer and the display path
  std::atomic<bool> facts_changed_{false};
  const std::int64_t today_ = WallClockNs() / 86'400'000'000'000;
};

// Days after which a record of a known content or of a unit that gave nothing, unused, is dropped.
inline constexpr std::int64_t kUnusedDays = cache::kPruneUnusedDays;

// The sagelint build as cache keys see it: version and commit, and for a
// build of changed sources (a commit marked dirty, or none) the executable's
// own identity, so that rebuilding it never reuses an older build's entries;
// empty where that cannot be had (such a build uses no cache).
const std::string& CacheBuildIdentity();

// The fields of ResolveOptions, WorkUnit and DiscoveredFile KeyOf reads: a
// test fails when one of them gains a field the key does not cover.
inline constexpr size_t kKeyResolveOptionsFields = 11;
inline constexpr size_t kKeyWorkUnitFields = 4;
inline constexpr size_t kKeyDiscoveredFileFields = 4;
// The fields of a Comment an entry keeps.
inline constexpr size_t kCacheCommentFields = 3;

}  // namespace sagelint

#endif  // SAGELINT_LINTER_ENGINE_PARSE_CACHE_H_
