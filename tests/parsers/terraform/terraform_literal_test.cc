// Terraform literal sites (README "Fixes"): a value a fix may edit names the one
// token it was read from — at the use, a variable default or a local — and
// only when nothing else reads that token and nothing outside the files sets it.
#include <filesystem>
#include <string>
#include <vector>

#include "linter/base/paths.h"
#include "linter/model/fix.h"
#include "parsers/frontend.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::TempDir;

namespace {

struct TfDir {
  TempDir dir;
  ResolveOptions opts;

  void Write(const std::string& rel, const std::string& text) const { dir.Write(rel, text); }
  std::string Abs(const std::string& rel) const { return (fs::path(dir.path()) / rel).string(); }
  std::string Shown(const std::string& rel) const { return DisplayPath(Abs(rel)); }

  // The workloads of the root module made of `files` (relative to the directory).
  std::vector<Workload> Evaluate(const std::vector<std::string>& files) {
    TerraformRoot root;
    for (const std::string& rel : files) {
      root.files.push_back({Shown(rel), Abs(rel), testing::ReadFileOrDie(Abs(rel)), rel});
    }
    opts.root = dir.path();
    std::vector<Workload> out;
    for (FileResult& r : ParseTerraformModule(root, opts)) {
      REQUIRE(r.errors.empty());
      for (Workload& w : r.workloads) out.push_back(std::move(w));
    }
    return out;
  }

  // Where the one occurrence of `token` is written in the file `rel`.
  SourceRange At(const std::string& rel, const std::string& token) const {
    std::string text = testing::ReadFileOrDie(Abs(rel));
    size_t at = text.find(token);
    REQUIRE(at != std::string::npos);
    REQUIRE(text.find(token, at + 1) == std::string::npos);
    return {PositionOf(text, at), PositionOf(text, at + token.size())};
  }
};

const Workload& Named(const std::vector<Workload>& ws, const std::string& name) {
  for (const Workload& w : ws) {
    if (w.name == name) return w;
  }
  FAIL("no workload " << name);
  return ws.front();
}

std::string Notebook(const std::string& name, const std::string& instance_type, const std::string& extra = "") {
  return "resource \"aws_sagemaker_notebook_instance\" \"" + name + "\" {\n  name          = \"" + name +
         "\"\n  role_arn      = \"arn:aws:iam::111122223333:role/ds\"\n  instance_type = " + instance_type + "\n" +
         extra + "}\n";
}

}  // namespace

TEST_CASE("a literal at the use is its own site, quotes included", "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf", Notebook("lab", "\"ml.p2.xlarge\"", "  volume_size   = 50\n"));
  auto ws = m.Evaluate({"main.tf"});
  const Workload& w = Named(ws, "aws_sagemaker_notebook_instance.lab");
  CHECK(w.instance_type.literal == m.At("main.tf", "\"ml.p2.xlarge\""));
  CHECK(w.instance_type.literal.end.column - w.instance_type.literal.begin.column == 14);
  CHECK(w.instance_type.literal_path.empty());
  CHECK(w.volume_gb.literal == m.At("main.tf", "50"));
}

