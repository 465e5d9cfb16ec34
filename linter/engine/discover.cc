#include "linter/engine/discover.h"

#include <algorithm>
#include <filesystem>
#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string_view>

#include "linter/base/file_source.h"
#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/engine/front_ends.h"
#include "linter/engine/git.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

constexpr int kMaxDepth = 256;  // directory levels below a walked root
// Files of a revision's tree (the base side of `diff`) read in one walk: what
// each keeps until the comparison is bounded, whatever a crafted tree lists.
constexpr int kMaxTreeFiles = 20'000;

// Compares a1+a2 with b1+b2 as std::string compares them, without joining them.
int CompareJoined(std::string_view a1, std::string_view a2, std::string_view b1, std::string_view b2) {
  while (true) {
    if (a1.empty()) std::swap(a1, a2);
    if (b1.empty()) std::swap(b1, b2);
    if (a1.empty() || b1.empty()) return a1.empty() ? (b1.empty() ? 0 : -1) : 1;
    size_t n = std::min(a1.size(), b1.size());
    if (int c = a1.substr(0, n).compare(b1.substr(0, n))) return c;
    a1.remove_prefix(n);
    b1.remove_prefix(n);
  }
}

bool IsJoin(std::string_view whole, std::string_view prefix, std::string_view name) {
  return whole.size() == prefix.size() + name.size() && CompareJoined(whole, {}, prefix, name) == 0;
}

// A path as the prefix of the paths below it: "" for "." (the working
// directory, the root), else ending in '/'.
std::string AsPrefix(std::string path) {
  if (path.empty() || path == ".") return {};
  if (path.back() != '/') path += '/';
  return path;
}

// The paths of the directory whose absolute prefix is `prefix`.
std::shared_ptr<const DirPaths> DirPathsOf(std::string_view prefix, const std::string& root, const FileSource& files) {
  std::string dir(prefix.size() > 1 ? prefix.substr(0, prefix.size() - 1) : prefix);
  return std::make_shared<const DirPaths>(
      DirPaths{std::string(prefix), AsPrefix(DisplayPath(dir)), AsPrefix(RootRelativePath(dir, root, files)), root});
}

bool SkippedDirectory(const std::string& name) {
  static const std::set<std::string> kSkip = {
      ".git", ".terraform", "node_modules", ".venv", ".ipynb_checkpoints", "__pycache__", ".hg", ".svn"};
  return kSkip.count(name) > 0;
}

// One .gitignore's patterns, relative to its directory.
struct IgnoreFile {
  fs::path dir;
  struct Pattern {
    std::string glob;
    bool negate = false;
    bool dir_only = false;
    bool anchored = false;  // contains a '/' other than a trailing one: relative to `dir`
    bool literal = false;   // no wildcard: GlobMatch is equality with a name
    bool suffix = false;    // `*` and then no wildcard: GlobMatch is a name's ending with the rest
    // The glob's literal text before its first wildcard (or '/'), and after
    // its last: what a path it matches starts and ends with (its first and
    // last segments match the glob's, and only wildcards match other text).
    std::string head, tail;
  };
  std::vector<Pattern> patterns;
};

// Reads dir/.gitignore (a regular file of at most 1 MiB); a reason in `error` otherwise.
IgnoreFile ReadIgnoreFile(const fs::path& dir, const FileSource& files, std::string* error) {
  IgnoreFile f;
  f.dir = dir;
  std::string text;
  if (!files.Read((dir / ".gitignore").string(), kMaxIgnoreFileBytes, &text, error)) return f;
  error->clear();
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    IgnoreFile::Pattern p;
    if (line[0] == '!') {
      p.negate = true;
      line.erase(0, 1);
    } else if (line[0] == '\\') {
      line.erase(0, 1);
    }
    if (!line.empty() && line.back() == '/') {
      p.dir_only = true;
      line.pop_back();
    }
    if (line.empty()) continue;
    if (line.find('/') != std::string::npos) {
      p.anchored = true;
      if (line[0] == '/') line.erase(0, 1);
    }
    p.glob = line;
    p.literal = line.find_first_of("*?[/") == std::string::npos;
    p.suffix = line.size() > 1 && line[0] == '*' && line.find_first_of("*?[/", 1) == std::string::npos;
    p.head = line.substr(0, std::min(line.find_first_of("*?[]/"), line.size()));
    p.tail = line.substr(line.find_last_of("*?[]/") + 1);
    f.patterns.push_back(std::move(p));
  }
  return f;
}

