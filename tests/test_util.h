// Helpers shared by the tests.
#ifndef SAGELINT_TESTS_TEST_UTIL_H_
#define SAGELINT_TESTS_TEST_UTIL_H_

#include <nlohmann/json.hpp>
#include <string>

namespace sagelint::testing {

// The XDG_CACHE_HOME the tests run with: a directory of this test process,
// never the user's cache.
std::string TestCacheHome();

// Absolute path of a file in the source tree ("fixtures/x.yaml").
std::string SourcePath(const std::string& rel);
std::string ReadFileOrDie(const std::string& abs_path);
// Compares `actual` with the golden file at `rel` (under the source tree);
// with UPDATE_SNAPSHOTS=1 in the environment, rewrites it instead. Returns an
// empty string on a match, else a unified-style description of the first difference.
std::string CompareGolden(const std::string& rel, const std::string& actual);

struct CommandResult {
  int status = -1;
  std::string out;
  std::string err;
};
// The sagelint binary the tests run: the one built beside them, or
// $SAGELINT_TEST_BINARY (to run the same checks against another build).
std::string Binary();
// Runs the sagelint binary with `args` (a shell-quoted string) in `cwd`;
// `prefix` goes before the command (shell words: `NAME=value`, or `ulimit -f 1024 &&`).
CommandResult RunSagelint(const std::string& args, const std::string& cwd = "", const std::string& prefix = "");
// Runs `command` with the shell; its standard output, or throws when it fails.
std::string ShellOut(const std::string& command);

// True when this build runs under AddressSanitizer. Its shadow memory reserves
// terabytes of address space (`ulimit -v` stops such a binary before main) and
// its redzones and quarantine multiply memory use, so tests of memory bounds
// keep their other checks and leave the bound out.
bool Sanitized();
// "ulimit -v KIB && " for RunSagelint's prefix; empty under a sanitizer.
std::string AddressSpaceLimit(long kib);
// Runs `command` with the shell in a child process and returns its peak
// resident memory in KiB (earlier runs do not count); its wait status in *status.
long PeakRssKib(const std::string& command, int* status);

// A scratch directory with files, removed when it goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  void Write(const std::string& rel, const std::string& text) const;
  std::string path() const;

 private:
  std::string dir_;
};

// A git repository in a scratch directory (git's identity set, no signing).
class GitRepo {
 public:
  GitRepo();
  void Write(const std::string& rel, const std::string& text) const { dir_.Write(rel, text); }
  // Runs `git -C REPO ARGS` (ARGS shell-quoted); throws when it fails. Its standard output, trimmed.
  std::string Git(const std::string& args) const;
  void Commit(const std::string& message) const;
  std::string path() const { return dir_.path(); }

 private:
  TempDir dir_;
};

// A CloudFormation template declaring one notebook instance.
std::string NotebookTemplate(const std::string& name = "Explore", const std::string& instance_type = "ml.t3.xlarge");
// `text` as JSON; throws (failing the test) when it is not JSON.
nlohmann::json ParseJson(const std::string& text);

// A YAML "billion laughs": ten levels of ten aliases each.
std::string AliasBomb();

}  // namespace sagelint::testing

#endif  // SAGELINT_TESTS_TEST_UTIL_H_
