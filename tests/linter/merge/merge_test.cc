// `sagelint merge` and what the scan JSON carries for it (docs/organisation.md):
// three fixture repositories scanned and merged into every format, exactly;
// the HTML's escaping and content security policy; bad reports named and
// skipped; the report name from a git remote without its credentials.
#include "linter/merge/merge.h"

#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include "linter/base/sha256.h"
#include "linter/merge/identity.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::CompareGolden;
using sagelint::testing::GitRepo;
using sagelint::testing::ParseJson;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::ShellOut;
using sagelint::testing::SourcePath;
using sagelint::testing::TempDir;

namespace {

// fixtures/merge/{alpha,beta,gamma} copied out of git (no commit, so the
// reports are the same wherever the tests run) and scanned: alpha under its
// directory's name, beta and gamma under the names given.
struct ThreeReports {
  TempDir dir;
  ThreeReports() {
    ShellOut("cp -R '" + SourcePath("fixtures/merge") + "/.' '" + dir.path() + "'");
    auto scan = [&](const std::string& repo, const std::string& name_flag) {
      auto r = RunSagelint("scan --fail-on none --format json=" + repo + ".json " + name_flag + " " + repo, dir.path());
      REQUIRE(r.status == 0);
      REQUIRE(r.err == "");
    };
    scan("alpha", "");
    scan("beta", "--report-name acme/beta");
    scan("gamma", "--report-name 'acme/gamma <b>&\"'");
  }
  std::string Merge(const std::string& format, int status = 0, const std::string& more = "") const {
    auto r = RunSagelint("merge --format " + format + " alpha.json beta.json gamma.json" + more, dir.path());
    CHECK(r.status == status);
    CHECK(r.err == "");
    return r.out;
  }
};

const ThreeReports& Reports() {
  static const ThreeReports reports;
  return reports;
}

}  // namespace

TEST_CASE("scan JSON: report_name, commit and workloads", "[merge]") {
  const ThreeReports& r = Reports();
  nlohmann::json alpha = ParseJson(ReadFileOrDie(r.dir.path() + "/alpha.json"));
  CHECK(alpha["schema_version"] == 1);
  CHECK(alpha["report_name"] == "alpha");  // no git: the directory's name
  CHECK(alpha["commit"].is_null());
  REQUIRE(alpha["workloads"].size() == 4);
  CHECK(alpha["workloads"][0].dump() ==
        R"({"always_on":true,"billed":true,"hourly_usd":1.4728,"instance_count":2,"instance_type":"ml.g4dn.xlarge",)"
        R"("kind":"endpoint_variant","label":"endpoint variant 'ChurnEndpointConfig/AllTraffic'","line":19,)"
        R"("monthly_usd":1075.14,"path":"alpha/endpoint.yaml"})");
  nlohmann::json gamma = ParseJson(ReadFileOrDie(r.dir.path() + "/gamma.json"));
  CHECK(gamma["report_name"] == "acme/gamma <b>&\"");
  // The variant on an instance type without a price: billed, no figures.
  CHECK(gamma["workloads"][0].dump() ==
        R"({"always_on":true,"billed":true,"hourly_usd":null,"instance_count":1,"instance_type":"ml.zz9.48xlarge",)"
        R"("kind":"endpoint_variant","label":"endpoint variant 'FutureConfig/AllTraffic'","line":8,)"
        R"("monthly_usd":null,"path":"gamma/serving.yaml"})");
}

TEST_CASE("merge of three repositories in every format", "[merge]") {
  const ThreeReports& r = Reports();
  CHECK(CompareGolden("tests/golden/merge/three.txt", r.Merge("text")) == "");
  CHECK(CompareGolden("tests/golden/merge/three.json", r.Merge("json")) == "");
  CHECK(CompareGolden("tests/golden/merge/three.md", r.Merge("markdown")) == "");
  CHECK(CompareGolden("tests/golden/merge/three.html", r.Merge("html")) == "");
  // A directory of reports is the same as the reports named one by one.
  TempDir only;
  for (const char* name : {"alpha.json", "beta.json", "gamma.json"}) {
    fs::copy_file(r.dir.path() + "/" + name, only.path() + "/" + name);
  }
  auto dir = RunSagelint("merge --format json " + only.path());
  CHECK(dir.status == 0);
  nlohmann::json a = ParseJson(dir.out), b = ParseJson(r.Merge("json"));
  CHECK(a["summary"] == b["summary"]);
  CHECK(a["rules"] == b["rules"]);
  CHECK(a["costliest_workloads"] == b["costliest_workloads"]);
}

