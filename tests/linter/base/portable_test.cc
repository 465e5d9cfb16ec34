// linter/base/portable: the same answers from the platform's functions and from
// the fallbacks (-DSAGELINT_POSIX_FALLBACKS=ON runs these with the fallbacks).
#include "linter/base/portable.h"

#include <fcntl.h>
#include <unistd.h>

#include <clocale>

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

}  // namespace
}  // namespace sagelint
