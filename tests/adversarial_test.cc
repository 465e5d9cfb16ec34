// Hostile input: every case ends in bounded time with a clear SM000 or a skip
// message, never a crash or a lost file, and a good sibling is still scanned.
// Also: identical output for any --jobs value and any file order.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::RunSagelint;

namespace {

constexpr const char* kGood = R"(AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
)";

// A scratch tree that always holds one good template.
class Tree : public sagelint::testing::TempDir {
 public:
  Tree() { Write("good.yaml", kGood); }
};

// Scans the tree; the good file's finding must be there.
sagelint::testing::CommandResult ScanTree(const Tree& t) {
  auto r = RunSagelint("scan --no-color --quiet .", t.path());
  CHECK(r.status == 1);
  CHECK(r.out.find("good.yaml:3:3: warning[SM201]") != std::string::npos);
  return r;
}

}  // namespace

// Files that never mention SageMaker are skipped before any parser runs, so
// every hostile file here names it somewhere.
TEST_CASE("broken encodings and bytes", "[adversarial]") {
  Tree t;
  t.Write("bom.yaml", "\xEF\xBB\xBF" + std::string(kGood));
  std::string crlf;
  for (char c : std::string(kGood)) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  t.Write("crlf.yaml", crlf);
  t.Write("nul.yaml",
          std::string("AWSTemplateFormatVersion: x\nDescription: SageMaker\nResources: {}\n") + std::string(2, '\0'));
  t.Write("latin1.yaml",
          "AWSTemplateFormatVersion: x\nDescription: caf\xE9\nResources:\n  A: {Type: AWS::S3::Bucket}\n");
  t.Write("nul.py", std::string("import sagemaker\n") + std::string(2, '\0') + "x = 1\n");
  t.Write("bad.tf", "resource \"aws_sagemaker_notebook_instance\" \"x\" {\n  name = \"unterminated\n}\n");
  t.Write("plain.yaml", "AWSTemplateFormatVersion: x\nResources: [unclosed\n");  // no SageMaker: skipped
  auto r = ScanTree(t);
  CHECK(r.out.find("bom.yaml:3:3: warning[SM201]") != std::string::npos);
  CHECK(r.out.find("crlf.yaml:3:3: warning[SM201]") != std::string::npos);
  CHECK(r.out.find("nul.yaml:1:1: error[SM000] file contains NUL bytes; not a text template") != std::string::npos);
  CHECK(r.out.find("bad.tf:") != std::string::npos);
  CHECK(r.out.find("error[SM000] syntax error") != std::string::npos);
  CHECK(r.out.find("plain.yaml") == std::string::npos);
}

TEST_CASE("deep nesting, alias bombs, huge files and lines", "[adversarial]") {
  Tree t;
  t.Write("deep.yaml",
          "AWSTemplateFormatVersion: x # SageMaker\nResources: " + std::string(100000, '[') + std::string(100000, ']'));
  std::string bomb = sagelint::testing::AliasBomb();
  t.Write("bomb.yaml", bomb);
  t.Write("deep.json", "{\"AWSTemplateFormatVersion\": 1, \"Description\": \"SageMaker\", \"Resources\": " +
                           std::string(50000, '[') + "]}");
  t.Write("big.yaml",
          "AWSTemplateFormatVersion: x # SageMaker\nDescription: \"" + std::string(50u << 20, 'a') + "\"\n");
  t.Write("line.py", "import sagemaker\nx = '" + std::string(1u << 20, 'b') + "'\n");
  t.Write("deep.py", "import sagemaker\nx = " + std::string(20000, '(') + "1" + std::string(20000, ')') + "\n");
  auto r = ScanTree(t);
  CHECK(r.out.find("deep.yaml:2:412: error[SM000] nesting deeper than 400 levels; not parsed") != std::string::npos);
  CHECK(r.out.find("bomb.yaml:1:1: error[SM000] the document expands to more than 1000000 nodes or 256 MiB") !=
        std::string::npos);
  CHECK(r.out.find("deep.json:") != std::string::npos);
  CHECK(r.out.find("big.yaml:1:1: error[SM000] template larger than 16 MiB; not parsed") != std::string::npos);
}

TEST_CASE("links, loops and odd paths", "[adversarial]") {
  Tree t;
  t.Write("dir with spaces/nb 1.yaml", kGood);
  t.Write(std::string("odd-\xff-name/nb.yaml"), kGood);
  fs::create_directory_symlink(t.path(), fs::path(t.path()) / "loop");
  fs::create_directory_symlink("/etc", fs::path(t.path()) / "outside");
  fs::create_symlink("missing.yaml", fs::path(t.path()) / "dangling.yaml");
  auto r = ScanTree(t);
  CHECK(r.out.find("dir with spaces/nb 1.yaml:3:3: warning[SM201]") != std::string::npos);
  CHECK(r.out.find("odd-") != std::string::npos);
  CHECK(r.out.find("loop/") == std::string::npos);
  CHECK(r.out.find("outside/") == std::string::npos);
}

TEST_CASE("output is identical for any --jobs and any file order", "[adversarial][determinism]") {
  Tree t;
  for (int i = 0; i < 12; ++i) {
    std::string nb = kGood;
    nb.replace(nb.find("Explore"), 7, "Explore" + std::to_string(i));
    t.Write("cfn/t" + std::to_string(i) + ".yaml", nb);
  }
  t.Write("tf/main.tf",
          "resource \"aws_sagemaker_notebook_instance\" \"x\" {\n  instance_type = \"ml.p3.2xlarge\"\n}\n");
  t.Write("py/train.py",
          "from sagemaker.pytorch import PyTorch\nPyTorch(instance_type='ml.g5.xlarge', instance_count=1)\n");
  auto one = RunSagelint("scan --format json --jobs 1 .", t.path());
  auto two = RunSagelint("scan --format json --jobs 2 .", t.path());
  auto many = RunSagelint("scan --format json --jobs 8 .", t.path());
  CHECK(one.out == two.out);
  CHECK(one.out == many.out);
  auto forward = RunSagelint("scan --format json cfn/t1.yaml cfn/t2.yaml tf/main.tf py/train.py", t.path());
  auto backward = RunSagelint("scan --format json py/train.py tf/main.tf cfn/t2.yaml cfn/t1.yaml", t.path());
  CHECK(forward.out == backward.out);
  CHECK(forward.out.find("SM103") != std::string::npos);
}