TEST_CASE("merge HTML: self-contained, escaped, under a content security policy", "[merge]") {
  std::string html = Reports().Merge("html");
  // Nothing is fetched at view time: no URL of any scheme, no external reference.
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find("://") == std::string::npos);
  // No protocol-relative reference either (the policy's base64 digests aside).
  CHECK(std::regex_replace(html, std::regex("'sha256-[A-Za-z0-9+/=]+'"), "").find("//") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(html.find(" href=") == std::string::npos);
  // The hostile variant name and report name arrive as text only.
  CHECK(html.find("<script>alert") == std::string::npos);
  CHECK(html.find("&lt;script&gt;alert(&apos;x&apos;)&lt;/script&gt;") != std::string::npos);
  CHECK(html.find("acme/gamma &lt;b&gt;&amp;&quot;") != std::string::npos);
  CHECK(html.find("<b>") == std::string::npos);
  // One script, one style, no inline handler or style attribute (the policy would block them).
  std::smatch script, style, csp;
  REQUIRE(std::regex_search(html, script, std::regex("<script>([\\s\\S]*?)</script>")));
  REQUIRE(std::regex_search(html, style, std::regex("<style>([\\s\\S]*?)</style>")));
  CHECK(html.find("<script", script.position(0) + 1) == std::string::npos);
  CHECK(!std::regex_search(html, std::regex("\\son[a-z]+=")));
  CHECK(html.find(" style=") == std::string::npos);
  // The policy allows exactly that script and that style, by digest, and nothing else.
  REQUIRE(
      std::regex_search(html, csp, std::regex("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]*)\">")));
  CHECK(csp[1].str() == "default-src 'none'; style-src 'sha256-" + sagelint::Sha256Base64(style[1].str()) +
                            "'; script-src 'sha256-" + sagelint::Sha256Base64(script[1].str()) +
                            "'; img-src 'none'; connect-src 'none'; base-uri 'none'; form-action 'none'");
  CHECK(csp.position(0) < style.position(0));
  // Sortable tables and two charts drawn as inline SVG.
  CHECK(html.find("<table class=\"sortable\" id=\"repositories\">") != std::string::npos);
  CHECK(html.find("<table class=\"sortable\" id=\"rules\">") != std::string::npos);
  size_t charts = 0;
  for (size_t at = html.find("<svg class=\"chart\""); at != std::string::npos;
       at = html.find("<svg class=\"chart\"", at + 1)) {
    ++charts;
  }
  CHECK(charts == 2);
}

