// Terraform fix edits (README "Fixes"): removing a member, inserting Studio idle
// settings and training job settings — byte for byte unchanged outside the edit,
// and the result parses.
#include <string>

#include "linter/model/fix.h"
#include "parsers/frontend.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

// The range of the one occurrence of `token` in `text`.
SourceRange At(const std::string& text, const std::string& token) {
  size_t at = text.find(token);
  REQUIRE(at != std::string::npos);
  REQUIRE(text.find(token, at + 1) == std::string::npos);
  return {PositionOf(text, at), PositionOf(text, at + token.size())};
}

size_t SyntaxErrors(const std::string& text) {
  TerraformRoot root;
  root.files.push_back({"edited.tf", "/nonexistent/edited.tf", text, "edited.tf"});
  root.syntax_only = true;
  size_t n = 0;
  for (const FileResult& r : ParseTerraformModule(root, ResolveOptions{})) n += r.errors.size();
  return n;
}

// `text` with the edit of `change` applied; the result must parse.
std::string Applied(const std::string& text, const FixChange& change) {
  std::optional<TextEdit> e = EditTerraform(text, change);
  REQUIRE(e);
  REQUIRE(e->begin <= e->end);
  REQUIRE(e->end <= text.size());
  std::string out = text.substr(0, e->begin) + e->content + text.substr(e->end);
  CHECK(SyntaxErrors(out) == 0);
  return out;
}

FixChange Remove(const std::string& text, const std::string& token, const std::string& field) {
  FixChange c;
  c.op = FixChange::Op::kRemove;
  c.range = At(text, token);
  c.field = field;
  return c;
}

// The block that starts with `head` (its first line) up to its closing brace.
SourceRange Block(const std::string& text, const std::string& head) {
  size_t at = text.find(head);
  REQUIRE(at != std::string::npos);
  int depth = 0;
  for (size_t i = text.find('{', at); i < text.size(); ++i) {
    if (text[i] == '{') ++depth;
    if (text[i] == '}' && --depth == 0) return {PositionOf(text, at), PositionOf(text, i + 1)};
  }
  FAIL("no block " << head);
  return {};
}

FixChange Idle(const std::string& text, const std::string& head,
               const std::string& value = R"({"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60})") {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.range = Block(text, head);
  c.field = "idle_settings";
  c.value = value;
  return c;
}

const char* kEndpointConfig =
    "resource \"aws_sagemaker_endpoint_configuration\" \"ep\" {\n"
    "  name = \"ep\"\n"
    "\n"
    "  production_variants {\n"
    "    variant_name           = \"AllTraffic\"\n"
    "    model_name             = aws_sagemaker_model.m.name\n"
    "    initial_instance_count = 1\n"
    "    instance_type          = \"ml.m5.large\"\n"
    "    accelerator_type       = \"ml.eia2.medium\" # Elastic Inference\n"
    "  }\n"
    "}\n";

}  // namespace

TEST_CASE("kRemove: an attribute's line goes, with its comment", "[terraform][fix][edit]") {
  std::string text = kEndpointConfig;
  std::string out = Applied(text, Remove(text, "\"ml.eia2.medium\"", "accelerator_type"));
  std::string expected = text;
  expected.erase(expected.find("    accelerator_type"), std::string("    accelerator_type       = \"ml.eia2.medium\" "
                                                                    "# Elastic Inference\n")
                                                            .size());
  CHECK(out == expected);
}

TEST_CASE("kRemove: a value from a variable removes the attribute all the same", "[terraform][fix][edit]") {
  std::string text =
      "resource \"aws_sagemaker_endpoint_configuration\" \"ep\" {\n"
      "  production_variants {\n"
      "    variant_name     = \"v\"\n"
      "    accelerator_type = var.accelerator\n"
      "  }\n"
      "}\n";
  CHECK(Applied(text, Remove(text, "var.accelerator", "accelerator_type")) ==
        "resource \"aws_sagemaker_endpoint_configuration\" \"ep\" {\n"
        "  production_variants {\n"
        "    variant_name     = \"v\"\n"
        "  }\n"
        "}\n");
}

