#include "linter/engine/git.h"

#include <deque>
#include <filesystem>
#include <mutex>
#include <set>
#include <string_view>
#include <vector>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/process.h"
#include "linter/base/strings.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

std::vector<std::string> Git(const std::string& top, std::initializer_list<std::string> args) {
  std::vector<std::string> argv = {"git", "--no-optional-locks", "-C", top};
  argv.insert(argv.end(), args);
  return argv;
}

std::string Chomp(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

bool RunGit(const std::vector<std::string>& argv, std::string* out, std::string* error) {
  ProcessResult r;
  if (!RunProcess(argv, out, &r, error)) return false;
  if (r.exit_status != 0) {
    std::string msg = Chomp(r.err);
    *error = msg.empty() ? "git exited with status " + std::to_string(r.exit_status) : msg;
    return false;
  }
  return true;
}

}  // namespace

std::optional<std::string> GitTopLevel(const std::string& dir) {
  std::string out, error;
  if (!RunGit(Git(dir, {"rev-parse", "--show-toplevel"}), &out, &error)) return std::nullopt;
  out = Chomp(out);
  if (out.empty()) return std::nullopt;
  return out;
}

std::optional<std::string> GitResolveCommit(const std::string& top, const std::string& ref, std::string* error) {
  std::string out;
  // "--end-of-options" keeps a REF that starts with '-' from being read as an option.
  if (ref.empty() ||
      !RunGit(Git(top, {"rev-parse", "--verify", "--quiet", "--end-of-options", ref + "^{commit}"}), &out, error)) {
    *error = "'" + ref + "' is not a commit of the repository at " + top;
    return std::nullopt;
  }
  return Chomp(out);
}

bool GitRenames(const std::string& top, const std::string& commit, const std::vector<std::string>& paths,
                std::map<std::string, std::string>* renames, std::string* error) {
  std::string out;
  // Paths are literal (no pathspec magic or globs); only the asked paths are compared.
  std::vector<std::string> argv = {
      "git",           "--no-optional-locks", "--literal-pathspecs", "-C",   top, "diff", "-M", "--name-status", "-z",
      "--no-ext-diff", "--no-textconv",       "--end-of-options",    commit, "--"};
  for (const std::string& p : paths) {
    if (p != ".") argv.push_back(p);
  }
  if (!RunGit(argv, &out, error)) return false;
  std::vector<std::string_view> fields;
  for (size_t pos = 0; pos < out.size();) {
    size_t end = out.find('\0', pos);
    if (end == std::string::npos) end = out.size();
    fields.emplace_back(out.data() + pos, end - pos);
    pos = end + 1;
  }
  for (size_t i = 0; i < fields.size();) {
    std::string_view status = fields[i++];
    bool two = !status.empty() && (status[0] == 'R' || status[0] == 'C');
    size_t paths = two ? 2 : 1;
    if (i + paths > fields.size()) break;
    if (two && status[0] == 'R') (*renames)[std::string(fields[i])] = std::string(fields[i + 1]);
    i += paths;
  }
  return true;
}

bool GitListFiles(const std::string& top, const std::function<void(std::string_view)>& each, std::string* error,
                  bool* not_a_repository) {
  *not_a_repository = false;
  std::vector<std::string> argv = Git(top, {"ls-files", "-z", "--cached", "--others", "--exclude-standard"});
  std::string partial;  // a name split across two chunks of output
  auto on_output = [&](std::string_view chunk) {
    for (size_t nul; (nul = chunk.find('\0')) != std::string_view::npos; chunk.remove_prefix(nul + 1)) {
      if (partial.empty()) {
        if (nul > 0) each(chunk.substr(0, nul));
      } else {
        partial.append(chunk.substr(0, nul));
        each(partial);
        partial.clear();
      }
    }
    partial.append(chunk);
    return true;
  };
  ProcessResult r;
  if (!RunProcess(argv, "", on_output, &r, error)) return false;
  if (r.exit_status != 0) {
    std::string msg = Chomp(r.err);
    *not_a_repository = msg.find("not a git repository") != std::string::npos;
    *error = msg.empty() ? "git exited with status " + std::to_string(r.exit_status) : msg.substr(0, msg.find('\n'));
    return false;
  }
  return true;
}

