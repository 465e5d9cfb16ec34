// Attribute alignment as `terraform fmt` writes it (parsers/terraform/align.h):
// the groups a fix's lines join are aligned, every other byte stays.
#include <string>
#include <vector>

#include "parsers/terraform/align.h"
#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("terraform align: each group of attributes aligns its own =", "[terraform][fixes]") {
  // Three groups: broken by a blank line, by a nested block and by a comment line.
  const std::string text =
      "resource \"x\" \"y\" {\n"  // 0
      "  a = 1\n"                 // 1
      "  long_name = 2\n"         // 2
      "\n"                        // 3
      "  b = 3\n"                 // 4
      "  bb = 4\n"                // 5
      "  nested {\n"              // 6
      "    inner = 5\n"           // 7
      "    i = 6\n"               // 8
      "  }\n"                     // 9
      "  c = 7\n"                 // 10
      "  # a comment line\n"      // 11
      "  cccc = 8\n"              // 12
      "  d = 9\n"                 // 13
      "}\n";
  CHECK(tf::AlignAttributes(text, {2}) ==
        "resource \"x\" \"y\" {\n"
        "  a         = 1\n"
        "  long_name = 2\n"
        "\n"
        "  b = 3\n"
        "  bb = 4\n"
        "  nested {\n"
        "    inner = 5\n"
        "    i = 6\n"
        "  }\n"
        "  c = 7\n"
        "  # a comment line\n"
        "  cccc = 8\n"
        "  d = 9\n"
        "}\n");
  // Every group touched: the nested block's lines, the attribute after it
  // alone, and the group after the comment line apart from it.
  CHECK(tf::AlignAttributes(text, {1, 4, 7, 10, 13}) ==
        "resource \"x\" \"y\" {\n"
        "  a         = 1\n"
        "  long_name = 2\n"
        "\n"
        "  b  = 3\n"
        "  bb = 4\n"
        "  nested {\n"
        "    inner = 5\n"
        "    i     = 6\n"
        "  }\n"
        "  c = 7\n"
        "  # a comment line\n"
        "  cccc = 8\n"
        "  d    = 9\n"
        "}\n");
  // Lines outside every group: nothing changes.
  CHECK(tf::AlignAttributes(text, {0, 3, 6, 9, 11, 99}) == text);
}

TEST_CASE("terraform align: multi-line values, heredocs and strings end or stay out of groups", "[terraform][fixes]") {
  const std::string text =
      "locals {\n"
      "  a = 1\n"
      "  tags = {\n"  // opens a multi-line value: not in a group
      "    Name = \"x = y\"\n"
      "    Environment = \"prod\"\n"
      "  }\n"
      "  list = [1, 2]\n"
      "  cmp = var.x == 2 ? \"a\" : \"b\"\n"
      "  script = <<-EOT\n"  // a heredoc's first line stays in the group above it
      "    key = value\n"
      "    k = v\n"
      "  EOT\n"
      "  u = \"${var.a}-${var.b}\"\n"
      "  uu = 1\n"
      "}\n";
  CHECK(tf::AlignAttributes(text, {1, 3, 6, 9, 12}) ==
        "locals {\n"
        "  a = 1\n"
        "  tags = {\n"
        "    Name        = \"x = y\"\n"
        "    Environment = \"prod\"\n"
        "  }\n"
        "  list   = [1, 2]\n"
        "  cmp    = var.x == 2 ? \"a\" : \"b\"\n"
        "  script = <<-EOT\n"
        "    key = value\n"
        "    k = v\n"
        "  EOT\n"
        "  u  = \"${var.a}-${var.b}\"\n"
        "  uu = 1\n"
        "}\n");
}

TEST_CASE("terraform align: trailing comments align after the code of their lines", "[terraform][fixes]") {
  const std::string text =
      "x {\n"
      "  a = 1 # one\n"
      "  bbbbbb = \"#not a comment\" // two\n"
      "  c = 3\n"
      "  d = 4    # alone\n"
      "}\r\n";
  CHECK(tf::AlignAttributes(text, {1}) ==
        "x {\n"
        "  a      = 1                # one\n"
        "  bbbbbb = \"#not a comment\" // two\n"
        "  c      = 3\n"
        "  d      = 4 # alone\n"
        "}\r\n");
}

TEST_CASE("terraform align: a fix's edits become one edit of the lines they re-align", "[terraform][fixes]") {
  const std::string before =
      "resource \"aws_sagemaker_training_job\" \"t\" {\n"
      "  stopping_condition {\n"
      "    max_runtime_in_seconds = 3600\n"
      "  }\n"
      "  name = \"a\"\n"
      "}\n";
  size_t close = before.find("  }\n");
  size_t end = before.rfind("}\n");
  std::vector<TextEdit> edits = {{close, close, "    max_wait_time_in_seconds = 7200\n"},
                                 {end, end, "  enable_managed_spot_training = true\n"}};
  std::optional<TextEdit> e = tf::AlignedEdit(before, edits);
  REQUIRE(e);
  std::string after = before.substr(0, e->begin) + e->content + before.substr(e->end);
  CHECK(after ==
        "resource \"aws_sagemaker_training_job\" \"t\" {\n"
        "  stopping_condition {\n"
        "    max_runtime_in_seconds   = 3600\n"
        "    max_wait_time_in_seconds = 7200\n"
        "  }\n"
        "  name                         = \"a\"\n"
        "  enable_managed_spot_training = true\n"
        "}\n");
  // Whole lines: from the first re-aligned line to the end of the last new one.
  CHECK(e->begin == before.find("    max_runtime"));
  CHECK(e->end == end);
  // Lines that need no re-aligning: the edits stand as they are.
  CHECK_FALSE(tf::AlignedEdit(before, {{end, end, "  checkpoint_config {\n    s3_uri = \"s3://b/c\"\n  }\n"}}));
  CHECK_FALSE(tf::AlignedEdit(before, {}));
}