TEST_CASE("kRemove: a notebook's accelerator_types list, on one line or several", "[terraform][fix][edit]") {
  std::string head =
      "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\n"
      "  name          = \"nb\"\n"
      "  instance_type = \"ml.t3.medium\"\n";
  std::string tail = "  role_arn      = \"arn:aws:iam::111122223333:role/ds\"\n}\n";
  SECTION("one line") {
    std::string text = head + "  accelerator_types = [\"ml.eia1.medium\"]\n" + tail;
    CHECK(Applied(text, Remove(text, "\"ml.eia1.medium\"", "accelerator_type")) == head + tail);
  }
  SECTION("several lines") {
    std::string text = head + "  accelerator_types = [\n    \"ml.eia1.medium\",\n  ]\n" + tail;
    CHECK(Applied(text, Remove(text, "\"ml.eia1.medium\"", "accelerator_type")) == head + tail);
  }
  SECTION("CRLF line endings") {
    std::string text =
        "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\r\n  name = \"nb\"\r\n"
        "  accelerator_types = [\"ml.eia1.medium\"]\r\n}\r\n";
    CHECK(Applied(text, Remove(text, "\"ml.eia1.medium\"", "accelerator_type")) ==
          "resource \"aws_sagemaker_notebook_instance\" \"nb\" {\r\n  name = \"nb\"\r\n}\r\n");
  }
  SECTION("the last line of a file without a newline") {
    std::string text = "resource \"x\" \"y\" {\n  name = \"nb\"\n}\naccelerator_types = [\"ml.eia1.medium\"]";
    CHECK(EditTerraform(text, Remove(text, "\"ml.eia1.medium\"", "accelerator_type")) ==
          TextEdit{text.find("accelerator_types"), text.size(), ""});
  }
}

TEST_CASE("kRemove: an object element of a request document", "[terraform][fix][edit]") {
  SECTION("on its own line, with a trailing comma") {
    std::string text =
        "locals {\n"
        "  job = jsonencode({\n"
        "    StoppingCondition = {\n"
        "      MaxRuntimeInSeconds  = 3600,\n"
        "      MaxWaitTimeInSeconds = 7200,\n"
        "    }\n"
        "  })\n"
        "}\n";
    std::string expected = text;
    expected.erase(expected.find("      MaxWait"), std::string("      MaxWaitTimeInSeconds = 7200,\n").size());
    CHECK(Applied(text, Remove(text, "7200", "max_wait_seconds")) == expected);
  }
  SECTION("in an object on one line") {
    std::string text = "locals {\n  s = { MaxRuntimeInSeconds = 3600, MaxWaitTimeInSeconds = 7200 }\n}\n";
    CHECK(Applied(text, Remove(text, "7200", "max_wait_seconds")) ==
          "locals {\n  s = { MaxRuntimeInSeconds = 3600 }\n}\n");
    std::string first = "locals {\n  s = { \"MaxWaitTimeInSeconds\" = 7200, MaxRuntimeInSeconds = 3600 }\n}\n";
    CHECK(Applied(first, Remove(first, "7200", "max_wait_seconds")) ==
          "locals {\n  s = { MaxRuntimeInSeconds = 3600 }\n}\n");
  }
}

TEST_CASE("kRemove refuses what it cannot remove cleanly", "[terraform][fix][edit]") {
  std::string text = kEndpointConfig;
  // Not the member the change names.
  CHECK_FALSE(EditTerraform(text, Remove(text, "\"ml.m5.large\"", "accelerator_type")));
  // A setting the editor does not know.
  CHECK_FALSE(EditTerraform(text, Remove(text, "\"ml.eia2.medium\"", "instance_type")));
  // Outside any attribute.
  FixChange c = Remove(text, "production_variants", "accelerator_type");
  CHECK_FALSE(EditTerraform(text, c));
  // A position past the end.
  c.range.begin = {99, 1};
  CHECK_FALSE(EditTerraform(text, c));
  // A one-line block holding just the attribute.
  std::string one = "resource \"x\" \"y\" {\n  b { accelerator_type = \"ml.eia2.medium\" }\n}\n";
  CHECK_FALSE(EditTerraform(one, Remove(one, "\"ml.eia2.medium\"", "accelerator_type")));
  // A file that does not parse.
  std::string broken = std::string(kEndpointConfig) + "resource {\n";
  CHECK_FALSE(EditTerraform(broken, Remove(broken, "\"ml.eia2.medium\"", "accelerator_type")));
}

