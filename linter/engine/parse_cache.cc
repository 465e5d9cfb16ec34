#include "linter/engine/parse_cache.h"

#include <sys/stat.h>

#include <filesystem>
#include <map>

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

}  // namespace

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
    std::string text, error;
    bool read = files.Read(path, kMaxSourceBytes, &text, &error);
    Sha256 content;
    content.Update(read ? text : error);
    std::array<std::uint8_t, 32> digest = content.Finish();
    k.Bool(read);
    k.Raw(std::string_view(reinterpret_cast<const char*>(digest.data()), digest.size()));
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

cache::Key ParseCache::KeyOf(const WorkUnit& unit, const ResolveOptions& opts) {
  Writer w;
  w.Str("sagelint parsed unit");
  w.Str(CacheBuildIdentity());
  // Display paths and `--param-file`s are relative to the working directory.
  std::error_code ec;
  w.Str(std::filesystem::current_path(ec).string());
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
  // The unit: its files as discovery described them, and how the plan evaluates them.
  w.Bool(unit.terraform_module);
  w.Bool(unit.syntax_only);
  PutStrings(w, unit.named);
  w.U32(static_cast<std::uint32_t>(unit.files.size()));
  for (const DiscoveredFile& f : unit.files) {
    w.Str(f.abs_path());
    w.Str(f.display());
    w.Str(f.root_path());
    w.Str(f.root());
    w.Str(f.front_end ? f.front_end->name : "");
    w.Bool(f.named);
  }
  Sha256 h;
  h.Update(w.bytes());
  return h.Finish();
}

bool ParseCache::Load(const cache::Key& key, const FileSource& files, std::vector<ParsedFile>* parsed,
                      std::vector<std::string>* skipped) {
  std::optional<std::string> body = store_->Load(key);
  auto miss = [&] {
    ++misses_;
    return false;
  };
  if (!body) return miss();
  Reader in(*body);
  std::vector<ReadRecord> records;
  if (!GetRecords(in, &records) || !StillAnswered(files, records)) return miss();
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

void ParseCache::Save(const cache::Key& key, const ReadLog& log, const std::vector<ParsedFile>& parsed,
                      const std::vector<std::string>& skipped) {
  if (!log.stable()) return;
  Writer w;
  PutRecords(w, log.Records());
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