// ---- the tree of a commit as a file system -----------------------------------

// An entry of a tree object: named (not file-local) because GitTreeFiles::State holds them.
namespace git_tree {

enum class EntryKind { kFile, kLink, kTree, kSubmodule, kOther };

struct TreeEntry {
  std::string oid;
  EntryKind kind = EntryKind::kOther;
};

}  // namespace git_tree

using git_tree::EntryKind;
using git_tree::TreeEntry;

namespace {

constexpr int kMaxLinkHops = 40;             // as the kernel's
constexpr size_t kMaxLinkTarget = 4096;      // PATH_MAX
constexpr size_t kMaxTreeBytes = 64u << 20;  // one tree object
constexpr int kMaxRestarts = 8;              // git cat-file ended on an object it could not read
constexpr size_t kMaxHeader = 1024;

// Whatever git is configured to do, it never asks for a password here.
const std::vector<std::string> kGitEnv = {"GIT_TERMINAL_PROMPT=0"};

EntryKind KindOfMode(std::string_view mode) {
  if (mode == "40000" || mode == "040000") return EntryKind::kTree;
  if (mode == "100644" || mode == "100755" || mode == "100664") return EntryKind::kFile;
  if (mode == "120000") return EntryKind::kLink;
  if (mode == "160000") return EntryKind::kSubmodule;
  return EntryKind::kOther;
}

bool IsHex(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

std::string Hex(std::string_view raw) {
  static const char* kDigits = "0123456789abcdef";
  std::string out;
  for (unsigned char c : raw) {
    out += kDigits[c >> 4];
    out += kDigits[c & 15];
  }
  return out;
}

std::string Join(const std::vector<std::string>& parts, size_t n) {
  std::string out;
  for (size_t i = 0; i < n && i < parts.size(); ++i) out += (i ? "/" : "") + parts[i];
  return out;
}

// The first line git wrote to standard error, for a note.
std::string FirstLine(const std::string& err) {
  std::string line = Chomp(err.substr(0, err.find('\n')));
  return line.empty() ? "git cat-file ended" : line;
}

enum class Got { kOk, kMissing, kFailed, kTooLarge, kSpent };

}  // namespace

struct GitTreeFiles::State {
  std::string top, commit, mount;
  GitTreeLimits limits;
  size_t hash_bytes = 20;
  TreeEntry root;

  mutable std::mutex mu;  // everything below
  Coprocess batch, check;
  int restarts = 0;
  struct Dir {
    bool readable = false;
    std::map<std::string, TreeEntry> entries;
  };
  std::map<std::string, Dir> dirs;             // by path from the top ("" = the top)
  std::map<std::string, std::uint64_t> sizes;  // object id -> size
  std::set<std::string> missing;               // object ids git could not give
  std::uint64_t bytes = 0, entries = 0;
  bool bytes_spent = false, entries_spent = false;
  std::vector<std::string> notes;
  std::set<std::string> noted;
  std::set<std::string> disk_files;
  // Objects held in memory instead of git's (FromObjects).
  std::optional<std::map<std::string, GitTreeFiles::Object>> memory;

  void Note(const std::string& key, const std::string& text) {
    if (noted.insert(key).second) notes.push_back(text);
  }

  bool Ensure(Coprocess& p, const char* mode, std::string* why) {
    if (p.running()) return true;
    if (restarts >= kMaxRestarts) {
      *why = "git cat-file ended too often; nothing more is read";
      return false;
    }
    std::vector<std::string> argv = {"git", "--no-optional-locks", "-C", top, "cat-file", mode};
    return p.Start(argv, kGitEnv, why);
  }

  // git ended (an object it could not read, a lazy fetch that failed): the
  // reason is its first error line; the next request starts it again.
  Got Ended(Coprocess& p, std::string* why) {
    *why = FirstLine(p.err());
    p.Stop();
    ++restarts;
    return Got::kFailed;
  }

