// Terraform evaluation as `terraform plan` sees it: module calls, instances,
// expressions, variable files, pre-commit stand-ins, and scan roots.
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linter/cli/scan_options.h"
#include "linter/report/model_dump.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::CompareGolden;
using sagelint::testing::RunSagelint;
using sagelint::testing::TempDir;

namespace {

ScanResult ScanPaths(std::vector<std::string> paths, ResolveOptions resolve = {}) {
  ScanOptions opts;
  opts.paths = std::move(paths);
  opts.jobs = 1;
  opts.resolve = std::move(resolve);
  return Scan(opts);
}

std::string Dump(const ScanResult& r) {
  std::string out;
  for (const Workload& w : r.workloads) out += w.path + ": " + DumpWorkload(w);
  for (const Finding& f : r.findings) {
    if (f.rule == "SM000") {
      out += "SM000 " + f.path + ":" + std::to_string(f.range.begin.line) + ":" + std::to_string(f.range.begin.column) +
             " " + f.message + "\n";
    }
  }
  return out;
}

std::string Findings(const ScanResult& r) {
  std::string out;
  for (const Finding& f : r.findings) {
    out += f.path + ":" + std::to_string(f.range.begin.line) + ":" + std::to_string(f.range.begin.column) + " " +
           f.rule + " " + f.resource + "\n";
  }
  return out;
}

struct InSourceDir {
  InSourceDir() { fs::current_path(SAGELINT_SOURCE_DIR); }
};

// A small repository: a root module calling a local module, with variables
// and a tfvars file beside it.
void WriteRepo(const TempDir& d) {
  d.Write(".git/HEAD", "ref: refs/heads/main\n");
  d.Write("infra/main.tf",
          "module \"nb\" {\n"
          "  source        = \"./modules/nb\"\n"
          "  instance_type = \"ml.t3.medium\"\n"
          "  volume        = var.volume\n"
          "}\n");
  d.Write("infra/variables.tf",
          "variable \"volume\" {\n"
          "  default = 10\n"
          "}\n");
  d.Write("infra/modules/nb/main.tf",
          "variable \"instance_type\" {}\n"
          "variable \"volume\" {}\n"
          "resource \"aws_sagemaker_notebook_instance\" \"this\" {\n"
          "  name          = \"research\"\n"
          "  instance_type = var.instance_type\n"
          "  volume_size   = var.volume\n"
          "  role_arn      = \"arn:aws:iam::111122223333:role/ds\"\n"
          "}\n");
}

}  // namespace

TEST_CASE("modules are evaluated through their calls, with the callers' arguments", "[terraform]") {
  InSourceDir here;
  ScanResult r = ScanPaths({"fixtures/parsers/terraform/calls"});
  CHECK(CompareGolden("tests/golden/terraform/calls.model", Dump(r)) == "");
  // The called module is never evaluated alone; the uncalled one is.
  for (const Workload& w : r.workloads) {
    if (w.path.find("/modules/endpoint/") != std::string::npos) CHECK(w.name.rfind("module.serving.", 0) == 0);
  }
  CHECK(Dump(r).find("aws_sagemaker_notebook_instance.scratch") != std::string::npos);
}

TEST_CASE("a module directory is read when a module it calls mentions SageMaker", "[terraform]") {
  InSourceDir here;
  // examples/two never names the service; its module does.
  ScanResult r =
      ScanPaths({"fixtures/parsers/terraform/calls/examples/two", "fixtures/parsers/terraform/calls/modules/endpoint"});
  int through_call = 0;
  for (const Workload& w : r.workloads) {
    if (w.label.find("(module call in fixtures/parsers/terraform/calls/examples/two/main.tf)") != std::string::npos) {
      ++through_call;
    }
  }
  CHECK(through_call == 2);  // the two endpoint variants of the for_each map
}

TEST_CASE("count, for_each, null, for expressions, functions and template_file", "[terraform]") {
  InSourceDir here;
  CHECK(CompareGolden("tests/golden/terraform/expressions.model",
                      Dump(ScanPaths({"fixtures/parsers/terraform/expressions"}))) == "");
}

