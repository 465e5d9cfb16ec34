// Glob matching as .gitignore and `exclude:` use it: `*`, `?` and `[…]` within
// one segment, `**` over any run of segments, empty segments not counted.
#include <string>

#include "linter/base/strings.h"
#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("glob matching: segments, stars and double stars") {
  struct Case {
    const char* pattern;
    const char* path;
    bool match;
  };
  const Case cases[] = {
      {"*.py", "setup.py", true},
      {"*.py", "src/setup.py", false},  // `*` stays inside one segment
      {"?.tf", "a.tf", true},
      {"?.tf", "ab.tf", false},
      {"[ab].yaml", "b.yaml", true},
      {"[!ab].yaml", "b.yaml", false},
      {"build", "build", true},
      {"**/b", "b", true},
      {"**/b", "x/y/b", true},
      {"**/b", "x/y/b/c", false},
      {"a/**", "a/x/y", true},
      {"a/**", "a", true},
      {"a/**/b", "a/b", true},
      {"a/**/b", "a/x/y/b", true},
      {"a/**/b", "a/x/y/c", false},
      {"a//b", "a/b", true},  // empty segments do not count, in patterns or paths
      {"/a/b", "a//b", true},
      {"**/**/**/b", "x/b", true},
      {"a/*/c", "a/b/c", true},
      {"a/*/c", "a/c", false},
      {"", "", true},
      {"a", "", false},
  };
  for (const Case& c : cases) {
    INFO(c.pattern << " ~ " << c.path);
    CHECK(GlobMatch(c.pattern, c.path) == c.match);
  }
}

TEST_CASE("glob matching: many double stars against a 40-deep path") {
  std::string path;
  for (int i = 0; i < 40; ++i) path += "d/";
  path += "x";
  CHECK_FALSE(GlobMatch("**/**/**/**/**/**/**/**/**/b", path));
  CHECK(GlobMatch("**/**/**/**/**/**/**/**/**/x", path));
}
