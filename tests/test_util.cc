#include "tests/test_util.h"

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace sagelint::testing {
namespace {

// The tests never use the user's cache (README "Large repositories"): the
// scans they run, in this process or as the binary, keep theirs in a
// directory of this test process, removed at exit.
std::string PrivateCacheHome() {
  static std::string dir;
  namespace fs = std::filesystem;
  dir = (fs::temp_directory_path() / ("sagelint-test-cache-" + std::to_string(::getpid()))).string();
  std::error_code ec;
  fs::create_directories(dir, ec);
  ::setenv("XDG_CACHE_HOME", dir.c_str(), 1);
  std::atexit([] {
    std::error_code e;
    std::filesystem::remove_all(dir, e);
  });
  return dir;
}
const std::string kCacheHome = PrivateCacheHome();

}  // namespace

std::string TestCacheHome() { return kCacheHome; }

std::string SourcePath(const std::string& rel) { return std::string(SAGELINT_SOURCE_DIR) + "/" + rel; }

std::string ReadFileOrDie(const std::string& abs_path) {
  std::ifstream in(abs_path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + abs_path);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string CompareGolden(const std::string& rel, const std::string& actual) {
  std::string path = SourcePath(rel);
  const char* update = std::getenv("UPDATE_SNAPSHOTS");
  if (update && std::string(update) == "1") {
    std::filesystem::create_directories(std::filesystem::path(path).parent_path());
    std::ofstream(path, std::ios::binary) << actual;
    return "";
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return "missing golden file " + rel + " (run with UPDATE_SNAPSHOTS=1)\n--- actual ---\n" + actual;
  std::ostringstream s;
  s << in.rdbuf();
  std::string expected = s.str();
  if (expected == actual) return "";
  std::istringstream e(expected), a(actual);
  std::string le, la;
  int line = 0;
  while (true) {
    ++line;
    bool he = static_cast<bool>(std::getline(e, le));
    bool ha = static_cast<bool>(std::getline(a, la));
    if (!he && !ha) break;
    if (!he || !ha || le != la) {
      return rel + ":" + std::to_string(line) + ": golden differs\n  expected: " + (he ? le : "<end>") +
             "\n  actual:   " + (ha ? la : "<end>") + "\n--- whole actual ---\n" + actual;
    }
  }
  return rel + ": golden differs (line endings)";
}

bool Sanitized() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  return true;
#else
  return false;
#endif
#else
  return false;
#endif
}

std::string AddressSpaceLimit(long kib) { return Sanitized() ? "" : "ulimit -v " + std::to_string(kib) + " && "; }

long PeakRssKib(const std::string& command, int* status) {
  int fds[2];
  if (::pipe(fds) != 0) throw std::runtime_error("pipe failed");
  pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error("fork failed");
  if (pid == 0) {
    ::close(fds[0]);
    int rc = std::system(command.c_str());
    struct rusage u;
    ::getrusage(RUSAGE_CHILDREN, &u);
    long out[2] = {rc, u.ru_maxrss};
    ssize_t w = ::write(fds[1], out, sizeof out);
    (void)w;
    ::_exit(0);
  }
  ::close(fds[1]);
  long got[2] = {0, 0};
  ssize_t n = ::read(fds[0], got, sizeof got);
  ::close(fds[0]);
  ::waitpid(pid, nullptr, 0);
  if (n != static_cast<ssize_t>(sizeof got)) throw std::runtime_error("no measurement from the child");
  if (status) *status = static_cast<int>(got[0]);
  return got[1];
}

std::string Binary() {
  const char* other = std::getenv("SAGELINT_TEST_BINARY");
  return other && *other ? other : SAGELINT_BINARY;
}

CommandResult RunSagelint(const std::string& args, const std::string& cwd, const std::string& prefix) {
  namespace fs = std::filesystem;
  fs::path tmp =
      fs::temp_directory_path() / ("sagelint-test-" + std::to_string(::getpid()) + "-" + std::to_string(std::rand()));
  fs::create_directories(tmp);
  std::string cmd;
  if (!cwd.empty()) cmd = "cd '" + cwd + "' && ";
  if (!prefix.empty()) cmd += prefix + " ";
  cmd +=
      "'" + Binary() + "' " + args + " >'" + (tmp / "out").string() + "' 2>'" + (tmp / "err").string() + "' </dev/null";
  int rc = std::system(cmd.c_str());
  CommandResult r;
  r.status = WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
  r.out = ReadFileOrDie((tmp / "out").string());
  r.err = ReadFileOrDie((tmp / "err").string());
  fs::remove_all(tmp);
  return r;
}

TempDir::TempDir() {
  static int n = 0;
  namespace fs = std::filesystem;
  fs::path d = fs::temp_directory_path() / ("sagelint-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  fs::remove_all(d);
  fs::create_directories(d);
  dir_ = d.string();
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

void TempDir::Write(const std::string& rel, const std::string& text) const {
  std::filesystem::path p = std::filesystem::path(dir_) / rel;
  std::filesystem::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << text;
}

std::string TempDir::path() const { return dir_; }

std::string ShellOut(const std::string& command) {
  std::string out;
  FILE* p = ::popen(command.c_str(), "r");
  if (!p) throw std::runtime_error("cannot run " + command);
  char buf[4096];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = ::pclose(p);
  if (rc != 0) throw std::runtime_error("failed (" + std::to_string(rc) + "): " + command);
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r')) out.pop_back();
  return out;
}

GitRepo::GitRepo() {
  Git("init -q");
  Git("config user.email test@example.invalid");
  Git("config user.name test");
  Git("config commit.gpgsign false");
}

std::string GitRepo::Git(const std::string& args) const {
  return ShellOut("git -C '" + dir_.path() + "' " + args + " 2>/dev/null");
}

void GitRepo::Commit(const std::string& message) const {
  Git("add -A");
  Git("commit -q --allow-empty -m '" + message + "'");
}

std::string NotebookTemplate(const std::string& name, const std::string& instance_type) {
  return "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  " + name +
         ":\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: " + instance_type + "\n";
}

nlohmann::json ParseJson(const std::string& text) {
  auto j = nlohmann::json::parse(text, nullptr, false);
  if (j.is_discarded()) throw std::runtime_error("not JSON: " + text.substr(0, 200));
  return j;
}

std::string AliasBomb() {
  std::string bomb = "AWSTemplateFormatVersion: x # SageMaker\na: &a [x, x, x, x, x, x, x, x, x, x]\n";
  char prev = 'a';
  for (char c = 'b'; c <= 'j'; ++c) {
    bomb += std::string(1, c) + ": &" + c + " [";
    for (int i = 0; i < 10; ++i) bomb += std::string(i ? ", " : "") + "*" + prev;
    bomb += "]\n";
    prev = c;
  }
  return bomb;
}

}  // namespace sagelint::testing
