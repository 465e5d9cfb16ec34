// Only real comments suppress: the directive text inside a string, a YAML
// block scalar, a heredoc or a notebook's markdown is data.
#include "linter/engine/suppress.h"

#include <string>
#include <vector>

#include "parsers/python/comments.h"
#include "parsers/terraform/comments.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

// "line:column:ids" of each directive.
std::vector<std::string> Directives(const std::string& text, CommentSyntax syntax) {
  std::vector<std::string> out;
  for (const IgnoreDirective& d : FindIgnoreDirectives(text, syntax)) {
    std::string ids;
    for (const std::string& id : d.ids) ids += (ids.empty() ? "" : ",") + id;
    out.push_back(std::to_string(d.line) + ":" + std::to_string(d.column) + ":" + ids);
  }
  return out;
}

using V = std::vector<std::string>;

std::vector<std::string> Shown(const std::vector<Comment>& comments) {
  std::vector<std::string> out;
  for (const Comment& c : comments)
    out.push_back(std::to_string(c.line) + ":" + std::to_string(c.column) + ":" + c.text);
  return out;
}

}  // namespace

TEST_CASE("YAML: comments, not quoted or block scalars", "[adversarial][suppress]") {
  std::string yaml =
      "Resources:\n"
      "  # sagelint:ignore=SM201 a real comment\n"  // 2
      "  A:\n"
      "    Description: \"# sagelint:ignore=SM401\"\n"     // 4: double-quoted
      "    Other: '# sagelint:ignore=SM402 it''s text'\n"  // 5: single-quoted
      "    Plain: it's # sagelint:ignore=SM403\n"          // 6: an apostrophe in a plain scalar
      "    Script: |\n"                                    // 7
      "      #!/bin/bash\n"
      "      # sagelint:ignore=SM202 inside the script\n"  // 9: block scalar content
      "\n"
      "      echo done\n"
      "  # sagelint:ignore=SM103 after the block\n"  // 12
      "    Multi: \"first\n"
      "      # sagelint:ignore=SM104 still quoted\"\n"                                // 14
      "    Flow: {a: \"x # sagelint:ignore=SM105\", b: 1} # sagelint:ignore=SM211\n"  // 15
      "    Tagged: !Sub |\n"
      "      # sagelint:ignore=SM212 in a tagged block\n"  // 17
      "    Value: x#sagelint:ignore=SM213\n";              // 18: '#' not after a blank
  CHECK(Directives(yaml, CommentSyntax::kYaml) == V{"2:5:SM201", "6:19:SM403", "12:5:SM103", "15:52:SM211"});
  // JSON is read by the same rules: nothing in a string is a comment.
  CHECK(Directives("{\"Description\":\"# sagelint:ignore=SM201\",\"a\":[\"# sagelint:ignore=SM202\"]}\n",
                   CommentSyntax::kYaml)
            .empty());
}

TEST_CASE("Python: comments, not strings", "[adversarial][suppress]") {
  std::string py =
      "x = '# sagelint:ignore=SM401'\n"
      "y = \"\"\"\n"
      "# sagelint:ignore=SM402 in a docstring\n"
      "\"\"\"\n"
      "z = f\"{a!r} # sagelint:ignore=SM403\"  # sagelint:ignore=SM404\n"
      "w = r'\\' # sagelint:ignore=SM301'\n"
      "# sagelint:ignore=SM201\n";
  CHECK(Directives(py, CommentSyntax::kPython) == V{"5:41:SM404", "7:3:SM201"});
}

TEST_CASE("HCL: #, // and /* */ comments, not strings, interpolations or heredocs", "[adversarial][suppress]") {
  std::string hcl =
      "resource \"x\" \"y\" { # sagelint:ignore=SM201\n"
      "  a = \"# sagelint:ignore=SM401\"\n"
      "  b = \"${var.c == \"#\" ? 1 : 2} // sagelint:ignore=SM402\"\n"
      "  c = <<-EOT\n"
      "    # sagelint:ignore=SM403 in a heredoc\n"
      "  EOT\n"
      "  // sagelint:ignore=SM404\n"
      "  /* first\n"
      "     sagelint:ignore=SM405 */ d = 1\n"
      "  e = \"$${not} # sagelint:ignore=SM406\"\n"
      "}\n";
  CHECK(Directives(hcl, CommentSyntax::kHcl) == V{"1:22:SM201", "7:6:SM404", "9:6:SM405"});
  CHECK(Directives("{\"a\": \"# sagelint:ignore=SM201\"}", CommentSyntax::kNone).empty());
}

TEST_CASE("notebooks: comments of code cells only, at their lines in the file", "[adversarial][suppress]") {
  std::string nb =
      "{\n"
      " \"cells\": [\n"
      "  {\"cell_type\": \"markdown\", \"metadata\": {}, \"source\": [\n"
      "    \"# sagelint:ignore=SM213 a heading, not a comment\\n\"\n"
      "  ]},\n"
      "  {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"execution_count\": null, \"source\": [\n"
      "    \"s = '# sagelint:ignore=SM401'\\n\",\n"
      "    \"# sagelint:ignore=SM213\\n\",\n"
      "    \"p = m.deploy()\"\n"
      "  ]}\n"
      " ],\n"
      " \"metadata\": {\"kernelspec\": {\"language\": \"python\", \"name\": \"python3\"}},\n"
      " \"nbformat\": 4, \"nbformat_minor\": 5\n"
      "}\n";
  std::vector<IgnoreDirective> d = FindIgnoreDirectives(nb, CommentSyntax::kNotebook);
  REQUIRE(d.size() == 1);
  CHECK(d[0].line == 8);
  CHECK(d[0].ids == std::vector<std::string>{"SM213"});
}