// What git lists in a work tree (`git ls-files`, GitListFiles): the files of
// a scanned kind among them and the directories that hold one, relative to
// the top ("." the top itself). A tracked file is listed whatever a
// .gitignore says; an untracked one only when none covers it.
struct GitListing {
  std::set<std::string> files, dirs;
};

std::optional<GitListing> ListGitFiles(const std::string& top, std::string* error, bool* not_a_repository) {
  GitListing listing;
  listing.dirs.insert(".");
  auto each = [&](std::string_view rel) {
    if (!FrontEndForPath(rel)) return;  // only the names a front end reads are looked up
    auto [it, fresh] = listing.files.emplace(rel);
    if (!fresh) return;
    for (size_t slash = rel.rfind('/'); slash != std::string_view::npos && slash > 0;
         slash = rel.rfind('/', slash - 1)) {
      if (!listing.dirs.emplace(rel.substr(0, slash)).second) break;  // and the directories above it, known
    }
  };
  if (!GitListFiles(top, each, error, not_a_repository)) return std::nullopt;
  return listing;
}

class Walker {
 public:
  // With a `sink`, files go to it as they are found (see DiscoverDirectory); else to `out.files`.
  // A revision's tree (the base side of `diff`) holds tracked files alone: no .gitignore applies there.
  Walker(const DiscoverOptions& opts, DiscoverResult& out, const std::function<void(DiscoveredFile)>* sink = nullptr)
      : opts_(opts),
        files_(*opts.files),
        tree_(dynamic_cast<const GitTreeFiles*>(opts.files)),
        out_(out),
        sink_(sink) {}

  void WalkRoot(const fs::path& root, const std::string& given) {
    root_ = files_.Canonical(root.string()).value_or(root.string());
    scan_root_ = ScanRootOf(root_.string(), files_);
    // In a git work tree the files are those git lists (docs/architecture.md, "Discovery").
    git_ = nullptr;
    if (!opts_.no_ignore && !tree_ && files_.Exists(scan_root_ + "/.git")) git_ = Listing(scan_root_);
    // Ignore files inside the root apply, and, when the root lies inside a git
    // work tree, those of the work tree above it (git applies them too). A
    // .gitignore in some unrelated parent directory (a home directory, /tmp)
    // never hides files.
    std::vector<IgnoreFile> stack;
    if (ReadsIgnoreFiles() && !files_.Exists((root_ / ".git").string())) {
      std::vector<fs::path> parents;
      bool in_work_tree = false;
      for (fs::path d = root_.parent_path(); !d.empty(); d = d.parent_path()) {
        parents.push_back(d);
        if (files_.Exists((d / ".git").string())) {
          in_work_tree = true;
          break;
        }
        if (d == d.parent_path()) break;
      }
      if (in_work_tree) {
        for (auto it = parents.rbegin(); it != parents.rend(); ++it) PushIgnoreFile(*it, stack);
      }
    }
    root_stack_ = stack;
    int before = out_.found;
    size_t not_scanned = out_.not_scanned.size();
    Walk(root_, stack, 0);
    if (sink_) SendLinked();
    if (out_.found == before && out_.not_scanned.size() == not_scanned) {
      out_.warnings.push_back(given + ": no file to scan here (none of a scanned kind, or all excluded by " +
                              (opts_.no_ignore ? std::string("exclude:") : std::string(".gitignore or exclude:")) +
                              ")");
    }
  }

  // Pushes dir/.gitignore onto `stack` if there is one; false if none was pushed.
  bool PushIgnoreFile(const fs::path& dir, std::vector<IgnoreFile>& stack, bool report = true) {
    if (!ReadsIgnoreFiles() || !files_.Exists((dir / ".gitignore").string())) return false;
    std::string error;
    IgnoreFile f = ReadIgnoreFile(dir, files_, &error);
    if (!error.empty()) {
      if (report) out_.skipped.push_back(DisplayPath((dir / ".gitignore").string()) + ": " + error);
      return false;
    }
    stack.push_back(std::move(f));
    return true;
  }