const char* kDomain =
    "resource \"aws_sagemaker_domain\" \"research\" {\n"
    "  domain_name = \"research\"\n"
    "  auth_mode   = \"IAM\"\n"
    "\n"
    "  default_user_settings {\n"
    "    execution_role = \"arn:aws:iam::111122223333:role/studio\"\n"
    "\n"
    "    jupyter_lab_app_settings {\n"
    "      default_resource_spec {\n"
    "        instance_type = \"ml.t3.medium\"\n"
    "      }\n"
    "    }\n"
    "  }\n"
    "}\n";

TEST_CASE("kInsert idle_settings: the missing levels, indented like the file", "[terraform][fix][edit]") {
  std::string text = kDomain;
  std::string out = Applied(text, Idle(text, "jupyter_lab_app_settings {"));
  CHECK(out ==
        "resource \"aws_sagemaker_domain\" \"research\" {\n"
        "  domain_name = \"research\"\n"
        "  auth_mode   = \"IAM\"\n"
        "\n"
        "  default_user_settings {\n"
        "    execution_role = \"arn:aws:iam::111122223333:role/studio\"\n"
        "\n"
        "    jupyter_lab_app_settings {\n"
        "      default_resource_spec {\n"
        "        instance_type = \"ml.t3.medium\"\n"
        "      }\n"
        "      app_lifecycle_management {\n"
        "        idle_settings {\n"
        "          lifecycle_management    = \"ENABLED\"\n"
        "          idle_timeout_in_minutes = 60\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n");
  // Once there, nothing is left to insert.
  CHECK_FALSE(EditTerraform(out, Idle(out, "jupyter_lab_app_settings {")));
}