TEST_CASE("variable files load as Terraform loads them", "[terraform]") {
  InSourceDir here;
  CHECK(CompareGolden("tests/golden/terraform/varfiles.model",
                      Dump(ScanPaths({"fixtures/parsers/terraform/varfiles"}))) == "");
  // --var-file after the auto-loaded files, --var last.
  ResolveOptions given;
  given.tf_var_files = {"fixtures/parsers/terraform/varfiles/dev.tfvars"};
  given.tf_variables = {{"d", "ml.m5.4xlarge"}};
  std::map<std::string, std::string> types;
  for (const Workload& w : ScanPaths({"fixtures/parsers/terraform/varfiles"}, given).workloads) {
    types[w.name] = w.instance_type.text + " (" + w.instance_type.origin + ")";
  }
  CHECK(types["aws_sagemaker_notebook_instance.a"] ==
        "ml.m5.large (variable a (fixtures/parsers/terraform/varfiles/terraform.tfvars))");
  CHECK(types["aws_sagemaker_notebook_instance.b"] ==
        "ml.m5.xlarge (variable b (fixtures/parsers/terraform/varfiles/terraform.tfvars.json))");
  CHECK(types["aws_sagemaker_notebook_instance.c"] ==
        "ml.c5.xlarge (variable c (fixtures/parsers/terraform/varfiles/a.auto.tfvars))");
  CHECK(types["aws_sagemaker_notebook_instance.d"] == "ml.m5.4xlarge (variable d (given))");
  CHECK(types["aws_sagemaker_notebook_instance.e"] ==
        "ml.p3.2xlarge (variable e (fixtures/parsers/terraform/varfiles/dev.tfvars))");
}

TEST_CASE("a broken variable file is an SM000 at its position, and the module is still evaluated", "[terraform]") {
  InSourceDir here;
  CHECK(CompareGolden("tests/golden/terraform/brokenvars.model",
                      Dump(ScanPaths({"fixtures/parsers/terraform/brokenvars"}))) == "");
  auto cli = RunSagelint(
      "scan --var-file fixtures/parsers/terraform/brokenvars/x.auto.tfvars "
      "fixtures/parsers/terraform/varfiles",
      SAGELINT_SOURCE_DIR);
  CHECK(cli.status == 2);
  CHECK(cli.err.find("--var-file: fixtures/parsers/terraform/brokenvars/x.auto.tfvars:2:1:") != std::string::npos);
}

TEST_CASE("pre-commit: a finding a staged file causes is reported on the staged line", "[terraform][precommit]") {
  TempDir d;
  WriteRepo(d);
  fs::current_path(d.path());
  // The module argument in infra/main.tf sets the instance type of a resource in another file.
  d.Write("infra/main.tf",
          "module \"nb\" {\n"
          "  source        = \"./modules/nb\"\n"
          "  instance_type = \"ml.p3.2xlarge\"\n"
          "  volume        = var.volume\n"
          "}\n");
  ScanResult r = ScanPaths({"infra/main.tf"});
  CHECK(Findings(r) ==
        "infra/main.tf:3:19 SM103 notebook instance 'module.nb.aws_sagemaker_notebook_instance.this' (module call in "
        "infra/main.tf) (declared in infra/modules/nb/main.tf)\n");
  // The module's own file, staged alone, is evaluated through the call that reaches it.
  r = ScanPaths({"infra/modules/nb/main.tf"});
  CHECK(Findings(r).find("infra/modules/nb/main.tf:3:1 SM201 notebook instance "
                         "'module.nb.aws_sagemaker_notebook_instance.this' (module call in infra/main.tf)") !=
        std::string::npos);
  // A variable default and a tfvars value in staged files.
  d.Write("infra/main.tf",
          "module \"nb\" {\n"
          "  source        = \"./modules/nb\"\n"
          "  instance_type = var.type\n"
          "  volume        = var.volume\n"
          "}\n");
  d.Write("infra/variables.tf",
          "variable \"volume\" {\n"
          "  default = 10\n"
          "}\n"
          "variable \"type\" {\n"
          "  default = \"ml.g5.xlarge\"\n"
          "}\n");
  r = ScanPaths({"infra/variables.tf"});
  CHECK(Findings(r) ==
        "infra/variables.tf:5:13 SM103 notebook instance 'module.nb.aws_sagemaker_notebook_instance.this' (module "
        "call in infra/main.tf) (declared in infra/modules/nb/main.tf)\n");
  d.Write("infra/terraform.tfvars", "type = \"ml.p3.2xlarge\"\n");
  r = ScanPaths({"infra/terraform.tfvars"});
  CHECK(Findings(r) ==
        "infra/terraform.tfvars:1:8 SM103 notebook instance 'module.nb.aws_sagemaker_notebook_instance.this' (module "
        "call in infra/main.tf) (declared in infra/modules/nb/main.tf)\n");
  // The default no longer decides: nothing to report on variables.tf.
  CHECK(Findings(ScanPaths({"infra/variables.tf"})).empty());
  fs::current_path(SAGELINT_SOURCE_DIR);
}