TEST_CASE("a variable default read once is the site, in variables.tf", "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf", Notebook("lab", "var.notebook_type"));
  m.Write("variables.tf", "variable \"notebook_type\" {\n  type    = string\n  default = \"ml.p2.xlarge\"\n}\n");
  SECTION("read once") {
    auto ws = m.Evaluate({"main.tf", "variables.tf"});
    const Val& t = Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type;
    CHECK(t.literal == m.At("variables.tf", "\"ml.p2.xlarge\""));
    CHECK(t.literal_path == m.Shown("variables.tf"));
    CHECK(t.range == m.At("main.tf", "var.notebook_type"));
  }
  SECTION("read twice: no site") {
    m.Write("other.tf", Notebook("other", "var.notebook_type"));
    auto ws = m.Evaluate({"main.tf", "other.tf", "variables.tf"});
    for (const Workload& w : ws) CHECK_FALSE(w.instance_type.literal.valid());
  }
  SECTION("mentioned in an output too: no site") {
    m.Write("outputs.tf", "output \"t\" {\n  value = \"type ${var.notebook_type}\"\n}\n");
    auto ws = m.Evaluate({"main.tf", "outputs.tf", "variables.tf"});
    CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
  }
  SECTION("checked by its own validation: no site") {
    m.Write("variables.tf",
            "variable \"notebook_type\" {\n  default = \"ml.p2.xlarge\"\n  validation {\n"
            "    condition     = startswith(var.notebook_type, \"ml.\")\n    error_message = \"ml.*\"\n  }\n}\n");
    auto ws = m.Evaluate({"main.tf", "variables.tf"});
    CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
  }
  SECTION("overridden by terraform.tfvars: no site") {
    m.Write("terraform.tfvars", "notebook_type = \"ml.p2.8xlarge\"\n");
    auto ws = m.Evaluate({"main.tf", "variables.tf", "terraform.tfvars"});
    const Val& t = Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type;
    CHECK(t.text == "ml.p2.8xlarge");
    CHECK_FALSE(t.literal.valid());
  }
  SECTION("set by an *.auto.tfvars file, --var-file or --var: no site") {
    SECTION("auto.tfvars") {
      m.Write("dev.auto.tfvars", "notebook_type = \"ml.p2.xlarge\"\n");
      auto ws = m.Evaluate({"main.tf", "variables.tf", "dev.auto.tfvars"});
      CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
    }
    SECTION("--var-file") {
      m.Write("prod.tfvars", "notebook_type = \"ml.p2.xlarge\"\n");
      m.opts.tf_var_files = {m.Abs("prod.tfvars")};
      auto ws = m.Evaluate({"main.tf", "variables.tf"});
      CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
    }
    SECTION("--var") {
      m.opts.tf_variables = {{"notebook_type", "ml.p2.xlarge"}};
      auto ws = m.Evaluate({"main.tf", "variables.tf"});
      CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
    }
  }
}

TEST_CASE("a local defined by one literal and read once is the site", "[terraform][fix]") {
  TfDir m;
  SECTION("read once") {
    m.Write("main.tf", "locals {\n  nb_type = \"ml.p3.2xlarge\"\n}\n" + Notebook("lab", "local.nb_type"));
    auto ws = m.Evaluate({"main.tf"});
    CHECK(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal ==
          m.At("main.tf", "\"ml.p3.2xlarge\""));
  }
  SECTION("through a variable read once") {
    m.Write("main.tf", "locals {\n  nb_type = var.t\n}\nvariable \"t\" {\n  default = \"ml.p3.2xlarge\"\n}\n" +
                           Notebook("lab", "local.nb_type"));
    auto ws = m.Evaluate({"main.tf"});
    CHECK(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal ==
          m.At("main.tf", "\"ml.p3.2xlarge\""));
  }
  SECTION("read twice: no site") {
    m.Write("main.tf", "locals {\n  nb_type = \"ml.p3.2xlarge\"\n}\n" + Notebook("a", "local.nb_type") +
                           Notebook("b", "local.nb_type"));
    auto ws = m.Evaluate({"main.tf"});
    for (const Workload& w : ws) CHECK_FALSE(w.instance_type.literal.valid());
  }
}