  // Parses "<oid> <type> <size>"; false for "<oid> missing" and the like.
  static bool Header(const std::string& line, std::string* type, std::uint64_t* size) {
    size_t sp2 = line.rfind(' ');
    size_t sp1 = sp2 == std::string::npos || sp2 == 0 ? std::string::npos : line.rfind(' ', sp2 - 1);
    if (sp1 == std::string::npos) return false;
    std::string n = line.substr(sp2 + 1);
    if (n.empty() || n.size() > 19 || n.find_first_not_of("0123456789") != std::string::npos) return false;
    *type = line.substr(sp1 + 1, sp2 - sp1 - 1);
    *size = std::stoull(n);
    return true;
  }

  // The size of an object, from `git cat-file --batch-check` (cached).
  Got Size(const std::string& oid, std::uint64_t* size, std::string* why) {
    if (auto it = sizes.find(oid); it != sizes.end()) {
      *size = it->second;
      return Got::kOk;
    }
    if (missing.count(oid)) {
      *why = "the object is missing from the repository";
      return Got::kMissing;
    }
    if (memory) {
      auto it = memory->find(oid);
      if (it == memory->end()) {
        missing.insert(oid);
        *why = "the object is missing from the repository";
        return Got::kMissing;
      }
      *size = it->second.content.size();
      sizes[oid] = *size;
      return Got::kOk;
    }
    if (!Ensure(check, "--batch-check", why)) return Got::kFailed;
    std::string line, type;
    if (!check.Write(oid + "\n") || !check.ReadLine(&line, kMaxHeader)) return Ended(check, why);
    if (!Header(line, &type, size)) {
      missing.insert(oid);
      *why = "the object is missing from the repository";
      return Got::kMissing;
    }
    sizes[oid] = *size;
    return Got::kOk;
  }

  // The content of an object of type `want`, at most `max` bytes, counted
  // against the limits.
  Got Object(const std::string& oid, const char* want, std::uint64_t max, std::string* out, std::string* why) {
    if (!IsHex(oid)) {
      *why = "not an object id";
      return Got::kFailed;
    }
    std::uint64_t size = 0;
    if (Got g = Size(oid, &size, why); g != Got::kOk) return g;
    if (size > max) return Got::kTooLarge;
    if (bytes_spent || bytes + size > limits.max_bytes) {
      bytes_spent = true;
      return Got::kSpent;
    }
    if (memory) {
      const GitTreeFiles::Object& o = memory->at(oid);
      bytes += size;
      if (o.type != want) {
        *why = "a " + o.type + " where git's tree names a " + want;
        return Got::kFailed;
      }
      *out = o.content;
      return Got::kOk;
    }
    if (!Ensure(batch, "--batch", why)) return Got::kFailed;
    std::string line, type;
    if (!batch.Write(oid + "\n") || !batch.ReadLine(&line, kMaxHeader)) return Ended(batch, why);
    if (!Header(line, &type, &size)) {
      missing.insert(oid);
      *why = "the object is missing from the repository";
      return Got::kMissing;
    }
    // The size git announces is what is read (and counted), whatever --batch-check said.
    if (size > max || bytes + size > limits.max_bytes) {
      if (!batch.Read(size + 1, nullptr)) return Ended(batch, why);
      if (size > max) return Got::kTooLarge;
      bytes_spent = true;
      return Got::kSpent;
    }
    out->clear();
    out->reserve(static_cast<size_t>(size));
    std::string nl;
    if (!batch.Read(size, out) || !batch.Read(1, &nl)) return Ended(batch, why);
    bytes += size;
    if (type != want) {
      *why = "a " + type + " where git's tree names a " + want;
      return Got::kFailed;
    }
    return Got::kOk;
  }

