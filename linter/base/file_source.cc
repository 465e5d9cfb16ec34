#include "linter/base/file_source.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <filesystem>
#include <string_view>
#include <system_error>

#include "linter/base/files.h"
#include "linter/base/paths.h"
#include "linter/base/portable.h"

namespace sagelint {
namespace fs = std::filesystem;

namespace {

FileType TypeOf(const fs::file_status& s) {
  switch (s.type()) {
    case fs::file_type::not_found:
    case fs::file_type::none:
    case fs::file_type::unknown:
      return FileType::kNone;
    case fs::file_type::regular:
      return FileType::kRegular;
    case fs::file_type::directory:
      return FileType::kDirectory;
    default:
      return FileType::kOther;
  }
}

class Disk final : public FileSource {
 public:
  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override {
    return ReadFileCapped(path, max_bytes, out, error);
  }

  FileType Type(const std::string& path) const override {
    std::error_code ec;
    fs::file_status s = fs::status(path, ec);
    return ec ? FileType::kNone : TypeOf(s);
  }

  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override {
    // The entry's own type comes with the listing (d_type): no stat, and no
    // lookup of the whole path. A link's target needs one, relative to the
    // directory, as does an entry of a file system that gives no type.
    auto type_at = [](int fd, const char* name, int flags) {
      struct stat st;
      if (::fstatat(fd, name, &st, flags) != 0) return FileType::kNone;
      if (S_ISREG(st.st_mode)) return FileType::kRegular;
      if (S_ISDIR(st.st_mode)) return FileType::kDirectory;
      return S_ISLNK(st.st_mode) ? FileType::kNone : FileType::kOther;
    };
    bool listed = ListDirectory(dir.c_str(), [&](int fd, const char* d_name, unsigned char t) {
      std::string_view name = d_name;
      if (name == "." || name == "..") return;
      DirEntry e;
      e.name = name;
      if (t == DT_UNKNOWN) {
        struct stat st;
        if (::fstatat(fd, d_name, &st, AT_SYMLINK_NOFOLLOW) == 0) {
          t = S_ISLNK(st.st_mode) ? DT_LNK : S_ISREG(st.st_mode) ? DT_REG : S_ISDIR(st.st_mode) ? DT_DIR : DT_FIFO;
        }
      }
      e.link = t == DT_LNK;
      switch (t) {
        case DT_REG:
          e.type = FileType::kRegular;
          break;
        case DT_DIR:
          e.type = FileType::kDirectory;
          break;
        case DT_LNK:
          e.type = type_at(fd, d_name, 0);
          break;
        case DT_UNKNOWN:
          e.type = FileType::kNone;  // gone since it was listed
          break;
        default:
          e.type = FileType::kOther;
      }
      out->push_back(std::move(e));
    });
    if (!listed) {
      if (errno == EACCES) return true;  // a directory the user may not list: no entries
      *error = std::error_code(errno, std::generic_category()).message();
      return false;
    }
    return true;
  }

  std::optional<std::string> Canonical(const std::string& path) const override {
    std::error_code ec;
    fs::path c = fs::canonical(path, ec);
    if (ec) return std::nullopt;
    return c.string();
  }

  // Every link on the way is followed, a dangling one too (weakly_canonical
  // leaves a link whose target does not exist unresolved, which would let a
  // link inside the root name a file outside it).
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override {
    std::error_code ec;
    fs::path p = fs::absolute(path, ec);
    if (ec) return std::nullopt;
    for (int hops = 0; hops <= 40; ++hops) {
      fs::path done = p.root_path();
      bool followed = false;
      for (auto it = p.begin(); it != p.end() && !followed; ++it) {
        if (it->empty() || *it == p.root_name() || *it == p.root_directory() || *it == ".") continue;
        if (*it == "..") {
          done = done.parent_path();
          continue;
        }
        done /= *it;
        if (!fs::is_symlink(fs::symlink_status(done, ec))) continue;
        fs::path target = fs::read_symlink(done, ec);
        if (ec) return std::nullopt;
        fs::path next = target.is_absolute() ? target : done.parent_path() / target;
        for (auto rest = std::next(it); rest != p.end(); ++rest) next /= *rest;
        p = next;
        followed = true;
      }
      if (!followed) return done.lexically_normal().string();
    }
    return std::nullopt;  // a loop of links
  }

  std::optional<std::uintmax_t> FileSize(const std::string& path) const override {
    std::error_code ec;
    std::uintmax_t n = fs::file_size(path, ec);
    if (ec) return std::nullopt;
    return n;
  }
};

}  // namespace

const FileSource& DiskFiles() {
  static const Disk disk;
  return disk;
}

std::optional<std::string> ResolveInside(const FileSource& files, const std::string& path, const std::string& root) {
  std::error_code ec;
  auto c = files.WeaklyCanonical(fs::absolute(path, ec).lexically_normal().string());
  auto r = files.WeaklyCanonical(fs::absolute(root, ec).lexically_normal().string());
  if (!c || !r || !PathBelow(*c, *r)) return std::nullopt;
  return c;
}

}  // namespace sagelint