TEST_CASE("TypeScript comments: line and block, not inside strings or template literals", "[suppress]") {
  const std::string ts =
      "const a = 'x // no'; // sagelint:ignore=SM201\n"
      "const b = `t ${f('/* no */')} // no`;\n"
      "/* sagelint:ignore=SM103\n"
      "   sagelint:ignore=SM104 */ const c = \"// no\";\n";
  std::vector<Comment> comments = FindComments(ts, CommentSyntax::kScript);
  REQUIRE(comments.size() == 3);
  CHECK(comments[0].line == 1);
  CHECK(comments[0].text == "// sagelint:ignore=SM201");
  CHECK(comments[1].line == 3);
  CHECK(comments[2].line == 4);
  CHECK(comments[2].text == "   sagelint:ignore=SM104 */");
}

TEST_CASE("a file with a syntax error keeps the comments around the error", "[adversarial][suppress]") {
  // The front ends' tree-sitter parses are error-tolerant: a broken statement
  // does not hide the directives before or after it.
  const std::string py =
      "def f(:\n"
      "    pass  # sagelint:ignore=SM401\n"
      "# sagelint:ignore=SM201\n"
      "m.deploy(instance_type='ml.p4d.24xlarge')\n";
  CHECK(Directives(py, CommentSyntax::kPython) == V{"2:13:SM401", "3:3:SM201"});
  const std::string hcl =
      "resource \"x\" \"y\" {\n"
      "  # sagelint:ignore=SM000\n"
      "  a = = 1\n"
      "}\n";
  CHECK(Directives(hcl, CommentSyntax::kHcl) == V{"2:5:SM000"});
  // A regular expression holding `//` is not a comment.
  const std::string ts = "const r = /https?:\\/\\//; // sagelint:ignore=SM201\nconst s = x / 2; // two\n";
  std::vector<Comment> comments = FindComments(ts, CommentSyntax::kScript);
  REQUIRE(comments.size() == 2);
  CHECK(comments[0].column == 26);
  CHECK(comments[0].text == "// sagelint:ignore=SM201");
  CHECK(comments[1].text == "// two");
}

TEST_CASE("a Python file's parse gives the comments its finder gives", "[adversarial][suppress]") {
  ResolveOptions opts;
  opts.root = "/nonexistent";
  // A byte order mark, and a directive after a syntax error.
  const SourceFile py{
      "a.py", "/nonexistent/a.py",
      "\xEF\xBB\xBF# sagelint:ignore=SM201\nimport sagemaker\ndef f(:\n  x = 1  # sagelint:ignore=SM401\n"};
  std::optional<std::vector<Comment>> comments;
  ParsePythonKeepingComments(py, opts, &comments);
  REQUIRE(comments.has_value());
  CHECK(Shown(*comments) == V{"1:4:# sagelint:ignore=SM201", "4:10:# sagelint:ignore=SM401"});
  CHECK(Shown(*comments) == Shown(py::PythonComments(py.text)));
  // A notebook: the comments of a broken cell too (taken before it is blanked).
  const SourceFile nb{
      "a.ipynb", "/nonexistent/a.ipynb",
      "{\"cells\": [\n"
      " {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": [\"import sagemaker\"]},\n"
      " {\"cell_type\": \"code\", \"metadata\": {}, \"outputs\": [], \"source\": [\n"
      "   \"def f(:\\n\",\n"
      "   \"  # sagelint:ignore=SM201\\n\"]}],\n"
      " \"metadata\": {\"kernelspec\": {\"language\": \"python\", \"name\": \"python3\"}},\n"
      " \"nbformat\": 4, \"nbformat_minor\": 5}\n"};
  comments.reset();
  FileResult r = ParseNotebookKeepingComments(nb, opts, &comments);
  CHECK(r.errors.size() == 1);
  REQUIRE(comments.has_value());
  CHECK(Shown(*comments) == Shown(py::NotebookComments(nb.text)));
  CHECK(comments->size() == 1);
  // Code that cannot declare a workload is not parsed: no tree, no comments from it.
  comments.reset();
  ParsePythonKeepingComments({"b.py", "/nonexistent/b.py", "x = 1  # sagelint:ignore=SM201\n"}, opts, &comments);
  CHECK(!comments.has_value());
}

TEST_CASE("a Terraform module's parse gives the comments its finder gives", "[adversarial][suppress]") {
  ResolveOptions opts;
  opts.root = "/nonexistent";
  TerraformRoot root;
  // An exponent number (which the parse reads with zeros in its place) before a block comment.
  root.files.push_back(
      {"main.tf", "/nonexistent/main.tf",
       "locals { n = 1e3 } # sagelint:ignore=SM201\n/* a\n   sagelint:ignore=SM202 */\n"
       "resource \"aws_sagemaker_notebook_instance\" \"n\" {\n  instance_type = \"ml.t3.medium\"\n}\n"});
  root.files.push_back({"other.tf", "/nonexistent/other.tf", "# no directive here\n"});
  std::map<std::string, std::vector<Comment>> comments;
  ParseTerraformModuleKeepingComments(root, opts, &comments);
  REQUIRE(comments.count("main.tf") == 1);
  CHECK(Shown(comments["main.tf"]) == V{"1:20:# sagelint:ignore=SM201", "2:1:/* a", "3:1:   sagelint:ignore=SM202 */"});
  CHECK(Shown(comments["main.tf"]) == Shown(tf::HclComments(root.files[0].text)));
  CHECK(comments.count("other.tf") == 0);  // its text does not mention sagelint: (no comment it gives is kept)
}
