#include "linter/engine/front_ends.h"

#include <iterator>

#include "linter/base/strings.h"
#include "linter/engine/dispatch.h"
#include "parsers/cdk/front_end.h"

namespace sagelint {
namespace {

constexpr std::string_view kCdkAppFiles[] = {"/cdk.json"};
constexpr std::string_view kScriptFiles[] = {".ts", ".js", ".mjs", ".cjs"};
constexpr std::string_view kTerraformFiles[] = {".tf", ".tf.json", ".tfvars", ".tfvars.json"};
constexpr std::string_view kYamlOrJsonFiles[] = {".yaml", ".yml", ".json", ".template"};
constexpr std::string_view kPythonFiles[] = {".py"};
constexpr std::string_view kNotebookFiles[] = {".ipynb"};

// A CDK app's cdk.json before the JSON rows. Terraform first: its ".tf.json"
// and ".tfvars.json" files are not JSON documents to sniff. A plan
// (`terraform show -json`) before a template. Python that names aws_cdk is
// the CDK front end's when it belongs to an app.
constexpr FrontEnd kFrontEnds[] = {
    {"cdk", "cdk.json", Format::kCdk, kCdkAppFiles, nullptr, nullptr, nullptr, ParseCdkApp, CommentSyntax::kScript,
     CommentSyntax::kNone, true, false, true, nullptr},
    {"terraform", "terraform", Format::kTerraform, kTerraformFiles, nullptr, nullptr, ParseTerraformModule, nullptr,
     CommentSyntax::kHcl, CommentSyntax::kNone, false, false, false, EditTerraform},
    {"terraform-plan", "yaml/json", Format::kTerraform, kYamlOrJsonFiles, LooksLikeTerraformPlan, ParseTerraformPlan,
     nullptr, nullptr, CommentSyntax::kNone, CommentSyntax::kNone, false, false, false, nullptr},
    {"cloudformation", "yaml/json", Format::kCloudFormation, kYamlOrJsonFiles, LooksLikeCloudFormation, ParseTemplate,
     nullptr, nullptr, CommentSyntax::kYaml, CommentSyntax::kYaml, false, false, false, EditCloudFormation},
    // IAM policy documents: JSON has no comments (suppress by exclude:, rules: or a baseline).
    {"iam-policy", "yaml/json", Format::kCloudFormation, kYamlOrJsonFiles, LooksLikeIamPolicyDocument,
     ParseIamPolicyDocument, nullptr, nullptr, CommentSyntax::kNone, CommentSyntax::kNone, false, false, false,
     nullptr},
    {"cdk-python", "python", Format::kCdk, kPythonFiles, MentionsCdk, nullptr, nullptr, ParseCdkSource,
     CommentSyntax::kPython, CommentSyntax::kPython, true, false, false, EditCdk},
    {"python", "python", Format::kPython, kPythonFiles, nullptr, ParsePython, nullptr, nullptr, CommentSyntax::kPython,
     CommentSyntax::kPython, true, false, false, EditPython},
    {"notebook", "notebook", Format::kNotebook, kNotebookFiles, nullptr, ParseNotebook, nullptr, nullptr,
     CommentSyntax::kNotebook, CommentSyntax::kNotebook, true, false, false, EditNotebook},
    {"cdk-typescript", "typescript", Format::kCdk, kScriptFiles, nullptr, nullptr, nullptr, ParseCdkSource,
     CommentSyntax::kScript, CommentSyntax::kNone, true, true, false, EditCdk},
};

}  // namespace

CommentSyntax FrontEnd::CommentsIn(std::string_view path) const {
  if (path.ends_with(".json")) return json_comments;
  // A CDK app's results are for its Python or TypeScript files.
  if (format == Format::kCdk) return path.ends_with(".py") ? CommentSyntax::kPython : CommentSyntax::kScript;
  return comments;
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