TEST_CASE("kInsert idle_settings: into what is there, never over it", "[terraform][fix][edit]") {
  SECTION("app_lifecycle_management without idle_settings") {
    std::string text =
        "resource \"aws_sagemaker_user_profile\" \"p\" {\n"
        "  user_settings {\n"
        "    code_editor_app_settings {\n"
        "      app_lifecycle_management {\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n";
    CHECK(Applied(text, Idle(text, "code_editor_app_settings {")) ==
          "resource \"aws_sagemaker_user_profile\" \"p\" {\n"
          "  user_settings {\n"
          "    code_editor_app_settings {\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          lifecycle_management    = \"ENABLED\"\n"
          "          idle_timeout_in_minutes = 60\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
  }
  SECTION("idle_settings with one of the two: only the other is added") {
    std::string text =
        "resource \"aws_sagemaker_domain\" \"d\" {\n"
        "  default_user_settings {\n"
        "    jupyter_lab_app_settings {\n"
        "      app_lifecycle_management {\n"
        "        idle_settings {\n"
        "          lifecycle_management = \"DISABLED\" # for now\n"
        "        }\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n";
    CHECK(Applied(text, Idle(text, "jupyter_lab_app_settings {")) ==
          "resource \"aws_sagemaker_domain\" \"d\" {\n"
          "  default_user_settings {\n"
          "    jupyter_lab_app_settings {\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          lifecycle_management = \"DISABLED\" # for now\n"
          "          idle_timeout_in_minutes = 60\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
  }
  SECTION("a space: only the timeout") {
    std::string text =
        "resource \"aws_sagemaker_space\" \"s\" {\n"
        "  space_settings {\n"
        "    jupyter_lab_app_settings {\n"
        "      default_resource_spec {\n"
        "        instance_type = \"ml.t3.medium\"\n"
        "      }\n"
        "    }\n"
        "  }\n"
        "}\n";
    CHECK(Applied(text, Idle(text, "jupyter_lab_app_settings {", R"({"IdleTimeoutInMinutes": 60})")) ==
          "resource \"aws_sagemaker_space\" \"s\" {\n"
          "  space_settings {\n"
          "    jupyter_lab_app_settings {\n"
          "      default_resource_spec {\n"
          "        instance_type = \"ml.t3.medium\"\n"
          "      }\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          idle_timeout_in_minutes = 60\n"
          "        }\n"
          "      }\n"
          "    }\n"
          "  }\n"
          "}\n");
  }
}

TEST_CASE("kInsert idle_settings: odd layouts", "[terraform][fix][edit]") {
  SECTION("an empty block on one line opens up") {
    std::string text =
        "resource \"aws_sagemaker_domain\" \"d\" {\n  default_user_settings {\n"
        "    jupyter_lab_app_settings {}\n  }\n}\n";
    CHECK(Applied(text, Idle(text, "jupyter_lab_app_settings {")) ==
          "resource \"aws_sagemaker_domain\" \"d\" {\n  default_user_settings {\n"
          "    jupyter_lab_app_settings {\n"
          "      app_lifecycle_management {\n"
          "        idle_settings {\n"
          "          lifecycle_management    = \"ENABLED\"\n"
          "          idle_timeout_in_minutes = 60\n"
          "        }\n"
          "      }\n"
          "    }\n  }\n}\n");
  }
  SECTION("tabs") {
    std::string text =
        "resource \"aws_sagemaker_domain\" \"d\" {\n\tdefault_user_settings {\n"
        "\t\tjupyter_lab_app_settings {\n\t\t\tdefault_resource_spec {\n\t\t\t}\n\t\t}\n\t}\n}\n";
    CHECK(Applied(text, Idle(text, "jupyter_lab_app_settings {")) ==
          "resource \"aws_sagemaker_domain\" \"d\" {\n\tdefault_user_settings {\n"
          "\t\tjupyter_lab_app_settings {\n\t\t\tdefault_resource_spec {\n\t\t\t}\n"
          "\t\t\tapp_lifecycle_management {\n"
          "\t\t\t\tidle_settings {\n"
          "\t\t\t\t\tlifecycle_management    = \"ENABLED\"\n"
          "\t\t\t\t\tidle_timeout_in_minutes = 60\n"
          "\t\t\t\t}\n"
          "\t\t\t}\n"
          "\t\t}\n\t}\n}\n");
  }
  SECTION("four spaces and CRLF") {
    std::string text =
        "resource \"aws_sagemaker_domain\" \"d\" {\r\n"
        "    default_user_settings {\r\n"
        "        code_editor_app_settings {\r\n"
        "            default_resource_spec {\r\n"
        "            }\r\n"
        "        }\r\n"
        "    }\r\n"
        "}\r\n";
    CHECK(Applied(text, Idle(text, "code_editor_app_settings {")) ==
          "resource \"aws_sagemaker_domain\" \"d\" {\r\n"
          "    default_user_settings {\r\n"
          "        code_editor_app_settings {\r\n"
          "            default_resource_spec {\r\n"
          "            }\r\n"
          "            app_lifecycle_management {\r\n"
          "                idle_settings {\r\n"
          "                    lifecycle_management    = \"ENABLED\"\r\n"
          "                    idle_timeout_in_minutes = 60\r\n"
          "                }\r\n"
          "            }\r\n"
          "        }\r\n"
          "    }\r\n"
          "}\r\n");
  }
  SECTION("a comment before the closing brace stays above the insertion") {
    std::string text =
        "resource \"aws_sagemaker_domain\" \"d\" {\n  default_user_settings {\n"
        "    jupyter_lab_app_settings {\n      # no spec yet\n    }\n  }\n}\n";
    std::string out = Applied(text, Idle(text, "jupyter_lab_app_settings {"));
    CHECK(out.find("      # no spec yet\n      app_lifecycle_management {\n") != std::string::npos);
  }
}

TEST_CASE("kInsert idle_settings refuses what it cannot see or must not touch", "[terraform][fix][edit]") {
  std::string text = kDomain;
  SECTION("a dynamic app_lifecycle_management") {
    std::string dyn = text;
    dyn.insert(dyn.find("      default_resource_spec"),
               "      dynamic \"app_lifecycle_management\" {\n        for_each = var.alm\n"
               "        content {\n        }\n      }\n");
    CHECK_FALSE(EditTerraform(dyn, Idle(dyn, "jupyter_lab_app_settings {")));
  }
  SECTION("a dynamic settings block") {
    std::string dyn =
        "resource \"aws_sagemaker_domain\" \"d\" {\n  default_user_settings {\n"
        "    dynamic \"jupyter_lab_app_settings\" {\n      for_each = [1]\n      content {\n      }\n    }\n  }\n}\n";
    CHECK_FALSE(EditTerraform(dyn, Idle(dyn, "dynamic \"jupyter_lab_app_settings\" {")));
  }
  SECTION("a block that is no app's settings") {
    CHECK_FALSE(EditTerraform(text, Idle(text, "default_user_settings {")));
    CHECK_FALSE(EditTerraform(text, Idle(text, "default_resource_spec {")));
  }
  SECTION("not at a block's start") {
    FixChange c = Idle(text, "jupyter_lab_app_settings {");
    c.range.begin.column += 2;
    CHECK_FALSE(EditTerraform(text, c));
  }
  SECTION("a value that is not an object of scalars") {
    CHECK_FALSE(EditTerraform(text, Idle(text, "jupyter_lab_app_settings {", "60")));
    CHECK_FALSE(EditTerraform(text, Idle(text, "jupyter_lab_app_settings {", "{\"A\": [1]}")));
    CHECK_FALSE(EditTerraform(text, Idle(text, "jupyter_lab_app_settings {", "{not json")));
  }
  SECTION("other insertions") {
    FixChange c = Idle(text, "jupyter_lab_app_settings {", "3600");
    c.field = "max_wait_seconds";
    CHECK_FALSE(EditTerraform(text, c));
    c.op = FixChange::Op::kAppendCell;
    CHECK_FALSE(EditTerraform(text, c));
  }
}

TEST_CASE("a string inserted is an HCL string: quotes, backslashes, interpolation escaped", "[terraform][fix][edit]") {
  std::string text = kDomain;
  std::string out =
      Applied(text, Idle(text, "jupyter_lab_app_settings {", R"({"Note": "a \"b\" \\ ${c} %{d}", "On": true})"));
  CHECK(out.find("          note = \"a \\\"b\\\" \\\\ $${c} %%{d}\"\n") != std::string::npos);
  CHECK(out.find("          on   = true\n") != std::string::npos);
}

namespace {

// A training setting inserted into the job whose block or state object starts at `head` (at its `{` when
// `head` names an object element, as a Step Functions state's range starts).
FixChange Training(const std::string& text, const std::string& head, const std::string& field,
                   const std::string& value) {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.range = Block(text, head);
  if (head.find(" = {") != std::string::npos || head.find("\": {") != std::string::npos) {
    c.range.begin = PositionOf(text, text.find('{', text.find(head)));
  }
  c.field = field;
  c.value = value;
  return c;
}

const char* kTrainingJob =
    "resource \"aws_sagemaker_training_job\" \"train\" {\n"
    "  training_job_name = \"train\"\n"
    "  role_arn          = \"arn:aws:iam::111122223333:role/sm\"\n"
    "\n"
    "  algorithm_specification {\n"
    "    training_image = \"img\"\n"
    "  }\n"
    "\n"
    "  resource_config {\n"
    "    instance_type     = \"ml.p3.2xlarge\"\n"
    "    instance_count    = 1\n"
    "    volume_size_in_gb = 30\n"
    "  }\n"
    "}\n";

// `text` with `lines` inserted before the resource's closing `}` line.
std::string AtEnd(std::string text, const std::string& lines) {
  REQUIRE(text.ends_with("\n}\n"));
  return text.insert(text.size() - 2, lines);
}

// `text` with `lines` inserted before the line that starts with `before` (after `from`).
std::string With(std::string text, const std::string& before, const std::string& lines, const std::string& from = "") {
  size_t at = text.find(before, text.find(from));
  REQUIRE(at != std::string::npos);
  return text.insert(at, lines);
}

}  // namespace

TEST_CASE("kInsert training settings into an aws_sagemaker_training_job block", "[terraform][fix][edit]") {
  std::string text = kTrainingJob;
  std::string head = "resource \"aws_sagemaker_training_job\"";
  SECTION("spot") {
    std::string out = Applied(text, Training(text, head, "spot", "true"));
    CHECK(out == AtEnd(text, "  enable_managed_spot_training = true\n"));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "spot", "true")));
  }
  SECTION("max_wait_seconds without a stopping_condition") {
    std::string out = Applied(text, Training(text, head, "max_wait_seconds", "7200"));
    CHECK(out == AtEnd(text, "  stopping_condition {\n    max_wait_time_in_seconds = 7200\n  }\n"));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "max_wait_seconds", "7200")));
  }
  SECTION("max_wait_seconds into the stopping_condition there is") {
    std::string with = AtEnd(text, "\n  stopping_condition {\n    max_runtime_in_seconds = 3600\n  }\n");
    std::string out = Applied(with, Training(with, head, "max_wait_seconds", "7200"));
    CHECK(out == With(with, "  }\n}\n", "    max_wait_time_in_seconds = 7200\n", "max_runtime_in_seconds"));
  }
  SECTION("checkpoint") {
    std::string out = Applied(text, Training(text, head, "checkpoint", "\"s3://ml/checkpoints/${job}\""));
    CHECK(out == AtEnd(text, "  checkpoint_config {\n    s3_uri = \"s3://ml/checkpoints/$${job}\"\n  }\n"));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "checkpoint", "\"s3://other/\"")));
  }
  SECTION("input_mode into algorithm_specification") {
    std::string out = Applied(text, Training(text, head, "input_mode", "\"FastFile\""));
    CHECK(out == With(text, "  }\n", "    training_input_mode = \"FastFile\"\n", "training_image"));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "input_mode", "\"FastFile\"")));
  }
  SECTION("tabs and CRLF") {
    std::string tabs =
        "resource \"aws_sagemaker_training_job\" \"t\" {\r\n\tname = \"t\"\r\n"
        "\tstopping_condition {\r\n\t\tmax_runtime_in_seconds = 3600\r\n\t}\r\n}\r\n";
    CHECK(Applied(tabs, Training(tabs, head, "max_wait_seconds", "7200")) ==
          "resource \"aws_sagemaker_training_job\" \"t\" {\r\n\tname = \"t\"\r\n"
          "\tstopping_condition {\r\n\t\tmax_runtime_in_seconds = 3600\r\n"
          "\t\tmax_wait_time_in_seconds = 7200\r\n\t}\r\n}\r\n");
  }
}