TEST_CASE("computed values have no site", "[terraform][fix]") {
  TfDir m;
  std::string value;
  SECTION("a function") { value = "lower(\"ML.P2.XLARGE\")"; }
  SECTION("a function that returns its argument") { value = "try(\"ml.p2.xlarge\", null)"; }
  SECTION("a condition") { value = "true ? \"ml.p2.xlarge\" : \"ml.t3.medium\""; }
  SECTION("an unknown condition") { value = "var.big ? \"ml.p2.xlarge\" : \"ml.t3.medium\""; }
  SECTION("an interpolation") { value = "\"${var.t}\""; }
  SECTION("a template") { value = "\"ml.${var.family}.xlarge\""; }
  SECTION("an attribute of an object") { value = "var.cfg.type"; }
  SECTION("an element of a list") { value = "var.types[0]"; }
  SECTION("a heredoc") { value = "<<EOT\nml.p2.xlarge\nEOT"; }
  SECTION("another resource's attribute") { value = "aws_sagemaker_notebook_instance.other.instance_type"; }
  m.Write("main.tf", Notebook("lab", value) + Notebook("other", "\"ml.p2.xlarge\"") +
                         "variable \"t\" {\n  default = \"ml.p2.xlarge\"\n}\n"
                         "variable \"big\" {}\n"
                         "variable \"family\" {\n  default = \"p2\"\n}\n"
                         "variable \"cfg\" {\n  default = { type = \"ml.p2.xlarge\" }\n}\n"
                         "variable \"types\" {\n  default = [\"ml.p2.xlarge\"]\n}\n");
  auto ws = m.Evaluate({"main.tf"});
  const Val& t = Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type;
  CHECK_FALSE(t.literal.valid());
  t.ForEach([](const Val& alt) { CHECK_FALSE(alt.literal.valid()); });
}

TEST_CASE("instances: one token for all is the site, a value per key is not", "[terraform][fix]") {
  TfDir m;
  SECTION("count with a literal") {
    m.Write("main.tf", Notebook("lab", "\"ml.p2.xlarge\"", "  count         = 2\n"));
    auto ws = m.Evaluate({"main.tf"});
    REQUIRE(ws.size() == 2);
    for (const Workload& w : ws) CHECK(w.instance_type.literal == m.At("main.tf", "\"ml.p2.xlarge\""));
  }
  SECTION("for_each values") {
    m.Write("main.tf",
            Notebook("lab", "each.value", "  for_each      = { a = \"ml.p2.xlarge\", b = \"ml.p2.8xlarge\" }\n"));
    auto ws = m.Evaluate({"main.tf"});
    REQUIRE(ws.size() == 2);
    for (const Workload& w : ws) CHECK_FALSE(w.instance_type.literal.valid());
  }
  SECTION("a dynamic block's iterator") {
    m.Write("main.tf",
            "resource \"aws_sagemaker_endpoint_configuration\" \"ep\" {\n"
            "  dynamic \"production_variants\" {\n"
            "    for_each = [\"ml.p2.xlarge\"]\n"
            "    content {\n"
            "      variant_name           = \"v\"\n"
            "      model_name             = \"m\"\n"
            "      initial_instance_count = 1\n"
            "      instance_type          = production_variants.value\n"
            "    }\n"
            "  }\n"
            "}\n");
    auto ws = m.Evaluate({"main.tf"});
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].instance_type.text == "ml.p2.xlarge");
    CHECK_FALSE(ws[0].instance_type.literal.valid());
  }
}

TEST_CASE("a called module: arguments are not its sites, its own defaults are", "[terraform][fix]") {
  TfDir m;
  m.Write("modules/nb/main.tf", Notebook("this", "var.instance_type", "  volume_size   = var.volume\n"));
  m.Write("modules/nb/variables.tf", "variable \"instance_type\" {}\nvariable \"volume\" {\n  default = 20\n}\n");
  m.Write("main.tf", "module \"nb\" {\n  source        = \"./modules/nb\"\n  instance_type = \"ml.p2.xlarge\"\n}\n");
  auto ws = m.Evaluate({"main.tf"});
  const Workload& w = Named(ws, "module.nb.aws_sagemaker_notebook_instance.this");
  CHECK(w.instance_type.text == "ml.p2.xlarge");
  CHECK_FALSE(w.instance_type.literal.valid());
  CHECK(w.volume_gb.literal == m.At("modules/nb/variables.tf", "20"));
  CHECK(w.volume_gb.literal_path == m.Shown("modules/nb/variables.tf"));
}

