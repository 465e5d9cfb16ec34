// `sagelint diff` against base revisions built to attack it (issue: a hostile
// pull request cannot write, fill, hang or bypass the gate): the base side is
// read from git's object store into memory, so a crafted tree cannot make it
// write through a link, fill a disk or abort the run.
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::GitRepo;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::ShellOut;
using sagelint::testing::TempDir;

namespace {

const std::string kNotebook = sagelint::testing::NotebookTemplate();

nlohmann::json Json(const std::string& out) { return sagelint::testing::ParseJson(out); }

// Writes `text` as a blob of `repo`; its object id.
std::string Blob(const GitRepo& repo, const std::string& text) {
  TempDir tmp;
  tmp.Write("blob", text);
  return repo.Git("hash-object -w '" + tmp.path() + "/blob'");
}

// A tree object from `git mktree` lines ("MODE TYPE OID\tNAME"), which accepts
// what a clone accepts: names listed twice, links anywhere.
std::string Tree(const GitRepo& repo, const std::string& lines) {
  TempDir tmp;
  tmp.Write("tree", lines);
  return repo.Git("mktree < '" + tmp.path() + "/tree'");
}

std::string CommitTree(const GitRepo& repo, const std::string& tree) {
  return repo.Git("commit-tree " + tree + " -m crafted");
}

bool HasNote(const nlohmann::json& j, const std::string& part) {
  for (const auto& n : j["notes"]) {
    if (n.get<std::string>().find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("diff: a base tree listing a name twice (a link and a file) writes nothing through the link",
          "[diff][adversarial]") {
  TempDir outside;
  outside.Write("victim.yaml", "original\n");
  outside.Write("dir/keep", "x\n");
  GitRepo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("head");
  std::string link = Blob(repo, outside.path() + "/victim.yaml");
  std::string dir_link = Blob(repo, outside.path() + "/dir");
  std::string blob = Blob(repo, "overwritten: true # SageMaker\n");
  std::string sub = Tree(repo, "100644 blob " + blob + "\tnew.yaml\n");
  std::string tree = Tree(repo, "120000 blob " + link + "\tf.yaml\n100644 blob " + blob + "\tf.yaml\n" +
                                    "120000 blob " + dir_link + "\td\n040000 tree " + sub + "\td\n");
  std::string base = CommitTree(repo, tree);

  auto r = RunSagelint("diff --base " + base + " --format json --fail-on none .", repo.path());
  CHECK(r.status == 0);
  // Before: the scratch copy of the tree created the link, then wrote the blob through it.
  CHECK(ReadFileOrDie(outside.path() + "/victim.yaml") == "original\n");
  CHECK(!fs::exists(outside.path() + "/dir/new.yaml"));
  auto j = Json(r.out);
  CHECK(HasNote(j, "f.yaml: listed twice in its tree at the base; neither entry is read"));
  CHECK(HasNote(j, "d: listed twice in its tree at the base; neither entry is read"));
  CHECK(r.err.find("note: at the base: f.yaml: listed twice") != std::string::npos);
}

TEST_CASE("diff: a link in the base tree is never followed out of the tree", "[diff][adversarial]") {
  TempDir outside;
  outside.Write("secret.yaml", kNotebook);  // would be a resolved SM201 if it were read
  GitRepo repo;
  repo.Write("infra/README", "x\n");
  repo.Commit("head");
  std::string abs = Blob(repo, outside.path() + "/secret.yaml");
  // Relative, climbing out of the top: as many ../ as it takes.
  std::string rel_target;
  for (const auto& part : fs::path(repo.path())) {
    if (part != "/") rel_target += "../";
  }
  std::string rel = Blob(repo, rel_target + outside.path().substr(1) + "/secret.yaml");
  std::string infra = Tree(repo, "120000 blob " + abs + "\tabs.yaml\n120000 blob " + rel + "\trel.yaml\n");
  std::string base = CommitTree(repo, Tree(repo, "040000 tree " + infra + "\tinfra\n"));

  auto r = RunSagelint("diff --base " + base + " --format json --fail-on none infra", repo.path());
  CHECK(r.status == 0);
  auto j = Json(r.out);
  // Not read at the base: each link is an SM008 there (rules/SM008.md), gone from the work tree.
  REQUIRE(j["resolved"].size() == 2);
  for (const auto& f : j["resolved"]) {
    CHECK(f["rule"] == "SM008");
    CHECK(f["message"] == "sagelint did not read this file: it is a symbolic link to a path outside the repository");
  }
  CHECK(j["resolved"][0]["path"] == "infra/abs.yaml");
  CHECK(j["resolved"][1]["path"] == "infra/rel.yaml");
  CHECK(j["spend_delta"]["workloads"].empty());
  CHECK(HasNote(j, "infra/abs.yaml: a symbolic link to an absolute path; not followed out of the tree"));
  CHECK(HasNote(j, "infra/rel.yaml: a symbolic link whose target climbs above the top of the tree; not followed"));
}

TEST_CASE("diff: the base tree is never written to disk, and only the asked paths are read", "[diff][adversarial]") {
  GitRepo repo;
  // One large blob under many names outside the asked directory.
  std::string big(8u << 20, 'x');
  for (int i = 0; i < 15; ++i) repo.Write("data/copy" + std::to_string(i) + ".json", big);
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("base");
  repo.Write("infra/notebook.yaml", std::string(kNotebook) + "# edited\n");
  // Files of at most 1 MiB may be written (the output is smaller): writing a
  // copy of the base tree anywhere would end the run (SIGXFSZ).
  TempDir tmp;
  auto r = RunSagelint("diff --base HEAD --format json --fail-on none infra", repo.path(),
                       "ulimit -f 1024 && TMPDIR='" + tmp.path() + "'");
  INFO(r.err);
  CHECK(r.status == 0);
  auto j = Json(r.out);
  CHECK(j["new"].empty());
  CHECK(j["notes"].empty());
  CHECK(fs::is_empty(tmp.path()));
  // The whole tree is read the same way.
  r = RunSagelint("diff --base HEAD --format json --fail-on none .", repo.path(), "ulimit -f 1024 &&");
  CHECK(r.status == 0);
}

TEST_CASE("diff: a blob a partial clone cannot fetch is named once and absent at the base", "[diff][adversarial]") {
  GitRepo origin;
  origin.Git("config uploadpack.allowfilter true");
  origin.Write("infra/notebook.yaml", kNotebook);
  origin.Commit("base");
  origin.Write("infra/notebook.yaml", sagelint::testing::NotebookTemplate("Explore", "ml.p3.2xlarge"));
  origin.Commit("head");
  TempDir clone;
  ShellOut("git clone -q --filter=blob:none 'file://" + origin.path() + "' '" + clone.path() + "/c' 2>/dev/null");
  std::string work = clone.path() + "/c";
  // The promisor is gone: the base's blob cannot be fetched.
  ShellOut("git -C '" + work + "' remote set-url origin file:///nonexistent/sagelint-test");

  auto r = RunSagelint("diff --base HEAD~1 --format json .", work);
  INFO(r.err);
  CHECK(r.status == 1);  // the notebook counts as new: its base could not be read
  auto j = Json(r.out);
  REQUIRE(j["notes"].size() == 1);
  std::string note = j["notes"][0];
  CHECK(note.rfind("infra/notebook.yaml: git cannot read object ", 0) == 0);
  CHECK(note.find("it is absent at the base") != std::string::npos);
  CHECK(j["new"].size() == 2);
  // Named once, on a line of its own.
  size_t first = r.err.find("infra/notebook.yaml: git cannot read");
  REQUIRE(first != std::string::npos);
  CHECK(r.err.find("infra/notebook.yaml: git cannot read", first + 1) == std::string::npos);
  CHECK(r.err.find("fatal:") == r.err.find("(fatal:") + 1);
}

TEST_CASE("diff: a loose object missing from the repository is absent at the base, with a note",
          "[diff][adversarial]") {
  GitRepo repo;
  repo.Write("infra/notebook.yaml", kNotebook);
  repo.Commit("base");
  std::string oid = repo.Git("rev-parse HEAD:infra/notebook.yaml");
  fs::remove(repo.path() + "/.git/objects/" + oid.substr(0, 2) + "/" + oid.substr(2));
  auto r = RunSagelint("diff --base HEAD --format json --fail-on none .", repo.path());
  CHECK(r.status == 0);
  auto j = Json(r.out);
  CHECK(j["new"].size() == 1);
  CHECK(HasNote(j, "infra/notebook.yaml: git cannot read object " + oid.substr(0, 12) +
                       " (the object is missing from the repository); it is absent at the base"));
}

TEST_CASE("diff: a base tree of very many files is read up to a cap, with a note, and what is past it counts as new",
          "[diff][adversarial][memory]") {
  GitRepo repo;
  repo.Write("e.yaml", "x: 1\n");
  repo.Write("infra/zz.yaml", kNotebook);
  repo.Commit("head");
  // One small blob under 20,005 names, then the notebook (sorted last): ~1 MB of git objects.
  std::string small = Blob(repo, "x: 1\n");
  std::string lines;
  for (int i = 0; i < 20'005; ++i) {
    char name[32];
    std::snprintf(name, sizeof name, "f%07d.yaml", i);
    lines += "100644 blob " + small + "\t" + name + "\n";
  }
  lines += "100644 blob " + repo.Git("rev-parse HEAD:infra/zz.yaml") + "\tzz.yaml\n";
  std::string infra = Tree(repo, lines);
  std::string base = CommitTree(repo, Tree(repo, "040000 tree " + infra + "\tinfra\n100644 blob " +
                                                     repo.Git("rev-parse HEAD:e.yaml") + "\te.yaml\n"));
  auto r = RunSagelint("diff --base " + base + " --format json", repo.path());
  INFO(r.err);
  CHECK(r.status == 1);  // the notebook was not read at the base: its findings are new
  auto j = Json(r.out);
  CHECK(HasNote(j,
                ".: more than 20000 files to scan at this revision; the files after the 20000th are absent "
                "there"));
  CHECK(j["new"].size() == 1);
  CHECK(j["new"][0]["path"] == "infra/zz.yaml");
}
