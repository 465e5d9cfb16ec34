// Text from scanned files made safe to emit, globs in linear time, and the
// bounded readers and atomic writers every file access goes through.
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "linter/base/files.h"
#include "linter/base/strings.h"
#include "linter/base/yaml_keys.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;

TEST_CASE("ValidUtf8 replaces each ill-formed subpart by one U+FFFD and keeps valid text", "[adversarial][text]") {
  const std::string r = "\xEF\xBF\xBD";
  CHECK(ValidUtf8("Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80") == "Caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80");
  CHECK(ValidUtf8("Caf\xE9") == "Caf" + r);               // Latin-1
  CHECK(ValidUtf8("a\xE2\x82z") == "a" + r + "z");        // truncated 3-byte sequence: one replacement
  CHECK(ValidUtf8("\xC0\xAF") == r + r);                  // overlong: no valid prefix
  CHECK(ValidUtf8("\xED\xA0\x80") == r + r + r);          // surrogate
  CHECK(ValidUtf8("\xF4\x90\x80\x80") == r + r + r + r);  // beyond U+10FFFF
  CHECK(ValidUtf8("\xF0\x9F\x98") == r);                  // truncated at the end
  CHECK(ValidUtf8(std::string("a\0b", 3)) == std::string("a\0b", 3));
}

TEST_CASE("Printable escapes what could steer a terminal", "[adversarial][text]") {
  CHECK(Printable("plain ml.t3.xlarge 'Caf\xC3\xA9'") == "plain ml.t3.xlarge 'Caf\xC3\xA9'");
  CHECK(Printable("a\x1b[2Jb") == "a\\x1b[2Jb");
  CHECK(Printable("line\r\nforged.yaml:1:1: error") == "line\\r\\nforged.yaml:1:1: error");
  CHECK(Printable("t\tx\x7f") == "t\\tx\\x7f");
  CHECK(Printable("\xC2\x9B"
                  "31m") == "\\u009b31m");  // C1 CSI
  CHECK(Printable("abc\xE2\x80\xAE"
                  "fed") == "abc\\u202efed");  // right-to-left override
  CHECK(Printable("Caf\xE9") == "Caf\xEF\xBF\xBD");
}

TEST_CASE("globs: semantics, and `**` runs in linear time", "[adversarial][glob]") {
  CHECK(GlobMatch("*.yaml", "a.yaml"));
  CHECK_FALSE(GlobMatch("*.yaml", "d/a.yaml"));
  CHECK(GlobMatch("**/*.yaml", "a.yaml"));
  CHECK(GlobMatch("**/*.yaml", "d/e/a.yaml"));
  CHECK(GlobMatch("examples/**", "examples/a/b"));
  CHECK(GlobMatch("a/**/b", "a/b"));
  CHECK(GlobMatch("a/**/b", "a/x/y/b"));
  CHECK_FALSE(GlobMatch("a/**/b", "a/x/y/c"));
  CHECK(GlobMatch("**/legacy/*.yaml", "x/legacy/t.yaml"));
  CHECK_FALSE(GlobMatch("**/legacy/*.yaml", "x/legacy/y/t.yaml"));
  CHECK(GlobMatch("t?.[ty]aml", "t1.yaml"));
  CHECK(GlobMatch("[!a]*", "b"));
  CHECK_FALSE(GlobMatch("[!a]*", "a"));
  CHECK(GlobMatch("a[", "a["));  // an unclosed class is a literal
  CHECK(GlobMatch("*a*b*c", "xxaxxbxxc"));
  CHECK_FALSE(GlobMatch("*a*b*c", "xxaxxbxxd"));

  // Exponential with backtracking over every `**` (118 s for this pair before).
  std::string path;
  for (int i = 0; i < 40; ++i) path += "d/";
  path += "x";
  CHECK_FALSE(GlobMatch("**/**/**/**/**/**/**/**/**/b", path));
  CHECK(GlobMatch("**/**/**/**/**/**/**/**/**/x", path));
  std::string long_name(4000, 'a');
  CHECK_FALSE(GlobMatch("*a*a*a*a*a*a*a*a*a*a*b", long_name));
}

