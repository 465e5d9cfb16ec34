#include "linter/merge/identity.h"

#include <filesystem>
#include <vector>

#include "linter/base/process.h"
#include "linter/base/strings.h"

namespace sagelint {
namespace {

// Git's standard output, trimmed; empty when git fails.
std::string GitOut(const std::string& dir, std::vector<std::string> args) {
  std::vector<std::string> argv = {"git", "--no-optional-locks", "-C", dir};
  argv.insert(argv.end(), args.begin(), args.end());
  std::string out, error;
  ProcessResult r;
  if (!RunProcess(argv, &out, &r, &error) || r.exit_status != 0) return "";
  return Trim(out);
}

}  // namespace

std::string RepositoryNameFromRemote(std::string_view url) {
  std::string_view path = url;
  if (size_t scheme = path.find("://"); scheme != std::string_view::npos) {
    // scheme://[user[:password]@]host[:port]/path
    path.remove_prefix(scheme + 3);
    size_t slash = path.find('/');
    path = slash == std::string_view::npos ? std::string_view() : path.substr(slash);
  } else if (size_t colon = path.find(':'); colon != std::string_view::npos && path.find('/') > colon) {
    // [user@]host:path, git's scp-like syntax
    path.remove_prefix(colon + 1);
  }
  path = path.substr(0, std::min(path.find('?'), path.find('#')));
  std::vector<std::string> segments;
  for (const std::string& s : SplitList(path, '/')) {
    if (!s.empty() && s != "." && s != "..") segments.push_back(s);
  }
  if (segments.empty()) return "";
  std::string& last = segments.back();
  if (EndsWithNoCase(last, ".git")) last.resize(last.size() - 4);
  if (last.empty()) segments.pop_back();
  if (segments.empty()) return "";
  if (segments.size() == 1) return segments.back();
  return segments[segments.size() - 2] + "/" + segments.back();
}

ReportIdentity IdentityOf(const std::string& root) {
  ReportIdentity id;
  std::string top = GitOut(root, {"rev-parse", "--show-toplevel"});
  if (!top.empty()) {
    std::string remotes = GitOut(top, {"remote"});
    std::vector<std::string> names = SplitList(remotes, '\n');
    std::string remote;
    for (const std::string& n : names) {
      if (Trim(n) == "origin") remote = "origin";
    }
    if (remote.empty() && !names.empty()) remote = Trim(names.front());
    if (!remote.empty()) id.name = RepositoryNameFromRemote(GitOut(top, {"remote", "get-url", "--", remote}));
    id.commit = GitOut(top, {"rev-parse", "--verify", "--quiet", "HEAD^{commit}"});
  }
  if (id.name.empty()) {
    std::filesystem::path p = std::filesystem::path(root).lexically_normal();
    if (p.has_filename()) {
      id.name = p.filename().string();
    } else {
      id.name = p.parent_path().filename().string();
    }
  }
  return id;
}

}  // namespace sagelint