TEST_CASE("nothing outside the scan root is read, wherever sagelint starts", "[terraform][scan-root]") {
  TempDir d;
  WriteRepo(d);
  d.Write("outside/main.tf",
          "resource \"aws_sagemaker_notebook_instance\" \"leak\" {\n"
          "  name          = \"leak\"\n"
          "  instance_type = \"ml.p3.16xlarge\"\n"
          "  role_arn      = \"arn:aws:iam::111122223333:role/ds\"\n"
          "}\n");
  d.Write("outside/secret.sh", "IDLE_TIME=1\n");
  fs::remove_all(fs::path(d.path()) / ".git");
  d.Write("repo/.git/HEAD", "ref: refs/heads/main\n");
  d.Write("repo/infra/main.tf",
          "module \"outside\" {\n"
          "  source = \"../../outside\"\n"
          "}\n"
          "resource \"aws_sagemaker_notebook_instance_lifecycle_configuration\" \"stop\" {\n"
          "  name     = \"stop\"\n"
          "  on_start = filebase64(\"../../outside/secret.sh\")\n"
          "}\n");
  for (const std::string& cwd : {d.path(), d.path() + "/repo", d.path() + "/repo/infra"}) {
    INFO(cwd);
    fs::current_path(cwd);
    std::string target = fs::relative(fs::path(d.path()) / "repo/infra", cwd).string();
    ScanResult r = ScanPaths({target});
    for (const Workload& w : r.workloads) {
      CHECK(w.name.find("leak") == std::string::npos);
      if (w.kind == WorkloadKind::kLifecycleScript) CHECK(w.on_start.unknown());
    }
  }
  fs::current_path(SAGELINT_SOURCE_DIR);
}

TEST_CASE("the same scan from three directories gives the same JSON and fingerprints", "[scan-root]") {
  TempDir d;
  WriteRepo(d);
  d.Write("infra/main.tf",
          "module \"nb\" {\n"
          "  source        = \"./modules/nb\"\n"
          "  instance_type = \"ml.p3.2xlarge\"\n"
          "  volume        = var.volume\n"
          "}\n"
          "resource \"aws_sagemaker_notebook_instance_lifecycle_configuration\" \"stop\" {\n"
          "  name     = \"stop\"\n"
          "  on_start = filebase64(\"${path.module}/../scripts/on-start.sh\")\n"
          "}\n");
  d.Write("scripts/on-start.sh", "echo no idle check\n");
  d.Write("cfn/nb.yaml",
          "Resources:\n  Nb:\n    Type: AWS::SageMaker::NotebookInstance\n    Properties:\n"
          "      InstanceType: ml.g5.xlarge\n      RoleArn: r\n");
  fs::create_directories(fs::path(d.path()) / "elsewhere/deeper");
  std::vector<std::pair<std::string, std::string>> runs = {
      {d.path(), "."}, {d.path() + "/infra", ".."}, {d.path() + "/elsewhere/deeper", "../.."}};
  std::vector<std::string> outputs;
  for (const auto& [cwd, target] : runs) {
    auto r = RunSagelint("scan --format json --fail-on none " + target, cwd);
    REQUIRE(r.status == 0);
    // JSON names files (and fix edits) from the repository root wherever sagelint runs: nothing may differ.
    outputs.push_back(nlohmann::json::parse(r.out).dump(2));
  }
  REQUIRE(outputs[0].find("\"fingerprint\"") != std::string::npos);
  CHECK(outputs[0].find("SM103") != std::string::npos);
  CHECK(outputs[1] == outputs[0]);
  CHECK(outputs[2] == outputs[0]);
}

