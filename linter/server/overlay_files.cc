#include "linter/server/overlay_files.h"

#include <filesystem>
#include <system_error>

namespace sagelint {
namespace fs = std::filesystem;

std::string AbsoluteNormal(const std::string& path) {
  std::error_code ec;
  fs::path p = fs::absolute(fs::path(path), ec);
  if (ec) p = fs::path(path);
  return p.lexically_normal().string();
}

void OverlayFiles::Set(const std::string& path, std::shared_ptr<const std::string> text) {
  texts_[AbsoluteNormal(path)] = std::move(text);
}

void OverlayFiles::Remove(const std::string& path) { texts_.erase(AbsoluteNormal(path)); }

const std::string* OverlayFiles::Find(const std::string& path) const {
  if (texts_.empty()) return nullptr;
  auto it = texts_.find(AbsoluteNormal(path));
  return it == texts_.end() ? nullptr : it->second.get();
}

bool OverlayFiles::Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const {
  const std::string* text = Find(path);
  if (!text) return DiskFiles().Read(path, max_bytes, out, error);
  if (text->size() > max_bytes) {
    *error = "larger than " + std::to_string(max_bytes) + " bytes";
    return false;
  }
  *out = *text;
  return true;
}

FileType OverlayFiles::Type(const std::string& path) const {
  return Find(path) ? FileType::kRegular : DiskFiles().Type(path);
}

bool OverlayFiles::List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const {
  size_t before = out->size();
  bool listed = DiskFiles().List(dir, out, error);
  // A buffer not yet saved is a file of its directory too.
  std::string prefix = AbsoluteNormal(dir);
  if (!prefix.empty() && prefix.back() != '/') prefix += '/';
  for (auto it = texts_.lower_bound(prefix); it != texts_.end() && it->first.starts_with(prefix); ++it) {
    std::string name = it->first.substr(prefix.size());
    if (name.find('/') != std::string::npos) continue;
    bool known = false;
    for (size_t i = before; i < out->size() && !known; ++i) known = (*out)[i].name == name;
    if (!known) out->push_back({name, false, FileType::kRegular});
    listed = true;
  }
  return listed;
}

std::optional<std::string> OverlayFiles::Canonical(const std::string& path) const {
  if (auto c = DiskFiles().Canonical(path)) return c;
  if (Find(path)) return DiskFiles().WeaklyCanonical(path);
  return std::nullopt;
}

std::optional<std::string> OverlayFiles::WeaklyCanonical(const std::string& path) const {
  return DiskFiles().WeaklyCanonical(path);
}

std::optional<std::uintmax_t> OverlayFiles::FileSize(const std::string& path) const {
  const std::string* text = Find(path);
  if (!text) return DiskFiles().FileSize(path);
  return text->size();
}

}  // namespace sagelint
