// Inputs the real tools accept, and commands whose output cannot be written:
// a JSON key over 1,024 characters, HCL numbers with an exponent, module
// cycles that Terraform rejects (and says so), a file named twice, and
// dump-model on a full device.
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

nlohmann::json Json(const std::string& out) { return sagelint::testing::ParseJson(out); }

std::vector<std::string> Lines(const nlohmann::json& findings) {
  std::vector<std::string> out;
  for (const auto& f : findings) {
    out.push_back(f["path"].get<std::string>() + ":" + std::to_string(f["line"].get<int>()) + ":" +
                  std::to_string(f["column"].get<int>()) + " " + f["rule"].get<std::string>() + " " +
                  f["message"].get<std::string>().substr(0, 60));
  }
  return out;
}

}  // namespace

TEST_CASE("a JSON key over 1,024 characters is read, and positions after it stay right",
          "[adversarial][cloudformation]") {
  TempDir d;
  std::string key(1500, 'k');
  std::string text = R"({"AWSTemplateFormatVersion": "2010-09-09", "Resources": {"Nb": {"Type": )"
                     R"("AWS::SageMaker::NotebookInstance", "Metadata": {")" +
                     key + R"(": {")" + key + R"(x": 1}}, "Properties": {"InstanceType": "ml.p3.2xlarge"}}}})";
  d.Write("nb.json", text);
  auto r = RunSagelint("scan --format json --fail-on none --select SM000,SM103 nb.json", d.path());
  auto j = Json(r.out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["rule"] == "SM103");
  CHECK(j["findings"][0]["line"] == 1);
  CHECK(j["findings"][0]["column"].get<size_t>() == text.find("\"ml.p3.2xlarge\"") + 1);
}

TEST_CASE("HCL numbers with an exponent and no fraction parse, and keep their value", "[adversarial][terraform]") {
  TempDir d;
  d.Write("main.tf", R"(locals {
  size  = 1e2
  other = 1.5e3
  big   = 2E+1
  text  = "not a number: 1e2"
  doc   = <<EOT
  5e3 stays text
EOT
}
resource "aws_sagemaker_notebook_instance" "nb" {
  instance_type = "ml.t3.medium"
  volume_size   = local.size
  tags          = { t = local.text, d = local.doc, b = local.big }
}
)");
  auto r = RunSagelint("scan --format json --fail-on none --select SM000 .", d.path());
  CHECK(Json(r.out)["findings"].empty());
  r = RunSagelint("inventory --format json .", d.path());
  auto j = Json(r.out);
  REQUIRE(j["workloads"].size() == 1);
  CHECK(j["workloads"][0]["volume_gb"] == 100);
}

TEST_CASE("a module cycle is SM000 saying Terraform rejects it, expanded nowhere", "[adversarial][terraform]") {
  TempDir d;
  d.Write(".git/HEAD", "");
  const char* notebook =
      "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  instance_type = \"ml.p3.2xlarge\"\n}\n";
  d.Write("a/main.tf", std::string("module \"b\" {\n  source = \"../b\"\n}\n") + notebook);
  d.Write("b/main.tf", "module \"a\" {\n  source = \"../a\"\n}\n");
  d.Write("self/main.tf", std::string("module \"me\" {\n  source = \"./\"\n}\n") + notebook);
  // Before: a↔b gave no finding at all; self was expanded 8 levels into 16 copies of its findings.
  auto r = RunSagelint("scan --format json --fail-on none .", d.path());
  auto lines = Lines(Json(r.out)["findings"]);
  CHECK(lines == std::vector<std::string>{
                     "a/main.tf:4:1 SM201 notebook instance 'aws_sagemaker_notebook_instance.nb' has n",
                     "a/main.tf:5:19 SM103 notebook instance 'aws_sagemaker_notebook_instance.nb' uses ",
                     "b/main.tf:1:1 SM000 module \"a\" (source \"../a\") calls a module that calls this on",
                     "self/main.tf:1:1 SM000 module \"me\" (source \"./\") calls its own module: a module cyc"});
  auto j = Json(RunSagelint("scan --format json --fail-on none self", d.path()).out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["message"] ==
        "module \"me\" (source \"./\") calls its own module: a module cycle, which Terraform rejects");
  // The cycle is found from either of its directories.
  j = Json(RunSagelint("scan --format json --fail-on none b", d.path()).out);
  REQUIRE(j["findings"].size() == 1);
  CHECK(j["findings"][0]["rule"] == "SM000");
}

TEST_CASE("a file named twice (by its path and a link's) is reported once", "[adversarial][cli][discover]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  fs::create_symlink("nb.yaml", fs::path(d.path()) / "link.yaml");
  for (const char* args : {"nb.yaml link.yaml", "link.yaml nb.yaml", "nb.yaml ./nb.yaml nb.yaml"}) {
    INFO(args);
    auto j = Json(RunSagelint(std::string("scan --format json --fail-on none ") + args, d.path()).out);
    CHECK(j["findings"].size() == 1);
    CHECK(j["summary"]["files_scanned"] == 1);
  }
}

TEST_CASE("dump-model on a full device exits non-zero with a message", "[adversarial][cli][write]") {
  TempDir d;
  d.Write("nb.yaml", sagelint::testing::NotebookTemplate("Nb", "ml.t3.medium"));
  std::string cmd =
      "cd '" + d.path() + "' && '" + sagelint::testing::Binary() + "' dump-model nb.yaml >/dev/full 2>err.txt";
  int rc = std::system(cmd.c_str());
  CHECK(WEXITSTATUS(rc) == 2);
  CHECK(ReadFileOrDie(d.path() + "/err.txt") == "sagelint: cannot write to standard output\n");
  // A file that is not there is an error too, and the others are still dumped.
  auto r = sagelint::testing::RunSagelint("dump-model missing.yaml nb.yaml", d.path());
  CHECK(r.status == 2);
  CHECK(r.err == "sagelint: missing.yaml: no such file or directory\n");
  CHECK(r.out.find("Nb") != std::string::npos);
}