  // `front_end`: whose file the walk found it to be (for a link, by its own
  // name), else from p's name; `dir`: shared with the files described before in
  // p's directory. `through_link`: reached through a link (with a sink: sent
  // after the walk, SendLinked).
  void AddFile(const fs::path& p, bool named, std::optional<const FrontEnd*> front_end = std::nullopt,
               std::shared_ptr<const DirPaths>* dir = nullptr, bool through_link = false) {
    if (!named && Full()) return;
    if (named) scan_root_ = ScanRootOf(p.string(), files_);
    DiscoveredFile f = DescribeFile(p.string(), scan_root_, named, dir, files_, front_end);
    if (!named && !f.front_end) return;
    if (!sink_) {
      out_.files.push_back(std::move(f));
      ++out_.found;
    } else if (through_link) {
      linked_.push_back(std::move(f));  // sent once the walk is over
    } else {
      (*sink_)(std::move(f));
      ++out_.found;
    }
  }

  // Whether the configuration's `exclude:` covers `p` (a directory's patterns with "/**" cover it too).
  bool Excluded(const fs::path& p) const {
    if (opts_.exclude.empty()) return false;
    std::string rel = p.lexically_relative(opts_.exclude_base).generic_string();
    for (const std::string& g : opts_.exclude) {
      if (GlobMatch(g, rel)) return true;
      // "dir/**" style patterns also exclude the directory itself.
      if (g.ends_with("/**") && GlobMatch(g.substr(0, g.size() - 3), rel)) return true;
    }
    return false;
  }

 private:
  // Whether a revision's tree has given as many files as one walk reads
  // (kMaxTreeFiles): the rest are absent at that revision, with a note.
  bool Full() {
    if (!tree_ || out_.found + static_cast<int>(linked_.size()) < kMaxTreeFiles) return false;
    if (!full_) {
      full_ = true;
      out_.skipped.push_back(DisplayPath(root_.string()) + ": more than " + std::to_string(kMaxTreeFiles) +
                             " files to scan at this revision; the files after the " + std::to_string(kMaxTreeFiles) +
                             "th are absent there");
    }
    return true;
  }

  // .gitignore files are read outside git only: in a work tree git lists the
  // files, and a revision's tree holds tracked files alone.
  bool ReadsIgnoreFiles() const { return !opts_.no_ignore && !git_ && !tree_; }

  // git's list of the files of the work tree at `top`, listed once per scan
  // root; nullptr (and .gitignore files read instead) when git cannot list them.
  const GitListing* Listing(const std::string& top) {
    auto it = listings_.find(top);
    if (it == listings_.end()) {
      std::string error;
      bool not_a_repository = false;
      std::optional<GitListing> listing = ListGitFiles(top, &error, &not_a_repository);
      if (!listing && !not_a_repository) {
        out_.warnings.push_back(DisplayPath(top) + ": git cannot list the files of this work tree (" + error +
                                "); its .gitignore files are read instead");
      }
      it = listings_.emplace(top, std::move(listing)).first;
    }
    return it->second ? &*it->second : nullptr;
  }

  bool Ignored(const fs::path& p, bool is_dir, const std::vector<IgnoreFile>& stack) const {
    if (git_) {
      // What git does not list is not part of the work tree's files.
      std::optional<std::string> rel = PathBelow(p.native(), scan_root_);
      return !rel || (is_dir ? git_->dirs.count(*rel) == 0 : git_->files.count(*rel) == 0);
    }
    bool ignored = false;
    const std::string& path = p.native();
    std::string_view base = std::string_view(path).substr(path.rfind('/') + 1);
    for (const IgnoreFile& f : stack) {
      // The walk only enters directories below an ignore file's own: the
      // relative path is the rest of the string (path operations allocate).
      const std::string& dir = f.dir.native();
      std::optional<std::string_view> rel;  // made for the first anchored pattern
      std::string made;                     // its text, when it is no part of the path
      auto relative = [&]() -> std::string_view {
        if (rel) return *rel;
        if (path.size() > dir.size() && path.compare(0, dir.size(), dir) == 0 && path[dir.size()] == '/') {
          return rel.emplace(std::string_view(path).substr(dir.size() + 1));
        }
        made = p.lexically_relative(f.dir).generic_string();
        return rel.emplace(made);
      };
      // GlobMatch, where the text before and after the wildcards allows a match.
      auto glob = [](const IgnoreFile::Pattern& pat, std::string_view s) {
        return s.starts_with(pat.head) && s.ends_with(pat.tail) && GlobMatch(pat.glob, s);
      };
      for (const auto& pat : f.patterns) {
        if (pat.dir_only && !is_dir) continue;
        bool m = pat.anchored  ? glob(pat, relative())
                 : pat.literal ? pat.glob == base
                 : pat.suffix  ? base.ends_with(std::string_view(pat.glob).substr(1))
                               : glob(pat, base);
        if (m) ignored = !pat.negate;
      }
    }
    return ignored;
  }

