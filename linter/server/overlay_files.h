// The files an editor has open, over the disk: a scan from the editor server
// reads an unsaved buffer's text where the file is, and every other file
// (a Terraform module's siblings, a notebook's directory, the configuration)
// from the disk as a scan from the command line would (README.md, "Editors").
#ifndef SAGELINT_LINTER_SERVER_OVERLAY_FILES_H_
#define SAGELINT_LINTER_SERVER_OVERLAY_FILES_H_

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "linter/base/file_source.h"

namespace sagelint {

class OverlayFiles final : public FileSource {
 public:
  // `path` absolute; relative paths given to the reads are taken from the working directory.
  void Set(const std::string& path, std::shared_ptr<const std::string> text);
  void Remove(const std::string& path);
  size_t size() const { return texts_.size(); }

  bool Read(const std::string& path, size_t max_bytes, std::string* out, std::string* error) const override;
  FileType Type(const std::string& path) const override;
  bool List(const std::string& dir, std::vector<DirEntry>* out, std::string* error) const override;
  std::optional<std::string> Canonical(const std::string& path) const override;
  std::optional<std::string> WeaklyCanonical(const std::string& path) const override;
  std::optional<std::uintmax_t> FileSize(const std::string& path) const override;

 private:
  const std::string* Find(const std::string& path) const;
  std::map<std::string, std::shared_ptr<const std::string>> texts_;  // by absolute normal path
};

// `path` absolute (against the working directory) and lexically normal.
std::string AbsoluteNormal(const std::string& path);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_SERVER_OVERLAY_FILES_H_