TEST_CASE("kInsert training settings into a block refuses what it must not touch", "[terraform][fix][edit]") {
  std::string head = "resource \"aws_sagemaker_training_job\"";
  SECTION("no algorithm_specification: input_mode is not created") {
    std::string text = "resource \"aws_sagemaker_training_job\" \"t\" {\n  name = \"t\"\n}\n";
    CHECK_FALSE(EditTerraform(text, Training(text, head, "input_mode", "\"FastFile\"")));
  }
  SECTION("a setting there already, as an attribute, a block or a dynamic block") {
    std::string text = AtEnd(kTrainingJob,
                             "  enable_managed_spot_training = var.spot\n"
                             "  stopping_condition = { max_runtime_in_seconds = 1 }\n"
                             "  dynamic \"checkpoint_config\" {\n    for_each = var.ck\n    content {}\n  }\n");
    CHECK_FALSE(EditTerraform(text, Training(text, head, "spot", "true")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "max_wait_seconds", "7200")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "checkpoint", "\"s3://b/\"")));
  }
  SECTION("two stopping_condition blocks") {
    std::string text = AtEnd(kTrainingJob, "  stopping_condition {\n  }\n  stopping_condition {\n  }\n");
    CHECK_FALSE(EditTerraform(text, Training(text, head, "max_wait_seconds", "7200")));
  }
  SECTION("another resource, a value that is no scalar") {
    std::string text = kTrainingJob;
    std::string other = text;
    other.replace(other.find("aws_sagemaker_training_job"), 26, "aws_sagemaker_processing_job");
    CHECK_FALSE(EditTerraform(other, Training(other, "resource \"aws_sagemaker_processing_job\"", "spot", "true")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "checkpoint", "{\"S3Uri\": \"s3://b/\"}")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "spot", "not json")));
    FixChange inner = Training(text, "resource_config {", "spot", "true");
    CHECK_FALSE(EditTerraform(text, inner));
  }
}

