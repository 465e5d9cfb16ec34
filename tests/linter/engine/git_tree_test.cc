// GitTreeFiles: a commit's tree read from the object store answers as the
// disk answers for the same files, reads only what it is asked, never leaves
// its tree through a link, and stops at its limits with a note.
#include <algorithm>
#include <atomic>
#include <filesystem>
#include <thread>

#include "linter/engine/git.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using testing::GitRepo;
using testing::TempDir;

namespace {

std::vector<std::string> Names(const FileSource& files, const std::string& dir, bool links = false) {
  std::vector<DirEntry> entries;
  std::string error;
  if (!files.List(dir, &entries, &error)) return {"error: " + error};
  std::vector<std::string> out;
  for (const DirEntry& e : entries) {
    if (e.name == ".git") continue;
    out.push_back(e.name + (links && e.link ? "@" : "") + ":" + std::to_string(static_cast<int>(e.type)));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ReadAll(const FileSource& files, const std::string& path) {
  std::string out, error;
  if (!files.Read(path, 1u << 20, &out, &error)) return "error: " + error;
  return out;
}

std::string Tree(const GitRepo& repo, const std::string& lines) {
  TempDir tmp;
  tmp.Write("tree", lines);
  return repo.Git("mktree < '" + tmp.path() + "/tree'");
}

std::unique_ptr<GitTreeFiles> Open(const GitRepo& repo, const std::string& rev, GitTreeLimits limits = {}) {
  std::string top = fs::canonical(repo.path()).string();
  std::string error;
  auto tree = GitTreeFiles::Open(top, repo.Git("rev-parse --verify " + rev), top, limits, &error);
  INFO(error);
  REQUIRE(tree);
  return tree;
}

}  // namespace

TEST_CASE("git tree: answers as the disk does for the files of a checkout", "[engine][diff]") {
  GitRepo repo;
  repo.Write("infra/a.yaml", "a: 1\n");
  repo.Write("infra/modules/m/main.tf", "resource \"x\" \"y\" {}\n");
  repo.Write("docs/readme.md", "hello\n");
  std::string top = fs::canonical(repo.path()).string();
  fs::create_symlink("a.yaml", top + "/infra/link.yaml");
  fs::create_symlink("modules/m", top + "/infra/mod");
  fs::create_symlink("../docs", top + "/infra/docs");
  fs::create_symlink("link.yaml", top + "/infra/chain.yaml");
  fs::create_symlink("missing.yaml", top + "/infra/dangling.yaml");
  fs::create_symlink("loop2", top + "/infra/loop1");
  fs::create_symlink("loop1", top + "/infra/loop2");
  repo.Commit("base");
  auto tree = Open(repo, "HEAD");
  const FileSource& disk = DiskFiles();

  std::vector<std::string> paths = {"",
                                    "infra",
                                    "infra/a.yaml",
                                    "infra/link.yaml",
                                    "infra/mod",
                                    "infra/mod/main.tf",
                                    "infra/docs/readme.md",
                                    "infra/chain.yaml",
                                    "infra/dangling.yaml",
                                    "infra/loop1",
                                    "infra/nope/x.tf",
                                    "infra/mod/../a.yaml",
                                    "infra/docs/../infra/a.yaml",
                                    "infra/a.yaml/x",
                                    ".git",
                                    "infra/./modules//m/",
                                    "docs/../infra/mod/main.tf"};
  for (const std::string& rel : paths) {
    std::string p = top + (rel.empty() ? "" : "/" + rel);
    INFO(p);
    CHECK(tree->Type(p) == disk.Type(p));
    CHECK(tree->Canonical(p) == disk.Canonical(p));
    CHECK(tree->WeaklyCanonical(p) == disk.WeaklyCanonical(p));
    CHECK(tree->FileSize(p) == disk.FileSize(p));
    if (disk.IsRegularFile(p)) CHECK(ReadAll(*tree, p) == ReadAll(disk, p));
    if (disk.IsDirectory(p) && rel != ".git") CHECK(Names(*tree, p, true) == Names(disk, p, true));
  }
  CHECK(ReadAll(*tree, top + "/infra") == "error: is a directory");
  CHECK(ReadAll(*tree, top + "/infra/nope.yaml") == "error: No such file or directory");
  std::vector<std::string> notes = tree->Notes();
  std::sort(notes.begin(), notes.end());
  CHECK(notes == std::vector<std::string>{"infra/loop1: too many levels of symbolic links; not followed",
                                          "infra/loop2: too many levels of symbolic links; not followed"});
}

TEST_CASE("git tree: what was not asked for is not read", "[engine][diff]") {
  GitRepo repo;
  std::string big(4u << 20, 'x');
  for (int i = 0; i < 8; ++i) repo.Write("data/big" + std::to_string(i) + ".json", big);
  repo.Write("infra/a.yaml", "a: 1\n");
  repo.Commit("base");
  auto tree = Open(repo, "HEAD");
  std::string top = fs::canonical(repo.path()).string();
  CHECK(ReadAll(*tree, top + "/infra/a.yaml") == "a: 1\n");
  CHECK(Names(*tree, top + "/data").size() == 8);
  // Listing a directory and asking a size read no file's content.
  CHECK(tree->FileSize(top + "/data/big3.json") == std::uintmax_t{4u << 20});
  CHECK(tree->bytes_read() < 4096);
  // A file larger than the read's cap is refused without being read.
  std::string out, error;
  CHECK(!tree->Read(top + "/data/big0.json", 1u << 20, &out, &error));
  CHECK(error == "larger than 1 MiB");
  CHECK(tree->bytes_read() < 4096);
}

TEST_CASE("git tree: reads stop at the limits, with a note", "[engine][diff]") {
  GitRepo repo;
  for (int i = 0; i < 10; ++i) repo.Write("f" + std::to_string(i) + ".yaml", std::string(1000, 'a' + i));
  repo.Commit("base");
  std::string top = fs::canonical(repo.path()).string();
  GitTreeLimits limits;
  limits.max_bytes = 3000;  // the top's tree object (10 entries) and two files
  auto tree = Open(repo, "HEAD", limits);
  std::string out, error;
  CHECK(tree->Read(top + "/f0.yaml", 1u << 20, &out, &error));
  CHECK(tree->Read(top + "/f1.yaml", 1u << 20, &out, &error));
  CHECK(!tree->Read(top + "/f2.yaml", 1u << 20, &out, &error));
  CHECK(error == "not read: the base revision's read limit was reached");
  CHECK(!tree->Read(top + "/f3.yaml", 1u << 20, &out, &error));
  REQUIRE(tree->Notes().size() == 1);
  std::string note = tree->Notes()[0];
  CHECK(note.rfind("the base revision's read limit (3000 bytes of git objects) was reached at f2.yaml", 0) == 0);

  limits = {};
  limits.max_entries = 4;
  tree = Open(repo, "HEAD", limits);
  CHECK(Names(*tree, top).size() == 4);
  REQUIRE(tree->Notes().size() == 1);
  note = tree->Notes()[0];
  CHECK(note.rfind("the base revision lists more than 4 entries", 0) == 0);
}

TEST_CASE("git tree: crafted trees cannot lead out of the tree", "[engine][diff]") {
  GitRepo repo;
  repo.Write("keep.yaml", "k: 1\n");
  repo.Commit("init");
  TempDir outside;
  outside.Write("secret.yaml", "secret: 1\n");
  auto blob = [&](const std::string& text) {
    TempDir tmp;
    tmp.Write("b", text);
    return repo.Git("hash-object -w '" + tmp.path() + "/b'");
  };
  std::string file = blob("ok: 1\n");
  std::string abs_link = blob(outside.path() + "/secret.yaml");
  std::string up_link = blob("../../../../../../../../../../../../../../.." + outside.path() + "/secret.yaml");
  std::string dir_link = blob(outside.path());
  std::string sub = Tree(repo, "100644 blob " + file + "\tinner.yaml\n");
  std::string root = Tree(repo, "100644 blob " + file + "\tdup.yaml\n120000 blob " + abs_link + "\tdup.yaml\n" +
                                    "120000 blob " + abs_link + "\tabs.yaml\n120000 blob " + up_link + "\tup.yaml\n" +
                                    "120000 blob " + dir_link + "\td\n040000 tree " + sub + "\td\n" + "120000 blob " +
                                    dir_link + "\tout\n100644 blob " + file + "\tok.yaml\n");
  std::string commit = repo.Git("commit-tree " + root + " -m crafted");
  auto tree = Open(repo, commit);
  std::string top = fs::canonical(repo.path()).string();
  CHECK(Names(*tree, top) == std::vector<std::string>{"abs.yaml:0", "ok.yaml:1", "out:0", "up.yaml:0"});
  for (const char* name : {"dup.yaml", "abs.yaml", "up.yaml", "d/inner.yaml", "out/secret.yaml"}) {
    INFO(name);
    std::string p = top + "/" + name;
    CHECK(tree->Type(p) == FileType::kNone);
    CHECK(!tree->Canonical(p));
    CHECK(ReadAll(*tree, p) == "error: No such file or directory");
  }
  // A link out of the tree is not there: its own path, unresolved.
  CHECK(tree->WeaklyCanonical(top + "/abs.yaml") == top + "/abs.yaml");
  CHECK(tree->WeaklyCanonical(top + "/out/secret.yaml") == top + "/out/secret.yaml");
  CHECK(tree->WeaklyCanonical(top + "/up.yaml") == top + "/up.yaml");
  CHECK(ReadAll(*tree, top + "/ok.yaml") == "ok: 1\n");
  // Outside the tree only the files allowed from the disk are read.
  CHECK(ReadAll(*tree, outside.path() + "/secret.yaml") == "error: No such file or directory");
  tree->AllowDiskFile(outside.path() + "/secret.yaml");
  CHECK(ReadAll(*tree, outside.path() + "/secret.yaml") == "secret: 1\n");
  std::vector<std::string> notes = tree->Notes();
  std::sort(notes.begin(), notes.end());
  CHECK(notes == std::vector<std::string>{
                     "abs.yaml: a symbolic link to an absolute path; not followed out of the tree",
                     "d: listed twice in its tree at the base; neither entry is read",
                     "dup.yaml: listed twice in its tree at the base; neither entry is read",
                     "out: a symbolic link to an absolute path; not followed out of the tree",
                     "up.yaml: a symbolic link whose target climbs above the top of the tree; not followed"});
}

TEST_CASE("git tree: many threads read at once", "[engine][diff]") {
  GitRepo repo;
  for (int i = 0; i < 20; ++i) repo.Write("d" + std::to_string(i % 4) + "/f" + std::to_string(i) + ".yaml", "x\n");
  repo.Commit("base");
  auto tree = Open(repo, "HEAD");
  std::string top = fs::canonical(repo.path()).string();
  std::vector<std::thread> threads;
  std::atomic<int> ok{0};
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20; ++i) {
        if (ReadAll(*tree, top + "/d" + std::to_string(i % 4) + "/f" + std::to_string(i) + ".yaml") == "x\n") ++ok;
      }
      (void)t;
    });
  }
  for (auto& th : threads) th.join();
  CHECK(ok == 80);
}
