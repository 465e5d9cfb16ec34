#include "linter/engine/parse_cache.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <mutex>
#include <shared_mutex>

#include "linter/base/build_info.h"
#include "linter/base/files.h"
#include "linter/base/sha256.h"
#include "linter/cache/codec.h"
#include "linter/engine/fix_reasons.h"
#include "linter/engine/fixes.h"
#include "linter/engine/front_ends.h"

namespace sagelint {
namespace {

using cache::Reader;
using cache::Writer;

void PutMap(Writer& w, const std::map<std::string, std::string>& m) {
  w.U32(static_cast<std::uint32_t>(m.size()));
  for (const auto& [k, v] : m) {
    w.Str(k);
    w.Str(v);
  }
}

void PutStrings(Writer& w, const std::vector<std::string>& v) {
  w.U32(static_cast<std::uint32_t>(v.size()));
  for (const std::string& s : v) w.Str(s);
}

bool GetStrings(Reader& in, std::vector<std::string>* v) {
  std::uint32_t n = in.Count(4);
  for (std::uint32_t i = 0; i < n && in.ok(); ++i) v->push_back(in.Str());
  return in.ok();
}

void PutRecords(Writer& w, const std::vector<ReadRecord>& records) {
  w.U32(static_cast<std::uint32_t>(records.size()));
  for (const ReadRecord& r : records) {
    w.U8(static_cast<std::uint8_t>(r.op));
    w.Str(r.path);
    w.U64(r.limit);
    w.Str(r.answer);
  }
}

bool GetRecords(Reader& in, std::vector<ReadRecord>* records) {
  std::uint32_t n = in.Count(17);
  records->resize(n);
  for (ReadRecord& r : *records) {
    if (!in.ok()) break;
    r.op = static_cast<ReadRecord::Op>(in.Enum(6));
    r.path = in.Str();
    r.limit = in.U64();
    r.answer = in.Str();
  }
  return in.ok();
}

void PutRange(Writer& w, const SourceRange& r) {
  for (int v : {r.begin.line, r.begin.column, r.end.line, r.end.column, r.cell, r.cell_line}) w.I32(v);
}

SourceRange GetRange(Reader& in) {
  SourceRange r;
  for (int* v : {&r.begin.line, &r.begin.column, &r.end.line, &r.end.column, &r.cell, &r.cell_line}) *v = in.I32();
  return r;
}

// The one file every change of a fix edits; empty when they edit several (or none).
std::string OnlyPath(const Fix& fix) {
  if (fix.changes.empty()) return {};
  for (const FixChange& c : fix.changes) {
    if (c.path != fix.changes.front().path) return {};
  }
  return fix.changes.front().path;
}

constexpr std::string_view kIndexFormat = "sagelint known contents 2";

}  // namespace

cache::Key ParseCache::IndexKey() {
  Sha256 h;
  h.Update("sagelint known contents\n");
  h.Update(CacheBuildIdentity());
  return h.Finish();
}

ParseCache::ParseCache(std::unique_ptr<cache::Store> store) : store_(std::move(store)) {
  if (std::optional<std::string> body = store_->Load(IndexKey())) DecodeIndex(*body, false);
}

std::string ParseCache::EncodeIndex() const {
  const std::int64_t oldest = today_ - kUnusedDays;
  Writer w;
  w.Str(kIndexFormat);
  std::vector<std::pair<std::string, KnownContents::Entry>> known = known_.Snapshot();
  std::erase_if(known, [&](const auto& kv) { return kv.second.used < oldest; });
  w.U32(static_cast<std::uint32_t>(known.size()));
  for (const auto& [path, e] : known) {
    w.Str(path);
    w.U64(e.limit);
    for (std::uint64_t v : {e.at.stamp.dev, e.at.stamp.ino, e.at.stamp.size}) w.U64(v);
    for (std::int64_t v : {e.at.stamp.mtime_ns, e.at.stamp.ctime_ns, e.at.taken_ns, e.used}) {
      w.U64(static_cast<std::uint64_t>(v));
    }
    w.Str(e.answer);
  }
  std::shared_lock lock(nothing_mu_);
  std::uint32_t n = 0;
  for (const auto& [key, unit] : nothing_) n += unit.used >= oldest ? 1 : 0;
  w.U32(n);
  for (const auto& [key, unit] : nothing_) {
    if (unit.used < oldest) continue;
    w.Str(std::string_view(reinterpret_cast<const char*>(key.data()), key.size()));
    w.U64(static_cast<std::uint64_t>(unit.used));
    PutRecords(w, unit.records);
  }
  std::shared_lock facts_lock(facts_mu_);
  n = 0;
  for (const auto& [key, f] : facts_) n += f.used >= oldest ? 1 : 0;
  w.U32(n);
  for (const auto& [key, f] : facts_) {
    if (f.used < oldest) continue;
    w.Str(key);
    w.U64(static_cast<std::uint64_t>(f.used));
    w.Bool(f.facts.mentions);
    PutStrings(w, f.facts.sources);
  }
  return w.Take();
}

void ParseCache::DecodeIndex(std::string_view body, bool merge) {
  Reader in(body);
  if (in.Str() != kIndexFormat) return;
  std::vector<std::pair<std::string, KnownContents::Entry>> known(in.Count(84));
  for (auto& [path, e] : known) {
    if (!in.ok()) return;
    path = in.Str();
    e.limit = in.U64();
    for (std::uint64_t* v : {&e.at.stamp.dev, &e.at.stamp.ino, &e.at.stamp.size}) *v = in.U64();
    for (std::int64_t* v : {&e.at.stamp.mtime_ns, &e.at.stamp.ctime_ns, &e.at.taken_ns, &e.used}) {
      *v = static_cast<std::int64_t>(in.U64());
    }
    e.answer = in.Str();
  }
  std::vector<std::pair<cache::Key, Nothing>> nothing(in.Count(16));
  for (auto& [key, unit] : nothing) {
    if (!in.ok()) return;
    // Written as a string of its 32 bytes.
    if (in.U32() != key.size()) return;
    std::string_view bytes = in.Raw(key.size());
    if (!in.ok()) return;
    std::memcpy(key.data(), bytes.data(), key.size());
    unit.used = static_cast<std::int64_t>(in.U64());
    if (!GetRecords(in, &unit.records)) return;
  }
  std::vector<std::pair<std::string, Facts>> facts(in.Count(17));
  for (auto& [key, f] : facts) {
    if (!in.ok()) return;
    key = in.Str();
    f.used = static_cast<std::int64_t>(in.U64());
    f.facts.mentions = in.Bool();
    if (!GetStrings(in, &f.facts.sources)) return;
  }
  if (!in.done()) return;  // all of it, or none
  known_.Reserve(known.size());
  for (auto& [path, e] : known) {
    if (Settled(e.at)) known_.Merge(std::move(path), std::move(e));
  }
  std::unique_lock lock(nothing_mu_);
  nothing_.reserve(nothing_.size() + nothing.size());
  for (auto& [key, unit] : nothing) {
    auto [it, fresh] = nothing_.try_emplace(key, std::move(unit));
    if (!fresh && merge && unit.used > it->second.used) it->second = std::move(unit);
  }
  lock.unlock();
  std::unique_lock facts_lock(facts_mu_);
  facts_.reserve(facts_.size() + facts.size());
  for (auto& [key, f] : facts) {
    auto [it, fresh] = facts_.try_emplace(std::move(key), std::move(f));
    if (!fresh && merge && f.used > it->second.used) it->second = std::move(f);
  }
}

void ParseCache::Persist() {
  if (known_.changed() || nothing_changed_ || facts_changed_) {
    // Another scan may have written the record since this one read it: what it added is kept.
    if (std::optional<std::string> body = store_->Load(IndexKey())) DecodeIndex(*body, true);
    store_->Save(IndexKey(), EncodeIndex());
  }
  store_->PruneDaily();
}

std::optional<TerraformFileFacts> ParseCache::PlannerFacts(const DiscoveredFile& file) {
  const std::string path = file.abs_path();
  // The content's hash, from the file's record while its stamp is unchanged (else read and hashed).
  const std::string answer = known_.AnswerNow(DiskFiles(), path, kMaxSourceBytes);
  if (answer.empty() || answer[0] != '1') return std::nullopt;  // cannot be read
  const std::string key = answer + file.display();
  bool mark_used = false;
  {
    std::shared_lock lock(facts_mu_);
    if (auto it = facts_.find(key); it != facts_.end()) {
      if (it->second.used == today_) return it->second.facts;
      mark_used = true;
    }
  }
  if (mark_used) {
    std::unique_lock lock(facts_mu_);
    if (auto it = facts_.find(key); it != facts_.end()) {
      it->second.used = today_;
      facts_changed_ = true;
      return it->second.facts;
    }
  }
  std::string text, error;
  if (!DiskFiles().Read(path, kMaxSourceBytes, &text, &error)) return std::nullopt;
  TerraformFileFacts facts = TerraformFactsOf(file, text);
  // Kept under the answer only when the content read is the one it names (not changed in between).
  Sha256 h;
  h.Update(text);
  std::array<std::uint8_t, 32> digest = h.Finish();
  if (answer.compare(1, std::string::npos, reinterpret_cast<const char*>(digest.data()), digest.size()) == 0) {
    std::unique_lock lock(facts_mu_);
    facts_[key] = Facts{facts, today_};
    facts_changed_ = true;
  }
  return facts;
}

void ParseCache::ResolveFixes(std::vector<Finding>& findings, const FileSource& files) {
  // Refusals read other files (an entry point's script): never cached.
  RefuseBreakingFixes(findings, files);
  std::map<std::string, std::vector<size_t>> by_path;
  std::vector<size_t> rest;
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.fix || !f.fix->edits.empty()) continue;
    std::string path = OnlyPath(*f.fix);
    (path.empty() ? rest : by_path[path]).push_back(i);
  }
  // Resolves the edits of the findings at `indices` (refusals and reasons are this function's, once).
  auto resolve = [&](const std::vector<size_t>& indices) {
    std::vector<Finding> some;
    for (size_t i : indices) some.push_back(findings[i]);
    ResolveFixEdits(some, files);
    for (size_t k = 0; k < indices.size(); ++k) {
      findings[indices[k]].fix = std::move(some[k].fix);
      findings[indices[k]].fix_unavailable = std::move(some[k].fix_unavailable);
    }
  };
  resolve(rest);
  std::error_code ec;
  const std::string cwd = std::filesystem::current_path(ec).string();
  for (const auto& [path, indices] : by_path) {
    // The key: what the editors read — the file's path and content, and each change.
    Writer k;
    k.Str("sagelint fix edits");
    k.Str(CacheBuildIdentity());
    k.Str(cwd);
    k.Str(path);
    k.Str(known_.AnswerNow(files, path, kMaxSourceBytes));  // the content's hash (or why it cannot be read)
    k.U32(static_cast<std::uint32_t>(indices.size()));
    for (size_t i : indices) {
      const std::vector<FixChange>& changes = findings[i].fix->changes;
      k.U32(static_cast<std::uint32_t>(changes.size()));
      for (const FixChange& c : changes) {
        k.U8(static_cast<std::uint8_t>(c.op));
        k.Str(c.path);
        PutRange(k, c.range);
        k.Str(c.field);
        k.Str(c.text);
        k.Str(c.value);
      }
    }
    Sha256 h;
    h.Update(k.bytes());
    cache::Key key = h.Finish();
    if (std::optional<std::string> body = store_->Load(key)) {
      Reader in(*body);
      std::vector<std::optional<std::vector<FixEdit>>> got(indices.size());
      std::vector<std::string> why(indices.size());
      for (size_t n = 0; n < got.size(); ++n) {
        auto& edits = got[n];
        if (!in.Bool()) {
          why[n] = in.Str();
          continue;
        }
        edits.emplace(in.Count(28));
        for (FixEdit& e : *edits) {
          e.path = in.Str();
          e.range = GetRange(in);
          e.content = in.Str();
        }
      }
      if (in.done()) {
        for (size_t n = 0; n < indices.size(); ++n) {
          Finding& f = findings[indices[n]];
          if (got[n]) {
            f.fix->edits = std::move(*got[n]);
          } else {
            f.fix.reset();
            f.fix_unavailable = std::move(why[n]);
          }
        }
        ++hits_;
        continue;
      }
    }
    ++misses_;
    resolve(indices);
    Writer w;
    for (size_t i : indices) {
      const std::optional<Fix>& fix = findings[i].fix;
      w.Bool(fix.has_value());
      if (!fix) {
        w.Str(findings[i].fix_unavailable);
        continue;
      }
      w.U32(static_cast<std::uint32_t>(fix->edits.size()));
      for (const FixEdit& e : fix->edits) {
        w.Str(e.path);
        PutRange(w, e.range);
        w.Str(e.content);
      }
    }
    store_->Save(key, w.bytes());
    ++stored_;
  }
  ExplainMissingFixes(findings);
}