TEST_CASE("*.tf.json is not a site", "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf.json", R"({"resource": {"aws_sagemaker_notebook_instance": {"lab": {"name": "lab", "role_arn": "r",)"
                          R"( "instance_type": "ml.p2.xlarge", "volume_size": "${var.v}"}}},)"
                          R"( "variable": {"v": {"default": 30}}})");
  m.Write("variables.tf", "");
  auto ws = m.Evaluate({"main.tf.json"});
  const Workload& w = Named(ws, "aws_sagemaker_notebook_instance.lab");
  CHECK(w.instance_type.known());
  CHECK_FALSE(w.instance_type.literal.valid());
  CHECK_FALSE(w.volume_gb.literal.valid());
}

TEST_CASE("a variable mentioned in a .tf.json file of the module is read there too", "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf", Notebook("lab", "var.t") + "variable \"t\" {\n  default = \"ml.p2.xlarge\"\n}\n");
  m.Write("outputs.tf.json", R"({"output": {"t": {"value": "${var.t}"}}})");
  auto ws = m.Evaluate({"main.tf", "outputs.tf.json"});
  CHECK_FALSE(Named(ws, "aws_sagemaker_notebook_instance.lab").instance_type.literal.valid());
}

TEST_CASE("a Studio app's settings block is its range, whole", "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf",
          "resource \"aws_sagemaker_domain\" \"d\" {\n"
          "  domain_name = \"d\"\n"
          "  auth_mode   = \"IAM\"\n"
          "  vpc_id      = \"vpc-1\"\n"
          "  subnet_ids  = [\"subnet-1\"]\n"
          "  default_user_settings {\n"
          "    execution_role = \"arn:aws:iam::111122223333:role/s\"\n"
          "    jupyter_lab_app_settings {\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          lifecycle_management = \"DISABLED\"\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
  auto ws = m.Evaluate({"main.tf"});
  REQUIRE(ws.size() == 1);
  REQUIRE(ws[0].apps.size() == 1);
  const StudioApp& a = ws[0].apps[0];
  CHECK(a.range.begin == SourcePos{8, 5});
  CHECK(a.range.end == SourcePos{14, 6});
  CHECK(a.idle_management.literal == m.At("main.tf", "\"DISABLED\""));
}

