// The front-end table: which front end a file's name and content lead to, the
// comment syntax of its files, and the rules the table's rows keep.
#include "linter/engine/front_ends.h"

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;

namespace {

std::string FilesOf(std::string_view path) {
  const FrontEnd* fe = FrontEndForPath(path);
  return fe ? std::string(fe->files) : "none";
}

std::string ReaderOf(std::string_view path, std::string_view text) {
  const FrontEnd* fe = FrontEndForPath(path);
  if (!fe) return "none";
  const FrontEnd* reader = FrontEndForContent(*fe, text);
  return reader ? std::string(reader->name) : "none";
}

CommentSyntax CommentsOf(std::string_view path, std::string_view text = "") {
  const FrontEnd* fe = FrontEndForPath(path);
  if (fe && !fe->reads_modules()) fe = FrontEndForContent(*fe, text);
  REQUIRE(fe != nullptr);
  return fe->CommentsIn(path);
}

constexpr std::string_view kPlan = R"({"format_version": "1.2", "planned_values": {"root_module": {}}})";

}  // namespace

TEST_CASE("a file's name chooses its front end, whatever its case", "[engine][front-ends]") {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"main.tf", "terraform"},
      {"a/MAIN.TF.JSON", "terraform"},
      {"prod.tfvars", "terraform"},
      {"x.tfvars.json", "terraform"},
      {"t.yaml", "yaml/json"},
      {"t.YML", "yaml/json"},
      {"t.json", "yaml/json"},
      {"t.template", "yaml/json"},
      {"train.py", "python"},
      {"Explore.IPYNB", "notebook"},
      {"infra/cdk.json", "cdk.json"},
      {"cdk.json", "cdk.json"},
      {"/abs/cdk.json", "cdk.json"},
      {"mycdk.json", "yaml/json"},
      {"bin/app.ts", "typescript"},
      {"lib/stack.js", "typescript"},
      {"README.md", "none"},
      {"tf", "none"},
      {"", "none"},
  };
  for (const auto& [path, files] : cases) {
    INFO(path);
    CHECK(FilesOf(path) == files);
  }
}

TEST_CASE("among front ends of the same names, the content decides", "[engine][front-ends]") {
  CHECK(ReaderOf("plan.json", kPlan) == "terraform-plan");
  CHECK(ReaderOf("t.yaml", testing::NotebookTemplate()) == "cloudformation");
  CHECK(ReaderOf("t.json", R"({"name": "sagemaker", "version": "1.0"})") == "none");
  CHECK(ReaderOf("train.py", "import sagemaker\n") == "python");
  CHECK(ReaderOf("stack.py", "from aws_cdk import aws_sagemaker as sagemaker\n") == "cdk-python");
  // An IAM policy document in JSON: Version and Statement, with nothing but Id besides.
  constexpr std::string_view kPolicy = R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
      "Action": "sagemaker:CreateTrainingJob", "Resource": "*"}]})";
  CHECK(ReaderOf("sm.json", kPolicy) == "iam-policy");
  CHECK(ReaderOf("sm.json", std::string("\xEF\xBB\xBF  ") + std::string(kPolicy)) == "iam-policy");
  CHECK(ReaderOf("sm.json", R"({"Id": "x", "Version": "2012-10-17", "Statement": []})") == "iam-policy");
  CHECK(ReaderOf("sm.json", R"({"Version": "1", "Statement": [], "Steps": []})") == "none");
  CHECK(ReaderOf("sm.json", R"({"Statement": [{"Action": "sagemaker:*"}]})") == "none");
  CHECK(ReaderOf("sm.yaml", "Version: '2012-10-17'\nStatement:\n  - Action: sagemaker:*\n") == "none");
  // What `cdk synth` writes beside its templates is neither a template nor a policy.
  CHECK(ReaderOf("cdk.out/manifest.json", R"({"version": "36.0.0", "artifacts": {"Stack": {"type":
      "aws:cloudformation:stack", "properties": {"templateFile": "Stack.template.json"}}}})") == "none");
  CHECK(ReaderOf("cdk.out/tree.json", R"({"version": "tree-0.1", "tree": {"id": "App", "children": {"N": {"attributes":
      {"aws:cdk:cloudformation:type": "AWS::SageMaker::NotebookInstance"}}}}})") == "none");
}