namespace {

// A state machine with one training state `Train = {...}` whose request is `parameters`.
std::string Flow(const std::string& parameters) {
  return "resource \"aws_sfn_state_machine\" \"flow\" {\n"
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
         "      }\n"
         "    }\n"
         "  })\n"
         "}\n";
}

// The HCL style: `=`, elements on lines of their own, no commas.
const char* kHclParameters =
    "{\n"
    "          AlgorithmSpecification = {\n"
    "            TrainingImage = \"img\"\n"
    "          }\n"
    "          ResourceConfig = { InstanceType = \"ml.p3.2xlarge\", InstanceCount = 1 }\n"
    "          StoppingCondition = {\n"
    "            MaxRuntimeInSeconds = 3600\n"
    "          }\n"
    "        }";

// The JSON style: quoted keys, `:`, commas.
const char* kJsonParameters =
    "{\n"
    "          \"AlgorithmSpecification\": {\"TrainingImage\": \"img\"},\n"
    "          \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": 1},\n"
    "          \"StoppingCondition\": {\n"
    "            \"MaxRuntimeInSeconds\": 3600,\n"
    "            \"Note\": \"x\"\n"
    "          }\n"
    "        }";

}  // namespace

TEST_CASE("kInsert training settings into a Step Functions state's request: `=`, newlines", "[terraform][fix][edit]") {
  std::string text = Flow(kHclParameters);
  std::string head = "Train = {";
  const std::string last = "            MaxRuntimeInSeconds = 3600\n          }\n";
  SECTION("spot") {
    std::string out = Applied(text, Training(text, head, "spot", "true"));
    CHECK(out == With(text, "        }\n      }", "          EnableManagedSpotTraining = true\n", last));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "spot", "true")));
  }
  SECTION("max_wait_seconds into the StoppingCondition there is") {
    std::string out = Applied(text, Training(text, head, "max_wait_seconds", "7200"));
    CHECK(out ==
          With(text, "          }\n        }", "            MaxWaitTimeInSeconds = 7200\n", "MaxRuntimeInSeconds"));
    CHECK_FALSE(EditTerraform(out, Training(out, head, "max_wait_seconds", "7200")));
  }
  SECTION("max_wait_seconds without a StoppingCondition") {
    std::string none = text;
    none.erase(none.find("          StoppingCondition"),
               last.size() + std::string("          StoppingCondition = {\n").size());
    std::string out = Applied(none, Training(none, head, "max_wait_seconds", "7200"));
    CHECK(out == With(none, "        }\n      }", "          StoppingCondition = { MaxWaitTimeInSeconds = 7200 }\n",
                      "ResourceConfig"));
  }
  SECTION("checkpoint") {
    std::string out = Applied(text, Training(text, head, "checkpoint", "\"s3://ml/ck/\""));
    CHECK(out == With(text, "        }\n      }", "          CheckpointConfig = { S3Uri = \"s3://ml/ck/\" }\n", last));
  }
  SECTION("input_mode into AlgorithmSpecification") {
    std::string out = Applied(text, Training(text, head, "input_mode", "\"FastFile\""));
    CHECK(out == With(text, "          }\n          ResourceConfig", "            TrainingInputMode = \"FastFile\"\n"));
  }
  SECTION("Arguments instead of Parameters") {
    std::string args = text;
    args.replace(args.find("Parameters"), 10, "Arguments");
    std::string out = Applied(args, Training(args, head, "spot", "true"));
    CHECK(out == With(args, "        }\n      }", "          EnableManagedSpotTraining = true\n", last));
  }
}