  bool InsideRoot(const fs::path& target) const { return PathBelow(target.string(), root_.string()).has_value(); }

  // Whether the walk goes into the directory `p` of `parent` (`stack`: the
  // ignore files that apply in `parent`).
  bool EntersDirectory(const fs::path& parent, const fs::path& p, const std::vector<IgnoreFile>& stack) const {
    std::string name = p.filename().string();
    if (SkippedDirectory(name)) return false;
    if (name.rfind("asset.", 0) == 0 && parent.filename() == "cdk.out") return false;
    return !Ignored(p, true, stack) && !Excluded(p);
  }

  // Whether the walk keeps the file `p` (named as found; a link by its own name).
  bool KeepsFile(const fs::path& p, const std::vector<IgnoreFile>& stack) const {
    return KeptFrontEnd(p, stack) != nullptr;
  }

  // The front end of the file `p` if the walk keeps it, else nullptr.
  const FrontEnd* KeptFrontEnd(const fs::path& p, const std::vector<IgnoreFile>& stack) const {
    const FrontEnd* front_end = FrontEndForPath(p.native());
    if (!front_end || Ignored(p, false, stack) || Excluded(p)) return nullptr;
    return front_end;
  }

  // A file (or directory) the walk does not read, said as SM008; once each.
  void NotRead(const fs::path& p, const FrontEnd* front_end, const std::string& why) {
    std::string display = DisplayPath(p.string());
    if (!not_read_.insert(display).second) return;
    out_.not_scanned.push_back({display, RootRelativePath(p.string(), scan_root_, files_), front_end, why});
  }

  // The paths of the directory `name` in the directory whose paths are
  // `parent` (nullptr: `dir`'s, computed here), when they are the parent's
  // followed by the name: a directory below the working directory (or it)
  // and lexically below the scan root. Else nullptr, and its first file's
  // paths are computed from the file system (DescribeFile).
  std::shared_ptr<const DirPaths> ChildPaths(const fs::path& dir, std::shared_ptr<const DirPaths>& parent,
                                             const std::string& name) const {
    if (via_link_ || tree_) return nullptr;
    std::shared_ptr<const DirPaths> base = parent ? parent : DirPathsOf(dir.native() + "/", scan_root_, files_);
    const DirPaths& d = *base;
    if (d.root != scan_root_ || d.abs_path != dir.native() + "/") return nullptr;
    if (d.display.starts_with("/") || d.display.starts_with("../") || d.display == "../") return nullptr;
    std::string root_prefix = scan_root_ == "/" ? "/" : scan_root_ + "/";
    if (!IsJoin(d.abs_path, root_prefix, d.root_path) && !(d.root_path.empty() && d.abs_path == root_prefix)) {
      return nullptr;
    }
    if (!parent) parent = base;  // shown to lead to its files' paths too
    return std::make_shared<const DirPaths>(
        DirPaths{d.abs_path + name + "/", d.display + name + "/", d.root_path + name + "/", d.root});
  }