TEST_CASE("pre-commit: a stand-in's app settings block is no place in the named file", "[terraform][fix][precommit]") {
  TfDir m;
  m.Write("modules/studio/main.tf",
          "variable \"idle\" {}\n"
          "resource \"aws_sagemaker_domain\" \"d\" {\n"
          "  domain_name = \"d\"\n"
          "  default_user_settings {\n"
          "    execution_role = \"arn:aws:iam::111122223333:role/s\"\n"
          "    jupyter_lab_app_settings {\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          lifecycle_management = var.idle\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
  m.Write("main.tf", "module \"studio\" {\n  source = \"./modules/studio\"\n  idle   = \"DISABLED\"\n}\n");
  TerraformRoot root;
  root.files.push_back({m.Shown("main.tf"), m.Abs("main.tf"), testing::ReadFileOrDie(m.Abs("main.tf")), "main.tf"});
  root.named = {m.Shown("main.tf")};
  m.opts.root = m.dir.path();
  const Workload* stand_in = nullptr;
  std::vector<FileResult> results = ParseTerraformModule(root, m.opts);
  for (const FileResult& r : results) {
    for (const Workload& w : r.workloads) {
      if (w.stand_in) stand_in = &w;
    }
  }
  REQUIRE(stand_in);
  CHECK(stand_in->path == m.Shown("main.tf"));
  REQUIRE(stand_in->apps.size() == 1);
  CHECK_FALSE(stand_in->apps[0].range.valid());
  CHECK(stand_in->apps[0].idle_management.range == m.At("main.tf", "\"DISABLED\""));
  CHECK_FALSE(stand_in->apps[0].idle_management.literal.valid());
}

namespace {

// A Step Functions state machine whose one state runs a training job with `parameters`.
std::string StateMachine(const std::string& parameters, const std::string& extra = "") {
  return "resource \"aws_sfn_state_machine\" \"flow\" {\n"
         "  name     = \"flow\"\n"
         "  role_arn = \"arn:aws:iam::111122223333:role/sfn\"\n"
         "  definition = jsonencode({\n"
         "    StartAt = \"Train\"\n"
         "    States = {\n"
         "      Train = {\n"
         "        Type     = \"Task\"\n"
         "        Resource = \"arn:aws:states:::sagemaker:createTrainingJob.sync\"\n"
         "        End      = true\n"
         "        Parameters = " +
         parameters +
         "\n"
         "      }\n" +
         extra +
         "    }\n"
         "  })\n"
         "}\n";
}

const char* kParameters =
    "{\n"
    "          AlgorithmSpecification = { TrainingImage = \"img\", TrainingInputMode = \"File\" }\n"
    "          \"ResourceConfig\" : { \"InstanceType\" : \"ml.p3.2xlarge\", \"InstanceCount\" : 1 }\n"
    "        }";

std::vector<Workload> TrainingJobs(std::vector<Workload> ws) {
  std::erase_if(ws, [](const Workload& w) { return w.kind != WorkloadKind::kTrainingJob; });
  return ws;
}

}  // namespace

TEST_CASE("a Step Functions training state in jsonencode({...}): each value written once is its site",
          "[terraform][fix]") {
  TfDir m;
  m.Write("main.tf", StateMachine(kParameters));
  auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
  REQUIRE(ws.size() == 1);
  const Workload& w = ws[0];
  CHECK(w.instance_type.text == "ml.p3.2xlarge");
  CHECK(w.instance_type.literal == m.At("main.tf", "\"ml.p3.2xlarge\""));
  CHECK(w.instance_type.literal_path.empty());
  CHECK(w.input_mode.literal == m.At("main.tf", "\"File\""));
  CHECK(w.instance_count.literal.valid());
  // The state's object is where settings are inserted (EditTerraform starts there).
  std::string text = testing::ReadFileOrDie(m.Abs("main.tf"));
  CHECK(w.range.begin == PositionOf(text, text.find("{", text.find("Train = {"))));
}

TEST_CASE("a Step Functions training state: values from elsewhere have no site", "[terraform][fix]") {
  TfDir m;
  SECTION("a local object read by two states") {
    m.Write("main.tf",
            "locals {\n  algo = { TrainingImage = \"img\", TrainingInputMode = \"File\" }\n"
            "  rc   = { InstanceType = \"ml.p3.2xlarge\", InstanceCount = 1 }\n}\n" +
                StateMachine("{ AlgorithmSpecification = local.algo, ResourceConfig = local.rc }",
                             "      Again = {\n"
                             "        Type       = \"Task\"\n"
                             "        Resource   = \"arn:aws:states:::sagemaker:createTrainingJob.sync\"\n"
                             "        End        = true\n"
                             "        Parameters = { AlgorithmSpecification = local.algo, ResourceConfig = local.rc }\n"
                             "      }\n"));
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 2);
    for (const Workload& w : ws) {
      CHECK(w.instance_type.text == "ml.p3.2xlarge");
      CHECK_FALSE(w.instance_type.literal.valid());
      CHECK(w.input_mode.text == "File");
      CHECK_FALSE(w.input_mode.literal.valid());
    }
  }
  SECTION("a variable's default read by two states") {
    m.Write("main.tf", "variable \"rc\" {\n  default = { InstanceType = \"ml.p3.2xlarge\", InstanceCount = 1 }\n}\n" +
                           StateMachine("{\n  AlgorithmSpecification = { TrainingImage = \"img\" }\n"
                                        "  ResourceConfig = var.rc\n}",
                                        "      Again = {\n"
                                        "        Type       = \"Task\"\n"
                                        "        Resource   = \"arn:aws:states:::sagemaker:createTrainingJob.sync\"\n"
                                        "        End        = true\n"
                                        "        Parameters = { AlgorithmSpecification = { TrainingImage = \"img\" }, "
                                        "ResourceConfig = var.rc }\n"
                                        "      }\n"));
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 2);
    for (const Workload& w : ws) {
      CHECK(w.instance_type.text == "ml.p3.2xlarge");
      CHECK_FALSE(w.instance_type.literal.valid());
    }
  }
  SECTION("a definition written as a heredoc or a string") {
    std::string json = R"({"StartAt": "Train", "States": {"Train": {"Type": "Task", "End": true,)"
                       R"( "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync", "Parameters": {)"
                       R"( "AlgorithmSpecification": {"TrainingImage": "img", "TrainingInputMode": "File"},)"
                       R"( "ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1}}}}})";
    std::string escaped;
    for (char c : json) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
    std::string definition;
    SECTION("heredoc") { definition = "<<EOF\n" + json + "\nEOF"; }
    SECTION("string") { definition = "\"" + escaped + "\""; }
    m.Write("main.tf",
            "resource \"aws_sfn_state_machine\" \"flow\" {\n  name     = \"flow\"\n"
            "  role_arn = \"arn:aws:iam::111122223333:role/sfn\"\n  definition = " +
                definition + "\n}\n");
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].instance_type.text == "ml.p3.2xlarge");
    CHECK_FALSE(ws[0].instance_type.literal.valid());
    CHECK(ws[0].input_mode.text == "File");
    CHECK_FALSE(ws[0].input_mode.literal.valid());
  }
}

