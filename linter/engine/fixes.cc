#include "linter/engine/fixes.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <tuple>
#include <utility>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/strings.h"
#include "linter/engine/fix_reasons.h"
#include "linter/engine/front_ends.h"
#include "parsers/cdk/front_end.h"
#include "parsers/terraform/align.h"

namespace sagelint {
namespace {

namespace fs = std::filesystem;

// A file descriptor closed when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd = -1) : fd_(fd) {}
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  int get() const { return fd_; }
  bool ok() const { return fd_ >= 0; }

 private:
  int fd_;
};

// The directory at the real path `dir`, opened one component at a time with
// no link followed: what is opened is the directory that path names now.
Fd OpenRealDir(const fs::path& dir) {
  int at = ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (const fs::path& part : dir.relative_path()) {
    if (at < 0) break;
    int next = ::openat(at, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    ::close(at);
    at = next;
  }
  return Fd(at);
}

int64_t MtimeNs(const struct stat& st) {
  return static_cast<int64_t>(st.st_mtim.tv_sec) * 1'000'000'000 + st.st_mtim.tv_nsec;
}

// Reads the file `name` of the directory `dir` (never through a link), capped,
// with its identity, size and modification time as they were while it was read.
bool ReadAt(int dir, const std::string& name, std::string* text, FileState* state, std::string* why) {
  // O_NONBLOCK: a FIFO put in the file's place must not wait for a writer.
  Fd fd(::openat(dir, name.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
  struct stat st {};
  if (!fd.ok() || ::fstat(fd.get(), &st) != 0) {
    *why = errno == ELOOP ? "it is a symbolic link now" : std::strerror(errno);
    return false;
  }
  if (!S_ISREG(st.st_mode)) {
    *why = "it is not a regular file";
    return false;
  }
  if (static_cast<uint64_t>(st.st_size) > kMaxSourceBytes) {
    *why = "it is larger than " + FormatCap(kMaxSourceBytes);
    return false;
  }
  text->clear();
  char buf[1 << 16];
  for (ssize_t n; (n = ::read(fd.get(), buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || text->size() + static_cast<size_t>(n) > kMaxSourceBytes) {
      *why = n < 0 ? std::strerror(errno) : "it grew while it was read";
      return false;
    }
    text->append(buf, static_cast<size_t>(n));
  }
  struct stat after {};
  if (::fstat(fd.get(), &after) != 0 || after.st_size != st.st_size || MtimeNs(after) != MtimeNs(st) ||
      static_cast<size_t>(st.st_size) != text->size()) {
    *why = "it changed while it was read";
    return false;
  }
  state->device = st.st_dev;
  state->inode = st.st_ino;
  state->size = st.st_size;
  state->mtime_ns = MtimeNs(st);
  return true;
}

// Reads a file a fix changes: every component of its path resolved first,
// and only when that real path lies inside one of `roots`.
bool ReadForFix(const std::string& path, const std::vector<std::string>& roots, std::string* text, FileState* state,
                std::string* why) {
  std::error_code ec;
  fs::path real = fs::canonical(path, ec);
  if (ec) {
    *why = ec.message();
    return false;
  }
  if (std::none_of(roots.begin(), roots.end(),
                   [&](const std::string& r) { return PathBelow(real.string(), r).has_value(); })) {
    *why = "its real path " + real.string() + " is outside the scan root";
    return false;
  }
  Fd dir = OpenRealDir(real.parent_path());
  if (!dir.ok()) {
    *why = "a directory on its path changed while it was read";
    return false;
  }
  state->real = real.string();
  return ReadAt(dir.get(), real.filename().string(), text, state, why);
}

// The texts of the files fixes touch, each read once: as the scan names them,
// or (with roots) only where a fix may write, with the state they were read in.
class Texts {
 public:
  // Reads through the scan's view of the files (unsaved editor buffers over the disk) ...
  explicit Texts(const FileSource& files) : files_(&files) {}
  // ... or, to write fixes, the disk by each file's real path inside `roots` (ReadForFix).
  explicit Texts(const std::vector<std::string>* roots) : roots_(roots) {}
  const std::string* Get(const std::string& path) {
    auto it = texts_.find(path);
    if (it == texts_.end()) {
      Entry e;
      std::string text;
      bool ok = roots_ ? ReadForFix(path, *roots_, &text, &e.state, &e.why)
                       : files_->Read(path, kMaxSourceBytes, &text, &e.why);
      if (ok) e.text = std::move(text);
      it = texts_.emplace(path, std::move(e)).first;
    }
    return it->second.text ? &*it->second.text : nullptr;
  }
  const FileState& State(const std::string& path) const { return texts_.at(path).state; }
  // Why a file could not be read (after Get returned nullptr).
  const std::string& Why(const std::string& path) const { return texts_.at(path).why; }

 private:
  struct Entry {
    std::optional<std::string> text;
    FileState state;
    std::string why;
  };
  const FileSource* files_ = nullptr;
  const std::vector<std::string>* roots_ = nullptr;
  std::map<std::string, Entry> texts_;
};

// The front end that reads `path` with this content.
const FrontEnd* FrontEndFor(const std::string& path, std::string_view text) {
  const FrontEnd* first = FrontEndForPath(path);
  return first ? FrontEndForContent(*first, text) : nullptr;
}

// A literal's new text: the old value found exactly once inside the token
// (its quotes and escapes stay as written).
std::optional<TextEdit> ReplaceLiteral(std::string_view text, const FixChange& c) {
  std::optional<size_t> begin = OffsetOf(text, c.range.begin);
  std::optional<size_t> end = OffsetOf(text, c.range.end);
  if (!begin || !end || *end <= *begin || c.text.empty()) return std::nullopt;
  std::string_view token = text.substr(*begin, *end - *begin);
  std::string_view old = c.text, value = c.value;
  // A CDK app's ec2 instance type (`ec2.InstanceType("m4.xlarge")`) is the SageMaker type without `ml.`.
  if (token.find(old) == std::string_view::npos && old.starts_with("ml.") && value.starts_with("ml.")) {
    old.remove_prefix(3);
    value.remove_prefix(3);
  }
  size_t at = token.find(old);
  if (at == std::string_view::npos || token.find(old, at + 1) != std::string_view::npos) return std::nullopt;
  return TextEdit{*begin + at, *begin + at + old.size(), std::string(value)};
}

std::optional<TextEdit> EditFor(std::string_view text, const FixChange& c) {
  // Only the formats with an editor take fixes (not Terraform plans or JSON,
  // policy documents: README "Fixes").
  const FrontEnd* fe = FrontEndFor(c.path, text);
  if (!fe || !fe->edit || !fe->Edits(c.path)) return std::nullopt;
  if (c.op == FixChange::Op::kReplace) return ReplaceLiteral(text, c);
  std::optional<TextEdit> e = fe->edit(text, c);
  if (e && (e->begin > e->end || e->end > text.size())) return std::nullopt;
  return e;
}

// How many parse errors `text` gives as the file at `path`; nullopt when no
// front end reads it any more.
std::optional<size_t> ParseErrors(const std::string& path, const std::string& text) {
  const FrontEnd* fe = FrontEndFor(path, text);
  if (!fe) return std::nullopt;
  std::error_code ec;
  std::filesystem::path abs = std::filesystem::absolute(path, ec);
  if (fe->format == Format::kCdk) return CdkSyntaxErrors(path, text);  // an app's source, parsed alone
  SourceFile file{path, abs.string(), text, ""};
  ResolveOptions opts;
  opts.root = abs.parent_path().string();
  if (fe->parse) return fe->parse(file, opts).errors.size();
  if (fe->parse_module) {
    TerraformRoot root;
    root.files.push_back(file);
    root.syntax_only = true;
    size_t errors = 0;
    for (const FileResult& r : fe->parse_module(root, opts)) errors += r.errors.size();
    return errors;
  }
  return std::nullopt;  // a format without a parser of single files
}

struct PlannedEdit {
  TextEdit edit;
  size_t finding;
  size_t order;  // the edit's place among its fix's edits
};

std::vector<std::string_view> Lines(std::string_view text) {
  std::vector<std::string_view> lines;
  size_t at = 0;
  while (at < text.size()) {
    size_t nl = text.find('\n', at);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    lines.push_back(text.substr(at, end - at));
    at = end;
  }
  return lines;
}

// The shortest edit script between two line sequences (Myers): for each line
// of the result, 0 = kept, -1 = removed from `a`, +1 = added from `b`.
std::vector<int> EditScript(const std::vector<std::string_view>& a, const std::vector<std::string_view>& b) {
  const int n = static_cast<int>(a.size()), m = static_cast<int>(b.size());
  const int max = n + m;
  std::vector<int> v(2 * max + 2, 0);
  std::vector<std::vector<int>> trace;
  int found = -1;
  for (int d = 0; d <= max && found < 0; ++d) {
    trace.push_back(v);
    for (int k = -d; k <= d; k += 2) {
      int x = (k == -d || (k != d && v[k - 1 + max] < v[k + 1 + max])) ? v[k + 1 + max] : v[k - 1 + max] + 1;
      int y = x - k;
      while (x < n && y < m && a[x] == b[y]) ++x, ++y;
      v[k + max] = x;
      if (x >= n && y >= m) {
        found = d;
        break;
      }
    }
  }
  std::vector<int> script;
  int x = n, y = m;
  for (int d = found; d > 0; --d) {
    const std::vector<int>& pv = trace[d];
    int k = x - y;
    int prev_k = (k == -d || (k != d && pv[k - 1 + max] < pv[k + 1 + max])) ? k + 1 : k - 1;
    int prev_x = pv[prev_k + max], prev_y = prev_x - prev_k;
    while (x > prev_x && y > prev_y) script.push_back(0), --x, --y;
    script.push_back(x == prev_x ? +1 : -1);
    x = prev_x, y = prev_y;
  }
  while (x > 0 && y > 0) script.push_back(0), --x, --y;
  std::reverse(script.begin(), script.end());
  return script;
}

// A line as the terminal may show it: its ending (\n or \r\n) and tabs as
// they are, every other control character as an escape (Printable).
void AppendLine(std::string& out, char mark, std::string_view line) {
  out += mark;
  std::string_view ending = line.ends_with("\r\n") ? "\r\n" : line.ends_with('\n') ? "\n" : "";
  std::string_view text = line.substr(0, line.size() - ending.size());
  for (size_t tab; (tab = text.find('\t')) != std::string_view::npos; text.remove_prefix(tab + 1)) {
    out += Printable(text.substr(0, tab));
    out += '\t';
  }
  out += Printable(text);
  out += ending;
  if (ending.empty()) out += "\n\\ No newline at end of file\n";
}

std::string Range(int start, int count) {
  // A hunk that adds to an empty side names the line before it.
  std::string s = std::to_string(count == 0 ? start - 1 : start);
  if (count != 1) s += "," + std::to_string(count);
  return s;
}

// Why a change could not be placed in its file as it is written (README "Fixes").
std::string Unplaceable(const FixChange& c) {
  if (c.op == FixChange::Op::kReplace) return "the literal " + c.text + " is not where the finding reads it";
  if (c.field == "checkpoint") {
    return "no checkpoint location can be written from the code: no output path, no default_bucket() call "
           "before the job and no `import sagemaker` to build one from, or the request takes no new member there";
  }
  if (c.field == "spot" || c.field == "max_wait_seconds" || c.field == "input_mode") {
    return "the job's call or request cannot take the setting as written (arguments passed as **kwargs, a request "
           "inside a string, a configuration object not written in the call, or a class the fix does not know)";
  }
  return "the setting " + c.field + " cannot be added where the finding's resource is written";
}

}  // namespace

void ResolveFixes(std::vector<Finding>& findings, const FileSource& files) {
  RefuseBreakingFixes(findings, files);
  ResolveFixEdits(findings, files);
  ExplainMissingFixes(findings);
}

void ResolveFixEdits(std::vector<Finding>& findings, const FileSource& files) {
  Texts texts(files);
  for (Finding& f : findings) {
    if (!f.fix || !f.fix->edits.empty()) continue;
    std::vector<FixEdit> edits;
    std::string why;
    // A Terraform file's insertions and removals: one edit that also aligns the groups they join.
    std::map<std::string, std::vector<TextEdit>> terraform;
    std::set<std::string> reshaped;
    for (const FixChange& c : f.fix->changes) {
      const std::string* text = texts.Get(c.path);
      std::optional<TextEdit> e = text ? EditFor(*text, c) : std::nullopt;
      if (!e) {
        why = !text ? "the file cannot be read: " + texts.Why(c.path) : Unplaceable(c);
        break;
      }
      if (c.path.ends_with(".tf")) terraform[c.path].push_back(*e);
      if (c.path.ends_with(".tf") && c.op != FixChange::Op::kReplace) reshaped.insert(c.path);
      FixEdit edit{c.path, {PositionOf(*text, e->begin), PositionOf(*text, e->end)}, e->content};
      edits.push_back(std::move(edit));
    }
    if (edits.size() != f.fix->changes.size() || edits.empty()) {
      f.fix.reset();
      f.fix_unavailable = why;
      continue;
    }
    for (const auto& [tf_path, raw] : terraform) {
      const std::string& path = tf_path;  // a lambda may not capture a structured binding (clang 14)
      const std::string* text = texts.Get(path);
      std::optional<TextEdit> aligned = reshaped.count(path) ? tf::AlignedEdit(*text, raw) : std::nullopt;
      if (!aligned) continue;
      std::erase_if(edits, [&](const FixEdit& e) { return e.path == path; });
      edits.push_back(
          FixEdit{path, {PositionOf(*text, aligned->begin), PositionOf(*text, aligned->end)}, aligned->content});
    }
    f.fix->edits = std::move(edits);
  }
}

FixPlan PlanFixes(const std::vector<Finding>& findings, bool unsafe, const std::vector<std::string>& roots) {
  FixPlan plan;
  Texts texts(&roots);
  std::set<std::string> unread;  // files a fix would change that cannot be read for it
  // Each file's edits, by the finding they fix; a fix whose edits overlap an
  // edit taken already (or a different one at the same place) waits.
  std::map<std::string, std::vector<PlannedEdit>> taken;
  std::vector<bool> applied(findings.size(), false);
  for (size_t i = 0; i < findings.size(); ++i) {
    const Finding& f = findings[i];
    if (!f.fix || f.fix->edits.empty()) continue;
    if (f.fix->applicability == Applicability::kUnsafe && !unsafe) {
      ++plan.unsafe_skipped;
      continue;
    }
    std::vector<std::pair<std::string, TextEdit>> edits;
    bool ok = true;
    for (const FixEdit& e : f.fix->edits) {
      const std::string* text = texts.Get(e.path);
      if (!text && unread.insert(e.path).second) {
        plan.notes.push_back(e.path + ": left unchanged: " + texts.Why(e.path));
      }
      std::optional<size_t> b = text ? OffsetOf(*text, e.range.begin) : std::nullopt;
      std::optional<size_t> en = text ? OffsetOf(*text, e.range.end) : std::nullopt;
      if (!b || !en || *en < *b) {
        ok = false;
        break;
      }
      edits.push_back({e.path, TextEdit{*b, *en, e.content}});
    }
    if (!ok) continue;
    bool duplicate = true, clash = false;
    std::vector<bool> taken_already;  // an edit another fix takes too (a clean-up cell they share)
    for (const auto& [path, e] : edits) {
      bool same = false;
      for (const PlannedEdit& t : taken[path]) {
        if (t.edit == e) {
          same = true;
        } else if (e.begin < t.edit.end && t.edit.begin < e.end) {
          clash = true;
        } else if (e.begin == t.edit.begin && (e.begin != e.end || t.edit.begin != t.edit.end)) {
          clash = true;  // an insertion where another fix replaces text
        }
        // Two insertions at one place both go in, in the order of their findings.
      }
      duplicate = duplicate && same;
      taken_already.push_back(same);
    }
    if (clash) {
      plan.notes.push_back(f.path + ":" + std::to_string(f.range.begin.line) + ": the fix for " + f.rule +
                           " overlaps another fix's edit; run again to apply it");
      continue;
    }
    applied[i] = true;
    if (duplicate) continue;  // the same edit as a fix taken already
    size_t order = 0;
    for (size_t k = 0; k < edits.size(); ++k) {
      if (!taken_already[k]) taken[edits[k].first].push_back({std::move(edits[k].second), i, order});
      ++order;
    }
  }
  for (auto& [path, edits] : taken) {
    const std::string* text = texts.Get(path);
    std::error_code ec;
    if (std::filesystem::is_symlink(path, ec)) {
      // Writing would replace the link with a file: the link's target is edited where it lives.
      plan.notes.push_back(path + ": left unchanged: it is a symbolic link");
      for (const PlannedEdit& p : edits) applied[p.finding] = false;
      continue;
    }
    std::sort(edits.begin(), edits.end(),
              // From the end of the file back, so that offsets stay valid; insertions at
              // one place in reverse, so that they read in the order they were planned.
              [](const PlannedEdit& a, const PlannedEdit& b) {
                return std::tie(a.edit.begin, a.finding, a.order) > std::tie(b.edit.begin, b.finding, b.order);
              });
    std::string after = *text;
    for (const PlannedEdit& p : edits) after.replace(p.edit.begin, p.edit.end - p.edit.begin, p.edit.content);
    std::optional<size_t> errors_before = ParseErrors(path, *text);
    std::optional<size_t> errors_after = ParseErrors(path, after);
    if (!errors_before || !errors_after || *errors_after > *errors_before) {
      plan.notes.push_back(path + ": left unchanged: with its fixes applied it would no longer parse");
      for (const PlannedEdit& p : edits) applied[p.finding] = false;
      continue;
    }
    FileFix file{path, *text, std::move(after), 0, texts.State(path)};
    for (size_t i = 0; i < findings.size(); ++i) {
      if (!applied[i]) continue;
      for (const FixEdit& e : findings[i].fix->edits) {
        if (e.path == path) {
          ++file.fixes;
          break;
        }
      }
    }
    plan.files.push_back(std::move(file));
  }
  for (bool a : applied) plan.fixes += a ? 1 : 0;
  return plan;
}

std::vector<std::string> FixRoots(const std::vector<std::string>& named) {
  std::error_code ec;
  fs::path cwd = fs::canonical(fs::current_path(ec), ec);
  // A directory that is its own real path: nothing on the way to it is a link.
  auto real_dir = [](const fs::path& d) {
    std::error_code e;
    return fs::is_directory(d, e) && fs::canonical(d, e) == d;
  };
  std::vector<std::string> roots;
  for (const std::string& p : named.empty() ? std::vector<std::string>{"."} : named) {
    fs::path lexical = (cwd / p).lexically_normal();
    if (!lexical.has_filename() && lexical.has_relative_path()) lexical = lexical.parent_path();  // "dir/"
    std::optional<fs::path> plain, git;
    for (fs::path d = lexical;; d = d.parent_path()) {
      if (real_dir(d)) {
        if (!plain) plain = d;
        if (fs::exists(d / ".git", ec)) {
          git = d;
          break;
        }
      }
      if (d == d.parent_path()) break;
    }
    if (git || plain) roots.push_back((git ? *git : *plain).string());
  }
  return roots;
}

namespace {

// Whether the file `name` of `dir` is still what `file.before` was read from.
bool Unchanged(int dir, const std::string& name, const FileFix& file) {
  std::string text, why;
  FileState now;
  if (!ReadAt(dir, name, &text, &now, &why)) return false;
  return now.device == file.read.device && now.inode == file.read.inode && now.size == file.read.size &&
         now.mtime_ns == file.read.mtime_ns && text == file.before;
}

}  // namespace

WriteOutcome WriteFix(const FileFix& file, std::string* why) {
  std::error_code ec;
  fs::path real = file.read.real;
  if (real.empty() || fs::canonical(file.path, ec) != real) {
    *why = "left unchanged: its path leads somewhere else now";
    return WriteOutcome::kLeft;
  }
  std::string name = real.filename().string();
  Fd dir = OpenRealDir(real.parent_path());
  struct stat st {};
  if (!dir.ok() || ::fstatat(dir.get(), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISREG(st.st_mode)) {
    *why = "left unchanged: it is not the regular file it was any more";
    return WriteOutcome::kLeft;
  }
  // A write replaces the file with a new one: never another user's (it would
  // change hands), never one its owner made read-only, never one of several names.
  if (st.st_uid != ::geteuid()) {
    *why = "left unchanged: it belongs to another user, and a fix never changes a file's owner";
    return WriteOutcome::kLeft;
  }
  if ((st.st_mode & S_IWUSR) == 0) {
    *why = "left unchanged: it is read-only";
    return WriteOutcome::kLeft;
  }
  if (st.st_nlink > 1) {
    *why = "left unchanged: it has " + std::to_string(st.st_nlink) + " hard links, which a rewrite would separate";
    return WriteOutcome::kLeft;
  }
  if (!Unchanged(dir.get(), name, file)) {
    *why = "left unchanged: it changed after the fixes were planned; run again";
    return WriteOutcome::kLeft;
  }
  // The new text beside it, with the file's mode and group, then renamed over it.
  std::string tmp;
  int fd = -1;
  for (int n = 0; fd < 0 && n < 100; ++n) {
    tmp = "." + name + ".sagelint-" + std::to_string(::getpid()) + "-" + std::to_string(n);
    fd = ::openat(dir.get(), tmp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    *why = std::strerror(errno);
    return WriteOutcome::kFailed;
  }
  Fd out(fd);
  auto fail = [&](WriteOutcome outcome, std::string reason) {
    ::unlinkat(dir.get(), tmp.c_str(), 0);
    *why = std::move(reason);
    return outcome;
  };
  struct stat created {};
  if (::fstat(out.get(), &created) != 0) return fail(WriteOutcome::kFailed, std::strerror(errno));
  if (created.st_gid != st.st_gid && ::fchown(out.get(), static_cast<uid_t>(-1), st.st_gid) != 0) {
    return fail(WriteOutcome::kLeft, "left unchanged: its group cannot be kept, and a fix never changes it");
  }
  if (::fchmod(out.get(), st.st_mode & 07777) != 0) return fail(WriteOutcome::kFailed, std::strerror(errno));
  for (std::string_view rest = file.after; !rest.empty();) {
    ssize_t n = ::write(out.get(), rest.data(), rest.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return fail(WriteOutcome::kFailed, std::strerror(errno));
    rest.remove_prefix(static_cast<size_t>(n));
  }
  if (::fsync(out.get()) != 0 && errno != EINVAL && errno != EROFS) {
    return fail(WriteOutcome::kFailed, std::strerror(errno));
  }
  // Once more right before the rename: a change saved meanwhile is kept.
  if (!Unchanged(dir.get(), name, file)) {
    return fail(WriteOutcome::kLeft, "left unchanged: it changed while the fixes were written; run again");
  }
  if (::renameat(dir.get(), tmp.c_str(), dir.get(), name.c_str()) != 0) {
    return fail(WriteOutcome::kFailed, std::strerror(errno));
  }
  return WriteOutcome::kWritten;
}

std::string UnifiedDiff(std::string_view path, std::string_view before, std::string_view after) {
  if (before == after) return {};
  std::vector<std::string_view> a = Lines(before), b = Lines(after);
  std::vector<int> script = EditScript(a, b);
  constexpr int kContext = 3;
  std::string out = "--- a/" + Printable(path) + "\n+++ b/" + Printable(path) + "\n";
  // Walk the script in hunks: a change and the kept lines around it.
  size_t i = 0;
  int ai = 0, bi = 0;  // positions in a and b at script[i]
  while (i < script.size()) {
    if (script[i] == 0) {
      ++i, ++ai, ++bi;
      continue;
    }
    // A hunk starts kContext kept lines before this change.
    size_t start = i;
    int back = 0;
    while (back < kContext && start > 0 && script[start - 1] == 0) --start, ++back;
    int a_start = ai - back, b_start = bi - back;
    // It ends where more than 2 × kContext kept lines follow a change.
    size_t end = i;
    while (end < script.size()) {
      if (script[end] != 0) {
        ++end;
        continue;
      }
      size_t run = end;
      while (run < script.size() && script[run] == 0) ++run;
      if (run == script.size() || run - end > 2 * kContext) {
        end = std::min(run, end + kContext);
        break;
      }
      end = run;
    }
    int a_count = 0, b_count = 0;
    std::string body;
    int x = a_start, y = b_start;
    for (size_t j = start; j < end; ++j) {
      if (script[j] == 0) {
        AppendLine(body, ' ', a[x]);
        ++x, ++y, ++a_count, ++b_count;
      } else if (script[j] < 0) {
        AppendLine(body, '-', a[x]);
        ++x, ++a_count;
      } else {
        AppendLine(body, '+', b[y]);
        ++y, ++b_count;
      }
    }
    out += "@@ -" + Range(a_start + 1, a_count) + " +" + Range(b_start + 1, b_count) + " @@\n" + body;
    i = end, ai = x, bi = y;
  }
  return out;
}

}  // namespace sagelint