  void Walk(const fs::path& dir, std::vector<IgnoreFile>& stack, int depth,
            std::shared_ptr<const DirPaths> paths = nullptr) {
    if (depth > kMaxDepth) {
      NotRead(dir, nullptr,
              "sagelint did not read this directory: it is nested deeper than " + std::to_string(kMaxDepth) +
                  " levels, so no file below it was scanned");
      return;
    }
    std::vector<DirEntry> entries;
    std::string error;
    if (!files_.List(dir.string(), &entries, &error)) {
      NotRead(dir, nullptr, "sagelint did not read this directory: it cannot be listed (" + error + ")");
    }
    // The listing says whether there is a .gitignore (no stat of one in every directory).
    bool pushed = !opts_.no_ignore && std::any_of(entries.begin(), entries.end(), [](const DirEntry& e) {
      return e.name == ".gitignore";
    }) && PushIgnoreFile(dir, stack);
    std::sort(entries.begin(), entries.end(), [](const DirEntry& a, const DirEntry& b) { return a.name < b.name; });
    if (full_) entries.clear();
    // This directory's paths: from its parent's (ChildPaths), else once a file in it is added.
    std::shared_ptr<const DirPaths> here = std::move(paths);
    for (const DirEntry& e : entries) {
      if (full_) break;
      // One configuration per scan root: one below it is not read, and says so.
      if ((e.name == ".sagelint.yaml" || e.name == ".sagelint.yml") && dir.native() != scan_root_) {
        out_.warnings.push_back(DisplayPath((dir / e.name).string()) +
                                " is not read: sagelint reads only the configuration at the scan root (" +
                                DisplayPath(scan_root_) + ") or --config");
      }
      const fs::path p = dir / e.name;
      bool link = e.link;
      fs::path target = p;
      if (link) {
        auto canonical = files_.Canonical(p.string());
        if (canonical ? !PathBelow(*canonical, scan_root_) : Outside(p.string(), scan_root_)) {
          // Nothing outside the repository is read; a file the scan would read is said to be unread.
          if (const FrontEnd* front_end = KeptFrontEnd(p, stack)) {
            NotRead(p, front_end,
                    "sagelint did not read this file: it is a symbolic link to a path outside the repository");
          }
          continue;
        }
        if (!canonical) continue;  // dangling or looping inside the repository: nothing to read
        target = *canonical;
      }
      // The entry's own type comes with the directory listing (no stat); a
      // link's target needs one.
      bool is_dir = link ? files_.IsDirectory(target.string()) : e.type == FileType::kDirectory;
      if (is_dir) {
        if (link) {
          // Inside the walked root a linked directory is walked where it
          // lives; elsewhere in the repository at its own path, once.
          if (!InsideRoot(target) && linked_dirs_.insert(target.string()).second &&
              EntersDirectory(target.parent_path(), target, stack)) {
            std::vector<IgnoreFile> none;
            ++via_link_;
            Walk(target, none, depth + 1);
            --via_link_;
          }
          continue;
        }
        // Reached through a link: what lies inside the walked root is walked there.
        if (via_link_ && InsideRoot(p)) continue;
        if (!EntersDirectory(dir, p, stack)) continue;
        Walk(p, stack, depth + 1, ChildPaths(dir, here, e.name));
        continue;
      }
      const FrontEnd* front_end = KeptFrontEnd(p, stack);
      if (!front_end) continue;
      if (!(link ? files_.IsRegularFile(target.string()) : e.type == FileType::kRegular)) {
        // A FIFO or a device with a scanned file's name is told, never opened.
        if ((link ? files_.Type(target.string()) : e.type) == FileType::kOther) {
          NotRead(p, front_end, "sagelint did not read this file: it is not a regular file");
        }
        continue;
      }
      // A linked file is the file it points to: scanned once, under its own name,
      // however many links lead to it.
      if (link) {
        AddFile(target, false, front_end, nullptr, true);
      } else if (via_link_) {
        if (!InsideRoot(p)) AddFile(p, false, front_end, nullptr, true);
      } else {
        AddFile(p, false, front_end, &here);
      }
    }
    if (pushed) stack.pop_back();
  }

  // Files reached through links, sent after the walk: once each, and not at
  // all when the walk also found the file where it lives.
  void SendLinked() {
    std::sort(linked_.begin(), linked_.end(),
              [](const DiscoveredFile& a, const DiscoveredFile& b) { return a.abs_path() < b.abs_path(); });
    for (size_t i = 0; i < linked_.size(); ++i) {
      if (i > 0 && linked_[i].abs_path() == linked_[i - 1].abs_path()) continue;
      if (WalkedWhereItLives(linked_[i].abs_path())) continue;
      (*sink_)(linked_[i]);
      ++out_.found;
    }
    linked_ = {};
  }

