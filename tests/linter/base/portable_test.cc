// linter/base/portable: the same answers from the platform's functions and from
// the fallbacks (-DSAGELINT_POSIX_FALLBACKS=ON runs these with the fallbacks).
#include "linter/base/portable.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <clocale>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "tests/catch.h"

namespace sagelint {
namespace {

TEST_CASE("ParseDouble reads what from_chars reads, in any locale", "[portable]") {
  CHECK(ParseDouble("0") == 0.0);
  CHECK(ParseDouble("42") == 42.0);
  CHECK(ParseDouble("-1.5") == -1.5);
  CHECK(ParseDouble("3.825") == 3.825);
  CHECK(ParseDouble(".5") == 0.5);
  CHECK(ParseDouble("5.") == 5.0);
  CHECK(ParseDouble("1e3") == 1000.0);
  CHECK(ParseDouble("2.5E-2") == 0.025);
  CHECK(ParseDouble("1e+2") == 100.0);
  for (const char* bad : {"", "-", ".", "e3", "1e", "1e+", "1,5", " 1", "1 ", "+1", "1.2.3", "0x10", "abc", "1x"}) {
    INFO(bad);
    CHECK_FALSE(ParseDouble(bad).has_value());
  }
  // A locale whose decimal separator is a comma changes nothing.
  if (std::setlocale(LC_NUMERIC, "de_DE.UTF-8") != nullptr) {
    CHECK(ParseDouble("1.5") == 1.5);
    CHECK_FALSE(ParseDouble("1,5").has_value());
    std::setlocale(LC_NUMERIC, "C");
  }
}

TEST_CASE("MakeCloseOnExecPipe gives two ends closed on exec", "[portable]") {
  int fds[2];
  REQUIRE(MakeCloseOnExecPipe(fds));
  for (int fd : fds) CHECK((::fcntl(fd, F_GETFD) & FD_CLOEXEC) != 0);
  CHECK(::write(fds[1], "x", 1) == 1);
  char c = 0;
  CHECK(::read(fds[0], &c, 1) == 1);
  CHECK(c == 'x');
  ::close(fds[0]);
  ::close(fds[1]);
  ReleaseFreedMemory();  // callable everywhere; nothing to observe
}

TEST_CASE("ListDirectory gives every entry with its type, and the directory to stat them from", "[portable]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("sagelint-list-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  std::ofstream(dir / "file.txt") << "x";
  fs::create_symlink("file.txt", dir / "link");
  // Many entries: more than one buffer of them.
  for (int i = 0; i < 600; ++i) std::ofstream(dir / ("entry-with-a-long-name-" + std::to_string(i) + ".py")) << "";
  std::map<std::string, unsigned char> seen;
  bool listed = ListDirectory(dir.c_str(), [&](int fd, const char* name, unsigned char type) {
    struct stat st;
    CHECK(::fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0);
    CHECK(seen.emplace(name, type).second);
  });
  CHECK(listed);
  CHECK(seen.size() == 605);  // ".", "..", sub, file.txt, link and the 600
  for (const char* name : {".", "..", "sub", "file.txt", "link"}) CHECK(seen.count(name) == 1);
  // A file system may give no type (DT_UNKNOWN); where it gives one, it is the entry's own.
  if (seen["sub"] != DT_UNKNOWN) {
    CHECK(seen["sub"] == DT_DIR);
    CHECK(seen["file.txt"] == DT_REG);
    CHECK(seen["link"] == DT_LNK);
  }
  errno = 0;
  CHECK_FALSE(ListDirectory((dir / "missing").c_str(), [](int, const char*, unsigned char) { FAIL("no entry"); }));
  CHECK(errno == ENOENT);
  CHECK_FALSE(ListDirectory((dir / "file.txt").c_str(), [](int, const char*, unsigned char) { FAIL("no entry"); }));
  CHECK(errno == ENOTDIR);
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sagelint