TEST_CASE("hostile Terraform ends in bounded work: long reference chains, self-calls, nested loops",
          "[terraform][adversarial]") {
  TempDir d;
  d.Write(".git/HEAD", "ref: refs/heads/main\n");
  std::string chain;
  for (int i = 0; i < 3000; ++i) {
    chain += "resource \"aws_sagemaker_notebook_instance\" \"r" + std::to_string(i) + "\" {\n  name = " +
             (i + 1 < 3000 ? "aws_sagemaker_notebook_instance.r" + std::to_string(i + 1) + ".name" : "\"last\"") +
             "\n  instance_type = \"ml.t3.medium\"\n}\n";
  }
  d.Write("chain/main.tf", chain);
  d.Write("self/main.tf",
          "module \"again\" {\n  source   = \"./\"\n  for_each = toset([for i in range(200) : tostring(i)])\n}\n"
          "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  name = \"nb\"\n  instance_type = "
          "\"ml.t3.medium\"\n}\n");
  d.Write("loops/main.tf",
          "locals {\n  grid = [for i in range(1000) : [for j in range(1000) : \"${i}-${j}\"]]\n}\n"
          "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n  name = length(flatten(local.grid))\n"
          "  instance_type = \"ml.t3.medium\"\n}\n");
  ScanResult chain_result = ScanPaths({d.path() + "/chain"});
  CHECK(chain_result.workloads.size() == 3000);
  ScanResult self = ScanPaths({d.path() + "/self"});
  CHECK(!self.workloads.empty());
  CHECK(self.workloads.size() <= 600);
  ScanResult loops = ScanPaths({d.path() + "/loops"});
  CHECK(loops.workloads.size() == 1);
}

TEST_CASE("a broken file of a called module is one SM000, however many calls reach it", "[terraform]") {
  TempDir d;
  d.Write(".git/HEAD", "ref: refs/heads/main\n");
  d.Write("modules/nb/main.tf",
          "variable \"type\" {}\n"
          "resource \"aws_sagemaker_notebook_instance\" \"this\" {\n  name = \"nb\"\n  instance_type = var.type\n}\n");
  d.Write("modules/nb/broken.tf", "resource \"aws_s3_bucket\" \"b\" {\n  bucket = \n");
  d.Write("a/main.tf", "module \"nb\" {\n  source = \"../modules/nb\"\n  type   = \"ml.t3.medium\"\n}\n");
  d.Write("b/main.tf", "module \"nb\" {\n  source = \"../modules/nb\"\n  type   = \"ml.m5.large\"\n}\n");
  fs::current_path(d.path());
  ScanResult r = ScanPaths({"."});
  int sm000 = 0, notebooks = 0;
  for (const Finding& f : r.findings) sm000 += f.rule == "SM000" && f.path == "modules/nb/broken.tf";
  for (const Workload& w : r.workloads) notebooks += w.kind == WorkloadKind::kNotebookInstance;
  CHECK(sm000 == 1);
  CHECK(notebooks == 2);
  // Named alone (pre-commit), it is reported once too.
  r = ScanPaths({"modules/nb/broken.tf"});
  sm000 = 0;
  for (const Finding& f : r.findings) sm000 += f.rule == "SM000";
  CHECK(sm000 == 1);
  fs::current_path(SAGELINT_SOURCE_DIR);
}