  // Whether the walk reached `file` (canonical, inside the root) through its
  // own directories and kept it: the walk's decisions replayed along its path.
  bool WalkedWhereItLives(const fs::path& file) {
    std::vector<IgnoreFile> stack = root_stack_;
    fs::path dir = root_;
    if (!opts_.no_ignore) PushIgnoreFile(dir, stack, false);
    fs::path rel = file.lexically_relative(root_);
    if (rel.empty() || *rel.begin() == "..") return false;
    int depth = 0;
    for (auto it = rel.begin(); it != rel.end(); ++it) {
      fs::path p = dir / *it;
      if (std::next(it) == rel.end()) return KeepsFile(p, stack);
      if (!EntersDirectory(dir, p, stack) || ++depth > kMaxDepth) return false;
      dir = p;
      if (!opts_.no_ignore) PushIgnoreFile(dir, stack, false);
    }
    return false;
  }

  // Whether `path`, its links followed (a dangling one too), lies outside `root`.
  bool Outside(const std::string& path, const std::string& root) const {
    if (tree_) return tree_->Outside(path, root);
    std::optional<std::string> resolved = files_.WeaklyCanonical(path);
    return resolved && !PathBelow(*resolved, root);
  }

  const DiscoverOptions& opts_;
  const FileSource& files_;
  const GitTreeFiles* tree_;  // when files_ is a revision's tree
  DiscoverResult& out_;
  const std::function<void(DiscoveredFile)>* sink_;
  fs::path root_;
  std::string scan_root_;
  std::vector<IgnoreFile> root_stack_;  // the ignore files that apply above the root
  std::vector<DiscoveredFile> linked_;
  std::map<std::string, std::optional<GitListing>> listings_;  // by scan root
  const GitListing* git_ = nullptr;                            // the scan root's, in a git work tree
  std::set<std::string> linked_dirs_;  // directories outside the walked root walked through a link
  int via_link_ = 0;                   // walking such a directory
  std::set<std::string> not_read_;     // NotRead's paths
  bool full_ = false;                  // Full() said so
};

}  // namespace

std::string ScanRootOf(const std::string& path, const FileSource& files) {
  std::error_code ec;
  fs::path p = files.WeaklyCanonical(fs::absolute(path, ec).string()).value_or("");
  fs::path dir = files.IsDirectory(p.string()) ? p : p.parent_path();
  for (fs::path d = dir; !d.empty(); d = d.parent_path()) {
    // `.git` is a directory in a clone and a file in a worktree or submodule.
    if (files.Exists((d / ".git").string())) return d.string();
    if (d == d.parent_path()) break;
  }
  return dir.string();
}

std::string RootRelativePath(const std::string& abs, const std::string& root, const FileSource& files) {
  if (root.empty()) return DisplayPath(abs);
  if (auto rel = PathBelow(fs::path(abs).lexically_normal().string(), root)) return *rel;
  // Not lexically under the (canonical) root: compare canonical forms.
  std::error_code ec;
  std::string c = files.WeaklyCanonical(fs::absolute(abs, ec).string()).value_or("");
  return PathBelow(c, root).value_or(DisplayPath(abs));
}

DiscoveredFile DescribeFile(const std::string& abs_path, const std::string& root, bool named,
                            std::shared_ptr<const DirPaths>* dir, const FileSource& files,
                            std::optional<const FrontEnd*> front_end) {
  DiscoveredFile f;
  f.front_end = front_end ? *front_end : FrontEndForPath(abs_path);
  f.named = named;
  std::string_view name = std::string_view(abs_path).substr(abs_path.rfind('/') + 1);
  std::string_view prefix = std::string_view(abs_path).substr(0, abs_path.size() - name.size());
  if (dir && *dir && !name.empty() && (*dir)->abs_path == prefix && (*dir)->root == root) {
    // Another file of a directory whose paths were shown to lead to its files' (below).
    f.dir = *dir;
    f.name = name;
    return f;
  }
  std::string display = DisplayPath(abs_path);
  std::string root_path = RootRelativePath(abs_path, root, files);
  std::shared_ptr<const DirPaths> shared = DirPathsOf(prefix, root, files);
  // The directory's paths lead to the file's in the common case only: a path
  // through a link, or outside the root, keeps its own.
  if (!name.empty() && IsJoin(display, shared->display, name) && IsJoin(root_path, shared->root_path, name)) {
    f.dir = shared;
    f.name = name;
    if (dir) *dir = std::move(shared);
  } else {
    f.dir = std::make_shared<const DirPaths>(DirPaths{abs_path, std::move(display), std::move(root_path), root});
  }
  return f;
}