TEST_CASE("kInsert training settings into a Step Functions state's request: `:`, commas", "[terraform][fix][edit]") {
  std::string text = Flow(kJsonParameters);
  std::string head = "Train = {";
  SECTION("spot after the last element, which has no comma") {
    std::string out = Applied(text, Training(text, head, "spot", "true"));
    CHECK(out == With(text, "\n        }\n      }", ",\n          \"EnableManagedSpotTraining\": true", "\"Note\""));
  }
  SECTION("max_wait_seconds into the StoppingCondition there is") {
    std::string out = Applied(text, Training(text, head, "max_wait_seconds", "7200"));
    CHECK(out == With(text, "\n          }\n        }", ",\n            \"MaxWaitTimeInSeconds\": 7200"));
  }
  SECTION("max_wait_seconds without a StoppingCondition") {
    std::string none = Flow(
        "{\n"
        "          \"AlgorithmSpecification\": {\"TrainingImage\": \"img\"},\n"
        "          \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": 1},\n"
        "        }");
    std::string out = Applied(none, Training(none, head, "max_wait_seconds", "7200"));
    CHECK(out ==
          With(none, "        }\n      }", "          \"StoppingCondition\": { \"MaxWaitTimeInSeconds\": 7200 },\n"));
  }
  SECTION("checkpoint") {
    std::string out = Applied(text, Training(text, head, "checkpoint", "\"s3://ml/ck/\""));
    CHECK(out == With(text, "\n        }\n      }", ",\n          \"CheckpointConfig\": { \"S3Uri\": \"s3://ml/ck/\" }",
                      "\"Note\""));
  }
  SECTION("input_mode into a one-line AlgorithmSpecification") {
    std::string out = Applied(text, Training(text, head, "input_mode", "\"FastFile\""));
    CHECK(out == With(text, "},\n          \"ResourceConfig\"", ", \"TrainingInputMode\": \"FastFile\""));
  }
  SECTION("a request on one line, and an empty object") {
    std::string one =
        Flow("{ \"AlgorithmSpecification\": {}, \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\"} }");
    CHECK(Applied(one, Training(one, head, "spot", "true")) ==
          With(one, " }\n      }", ", \"EnableManagedSpotTraining\": true"));
    CHECK(Applied(one, Training(one, head, "input_mode", "\"FastFile\"")) ==
          Flow("{ \"AlgorithmSpecification\": { \"TrainingInputMode\": \"FastFile\" }, \"ResourceConfig\": "
               "{\"InstanceType\": \"ml.p3.2xlarge\"} }"));
  }
  SECTION("a JSON state key") {
    std::string quoted = text;
    quoted.replace(quoted.find(head), head.size(), "\"Train\": {");
    std::string out = Applied(quoted, Training(quoted, "\"Train\": {", "spot", "true"));
    CHECK(out.find("\"Note\": \"x\"\n          },\n          \"EnableManagedSpotTraining\": true\n") !=
          std::string::npos);
  }
}