const std::string& CacheBuildIdentity() {
  static const std::string identity = [] {
    std::string id = std::string(SAGELINT_VERSION) + " " + std::string(BuildCommit());
    if (!BuildCommit().empty() && !BuildCommit().ends_with("-dirty")) return id;
      // Changed sources: the executable itself tells one build from the next.
#ifdef __linux__
    struct stat st;
    if (::stat("/proc/self/exe", &st) == 0) {
      return id + " exe " + std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" +
             std::to_string(st.st_size) + ":" + std::to_string(st.st_mtim.tv_sec) + "." +
             std::to_string(st.st_mtim.tv_nsec);
    }
#endif
    return std::string();  // no way to tell builds apart: no cache
  }();
  return identity;
}

cache::Key ParseCache::KeyOf(const WorkUnit& unit, const ResolveOptions& opts, const std::string* cwd) {
  return Keys(opts, cwd).Of(unit);
}

ParseCache::Keys::Keys(const ResolveOptions& opts, const std::string* cwd) {
  Writer w;
  w.Str("sagelint parsed unit");
  w.Str(CacheBuildIdentity());
  // Display paths and `--param-file`s are relative to the working directory.
  std::error_code ec;
  w.Str(cwd ? *cwd : std::filesystem::current_path(ec).string());
  // What the front ends are told from outside the files (every field of ResolveOptions but `files`).
  PutMap(w, opts.cfn_parameters);
  PutMap(w, opts.cfn_cli_parameters);
  PutMap(w, opts.cfn_parameter_sources);
  PutStrings(w, opts.cfn_param_files);
  w.U32(static_cast<std::uint32_t>(opts.cfn_param_file_globs.size()));
  for (const auto& [glob, names] : opts.cfn_param_file_globs) {
    w.Str(glob);
    PutStrings(w, names);
  }
  w.Str(opts.cfn_param_base);
  PutMap(w, opts.tf_variables);
  PutMap(w, opts.cdk_context);
  PutStrings(w, opts.tf_var_files);
  w.Str(opts.root);
  shared_.Update(w.bytes());
}

