#include "linter/engine/git.h"

#include <filesystem>
#include <fstream>
#include <string_view>
#include <vector>

#include "linter/base/process.h"

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

// A tree path git would write: relative, no "." or ".." component.
bool SafeTreePath(std::string_view p) {
  if (p.empty() || p.front() == '/') return false;
  size_t start = 0;
  while (start <= p.size()) {
    size_t end = p.find('/', start);
    std::string_view part = p.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
    if (part.empty() || part == "." || part == ".." || part == ".git") return false;
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return true;
}

struct Entry {
  std::string mode;
  std::string sha;
  std::string path;
};

// Consumes `git cat-file --batch` output: "<sha> <type> <size>\n<content>\n"
// or "<sha> missing\n", one record per requested entry, in order.
class BatchWriter {
 public:
  BatchWriter(const std::vector<Entry>& entries, const fs::path& out, std::uint64_t max_bytes, MaterializeStats* stats)
      : entries_(entries), out_(out), max_bytes_(max_bytes), stats_(stats) {}

  bool Feed(std::string_view chunk) {
    while (!chunk.empty() && ok_) {
      if (remaining_ == 0 && !in_content_) {
        size_t nl = chunk.find('\n');
        header_.append(chunk.substr(0, nl));
        if (nl == std::string_view::npos) return true;
        chunk.remove_prefix(nl + 1);
        StartRecord();
        header_.clear();
        continue;
      }
      size_t take = static_cast<size_t>(std::min<std::uint64_t>(remaining_, chunk.size()));
      if (take > 0) {
        if (file_) file_.write(chunk.data(), static_cast<std::streamsize>(take));
        if (link_) link_target_.append(chunk.substr(0, take));
        remaining_ -= take;
        chunk.remove_prefix(take);
      }
      if (remaining_ == 0 && in_content_ && !chunk.empty()) {
        chunk.remove_prefix(1);  // the newline after the content
        FinishRecord();
      }
    }
    return ok_;
  }

  bool ok() const { return ok_ && next_ == entries_.size(); }
  const std::string& error() const { return error_; }

 private:
  void StartRecord() {
    if (next_ >= entries_.size()) {
      Fail("git cat-file returned more objects than asked for");
      return;
    }
    const Entry& e = entries_[next_];
    if (header_.size() >= 8 && header_.compare(header_.size() - 8, 8, " missing") == 0) {
      ++next_;  // an object the repository lacks (a partial clone): the file is left out
      return;
    }
    size_t sp = header_.rfind(' ');
    remaining_ = sp == std::string::npos ? 0 : std::stoull(header_.substr(sp + 1));
    in_content_ = true;
    fs::path target = out_ / e.path;
    std::error_code ec;
    fs::create_directories(target.parent_path(), ec);
    link_ = e.mode == "120000";
    link_target_.clear();
    if (!link_ && remaining_ <= max_bytes_) {
      file_.open(target, std::ios::binary | std::ios::trunc);
      if (!file_) Fail("cannot write " + target.string());
    } else if (!link_) {
      ++stats_->skipped_large;
    }
  }

  void FinishRecord() {
    const Entry& e = entries_[next_++];
    in_content_ = false;
    if (file_.is_open()) {
      file_.close();
      if (!file_) Fail("cannot write " + (out_ / e.path).string());
      if (e.mode == "100755") {
        std::error_code ec;
        fs::permissions(out_ / e.path, fs::perms::owner_exec, fs::perm_options::add, ec);
      }
      ++stats_->files;
    } else if (link_) {
      std::error_code ec;
      fs::create_symlink(link_target_, out_ / e.path, ec);
      if (!ec) ++stats_->files;
    }
    file_.clear();
  }

  void Fail(std::string message) {
    ok_ = false;
    if (error_.empty()) error_ = std::move(message);
  }

  const std::vector<Entry>& entries_;
  fs::path out_;
  std::uint64_t max_bytes_;
  MaterializeStats* stats_;
  size_t next_ = 0;
  std::string header_;
  std::uint64_t remaining_ = 0;
  bool in_content_ = false;
  bool link_ = false;
  std::string link_target_;
  std::ofstream file_;
  bool ok_ = true;
  std::string error_;
};

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

bool GitMaterialize(const std::string& top, const std::string& commit, const std::string& out_dir,
                    std::uint64_t max_file_bytes, MaterializeStats* stats, std::string* error) {
  std::string listing;
  if (!RunGit(Git(top, {"ls-tree", "-r", "-z", "--full-tree", commit}), &listing, error)) return false;
  std::vector<Entry> entries;
  std::string request;
  size_t pos = 0;
  while (pos < listing.size()) {
    size_t end = listing.find('\0', pos);
    if (end == std::string::npos) end = listing.size();
    std::string_view rec(listing.data() + pos, end - pos);
    pos = end + 1;
    // "<mode> SP <type> SP <object> TAB <path>"
    size_t tab = rec.find('\t');
    size_t sp1 = rec.find(' ');
    size_t sp2 = sp1 == std::string_view::npos ? sp1 : rec.find(' ', sp1 + 1);
    if (tab == std::string_view::npos || sp2 == std::string_view::npos || sp2 > tab) continue;
    std::string_view mode = rec.substr(0, sp1), type = rec.substr(sp1 + 1, sp2 - sp1 - 1);
    std::string_view path = rec.substr(tab + 1);
    if (type != "blob" || !SafeTreePath(path)) continue;
    if (mode != "100644" && mode != "100755" && mode != "120000") continue;
    entries.push_back({std::string(mode), std::string(rec.substr(sp2 + 1, tab - sp2 - 1)), std::string(path)});
    request += entries.back().sha + "\n";
  }
  BatchWriter writer(entries, out_dir, max_file_bytes, stats);
  ProcessResult r;
  if (!RunProcess(
          Git(top, {"cat-file", "--batch"}), request, [&](std::string_view chunk) { return writer.Feed(chunk); }, &r,
          error)) {
    return false;
  }
  if (!writer.ok()) {
    *error = writer.error().empty() ? "git cat-file did not return every object" : writer.error();
    return false;
  }
  if (r.exit_status != 0) {
    *error = "git cat-file exited with status " + std::to_string(r.exit_status);
    return false;
  }
  return true;
}

bool GitRenames(const std::string& top, const std::string& commit, std::map<std::string, std::string>* renames,
                std::string* error) {
  std::string out;
  if (!RunGit(Git(top, {"diff", "-M", "--name-status", "-z", "--no-ext-diff", commit, "--"}), &out, error)) {
    return false;
  }
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

}  // namespace sagelint
