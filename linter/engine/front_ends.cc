#include "linter/engine/front_ends.h"

#include <algorithm>
#include <iterator>

#include "linter/base/strings.h"
#include "linter/engine/dispatch.h"
#include "parsers/cdk/front_end.h"
#include "parsers/python/comments.h"
#include "parsers/terraform/comments.h"

namespace sagelint {
namespace {

constexpr std::string_view kCdkAppFiles[] = {"/cdk.json"};
constexpr std::string_view kScriptFiles[] = {".ts", ".js", ".mjs", ".cjs"};
// Its JSON files and variable files are read, not edited.
constexpr std::string_view kTerraformEditedFiles[] = {".tf"};
constexpr std::string_view kTerraformFiles[] = {".tf", ".tf.json", ".tfvars", ".tfvars.json"};
constexpr std::string_view kYamlOrJsonFiles[] = {".yaml", ".yml", ".json", ".template"};
constexpr std::string_view kPythonFiles[] = {".py"};
constexpr std::string_view kNotebookFiles[] = {".ipynb"};

// A CDK app's cdk.json before the JSON rows. Terraform first: its ".tf.json"
// and ".tfvars.json" files are not JSON documents to sniff. A plan
// (`terraform show -json`) before a template. Python that names aws_cdk is
// the CDK front end's when it belongs to an app.
constexpr FrontEnd kFrontEnds[] = {
    {.name = "cdk",
     .files = "cdk.json",
     .format = Format::kCdk,
     .suffixes = kCdkAppFiles,
     .parse_app = ParseCdkApp,
     .comments = CommentSyntax::kScript,
     .keeps_partial_results = true,
     .ungated = true},
    {.name = "terraform",
     .files = "terraform",
     .format = Format::kTerraform,
     .suffixes = kTerraformFiles,
     .parse_module = ParseTerraformModule,
     .parse_module_keeping_comments = ParseTerraformModuleKeepingComments,
     .comments = CommentSyntax::kHcl,
     .edit = EditTerraform,
     .edited = kTerraformEditedFiles,
     .not_edited = "sagelint edits Terraform only in .tf files, not in JSON or plans"},
    {.name = "terraform-plan",
     .files = "yaml/json",
     .format = Format::kTerraform,
     .suffixes = kYamlOrJsonFiles,
     .sniff = LooksLikeTerraformPlan,
     .parse = ParseTerraformPlan},
    {.name = "cloudformation",
     .files = "yaml/json",
     .format = Format::kCloudFormation,
     .suffixes = kYamlOrJsonFiles,
     .sniff = LooksLikeCloudFormation,
     .parse = ParseTemplateWithParameters,
     .comments = CommentSyntax::kYaml,
     .json_comments = CommentSyntax::kYaml,
     .edit = EditCloudFormation},
    // IAM policy documents: JSON has no comments (suppress by exclude:, rules: or a baseline).
    {.name = "iam-policy",
     .files = "yaml/json",
     .format = Format::kCloudFormation,
     .suffixes = kYamlOrJsonFiles,
     .sniff = LooksLikeIamPolicyDocument,
     .parse = ParseIamPolicyDocument},
    {.name = "cdk-python",
     .files = "python",
     .format = Format::kCdk,
     .suffixes = kPythonFiles,
     .sniff = MentionsCdk,
     .parse_app = ParseCdkSource,
     .comments = CommentSyntax::kPython,
     .json_comments = CommentSyntax::kPython,
     .keeps_partial_results = true,
     .edit = EditCdk},
    {.name = "python",
     .files = "python",
     .format = Format::kPython,
     .suffixes = kPythonFiles,
     .parse = ParsePython,
     .parse_keeping_comments = ParsePythonKeepingComments,
     .comments = CommentSyntax::kPython,
     .json_comments = CommentSyntax::kPython,
     .keeps_partial_results = true,
     .edit = EditPython},
    {.name = "notebook",
     .files = "notebook",
     .format = Format::kNotebook,
     .suffixes = kNotebookFiles,
     .parse = ParseNotebook,
     .parse_keeping_comments = ParseNotebookKeepingComments,
     .comments = CommentSyntax::kNotebook,
     .json_comments = CommentSyntax::kNotebook,
     .keeps_partial_results = true,
     .edit = EditNotebook},
    {.name = "cdk-typescript",
     .files = "typescript",
     .format = Format::kCdk,
     .suffixes = kScriptFiles,
     .parse_app = ParseCdkSource,
     .comments = CommentSyntax::kScript,
     .keeps_partial_results = true,
     .named_only = true,
     .edit = EditCdk},
};

}  // namespace

CommentSyntax FrontEnd::CommentsIn(std::string_view path) const {
  if (path.ends_with(".json")) return json_comments;
  // A CDK app's results are for its Python or TypeScript files.
  if (format == Format::kCdk) return path.ends_with(".py") ? CommentSyntax::kPython : CommentSyntax::kScript;
  return comments;
}

bool FrontEnd::Edits(std::string_view path) const {
  return edited.empty() ||
         std::any_of(edited.begin(), edited.end(), [&](std::string_view e) { return path.ends_with(e); });
}

std::span<const FrontEnd> FrontEnds() { return kFrontEnds; }

const FrontEnd* FrontEndForPath(std::string_view path) {
  for (const FrontEnd& fe : kFrontEnds) {
    for (std::string_view suffix : fe.suffixes) {
      // "/cdk.json" is a whole file name: also a path that is only that name.
      if (EndsWithNoCase(path, suffix) ||
          (suffix.starts_with("/") && path.size() + 1 == suffix.size() && EndsWithNoCase(path, suffix.substr(1)))) {
        return &fe;
      }
    }
  }
  return nullptr;
}

const FrontEnd* FrontEndForContent(const FrontEnd& first, std::string_view text) {
  for (const FrontEnd* fe = &first; fe != std::end(kFrontEnds) && fe->files == first.files; ++fe) {
    if (!fe->sniff || fe->sniff(text)) return fe;
  }
  return nullptr;
}

const FrontEnd& FrontEndOf(Format format) {
  for (const FrontEnd& fe : kFrontEnds) {
    if (fe.format == format) return fe;
  }
  return kFrontEnds[0];
}

}  // namespace sagelint