cache::Key ParseCache::Keys::Of(const WorkUnit& unit) const {
  // The unit: its files as discovery described them, and how the plan evaluates them.
  Writer w;
  w.Bool(unit.terraform_module);
  w.Bool(unit.syntax_only);
  PutStrings(w, unit.named);
  w.U32(static_cast<std::uint32_t>(unit.files.size()));
  // A path as Writer::Str writes it, its directory's part and its name's joined without a copy.
  auto joined = [&w](const std::string& dir, const std::string& name) {
    w.U32(static_cast<std::uint32_t>(dir.size() + name.size()));
    w.Raw(dir);
    w.Raw(name);
  };
  for (const DiscoveredFile& f : unit.files) {
    joined(f.dir->abs_path, f.name);
    joined(f.dir->display, f.name);
    joined(f.dir->root_path, f.name);
    w.Str(f.root());
    w.Str(f.front_end ? f.front_end->name : "");
    w.Bool(f.named);
  }
  Sha256 h = shared_;
  h.Update(w.bytes());
  return h.Finish();
}

bool ParseCache::Load(const cache::Key& key, const FileSource& files, std::vector<ParsedFile>* parsed,
                      std::vector<std::string>* skipped) {
  auto miss = [&] {
    ++misses_;
    return false;
  };
  bool gave_nothing = false, answered = false, mark_used = false;
  {
    // Checked in place: the records are not copied (a scan's writers are its few misses).
    std::shared_lock lock(nothing_mu_);
    if (auto it = nothing_.find(key); it != nothing_.end()) {
      gave_nothing = true;
      answered = StillAnswered(files, it->second.records, &known_);
      mark_used = answered && it->second.used != today_;
    }
  }
  if (gave_nothing) {
    if (!answered) return miss();
    if (mark_used) {
      std::unique_lock lock(nothing_mu_);
      if (auto it = nothing_.find(key); it != nothing_.end()) it->second.used = today_;
      nothing_changed_ = true;
    }
    parsed->clear();
    ++empty_hits_;
    return true;
  }
  std::optional<std::string> body = store_->Load(key);
  if (!body) return miss();
  Reader in(*body);
  std::vector<ReadRecord> records;
  if (!GetRecords(in, &records) || !StillAnswered(files, records, &known_)) return miss();
  std::vector<std::string> lines;
  std::vector<ParsedFile> out;
  GetStrings(in, &lines);
  out.resize(in.Count(32));
  for (ParsedFile& pf : out) {
    if (!in.ok() || !cache::GetFileResult(in, &pf.result)) return miss();
    pf.comments.resize(in.Count(12));
    for (Comment& c : pf.comments) {
      c.line = in.I32();
      c.column = in.I32();
      c.text = in.Str();
    }
  }
  if (!in.done()) return miss();
  *parsed = std::move(out);
  for (std::string& l : lines) skipped->push_back(std::move(l));
  ++hits_;
  return true;
}