TEST_CASE("kInsert training settings into a Step Functions request refuses what it must not touch",
          "[terraform][fix][edit]") {
  std::string head = "Train = {";
  SECTION("a key written as Key.$") {
    std::string text = Flow(
        "{\n"
        "          \"EnableManagedSpotTraining.$\" = \"$.spot\"\n"
        "          \"StoppingCondition.$\" = \"$.stop\"\n"
        "          \"CheckpointConfig.$\" = \"$.ck\"\n"
        "          AlgorithmSpecification = { TrainingImage = \"img\", \"TrainingInputMode.$\" = \"$.mode\" }\n"
        "        }");
    CHECK_FALSE(EditTerraform(text, Training(text, head, "spot", "true")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "max_wait_seconds", "7200")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "checkpoint", "\"s3://b/\"")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "input_mode", "\"FastFile\"")));
    std::string params = Flow("{ AlgorithmSpecification = { TrainingImage = \"img\" } }");
    params.insert(params.find("        Parameters"), "        \"Parameters.$\" = \"$.req\"\n");
    CHECK_FALSE(EditTerraform(params, Training(params, head, "spot", "true")));
  }
  SECTION("a key written twice") {
    std::string text = Flow(
        "{\n"
        "          StoppingCondition = { MaxRuntimeInSeconds = 1 }\n"
        "          StoppingCondition = { MaxRuntimeInSeconds = 2 }\n"
        "          AlgorithmSpecification = { TrainingImage = \"img\" }\n"
        "          AlgorithmSpecification = { TrainingImage = \"img\" }\n"
        "        }");
    CHECK_FALSE(EditTerraform(text, Training(text, head, "max_wait_seconds", "7200")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "input_mode", "\"FastFile\"")));
    std::string both = Flow("{ AlgorithmSpecification = { TrainingImage = \"img\" } }");
    both.insert(both.find("        Parameters"), "        Arguments = {}\n");
    CHECK_FALSE(EditTerraform(both, Training(both, head, "spot", "true")));
  }
  SECTION("a request or a member that is no object written here") {
    std::string text =
        "locals {\n  req = { AlgorithmSpecification = { TrainingImage = \"img\" } }\n}\n" + Flow("local.req");
    CHECK_FALSE(EditTerraform(text, Training(text, head, "spot", "true")));
    CHECK_FALSE(EditTerraform(text, Training(text, head, "max_wait_seconds", "7200")));
    std::string member = Flow(
        "{\n          StoppingCondition = local.stop\n          AlgorithmSpecification = "
        "merge(local.algo, {})\n        }");
    CHECK_FALSE(EditTerraform(member, Training(member, head, "max_wait_seconds", "7200")));
    CHECK_FALSE(EditTerraform(member, Training(member, head, "input_mode", "\"FastFile\"")));
    std::string none = Flow("{ ResourceConfig = { InstanceType = \"ml.p3.2xlarge\" } }");
    CHECK_FALSE(EditTerraform(none, Training(none, head, "input_mode", "\"FastFile\"")));
  }
  SECTION("a state without a request, not at a state's start") {
    std::string text = Flow(kHclParameters);
    std::string bare = text;
    bare.replace(bare.find("Parameters"), 10, "Comment   ");
    CHECK_FALSE(EditTerraform(bare, Training(bare, head, "spot", "true")));
    FixChange c = Training(text, head, "spot", "true");
    c.range.begin.column += 1;
    CHECK_FALSE(EditTerraform(text, c));
  }
}