  // The directory at `rel` (its tree object `oid`), listed once.
  Dir* LoadDir(const std::string& rel, const std::string& oid) {
    auto [it, fresh] = dirs.try_emplace(rel);
    Dir& d = it->second;
    if (!fresh) return d.readable ? &d : nullptr;
    std::string shown = rel.empty() ? "the top directory" : rel + "/";
    if (entries_spent) return nullptr;
    std::string data, why;
    switch (Object(oid, "tree", kMaxTreeBytes, &data, &why)) {
      case Got::kOk:
        break;
      case Got::kTooLarge:
        Note("tree:" + rel, shown + ": its tree object is larger than " + FormatCap(kMaxTreeBytes) + "; not read");
        return nullptr;
      case Got::kSpent:
        SpentNote(rel);
        return nullptr;
      default:
        Note("tree:" + rel,
             shown + ": git cannot read tree " + oid.substr(0, 12) + " (" + why + "); it is absent at the base");
        return nullptr;
    }
    std::set<std::string> twice;
    size_t pos = 0;
    while (pos < data.size()) {
      size_t sp = data.find(' ', pos);
      size_t nul = sp == std::string::npos ? sp : data.find('\0', sp + 1);
      if (nul == std::string::npos || nul + 1 + hash_bytes > data.size()) {
        Note("malformed:" + rel, shown + ": a malformed tree object; the rest of its entries are not read");
        break;
      }
      std::string_view mode(data.data() + pos, sp - pos);
      std::string name = data.substr(sp + 1, nul - sp - 1);
      TreeEntry e{Hex(std::string_view(data.data() + nul + 1, hash_bytes)), KindOfMode(mode)};
      pos = nul + 1 + hash_bytes;
      if (++entries > limits.max_entries) {
        entries_spent = true;
        Note("entries", "the base revision lists more than " + std::to_string(limits.max_entries) +
                            " entries; the listing stopped at " + shown + " and what was not listed is absent");
        break;
      }
      std::string path = rel.empty() ? name : rel + "/" + name;
      if (name == ".git") continue;  // never part of a scan
      if (name.empty() || name == "." || name == ".." || name.find('/') != std::string::npos) {
        Note("name:" + path, shown + ": a tree entry named '" + name + "' is not read");
        continue;
      }
      if (twice.count(name) || !d.entries.emplace(name, e).second) {
        // Two entries of one name (a crafted tree: a link and a file): neither is read.
        twice.insert(name);
        d.entries.erase(name);
        Note("twice:" + path, path + ": listed twice in its tree at the base; neither entry is read");
      }
    }
    d.readable = true;
    return &d;
  }

  void SpentNote(const std::string& at) {
    Note("bytes", "the base revision's read limit (" + FormatCap(static_cast<size_t>(limits.max_bytes)) +
                      " of git objects) was reached at " + (at.empty() ? "the top directory" : at) +
                      ": it and the files read after it are absent at the base");
  }

  // A link's target, or nullopt (with a note) when it cannot be read.
  std::optional<std::string> LinkTarget(const std::string& path, const TreeEntry& e) {
    std::string data, why;
    Got g = Object(e.oid, "blob", kMaxLinkTarget, &data, &why);
    if (g == Got::kOk && !data.empty() && data.find('\0') == std::string::npos) return data;
    if (g == Got::kSpent) {
      SpentNote(path);
    } else if (g == Got::kOk || g == Got::kTooLarge) {
      Note("link:" + path, path + ": a symbolic link without a usable target; not followed");
    } else {
      Note("object:" + path,
           path + ": git cannot read object " + e.oid.substr(0, 12) + " (" + why + "); it is absent at the base");
    }
    return std::nullopt;
  }

  // The result of walking a path through the tree.
  struct Walked {
    std::vector<std::string> done;  // components reached, links resolved
    std::deque<std::string> rest;   // components not reached (the first is missing)
    const TreeEntry* entry = nullptr;
    bool outside = false;  // a link or ".." leads out of the tree
    bool loop = false;     // too many links
    // Every component reached, and it is something (not a submodule).
    bool found() const { return !outside && !loop && rest.empty() && entry->kind != EntryKind::kSubmodule; }
  };