TEST_CASE("SHA-256 of known inputs", "[merge]") {
  CHECK(sagelint::Sha256Hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sagelint::Sha256Hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sagelint::Sha256Hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
  // 56 bytes: the padding takes a block of its own.
  CHECK(sagelint::Sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sagelint::Sha256Base64("abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=");
}

TEST_CASE("merge: truncated, foreign and other-schema reports are named and skipped", "[merge]") {
  const ThreeReports& r = Reports();
  TempDir d;
  std::string alpha = ReadFileOrDie(r.dir.path() + "/alpha.json");
  d.Write("alpha.json", alpha);
  d.Write("copy-of-alpha.json", alpha);
  d.Write("truncated.json", alpha.substr(0, 200));
  d.Write("inventory.json", R"({"schema_version": 1, "workloads": []})");
  d.Write("rules.json", R"({"schema_version": 1, "tool": {"name": "sagelint"}})");
  d.Write("deep.json", std::string(100, '[') + std::string(100, ']'));
  std::string beta = ReadFileOrDie(r.dir.path() + "/beta.json");
  d.Write("future.json", std::regex_replace(beta, std::regex("\"schema_version\": 1"), "\"schema_version\": 2"));
  d.Write("repos.txt", "# expected\nalpha\n\nacme/beta\nacme/delta\n  acme/gamma  \n");
  auto m = RunSagelint(
      "merge alpha.json copy-of-alpha.json truncated.json inventory.json rules.json deep.json future.json --repos "
      "repos.txt",
      d.path());
  CHECK(m.status == 0);
  CHECK(m.err ==
        "sagelint: skipped truncated.json: not complete JSON: it ends at byte 200 (truncated?)\n"
        "sagelint: skipped inventory.json: not a sagelint scan report (no tool.name \"sagelint\" and schema_version)\n"
        "sagelint: skipped rules.json: not a sagelint scan report (no findings and summary)\n"
        "sagelint: skipped deep.json: not a sagelint scan report: nested deeper than 32 levels at "
        "[0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]\n"
        "sagelint: skipped future.json: schema_version 2 (this sagelint reads 1); repository acme/beta\n"
        "sagelint: warning: more than one report for alpha\n");
  CHECK(CompareGolden("tests/golden/merge/problems.txt", m.out) == "");
}

TEST_CASE("merge: usage errors", "[merge]") {
  TempDir d;
  d.Write("empty/readme.txt", "no reports here\n");
  auto none = RunSagelint("merge", d.path());
  CHECK(none.status == 2);
  CHECK(none.err == "sagelint: merge expects scan reports: sagelint merge REPORT.json ... (or a directory)\n");
  auto missing = RunSagelint("merge nothing.json", d.path());
  CHECK(missing.status == 2);
  CHECK(missing.err == "sagelint: nothing.json: no such file or directory\n");
  auto format = RunSagelint("merge --format sarif empty", d.path());
  CHECK(format.status == 2);
  CHECK(format.err == "sagelint: merge formats are text, json, markdown and html, not 'sarif'\n");
  auto repos = RunSagelint("scan --repos x.txt .", d.path());
  CHECK(repos.status == 2);
  CHECK(repos.err == "sagelint: --repos is an option of merge\n");
  auto name = RunSagelint("inventory --report-name x .", d.path());
  CHECK(name.status == 2);
  CHECK(name.err == "sagelint: --report-name is an option of scan\n");
  auto empty = RunSagelint("merge empty", d.path());
  CHECK(empty.status == 0);
  CHECK(empty.err == "sagelint: warning: empty: no .json report in it\n");
  CHECK(empty.out.rfind("0 repositories merged; always on ≈ $0.00/month", 0) == 0);
}

TEST_CASE("report name: owner/name of the git remote, credentials dropped", "[merge]") {
  using sagelint::RepositoryNameFromRemote;
  CHECK(RepositoryNameFromRemote("https://x-access-token:ghs_secret@github.com/acme/widgets.git") == "acme/widgets");
  CHECK(RepositoryNameFromRemote("https://user@gitlab.example.com:8443/group/sub/widgets") == "sub/widgets");
  CHECK(RepositoryNameFromRemote("git@github.com:acme/widgets.git") == "acme/widgets");
  CHECK(RepositoryNameFromRemote("ssh://git@github.com:22/acme/widgets.git/") == "acme/widgets");
  CHECK(RepositoryNameFromRemote("https://github.com/acme/widgets?token=secret#frag") == "acme/widgets");
  CHECK(RepositoryNameFromRemote("/srv/git/widgets.git") == "git/widgets");
  CHECK(RepositoryNameFromRemote("https://token@example.com") == "");

  GitRepo repo;
  repo.Write("infra/nb.yaml", sagelint::testing::NotebookTemplate());
  repo.Commit("one notebook");
  repo.Git("remote add origin https://x-access-token:ghs_secret@github.com/acme/widgets.git");
  std::string head = repo.Git("rev-parse HEAD");
  auto r = RunSagelint("scan --format json --fail-on none infra", repo.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("ghs_secret") == std::string::npos);
  nlohmann::json doc = ParseJson(r.out);
  CHECK(doc["report_name"] == "acme/widgets");
  CHECK(doc["commit"] == head);
  // --report-name wins; other outputs than JSON run no git at all.
  auto named = RunSagelint("scan --format json --fail-on none --report-name team/x infra", repo.path());
  CHECK(ParseJson(named.out)["report_name"] == "team/x");
}
