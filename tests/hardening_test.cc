// Hostile files and hostile names, end to end through the binary: no output
// is lost or truncated, no read is unbounded, no name steers the tool, and
// the small command-line promises hold.
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "linter/base/strings.h"
#include "linter/model/rule.h"
#include "parsers/common/node.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using Scratch = sagelint::testing::TempDir;

namespace {

std::string Notebook(const std::string& name, const std::string& type = "ml.t3.xlarge") {
  return "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  " + name +
         ":\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: " + type +
         "\n      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n";
}

// A notebook whose resource name is Latin-1 "Café" (one byte 0xE9, not UTF-8).
const std::string kLatin1 = Notebook("Caf\xE9");
const std::string kFffd = "\xEF\xBF\xBD";

bool Exists(const std::string& p) {
  std::error_code ec;
  return fs::exists(p, ec);
}

// Runs a shell command line; returns its exit status.
int Shell(const std::string& cmd) {
  int rc = std::system(cmd.c_str());
  return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

}  // namespace

TEST_CASE("a non-UTF-8 byte in a scanned file loses no output", "[adversarial][cli][utf8]") {
  Scratch s;
  s.Write("cafe.yaml", kLatin1);
  for (const char* format : {"json", "sarif", "gitlab"}) {
    DYNAMIC_SECTION(format) {
      auto r = RunSagelint(std::string("scan --format ") + format + " .", s.path());
      CHECK(r.status == 1);
      CHECK(r.err.empty());
      nlohmann::json doc = nlohmann::json::parse(r.out);  // valid UTF-8 JSON
      CHECK(r.out.find("Caf" + kFffd) != std::string::npos);
    }
  }
  auto r = RunSagelint("scan --format json .", s.path());
  auto f = nlohmann::json::parse(r.out)["findings"][0];
  CHECK(f["resource"] == "notebook instance 'Caf" + kFffd + "'");
  CHECK(f["line"] == 3);  // positions count the bytes of the file as stored
  CHECK(f["column"] == 3);

  r = RunSagelint("inventory --format json .", s.path());
  CHECK(r.status == 0);
  CHECK(nlohmann::json::parse(r.out)["workloads"][0]["name"].get<std::string>().find(kFffd) != std::string::npos);

  // The baseline is written whole, and an older one is replaced, not emptied.
  s.Write("baseline.json", "{\"schema_version\": 1, \"findings\": []}\n");
  r = RunSagelint("scan --write-baseline baseline.json --format json=report.json .", s.path());
  CHECK(r.status == 0);
  CHECK(r.err == "sagelint: recorded 1 finding in baseline.json\n");
  auto baseline = nlohmann::json::parse(ReadFileOrDie(s.path() + "/baseline.json"));
  CHECK(baseline["findings"].size() == 1);
  CHECK(nlohmann::json::parse(ReadFileOrDie(s.path() + "/report.json"))["findings"].size() == 1);
  r = RunSagelint("scan --baseline baseline.json .", s.path());
  CHECK(r.status == 0);

  // A Latin-1 file name too.
  s.Write("n\xE9.yaml", Notebook("Other"));
  r = RunSagelint("scan --format sarif .", s.path());
  CHECK(r.status == 1);
  CHECK_NOTHROW(nlohmann::json::parse(r.out));
}

TEST_CASE("a failed write is exit 2 naming the file, and never truncates it", "[adversarial][cli][write]") {
  Scratch s;
  s.Write("nb.yaml", Notebook("Explore"));
  auto r = RunSagelint("scan --format sarif=/dev/full .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: cannot write /dev/full: No space left on device\n");
  r = RunSagelint("scan --write-baseline /dev/full .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --write-baseline: cannot write /dev/full: No space left on device\n");
  r = RunSagelint("scan --format text=/dev/full --format json=ok.json .", s.path());
  CHECK(r.status == 2);  // the other output is still written
  CHECK(nlohmann::json::parse(ReadFileOrDie(s.path() + "/ok.json"))["findings"].size() == 1);
  r = RunSagelint("scan --format json=missing-dir/out.json .", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: cannot write missing-dir/out.json: No such file or directory\n");

  // Standard output on a full device.
  CHECK(Shell("cd '" + s.path() + "' && '" + sagelint::testing::Binary() + "' scan . >/dev/full 2>err.txt") == 2);
  CHECK(ReadFileOrDie(s.path() + "/err.txt") == "sagelint: cannot write to standard output\n");

  // A write cut short (here by the file size limit) leaves the previous report whole.
  for (int i = 0; i < 30; ++i) s.Write("nb" + std::to_string(i) + ".yaml", Notebook("N" + std::to_string(i)));
  s.Write("report.json", "OLD");
  int rc = Shell("cd '" + s.path() + "' && trap '' XFSZ && ulimit -f 8 && '" + sagelint::testing::Binary() +
                 "' scan --format json=report.json . >/dev/null 2>err.txt");
  CHECK(rc == 2);
  CHECK(ReadFileOrDie(s.path() + "/err.txt") == "sagelint: cannot write report.json: File too large\n");
  CHECK(ReadFileOrDie(s.path() + "/report.json") == "OLD");
  for (const auto& e : fs::directory_iterator(s.path())) {
    CHECK(e.path().filename().string().find(".report.json.") == std::string::npos);  // no temporary left
  }
}

TEST_CASE("YAML aliases are bounded by expanded bytes as well as nodes", "[adversarial][cloudformation]") {
  // 1,200 aliases of a 250 KB string: a small file that expands to 300 MB.
  std::string text =
      "AWSTemplateFormatVersion: x # SageMaker\nBig: &big \"" + std::string(250000, 'a') + "\"\nCopies:\n";
  for (int i = 0; i < 1200; ++i) text += "  - *big\n";
  sagelint::cfn::Node root;
  std::vector<sagelint::cfn::LoadError> errors;
  CHECK_FALSE(sagelint::cfn::LoadDocument(text, 0, sagelint::cfn::LoadLimits{}, &root, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "the document expands to more than 1000000 nodes or 256 MiB (YAML aliases?); not parsed");

  sagelint::cfn::LoadLimits small;
  small.max_bytes = 1u << 20;
  errors.clear();
  std::string few = "a: &a \"" + std::string(300000, 'x') + "\"\nb: [*a, *a, *a, *a]\n";
  CHECK_FALSE(sagelint::cfn::LoadDocument(few, 0, small, &root, &errors));
  few = "a: &a \"" + std::string(300000, 'x') + "\"\nb: [*a, *a]\n";
  sagelint::cfn::Node ok;
  CHECK(sagelint::cfn::LoadDocument(few, 0, small, &ok, &errors));

  // A document that is itself over the node bound is refused before yaml-cpp builds it.
  std::string dense = "Data:\n";
  while (dense.size() < (7u << 19)) dense += "  - [a, b, c, d, e, f, g, h]\n";
  errors.clear();
  CHECK_FALSE(sagelint::cfn::LoadDocument(dense, 0, sagelint::cfn::LoadLimits{}, &root, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message == "the document has more than 1000000 nodes; not parsed");

  Scratch s;
  s.Write("good.yaml", Notebook("Explore"));
  s.Write("bomb.yaml", text);
  auto r = RunSagelint("scan --no-color --quiet .", s.path());
  CHECK(r.status == 1);
  CHECK(r.out ==
        "bomb.yaml:1:1: error[SM000] the document expands to more than 1000000 nodes or 256 MiB (YAML aliases?); not "
        "parsed\n"
        "good.yaml:3:3: warning[SM201] notebook instance 'Explore' has no lifecycle configuration: it never stops when "
        "idle\n");
}

TEST_CASE("a Sub that repeats a long parameter stays bounded", "[adversarial][cloudformation]") {
  std::string text = "AWSTemplateFormatVersion: x\nParameters:\n  P:\n    Default: \"" + std::string(100000, 'p') +
                     "\"\nResources:\n  Explore:\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n"
                     "      InstanceType: !Sub \"";
  for (int i = 0; i < 20000; ++i) text += "${P}";
  text += "\"\n      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n";
  Scratch s;
  s.Write("sub.yaml", text);
  auto r = RunSagelint("inventory --format csv .", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("notebook instance 'Explore',sub.yaml:6,?,") != std::string::npos);  // unknown, not 2 GB
}

TEST_CASE("every file sagelint reads is capped, and special files and directories are refused",
          "[adversarial][cli][files]") {
  Scratch s;
  s.Write("nb.yaml", Notebook("Explore"));
  s.Write("big.bin", "x");
  fs::resize_file(fs::path(s.path()) / "big.bin", 3ull << 30);  // sparse: no disk used
  struct Case {
    std::string args, err;
  };
  for (const Case& c : std::vector<Case>{
           {"--config /dev/zero", "sagelint: /dev/zero: cannot read the configuration file: not a regular file\n"},
           {"--config big.bin", "sagelint: big.bin: cannot read the configuration file: larger than 1 MiB\n"},
           {"--config .", "sagelint: .: cannot read the configuration file: is a directory\n"},
           {"--baseline /dev/zero", "sagelint: --baseline: /dev/zero: cannot read the baseline: not a regular file\n"},
           {"--baseline big.bin", "sagelint: --baseline: big.bin: cannot read the baseline: larger than 64 MiB\n"},
           {"--s3-listing s3://b/=/dev/zero", "sagelint: --s3-listing: /dev/zero: cannot read: not a regular file\n"},
           {"--s3-listing big.bin", "sagelint: --s3-listing: big.bin: cannot read: larger than 256 MiB\n"},
           {"--prices /dev/zero", "sagelint: prices: /dev/zero: cannot read: not a regular file\n"},
           {"--prices big.bin", "sagelint: prices: big.bin: cannot read: larger than 512 MiB\n"},
       }) {
    DYNAMIC_SECTION(c.args) {
      auto r = RunSagelint("scan " + c.args + " nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err == c.err);
    }
  }
  // The scanned repository's own configuration names files too.
  s.Write(".sagelint.yaml", "policy_files: [/dev/zero]\n");
  auto r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.rfind("sagelint: .sagelint.yaml: policy_files: /dev/zero is outside the scan root ", 0) == 0);
  s.Write(".sagelint.yaml", "prices: /dev/zero\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: .sagelint.yaml: prices: /dev/zero is outside the scan root\n");
  // Inside the scan root, a special file is refused as the command line's are.
  fs::create_symlink("/dev/zero", fs::path(s.path()) / "zero");
  s.Write(".sagelint.yaml", "policy_files: [zero]\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("outside the scan root") != std::string::npos);  // the link leads out
  s.Write("sub/.keep", "");
  s.Write(".sagelint.yaml", "policy_files: [sub]\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: .sagelint.yaml: policy_files: cannot read sub: is a directory\n");
  s.Write(".sagelint.yaml", "prices: big.bin\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("larger than 512 MiB") != std::string::npos);
  fs::remove(fs::path(s.path()) / ".sagelint.yaml");
  fs::create_directory(fs::path(s.path()) / "cfgdir");
  r = RunSagelint("scan --config cfgdir nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("is a directory") != std::string::npos);
  CHECK(r.err.find("bad file") == std::string::npos);
}

TEST_CASE("files the configuration names are read only inside the scan root, and never echoed",
          "[adversarial][cli][config]") {
  Scratch outside;
  // What an attacker would like to learn: whether it exists, and what it says.
  outside.Write("secret.yaml", "policies:\n  - id: SMTOPSECRET\n    workload: training_job\n    message: x\n");
  outside.Write("prices.json", "{\"region\": \"TOPSECRET-REGION\", \"prices\": {}}\n");
  Scratch s;
  s.Write(".git/HEAD", "");  // the scan root is this directory
  s.Write("nb.yaml", Notebook("Explore"));
  fs::create_symlink(outside.path() + "/secret.yaml", fs::path(s.path()) / "linked.yaml");
  // A link to a file that does not exist must not answer differently from one to a file that does.
  fs::create_symlink(outside.path() + "/missing.yaml", fs::path(s.path()) / "dangling.yaml");
  fs::create_directory_symlink(outside.path(), fs::path(s.path()) / "out");
  std::string rel_up;
  for (const auto& part : fs::path(s.path())) {
    if (part != "/") rel_up += "../";
  }
  // Section names stay the same from run to run (the scratch paths do not).
  std::vector<std::pair<std::string, std::string>> cases = {
      {"absolute", outside.path() + "/secret.yaml"},
      {"absolute, missing", outside.path() + "/missing.yaml"},
      {"a link inside", "linked.yaml"},
      {"a dangling link inside", "dangling.yaml"},
      {"through a linked directory, missing", "out/missing.yaml"},
      {"climbing", rel_up + outside.path().substr(1) + "/secret.yaml"},
      {"proc", "/proc/self/environ"}};
  for (const auto& [what, named] : cases) {
    DYNAMIC_SECTION(what) {
      s.Write(".sagelint.yaml", "policy_files: ['" + named + "']\n");
      auto r = RunSagelint("scan nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err.find("policy_files: " + named + " is outside the scan root") != std::string::npos);
      CHECK(r.err.find("SECRET") == std::string::npos);
      CHECK(r.err.find("No such file") == std::string::npos);
    }
  }
  for (const std::string& named :
       {outside.path() + "/prices.json", outside.path() + "/missing.json", std::string("dangling.yaml")}) {
    DYNAMIC_SECTION("prices " << fs::path(named).filename().string()) {
      s.Write(".sagelint.yaml", "prices: " + named + "\n");
      auto r = RunSagelint("scan nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err == "sagelint: .sagelint.yaml: prices: " + named + " is outside the scan root\n");
    }
  }
  // The same for the baseline the configuration names.
  for (const std::string& named : {std::string("dangling.yaml"), std::string("linked.yaml")}) {
    DYNAMIC_SECTION("baseline " << named) {
      s.Write(".sagelint.yaml", "baseline: " + named + "\n");
      auto r = RunSagelint("scan nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err == "sagelint: .sagelint.yaml: baseline: " + named + " is outside the scan root\n");
    }
  }
  // Inside the root they are read as before.
  s.Write("policies.yaml", "policies:\n  - id: ORG1\n    workload: notebook_instance\n    message: no notebooks\n");
  s.Write(".sagelint.yaml", "policy_files: [policies.yaml]\n");
  auto r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("warning[ORG1] notebook instance 'Explore': no notebooks") != std::string::npos);
}

TEST_CASE("configuration: duplicate keys, non-finite numbers", "[adversarial][cli][config]") {
  Scratch s;
  s.Write("nb.yaml", Notebook("Explore"));
  s.Write(".sagelint.yaml", "fail_on: note\nrules:\n  SM201: off\nfail_on: none\n");
  auto r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: .sagelint.yaml:4: duplicate key 'fail_on'\n");
  s.Write(".sagelint.yaml", "rules:\n  SM201: off\n  SM201: error\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: .sagelint.yaml:3: duplicate key 'SM201'\n");
  for (const char* bad : {"nan", "NaN", "inf", "-inf", "0x10", "1e999"}) {
    DYNAMIC_SECTION(bad) {
      s.Write(".sagelint.yaml", std::string("rules:\n  SM301: { threshold_gb: ") + bad + " }\n");
      r = RunSagelint("scan nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err.find("is not a non-negative number") != std::string::npos);
    }
  }
  s.Write(".sagelint.yaml", "policy_files: [p.yaml]\n");
  s.Write("p.yaml", "policies:\n  - id: ORG1\n    workload: notebook_instance\n    message: a\n    message: b\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: p.yaml:5: duplicate key 'message'\n");
  s.Write("p.yaml",
          "policies:\n  - id: ORG1\n    workload: notebook_instance\n    where:\n"
          "      instance_count: { gt: nan }\n    message: m\n");
  r = RunSagelint("scan nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err.find("'nan' is not a number") != std::string::npos);
}

TEST_CASE("cdk.out: skipped where git ignores it, read when named or with --no-ignore", "[cli][discover][cdk]") {
  Scratch s;
  s.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  s.Write("repo/.gitignore", "cdk.out\n");
  s.Write("repo/app/cdk.out/Stack.template.json",
          R"({"Resources": {"Nb": {"Type": "AWS::SageMaker::NotebookInstance", "Properties": {"InstanceType":
          "ml.t3.medium", "RoleArn": "arn:aws:iam::1:role/r"}, "Metadata": {"aws:cdk:path": "Stack/Nb"}}}})");
  auto r = RunSagelint("scan --no-color --quiet repo", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("Stack.template.json") == std::string::npos);
  for (const char* args : {"repo/app/cdk.out", "repo/app/cdk.out/Stack.template.json", "--no-ignore repo"}) {
    INFO(args);
    r = RunSagelint(std::string("scan --no-color --quiet ") + args, s.path());
    CHECK(r.status == 1);
    CHECK(r.out.find("repo/app/cdk.out/Stack.template.json:1:16: warning[SM201] notebook instance 'Nb' (Stack/Nb)") !=
          std::string::npos);
  }
}

TEST_CASE(".gitignore files apply only inside the scan root and its git work tree", "[adversarial][cli][discover]") {
  Scratch s;
  // No git work tree here: a stray `*` in a parent directory must not hide the scan.
  s.Write(".gitignore", "*\n");
  s.Write("project/nb.yaml", Notebook("Explore"));
  auto r = RunSagelint("scan --no-color --quiet project", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("project/nb.yaml:3:3: warning[SM201]") != std::string::npos);

  // Inside a git work tree, its .gitignore files above the root apply (as git applies them).
  s.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  s.Write("repo/.gitignore", "generated/\n");
  s.Write("repo/infra/generated/nb.yaml", Notebook("Generated"));
  s.Write("repo/infra/nb.yaml", Notebook("Kept"));
  r = RunSagelint("scan --no-color --quiet repo/infra", s.path());
  CHECK(r.out.find("'Kept'") != std::string::npos);
  CHECK(r.out.find("'Generated'") == std::string::npos);
  CHECK(r.err.empty());

  // A named directory in which nothing is left to scan says so.
  s.Write("repo/gen/.gitignore", "*.yaml\n");
  s.Write("repo/gen/nb.yaml", Notebook("Hidden"));
  r = RunSagelint("scan --no-color repo/gen", s.path());
  CHECK(r.status == 0);
  CHECK(r.err ==
        "sagelint: warning: repo/gen: no file to scan here (none of a scanned kind, or all excluded by "
        ".gitignore or exclude:)\n");
  r = RunSagelint("scan --no-color --no-ignore repo/gen", s.path());
  CHECK(r.status == 1);
  CHECK(r.err.empty());

  // A pathological ignore pattern costs linear time, not minutes.
  std::string deep = "repo/deep";
  for (int i = 0; i < 40; ++i) deep += "/d";
  s.Write(deep + "/nb.yaml", Notebook("Deep"));
  s.Write("repo/deep/.gitignore", "**/**/**/**/**/**/**/**/**/b\n");
  r = RunSagelint("scan --no-color --quiet repo/deep", s.path());
  CHECK(r.out.find("'Deep'") != std::string::npos);
}

TEST_CASE("a linked file is scanned once", "[adversarial][cli][discover]") {
  Scratch s;
  s.Write("train.py",
          "from sagemaker.pytorch import PyTorch\nPyTorch(entry_point='t.py', role='r', instance_type='ml.g5.xlarge', "
          "instance_count=1, framework_version='2.1', py_version='py310').fit()\n");
  fs::create_symlink("train.py", fs::path(s.path()) / "link.py");
  auto r = RunSagelint("scan --format json .", s.path());
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["summary"]["files_scanned"] == 1);
  for (const auto& f : doc["findings"]) CHECK(f["path"] == "train.py");
}

// A directory is walked while its files are parsed; a file reached through a
// link is sent after the walk, once, and not at all if the walk kept it where
// it lives. Listing the same tree first (two paths) must give the same scan.
TEST_CASE("linked files count once, walked or listed", "[adversarial][cli][discover]") {
  Scratch s;
  std::string train =
      "from sagemaker.pytorch import PyTorch\nPyTorch(entry_point='t.py', role='r', instance_type='ml.g5.xlarge', "
      "instance_count=1, framework_version='2.1', py_version='py310').fit()\n";
  s.Write("repo/train.py", train);
  s.Write("repo/ignored/hidden.py", train);
  s.Write("repo/.gitignore", "ignored/\n");
  fs::path repo = fs::path(s.path()) / "repo";
  fs::create_symlink("train.py", repo / "a_link.py");           // walked before its target
  fs::create_symlink("train.py", repo / "z_link.py");           // and after
  fs::create_symlink("ignored/hidden.py", repo / "h_link.py");  // the target itself is ignored
  fs::create_symlink("ignored/hidden.py", repo / "h2_link.py");
  auto walked = RunSagelint("scan --format json repo", s.path());
  auto doc = nlohmann::json::parse(walked.out);
  CHECK(doc["summary"]["files_scanned"] == 2);
  std::multiset<std::string> paths;
  for (const auto& f : doc["findings"]) paths.insert(f["path"].get<std::string>());
  CHECK(paths.count("repo/train.py") == paths.count("repo/ignored/hidden.py"));
  CHECK(paths.size() == 2 * paths.count("repo/train.py"));
  CHECK(paths.count("repo/train.py") > 0);
  auto listed = RunSagelint("scan --format json repo repo", s.path());
  CHECK(listed.out == walked.out);
}

TEST_CASE("suppressions: only real comments count", "[adversarial][cli][suppress]") {
  Scratch s;
  // The directive text in a string of the first resource must not hide the second's finding.
  s.Write("str.yaml",
          "AWSTemplateFormatVersion: \"2010-09-09\"\nResources:\n  First:\n    Type: AWS::S3::Bucket\n"
          "    Properties:\n      BucketName: \"# sagelint:ignore=SM201\"\n  Explore:\n"
          "    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: ml.t3.xlarge\n"
          "      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n");
  auto r = RunSagelint("scan --no-color --quiet str.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("str.yaml:7:3: warning[SM201]") != std::string::npos);

  // A custom policy suppressed by comment is known: no SM002.
  s.Write(".sagelint.yaml", "policies:\n  - id: ORG1\n    workload: notebook_instance\n    message: no notebooks\n");
  std::string nb = Notebook("Explore");
  nb.replace(nb.find("  Explore:"), 0, "  # sagelint:ignore=ORG1,SM201 approved\n");
  s.Write("nb.yaml", nb);
  r = RunSagelint("scan --no-color --fail-on note nb.yaml", s.path());
  CHECK(r.status == 0);
  CHECK(r.out == "No findings in 1 file, 2 suppressed\n");
}

TEST_CASE("names from scanned files cannot forge terminal output or a PR comment", "[adversarial][cli][escape]") {
  Scratch s;
  s.Write("nb.yaml", Notebook("\"Evil\\e[2J\\r\\nforged.yaml:1:1: error[SM999] fake\\u009b\""));
  auto r = RunSagelint("scan --no-color --quiet nb.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find('\r') == std::string::npos);
  CHECK(r.out.find("\xC2\x9B") == std::string::npos);
  CHECK(r.out ==
        "nb.yaml:3:3: warning[SM201] notebook instance 'Evil\\x1b[2J\\r\\nforged.yaml:1:1: error[SM999] "
        "fake\\u009b' has no lifecycle configuration: it never stops when idle\n");
  // --wide: the table shows whole labels (a narrow one may cut the escaped text out of the middle).
  for (const char* cmd : {"inventory --wide nb.yaml", "inventory --format csv nb.yaml"}) {
    r = RunSagelint(cmd, s.path());
    CHECK(r.out.find('\x1b') == std::string::npos);
    CHECK(r.out.find('\r') == std::string::npos);
    CHECK(r.out.find("\\x1b[2J") != std::string::npos);
  }
  // A file name is a name too.
  s.Write("x\x1b[31m.yaml", Notebook("Plain"));
  r = RunSagelint("scan --no-color --quiet .", s.path());
  CHECK(r.out.find('\x1b') == std::string::npos);
  CHECK(r.out.find("x\\x1b[31m.yaml:3:3:") != std::string::npos);

  // Markdown: no HTML, links, images or mentions from a resource name reach the PR comment.
  Scratch m;
  m.Write("nb.yaml",
          Notebook("\"<img src=x onerror=alert(1)> [click](https://evil.example) ![t](https://t.example/p.png) "
                   "@org/team www.evil.example `code` | pipe\""));
  r = RunSagelint("scan --format markdown nb.yaml", m.path());
  CHECK(r.out.find("<img") == std::string::npos);
  CHECK(r.out.find("&lt;img src=x onerror=alert(1)&gt;") != std::string::npos);
  CHECK(r.out.find("\\[click\\](https\\://evil.example)") != std::string::npos);
  CHECK(r.out.find("!\\[t\\](https\\://t.example/p.png)") != std::string::npos);
  CHECK(r.out.find("\\@org/team") != std::string::npos);
  CHECK(r.out.find("www\\.evil") != std::string::npos);
  CHECK(r.out.find("\\`code\\` \\| pipe") != std::string::npos);
  // Markdown code spans for paths: a backtick in a file name cannot close them.
  Scratch b;
  b.Write("a`b.yaml", Notebook("Explore"));
  r = RunSagelint("scan --format markdown .", b.path());
  CHECK(r.out.find("``a`b.yaml:3``") != std::string::npos);
}

TEST_CASE("a file named like an option is scanned, never obeyed", "[adversarial][cli][precommit]") {
  // Every hook entry ends with `--`, after which pre-commit appends the file names.
  YAML::Node hooks = YAML::LoadFile(sagelint::testing::SourcePath(".pre-commit-hooks.yaml"));
  REQUIRE(hooks.size() == 4);
  for (const auto& h : hooks) {
    std::string entry = h["entry"].as<std::string>();
    CHECK(entry.size() > 3);
    CHECK(entry.substr(entry.size() - 3) == " --");
  }
  Scratch s;
  s.Write("--format=text=victim.json", Notebook("Injected"));
  s.Write("--format=json.yaml", Notebook("Other"));
  s.Write("victim.json", "{\"keep\": true}\n");
  // What pre-commit runs: the entry, then the staged file names.
  std::string entry = hooks[0]["entry"].as<std::string>();
  REQUIRE(entry.rfind("sagelint ", 0) == 0);
  auto r = RunSagelint(entry.substr(9) + " --format=text=victim.json --format=json.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(ReadFileOrDie(s.path() + "/victim.json") == "{\"keep\": true}\n");
  CHECK(r.out.find("--format=text=victim.json:3:3: warning[SM201] notebook instance 'Injected'") != std::string::npos);
  CHECK(r.out.find("--format=json.yaml:3:3: warning[SM201] notebook instance 'Other'") != std::string::npos);
  // Options placed after `--` are paths: a clear error, not a silent change of behaviour.
  r = RunSagelint("scan -- --fail-on=none", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: --fail-on=none: no such file or directory (options go before `--`)\n");
}

TEST_CASE("the Action splits args and paths as a shell would, without running anything", "[adversarial][cli][action]") {
  Scratch s;
  s.Write("my infra/nb.yaml", Notebook("Spaced"));
  s.Write("other/nb.yaml", Notebook("Other"));
  s.Write("base line.json", "{\"schema_version\": 1, \"findings\": []}\n");
  std::string script = sagelint::testing::SourcePath("scripts/action-scan.sh");
  auto run = [&](const std::string& paths, const std::string& args) {
    std::string cmd = "cd '" + s.path() + "' && GITHUB_OUTPUT=out.txt SAGELINT_SARIF=r.sarif SAGELINT_PATHS=" + paths +
                      " SAGELINT_ARGS=" + args + " '" + script + "' '" + sagelint::testing::Binary() +
                      "' >stdout.txt 2>stderr.txt";
    return Shell(cmd);
  };
  CHECK(run("'\"my infra\" other'", "'--baseline \"base line.json\" --select SM201'") == 0);
  CHECK(ReadFileOrDie(s.path() + "/out.txt").rfind("exit-code=1\nfindings=2\n", 0) == 0);
  std::string out = ReadFileOrDie(s.path() + "/stdout.txt");
  CHECK(out.find("file=my infra/nb.yaml,line=3") != std::string::npos);
  CHECK(out.find("file=other/nb.yaml,line=3") != std::string::npos);
  // Nothing is expanded or executed.
  CHECK(run("'$(touch pwned) `touch pwned2` *'", "''") == 2);
  CHECK_FALSE(Exists(s.path() + "/pwned"));
  CHECK_FALSE(Exists(s.path() + "/pwned2"));
  CHECK(ReadFileOrDie(s.path() + "/stderr.txt").find("$(touch: no such file or directory") != std::string::npos);
  // An unmatched quote is a usage error.
  fs::remove(fs::path(s.path()) / "out.txt");
  CHECK(run("'\"my infra'", "''") == 2);
  CHECK(ReadFileOrDie(s.path() + "/out.txt") == "exit-code=2\n");
}

TEST_CASE("command line: --, repeated values, strict numbers, command after options, --format per command",
          "[adversarial][cli]") {
  Scratch s;
  s.Write("nb.yaml",
          "AWSTemplateFormatVersion: \"2010-09-09\"\nParameters:\n  T:\n    Type: String\nResources:\n  Explore:\n"
          "    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n      InstanceType: !Ref T\n"
          "      RoleArn: arn:aws:iam::111122223333:role/sagemaker\n      LifecycleConfigName: stop-idle\n");
  // The last --param wins.
  auto r = RunSagelint("scan --no-color --quiet --param T=ml.t3.medium --param T=ml.p3.2xlarge nb.yaml", s.path());
  CHECK(r.out.find("warning[SM103]") != std::string::npos);
  r = RunSagelint("scan --no-color --quiet --param T=ml.p3.2xlarge --param T=ml.t3.medium nb.yaml", s.path());
  CHECK(r.out.find("SM103") == std::string::npos);
  s.Write("main.tf",
          "variable \"t\" {}\nresource \"aws_sagemaker_notebook_instance\" \"n\" {\n  name = \"n\"\n"
          "  instance_type = var.t\n  role_arn = \"r\"\n  lifecycle_config_name = \"stop\"\n}\n");
  r = RunSagelint("scan --no-color --quiet --var t=ml.t3.medium --var t=ml.p3.2xlarge main.tf", s.path());
  CHECK(r.out.find("warning[SM103]") != std::string::npos);

  for (const char* jobs : {"1.5", "4x", "0", "-1", "", " 4", "1025", "99999999999"}) {
    DYNAMIC_SECTION("--jobs '" << jobs << "'") {
      r = RunSagelint(std::string("scan --jobs '") + jobs + "' nb.yaml", s.path());
      CHECK(r.status == 2);
      CHECK(r.err.find("--jobs expects a whole number from 1 to 1024") != std::string::npos);
    }
  }
  r = RunSagelint("scan --jobs 4 --no-color --quiet --param T=ml.t3.medium nb.yaml", s.path());
  CHECK(r.status == 0);

  r = RunSagelint("--no-color scan --quiet --param T=ml.p3.2xlarge nb.yaml", s.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("warning[SM103]") != std::string::npos);
  r = RunSagelint("help");
  CHECK(r.status == 0);
  CHECK(r.out.find("Usage:") != std::string::npos);
  r = RunSagelint("--quiet inventory --format csv nb.yaml", s.path());
  CHECK(r.status == 0);
  CHECK(r.out.find("kind,resource") == 0);

  r = RunSagelint("rules --format json");
  CHECK(r.status == 0);
  auto doc = nlohmann::json::parse(r.out);
  CHECK(doc["rules"].size() == sagelint::AllRules().size());
  CHECK(doc["rules"][0]["id"] == "SM000");
  CHECK(RunSagelint("rules --format sarif").status == 2);
  r = RunSagelint("explain SM401 --format json");
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: explain formats are text and markdown, not 'json'\n");
  r = RunSagelint("iam-policy --format sarif nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: iam-policy does not take --format\n");
  r = RunSagelint("inventory --format sarif nb.yaml", s.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: inventory formats are table, json and csv, not 'sarif'\n");
}

TEST_CASE("SARIF names where the tool is documented", "[adversarial][cli][sarif]") {
  Scratch s;
  s.Write("nb.yaml", Notebook("Explore"));
  auto doc = nlohmann::json::parse(RunSagelint("scan --format sarif .", s.path()).out);
  const auto& driver = doc["runs"][0]["tool"]["driver"];
  if (std::string_view(SAGELINT_HOMEPAGE).empty()) {
    CHECK_FALSE(driver.contains("informationUri"));  // no placeholder: the build names no homepage
  } else {
    std::string uri = driver["informationUri"];
    CHECK(uri == SAGELINT_HOMEPAGE);
    CHECK(uri.rfind("https://", 0) == 0);
  }
}

TEST_CASE("the SM000 doc states the limits the parser applies", "[adversarial][rules]") {
  std::string doc(sagelint::RuleDoc("SM000"));
  sagelint::cfn::LoadLimits limits;
  CHECK(doc.find("nesting deeper than " + std::to_string(limits.max_depth) + " levels") != std::string::npos);
  CHECK(doc.find(std::to_string(limits.max_bytes >> 20) + " MiB") != std::string::npos);
}

TEST_CASE("peak memory does not grow with --jobs on large YAML", "[adversarial][memory]") {
  Scratch s;
  // Six dense 2.5 MB templates, each just under the node bound (some hundred MB once parsed).
  std::string big = "AWSTemplateFormatVersion: x # SageMaker\nResources:\n  X:\n    Type: AWS::S3::Bucket\nData:\n";
  while (big.size() < (5u << 19)) big += "  - [a, b, c, d, e, f, g, h]\n";
  for (int i = 0; i < 6; ++i) s.Write("t" + std::to_string(i) + ".yaml", big);
  auto peak_kb = [&](int jobs) {
    return sagelint::testing::PeakRssKib("cd '" + s.path() + "' && '" + sagelint::testing::Binary() + "' scan --jobs " +
                                             std::to_string(jobs) + " . >/dev/null 2>&1",
                                         nullptr);
  };
  long one = peak_kb(1);
  long six = peak_kb(6);
  INFO("peak RSS with --jobs 1: " << one << " KiB, with --jobs 6: " << six << " KiB");
  CHECK(six < one * 3 / 2);
}

TEST_CASE("a run of bytes YAML cannot read is one U+FFFD and one record, and the records are capped",
          "[adversarial][yaml][memory]") {
  using sagelint::cfn::LoadDocument;
  using sagelint::cfn::LoadError;
  using sagelint::cfn::LoadLimits;
  using sagelint::cfn::Node;
  const std::string fffd = "\xEF\xBF\xBD";
  Node doc;
  std::vector<LoadError> errors;
  // A run is one replacement; positions after it stay those of the file.
  std::string text = "A: {x: a\xFF\xFE\xFD\x01z, y: w}\nB: \xE9t\xE9\n";
  REQUIRE(LoadDocument(text, 0, LoadLimits{}, &doc, &errors));
  CHECK(doc.Get("A")->Get("x")->text == "a" + fffd + "z");
  CHECK(doc.Get("A")->Get("y")->pos.column == static_cast<int>(text.find("w}")) + 1);
  CHECK(doc.Get("B")->text == fffd + "t" + fffd);
  CHECK(doc.Get("B")->pos.line == 2);

  // 8 MiB of 0xFF: one replacement, not 8 million.
  std::string run = "A: x" + std::string(8u << 20, '\xFF') + "\nB: y\n";
  REQUIRE(LoadDocument(run, 0, LoadLimits{}, &doc, &errors));
  CHECK(doc.Get("A")->text == "x" + fffd);
  CHECK(doc.Get("B")->pos.line == 2);

  // Unreadable bytes between readable ones cannot make a run: past 2^20 records the text is not read.
  std::string spread = "A: ";
  for (int i = 0; i <= (1 << 20); ++i)
    spread +=
        "\xFF"
        "a";
  errors.clear();
  CHECK(!LoadDocument(spread, 0, LoadLimits{}, &doc, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message ==
        "more than 1048576 characters or runs of bytes that YAML cannot read (not UTF-8, or control characters); not "
        "parsed");
  CHECK(errors[0].pos.line == 1);
  CHECK(errors[0].pos.column == 3 + 2 * (1 << 20) + 2);  // the byte after the last record kept
}

TEST_CASE("a parameter file of 32 MiB of invalid bytes costs memory in proportion to its size, not 45 times it",
          "[adversarial][memory]") {
  Scratch s;
  s.Write(".sagelint.yaml", "parameter_files:\n  \"**/template.yml\": [config.json]\n");
  s.Write("x/template.yml", Notebook("Nb", "ml.p3.2xlarge"));
  s.Write("x/config.json", std::string(32u << 20, '\xFF'));
  int rc = 0;
  long peak = sagelint::testing::PeakRssKib(
      "cd '" + s.path() + "' && '" + sagelint::testing::Binary() + "' scan --quiet . >/dev/null 2>&1", &rc);
  INFO("peak RSS " << peak << " KiB");
  CHECK(WIFEXITED(rc));
  CHECK(WEXITSTATUS(rc) == 1);                                    // the template's findings, with the file not applied
  if (!sagelint::testing::Sanitized()) CHECK(peak < 400 * 1024);  // was 1.45 GB
}