  // Walks `parts` (components below the top) from the top, following links
  // (the last one only if `follow_last`), never out of the tree.
  Walked Walk(const std::vector<std::string>& parts, bool follow_last) {
    Walked w;
    w.rest.assign(parts.begin(), parts.end());
    w.entry = &root;
    std::vector<const TreeEntry*> entries;  // the entry of each component of w.done
    int hops = 0;
    std::string last_link;  // the last link followed, for the note when its target climbs out
    while (!w.rest.empty()) {
      std::string name = w.rest.front();
      if (name.empty() || name == ".") {
        w.rest.pop_front();
        continue;
      }
      if (name == "..") {
        if (w.done.empty()) {
          if (!last_link.empty()) {
            Note("up:" + last_link,
                 last_link + ": a symbolic link whose target climbs above the top of the tree; not followed");
          }
          w.outside = true;
          return w;
        }
        w.rest.pop_front();
        w.done.pop_back();
        entries.pop_back();
        w.entry = entries.empty() ? &root : entries.back();
        continue;
      }
      if (w.entry->kind != EntryKind::kTree) return w;  // a file in the middle: the rest is missing
      Dir* d = LoadDir(Join(w.done, w.done.size()), w.entry->oid);
      if (!d) return w;
      auto it = d->entries.find(name);
      if (it == d->entries.end()) return w;
      const TreeEntry& e = it->second;
      if (e.kind == EntryKind::kLink && (w.rest.size() > 1 || follow_last)) {
        std::string path = Join(w.done, w.done.size());
        path += (path.empty() ? "" : "/") + name;
        if (++hops > kMaxLinkHops) {
          Note("loop:" + path, path + ": too many levels of symbolic links; not followed");
          w.loop = true;
          return w;
        }
        auto target = LinkTarget(path, e);
        if (!target) return w;
        w.rest.pop_front();
        if ((*target)[0] == '/') {
          // An absolute target names the machine's files, not the tree's.
          Note("abs:" + path, path + ": a symbolic link to an absolute path; not followed out of the tree");
          w.outside = true;
          return w;
        }
        last_link = path;
        std::vector<std::string> more;
        for (const auto& part : fs::path(*target)) more.push_back(part.string());
        w.rest.insert(w.rest.begin(), more.begin(), more.end());
        continue;
      }
      w.rest.pop_front();
      w.done.push_back(name);
      entries.push_back(&e);
      w.entry = &e;
    }
    return w;
  }

  // `path`'s components below the mount, as written ("." and ".." are
  // resolved by Walk, after links, as the kernel resolves them); nullopt when
  // it lies outside the mount.
  std::optional<std::vector<std::string>> Parts(const std::string& path) const {
    std::error_code ec;
    fs::path abs = fs::absolute(path, ec);
    for (const fs::path& p : {abs, abs.lexically_normal()}) {
      auto it = p.begin();
      bool under = true;
      for (const auto& m : fs::path(mount)) {
        if (it == p.end() || *it != m) {
          under = false;
          break;
        }
        ++it;
      }
      if (!under) continue;
      std::vector<std::string> parts;
      for (; it != p.end(); ++it) parts.push_back(it->string());
      return parts;
    }
    return std::nullopt;
  }

  bool IsGitDir(std::vector<std::string> parts) const {
    while (!parts.empty() && (parts.back().empty() || parts.back() == ".")) parts.pop_back();
    return parts.size() == 1 && parts[0] == ".git";
  }

  FileType TypeOf(const TreeEntry& e) const {
    switch (e.kind) {
      case EntryKind::kFile:
        return FileType::kRegular;
      case EntryKind::kTree:
        return FileType::kDirectory;
      case EntryKind::kSubmodule:
        return FileType::kNone;  // another repository's tree: not part of this one
      default:
        return FileType::kOther;
    }
  }

  FileType Type(const std::vector<std::string>& parts) {
    if (IsGitDir(parts)) return FileType::kDirectory;  // the top is a work tree's top
    Walked w = Walk(parts, true);
    return w.found() ? TypeOf(*w.entry) : FileType::kNone;
  }