bool DiscoveredFile::in_module() const { return front_end && front_end->reads_modules(); }

namespace {

// The git work tree (canonical) that the path `p` lies in as written, found
// without following a link on the way up — a link's target never becomes the
// repository; nullopt outside any work tree.
std::optional<std::string> WorkTreeAsWritten(const fs::path& p, const FileSource& files) {
  for (fs::path d = p;; d = d.parent_path()) {
    std::optional<std::string> real = files.Canonical(d.string());
    std::optional<std::string> up = files.Canonical(d.parent_path().string());
    bool link = d.has_relative_path() && real && up && fs::path(*real) != fs::path(*up) / d.filename();
    if (real && !link && files.IsDirectory(*real) && files.Exists(*real + "/.git")) return real;
    if (d == d.parent_path()) return std::nullopt;
  }
}

}  // namespace

DiscoverResult Discover(const std::vector<std::string>& paths, const DiscoverOptions& opts) {
  DiscoverResult out;
  Walker walker(opts, out);
  for (const std::string& given : paths) {
    std::error_code ec;
    fs::path p = fs::absolute(given, ec).lexically_normal();
    FileType type = opts.files->Type(p.string());
    if (type == FileType::kNone) {
      out.missing.push_back(given);
      continue;
    }
    // A named path that is (or goes through) a link out of the repository it
    // is named in is not read, as a link met by the walk (docs/security.md).
    if (std::optional<std::string> repo = WorkTreeAsWritten(p, *opts.files)) {
      std::optional<std::string> real = opts.files->Canonical(p.string());
      if (real && !PathBelow(*real, *repo)) {
        bool dir = type == FileType::kDirectory;
        out.not_scanned.push_back({DisplayPath(p.string()), RootRelativePath(p.string(), *repo, *opts.files),
                                   dir ? nullptr : FrontEndForPath(p.string()),
                                   std::string("sagelint did not read this ") + (dir ? "directory" : "file") +
                                       ": it is a symbolic link to a path outside the repository"});
        continue;
      }
    }
    if (type == FileType::kDirectory) {
      walker.WalkRoot(p, given);
    } else if (!walker.Excluded(p)) {
      // `exclude:` applies to a named file too: pre-commit names the files it passes.
      walker.AddFile(p, true);
    }
  }
  size_t listed = out.files.size();
  SortAndDeduplicate(out.files);
  // A file named through a link is the file it points to: named twice (by
  // its own path and a link's, or walked and named), it is scanned once,
  // under the path that sorts first.
  if (std::any_of(out.files.begin(), out.files.end(), [](const DiscoveredFile& f) { return f.named; })) {
    std::set<std::string> seen;
    std::vector<DiscoveredFile> once;
    for (DiscoveredFile& f : out.files) {
      std::string abs = f.abs_path();
      if (seen.insert(opts.files->Canonical(abs).value_or(abs)).second) once.push_back(std::move(f));
    }
    out.files = std::move(once);
  }
  out.found -= static_cast<int>(listed - out.files.size());
  return out;
}

void SortAndDeduplicate(std::vector<DiscoveredFile>& files) {
  std::sort(files.begin(), files.end(), [](const DiscoveredFile& a, const DiscoveredFile& b) {
    return CompareJoined(a.dir->display, a.name, b.dir->display, b.name) < 0;
  });
  files.erase(std::unique(files.begin(), files.end(),
                          [](const DiscoveredFile& a, const DiscoveredFile& b) {
                            return CompareJoined(a.dir->abs_path, a.name, b.dir->abs_path, b.name) == 0;
                          }),
              files.end());
  files.shrink_to_fit();
}

DiscoverResult DiscoverDirectory(const std::string& dir, const DiscoverOptions& opts,
                                 const std::function<void(DiscoveredFile)>& sink) {
  DiscoverResult out;
  Walker walker(opts, out, &sink);
  std::error_code ec;
  walker.WalkRoot(fs::absolute(dir, ec).lexically_normal(), dir);
  return out;
}

}  // namespace sagelint
