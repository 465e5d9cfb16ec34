// Helpers shared by the tests.
#ifndef SAGELINT_TESTS_TEST_UTIL_H_
#define SAGELINT_TESTS_TEST_UTIL_H_

#include <string>

namespace sagelint::testing {

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
// Runs the sagelint binary with `args` (a shell-quoted string) in `cwd`.
CommandResult RunSagelint(const std::string& args, const std::string& cwd = "");

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

// A YAML "billion laughs": ten levels of ten aliases each.
std::string AliasBomb();

}  // namespace sagelint::testing

#endif  // SAGELINT_TESTS_TEST_UTIL_H_