  std::string Path(const std::vector<std::string>& done) const {
    fs::path p = mount;
    for (const std::string& d : done) p /= d;
    return p.string();
  }
};

GitTreeFiles::GitTreeFiles(std::unique_ptr<State> state) : state_(std::move(state)) {}
GitTreeFiles::~GitTreeFiles() = default;

std::unique_ptr<GitTreeFiles> GitTreeFiles::Open(const std::string& top, const std::string& commit,
                                                 const std::string& mount, const GitTreeLimits& limits,
                                                 std::string* error) {
  if (!IsHex(commit) || (commit.size() != 40 && commit.size() != 64)) {
    *error = "'" + commit + "' is not a full object id";
    return nullptr;
  }
  std::string out;
  if (!RunGit(Git(top, {"rev-parse", "--verify", "--quiet", "--end-of-options", commit + "^{tree}"}), &out, error)) {
    *error = "git cannot read the tree of " + commit + (error->empty() ? "" : ": " + *error);
    return nullptr;
  }
  auto state = std::make_unique<State>();
  state->top = top;
  state->commit = commit;
  state->mount = fs::path(mount).lexically_normal().string();
  while (state->mount.size() > 1 && state->mount.back() == '/') state->mount.pop_back();
  state->limits = limits;
  state->hash_bytes = commit.size() / 2;
  state->root = {Chomp(out), EntryKind::kTree};
  if (!IsHex(state->root.oid)) {
    *error = "git gave no tree for " + commit;
    return nullptr;
  }
  return std::unique_ptr<GitTreeFiles>(new GitTreeFiles(std::move(state)));
}

std::unique_ptr<GitTreeFiles> GitTreeFiles::FromObjects(std::map<std::string, Object> objects,
                                                        const std::string& root_tree, const std::string& mount,
                                                        const GitTreeLimits& limits) {
  auto state = std::make_unique<State>();
  state->mount = fs::path(mount).lexically_normal().string();
  while (state->mount.size() > 1 && state->mount.back() == '/') state->mount.pop_back();
  state->limits = limits;
  state->hash_bytes = root_tree.size() == 64 ? 32 : 20;
  state->root = {root_tree, EntryKind::kTree};
  state->memory = std::move(objects);
  return std::unique_ptr<GitTreeFiles>(new GitTreeFiles(std::move(state)));
}

bool GitTreeFiles::Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const {
  State& s = *state_;
  std::unique_lock<std::mutex> lock(s.mu);
  auto parts = s.Parts(path);
  if (!parts) {
    std::error_code ec;
    if (s.disk_files.count(fs::absolute(path, ec).lexically_normal().string())) {
      lock.unlock();
      return DiskFiles().Read(path, max_bytes, out, error);
    }
    *error = "No such file or directory";
    return false;
  }
  State::Walked w = s.Walk(*parts, true);
  if (!w.found()) {
    *error = "No such file or directory";
    return false;
  }
  if (w.entry->kind == EntryKind::kTree) {
    *error = "is a directory";
    return false;
  }
  if (w.entry->kind != EntryKind::kFile) {
    *error = "not a regular file";
    return false;
  }
  std::string rel = Join(w.done, w.done.size()), why;
  switch (s.Object(w.entry->oid, "blob", max_bytes, out, &why)) {
    case Got::kOk:
      return true;
    case Got::kTooLarge:
      *error = "larger than " + FormatCap(max_bytes);
      return false;
    case Got::kSpent:
      s.SpentNote(rel);
      *error = "not read: the base revision's read limit was reached";
      return false;
    default:
      s.Note("object:" + rel, rel + ": git cannot read object " + w.entry->oid.substr(0, 12) + " (" + why +
                                  "); it is absent at the base");
      *error = "git cannot read this object";
      return false;
  }
}

FileType GitTreeFiles::Type(const std::string& path) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto parts = s.Parts(path);
  if (!parts) {
    std::error_code ec;
    if (s.disk_files.count(fs::absolute(path, ec).lexically_normal().string())) return DiskFiles().Type(path);
    return FileType::kNone;
  }
  return s.Type(*parts);
}