namespace {

std::string TrainingJob(const std::string& name, const std::string& instance_type, const std::string& mode) {
  return "resource \"aws_sagemaker_training_job\" \"" + name +
         "\" {\n"
         "  training_job_name = \"" +
         name +
         "\"\n"
         "  role_arn          = \"arn:aws:iam::111122223333:role/sm\"\n"
         "  algorithm_specification {\n"
         "    training_image      = \"img\"\n"
         "    training_input_mode = " +
         mode +
         "\n"
         "  }\n"
         "  resource_config {\n"
         "    instance_type     = " +
         instance_type +
         "\n"
         "    instance_count    = 1\n"
         "    volume_size_in_gb = 30\n"
         "  }\n"
         "  stopping_condition {\n"
         "    max_runtime_in_seconds = 3600\n"
         "  }\n"
         "}\n";
}

}  // namespace

TEST_CASE("an aws_sagemaker_training_job block: literals written once are sites", "[terraform][fix]") {
  TfDir m;
  SECTION("at the use") {
    m.Write("main.tf", TrainingJob("train", "\"ml.p3.2xlarge\"", "\"File\""));
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].instance_type.literal == m.At("main.tf", "\"ml.p3.2xlarge\""));
    CHECK(ws[0].input_mode.literal == m.At("main.tf", "\"File\""));
    CHECK(ws[0].max_run_seconds.literal == m.At("main.tf", "3600"));
    std::string text = testing::ReadFileOrDie(m.Abs("main.tf"));
    CHECK(ws[0].range.begin == PositionOf(text, 0));
  }
  SECTION("a variable default read once, a local read once") {
    m.Write("main.tf", TrainingJob("train", "var.type", "local.mode") +
                           "variable \"type\" {\n  default = \"ml.p3.2xlarge\"\n}\n"
                           "locals {\n  mode = \"File\"\n}\n");
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 1);
    CHECK(ws[0].instance_type.literal == m.At("main.tf", "\"ml.p3.2xlarge\""));
    CHECK(ws[0].input_mode.literal == m.At("main.tf", "\"File\""));
  }
  SECTION("a variable and a local read by two jobs: no site") {
    m.Write("main.tf", TrainingJob("a", "var.type", "local.mode") + TrainingJob("b", "var.type", "local.mode") +
                           "variable \"type\" {\n  default = \"ml.p3.2xlarge\"\n}\n"
                           "locals {\n  mode = \"File\"\n}\n");
    auto ws = TrainingJobs(m.Evaluate({"main.tf"}));
    REQUIRE(ws.size() == 2);
    for (const Workload& w : ws) {
      CHECK(w.instance_type.text == "ml.p3.2xlarge");
      CHECK_FALSE(w.instance_type.literal.valid());
      CHECK(w.input_mode.text == "File");
      CHECK_FALSE(w.input_mode.literal.valid());
    }
  }
}
