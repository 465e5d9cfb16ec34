// Terraform fix edits (SPEC §13): removing a member, inserting Studio idle
// settings — byte for byte unchanged outside the edit, and the result parses.
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