TEST_CASE("the comment syntax follows the file", "[adversarial][suppress][front-ends]") {
  const std::string cfn = testing::NotebookTemplate();
  const std::tuple<std::string_view, std::string_view, CommentSyntax> cases[] = {
      {"t.json", cfn, CommentSyntax::kYaml},
      {"t.yaml", cfn, CommentSyntax::kYaml},
      {"plan.json", kPlan, CommentSyntax::kNone},
      {"main.tf", "", CommentSyntax::kHcl},
      {"x.tfvars", "", CommentSyntax::kHcl},
      {"main.tf.json", "", CommentSyntax::kNone},
      {"x.tfvars.json", "", CommentSyntax::kNone},
      {"a.py", "", CommentSyntax::kPython},
      {"a.ipynb", "", CommentSyntax::kNotebook},
      {"lib/stack.ts", "", CommentSyntax::kScript},
      {"cdk.json", "", CommentSyntax::kNone},
      {"sm.json", R"({"Version": "2012-10-17", "Statement": []})", CommentSyntax::kNone},
  };
  for (const auto& [path, text, syntax] : cases) {
    INFO(path);
    CHECK(CommentsOf(path, text) == syntax);
  }
}

TEST_CASE("the front-end table keeps its rules", "[engine][front-ends]") {
  std::set<std::string_view> names, files_seen;
  std::string_view previous_files;
  for (const FrontEnd& fe : FrontEnds()) {
    INFO(fe.name);
    CHECK(names.insert(fe.name).second);
    // One way to parse: a file alone, a module directory, or a file standing for an app.
    CHECK((fe.parse != nullptr) + (fe.parse_module != nullptr) + (fe.parse_app != nullptr) == 1);
    // A parse that keeps its tree's comments is that of a file alone.
    CHECK((!fe.parse_keeping_comments || fe.parse));
    CHECK(!fe.suffixes.empty());
    for (std::string_view s : fe.suffixes) {
      CHECK((s.starts_with(".") || s.starts_with("/")));
      CHECK(std::string(s).find_first_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ") == std::string::npos);
    }
    // Rows reading the same names are adjacent, with the same endings; only
    // single-file rows share names (a content sniff tells them apart).
    if (fe.files != previous_files) {
      CHECK(files_seen.insert(fe.files).second);
    } else {
      const FrontEnd& first = *FrontEndForPath(std::string("x") + std::string(fe.suffixes.front()));
      CHECK(first.files == fe.files);
      CHECK(std::vector(first.suffixes.begin(), first.suffixes.end()) ==
            std::vector(fe.suffixes.begin(), fe.suffixes.end()));
      CHECK(first.sniff != nullptr);
      CHECK(!fe.reads_modules());
    }
    previous_files = fe.files;
    // Rows of one format agree on what the analysis asks of the format.
    CHECK(FrontEndOf(fe.format).keeps_partial_results == fe.keeps_partial_results);
  }
}

TEST_CASE("every front end has a fuzz harness in the one list", "[engine][front-ends]") {
  // tests/fuzz/harnesses.txt: CMake builds and scripts/fuzz-smoke.sh runs what it lists.
  const std::filesystem::path dir = std::filesystem::path(SAGELINT_SOURCE_DIR) / "tests/fuzz";
  std::ifstream list(dir / "harnesses.txt");
  REQUIRE(list);
  std::set<std::string> rows, harnesses;
  for (std::string line; std::getline(list, line);) {
    std::istringstream words(line);
    std::string kind, name;
    words >> kind >> name;
    if (kind != "front-end" && kind != "reader") {
      CHECK((kind.empty() || kind.starts_with("#")));
      continue;
    }
    INFO(line);
    std::string harness = name;
    for (char& c : harness) c = c == '-' ? '_' : c;
    CHECK(harnesses.insert(harness).second);
    if (kind == "front-end") {
      rows.insert(name);
    } else {
      CHECK(std::filesystem::is_regular_file(dir / ("fuzz_" + harness + ".cc")));
    }
    // Seeds to start from.
    CHECK(!std::filesystem::is_empty(dir / "corpus" / harness));
  }
  std::set<std::string> table;
  for (const FrontEnd& fe : FrontEnds()) table.insert(std::string(fe.name));
  CHECK(rows == table);
}