std::uintmax_t ParseCache::KnownBytes(const WorkUnit& unit) const {
  std::uintmax_t total = 0;
  for (const DiscoveredFile& f : unit.files) {
    std::string path = f.abs_path();
    if (std::optional<std::uint64_t> n = known_.SizeOf(path)) {
      total += *n;
    } else if (std::optional<std::uintmax_t> m = DiskFiles().FileSize(path)) {
      total += *m;
    }
  }
  return total;
}

void ParseCache::Save(const cache::Key& key, const ReadLog& log, const std::vector<ParsedFile>& parsed,
                      const std::vector<std::string>& skipped) {
  if (!log.stable()) return;
  std::vector<ReadRecord> records = log.Records();
  for (const ReadRecord& r : records) {
    if (r.op != ReadRecord::Op::kRead) continue;
    auto it = log.stamps().find({r.path, r.limit});
    if (it != log.stamps().end()) known_.Put(r.path, it->second, r.limit, r.answer);
  }
  if (parsed.empty() && skipped.empty()) {
    std::unique_lock lock(nothing_mu_);
    nothing_[key] = Nothing{std::move(records), today_};
    nothing_changed_ = true;
    return;
  }
  {
    std::unique_lock lock(nothing_mu_);
    if (nothing_.erase(key)) nothing_changed_ = true;
  }
  Writer w;
  PutRecords(w, records);
  PutStrings(w, skipped);
  w.U32(static_cast<std::uint32_t>(parsed.size()));
  for (const ParsedFile& pf : parsed) {
    cache::PutFileResult(w, pf.result);
    w.U32(static_cast<std::uint32_t>(pf.comments.size()));
    for (const Comment& c : pf.comments) {
      w.I32(c.line);
      w.I32(c.column);
      w.Str(c.text);
    }
  }
  store_->Save(key, w.bytes());
  ++stored_;
}

}  // namespace sagelint
