// Which repository and revision a scan report describes (`report_name`,
// `commit` of the scan JSON; docs/organisation.md).
#ifndef SAGELINT_LINTER_MERGE_IDENTITY_H_
#define SAGELINT_LINTER_MERGE_IDENTITY_H_

#include <string>
#include <string_view>

namespace sagelint {

struct ReportIdentity {
  std::string name;    // owner/name from the git remote, else the directory's name
  std::string commit;  // HEAD of the git work tree; empty outside git or before the first commit
};

// "owner/name" of a git remote URL (https://user:token@host/owner/name.git,
// git@host:owner/name.git, ssh://host:22/owner/name, a local path): its last
// two path segments without ".git". Whatever precedes the path (a scheme,
// user name, password or token, host, port) is dropped, and so are a query and
// a fragment. Empty when the URL has no path.
std::string RepositoryNameFromRemote(std::string_view url);

// The identity of the repository at `root` (a scan root): its remote
// `origin` (else its first remote), else the last segment of `root`.
ReportIdentity IdentityOf(const std::string& root);

}  // namespace sagelint

#endif  // SAGELINT_LINTER_MERGE_IDENTITY_H_