TEST_CASE("ReadFileCapped: regular files within the cap only", "[adversarial][files]") {
  sagelint::testing::TempDir t;
  t.Write("small.txt", "hello");
  std::string out, error;
  CHECK(ReadFileCapped(t.path() + "/small.txt", 16, &out, &error));
  CHECK(out == "hello");
  CHECK_FALSE(ReadFileCapped(t.path() + "/small.txt", 4, &out, &error));
  CHECK(error == "larger than 4 bytes");
  CHECK_FALSE(ReadFileCapped(t.path(), 16, &out, &error));
  CHECK(error == "is a directory");
  CHECK_FALSE(ReadFileCapped("/dev/zero", 16, &out, &error));
  CHECK(error == "not a regular file");
  std::string fifo = t.path() + "/fifo";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  CHECK_FALSE(ReadFileCapped(fifo, 16, &out, &error));  // returns at once: no writer is awaited
  CHECK(error == "not a regular file");
  CHECK_FALSE(ReadFileCapped(t.path() + "/missing", 16, &out, &error));
  CHECK(error == "No such file or directory");
  // A sparse file of 2 GiB costs no disk and must not be read.
  fs::resize_file(fs::path(t.path()) / "small.txt", 2ull << 30);
  CHECK_FALSE(ReadFileCapped(t.path() + "/small.txt", 1u << 20, &out, &error));
  CHECK(error == "larger than 1 MiB");
}

TEST_CASE("WriteFileAtomic replaces a file whole or not at all", "[adversarial][files]") {
  sagelint::testing::TempDir t;
  std::string target = t.path() + "/report.json";
  t.Write("report.json", "OLD");
  std::string error;
  REQUIRE(WriteFileAtomic(target, "NEW CONTENT", &error));
  CHECK(sagelint::testing::ReadFileOrDie(target) == "NEW CONTENT");

  // A write that fails half-way (the file size limit) leaves the old content and no temporary file.
  pid_t pid = ::fork();
  REQUIRE(pid >= 0);
  if (pid == 0) {
    ::signal(SIGXFSZ, SIG_IGN);
    struct rlimit lim = {4096, 4096};
    ::setrlimit(RLIMIT_FSIZE, &lim);
    std::string why;
    bool ok = WriteFileAtomic(target, std::string(100000, 'x'), &why);
    ::_exit(ok ? 0 : why == "File too large" ? 3 : 4);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  CHECK(WEXITSTATUS(status) == 3);
  CHECK(sagelint::testing::ReadFileOrDie(target) == "NEW CONTENT");
  int entries = 0;
  for (const auto& e : fs::directory_iterator(t.path())) entries += e.path().filename() != "report.json";
  CHECK(entries == 0);

  // A link planted where a report goes is replaced, and the file it points to is left alone.
  t.Write("precious.txt", "PRECIOUS");
  fs::create_symlink(t.path() + "/precious.txt", fs::path(t.path()) / "planted.sarif");
  REQUIRE(WriteFileAtomic(t.path() + "/planted.sarif", "REPORT", &error));
  CHECK(sagelint::testing::ReadFileOrDie(t.path() + "/precious.txt") == "PRECIOUS");
  CHECK_FALSE(fs::is_symlink(fs::path(t.path()) / "planted.sarif"));
  CHECK(sagelint::testing::ReadFileOrDie(t.path() + "/planted.sarif") == "REPORT");
  fs::remove(fs::path(t.path()) / "planted.sarif");
  fs::remove(fs::path(t.path()) / "precious.txt");

  CHECK_FALSE(WriteFileAtomic("/dev/full", "x", &error));
  CHECK(error == "No space left on device");
  CHECK_FALSE(WriteFileAtomic(t.path(), "x", &error));
  CHECK(error == "is a directory");
  CHECK_FALSE(WriteFileAtomic(t.path() + "/no/such/dir/out.json", "x", &error));
  CHECK(error == "No such file or directory");
}

TEST_CASE("configuration YAML: duplicate keys are found, alias expansion is bounded", "[adversarial][config]") {
  std::string error;
  CHECK(CheckYamlKeys(YAML::Load("a: 1\nb: {c: 1, d: 2}\n"), "c.yaml", &error));
  CHECK_FALSE(CheckYamlKeys(YAML::Load("a: 1\nb:\n  c: 1\n  c: 2\n"), "c.yaml", &error));
  CHECK(error == "c.yaml:4: duplicate key 'c'");
  CHECK_FALSE(CheckYamlKeys(YAML::Load(sagelint::testing::AliasBomb()), "c.yaml", &error));
  CHECK(error.find("more than 100000 values") != std::string::npos);
}