bool GitTreeFiles::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto parts = s.Parts(dir);
  if (parts && s.IsGitDir(*parts)) return true;
  State::Walked w;
  if (parts) w = s.Walk(*parts, true);
  if (!parts || !w.found()) {
    *error = "No such file or directory";
    return false;
  }
  if (w.entry->kind != EntryKind::kTree) {
    *error = "Not a directory";
    return false;
  }
  State::Dir* d = s.LoadDir(Join(w.done, w.done.size()), w.entry->oid);
  if (!d) {
    *error = "git cannot read this directory";
    return false;
  }
  // Copied first: following a link below may list other directories.
  std::vector<std::pair<std::string, TreeEntry>> entries(d->entries.begin(), d->entries.end());
  for (const auto& [name, e] : entries) {
    DirEntry de;
    de.name = name;
    de.link = e.kind == EntryKind::kLink;
    if (de.link) {
      std::vector<std::string> target = w.done;
      target.push_back(name);
      de.type = s.Type(target);
    } else {
      de.type = s.TypeOf(e);
    }
    out->push_back(std::move(de));
  }
  return true;
}

std::optional<std::string> GitTreeFiles::Canonical(const std::string& path) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto parts = s.Parts(path);
  if (!parts) return std::nullopt;
  if (s.IsGitDir(*parts)) return s.Path({".git"});
  State::Walked w = s.Walk(*parts, true);
  if (!w.found()) return std::nullopt;
  return s.Path(w.done);
}

std::optional<std::string> GitTreeFiles::WeaklyCanonical(const std::string& path) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  std::error_code ec;
  auto parts = s.Parts(path);
  if (!parts) return fs::absolute(path, ec).lexically_normal().string();
  // As std::filesystem::weakly_canonical: the leading components that exist
  // (a link out of the tree does not), resolved; the rest appended as
  // written, then normalised. Too many links is an error.
  if (s.IsGitDir(*parts)) return s.Path({".git"});
  State::Walked whole = s.Walk(*parts, true);
  if (whole.loop) return std::nullopt;
  if (whole.found()) return s.Path(whole.done);
  if (!whole.outside) {
    // As the disk's: every link on the way followed, a dangling one too; what is missing appended.
    fs::path p = s.Path(whole.done);
    for (const std::string& part : whole.rest) p /= part;
    return p.lexically_normal().string();
  }
  std::vector<std::string> prefix;
  State::Walked reached;
  reached.entry = &s.root;
  size_t k = 0;
  for (; k < parts->size(); ++k) {
    prefix.push_back((*parts)[k]);
    State::Walked w = s.Walk(prefix, true);
    if (w.loop) return std::nullopt;
    if (!w.found()) break;
    reached = std::move(w);
  }
  fs::path p = s.Path(reached.done);
  for (size_t i = k; i < parts->size(); ++i) p /= (*parts)[i];
  return p.lexically_normal().string();
}

std::optional<std::uintmax_t> GitTreeFiles::FileSize(const std::string& path) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto parts = s.Parts(path);
  if (!parts) return std::nullopt;
  State::Walked w = s.Walk(*parts, true);
  if (!w.found() || w.entry->kind != EntryKind::kFile) return std::nullopt;
  std::uint64_t size = 0;
  std::string why;
  if (s.Size(w.entry->oid, &size, &why) != Got::kOk) return std::nullopt;
  return size;
}

bool GitTreeFiles::Outside(const std::string& path, const std::string& root) const {
  State& s = *state_;
  std::lock_guard<std::mutex> lock(s.mu);
  auto parts = s.Parts(path);
  if (!parts) return true;
  State::Walked w = s.Walk(*parts, true);
  if (w.outside) return true;
  // Inside the tree: outside `root` when it is a directory below the top.
  fs::path reached = s.Path(w.done);
  for (const std::string& part : w.rest) reached /= part;
  return !w.loop && !PathBelow(reached.lexically_normal().string(), root);
}

void GitTreeFiles::AllowDiskFile(const std::string& abs_path) {
  std::lock_guard<std::mutex> lock(state_->mu);
  std::error_code ec;
  state_->disk_files.insert(fs::absolute(abs_path, ec).lexically_normal().string());
}

std::vector<std::string> GitTreeFiles::Notes() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->notes;
}

std::uint64_t GitTreeFiles::bytes_read() const {
  std::lock_guard<std::mutex> lock(state_->mu);
  return state_->bytes;
}

}  // namespace sagelint
