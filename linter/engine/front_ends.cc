#include "linter/engine/front_ends.h"

#include <iterator>

#include "linter/base/strings.h"
#include "linter/engine/dispatch.h"

namespace sagelint {
namespace {

constexpr std::string_view kTerraformFiles[] = {".tf", ".tf.json", ".tfvars", ".tfvars.json"};
constexpr std::string_view kYamlOrJsonFiles[] = {".yaml", ".yml", ".json", ".template"};
constexpr std::string_view kPythonFiles[] = {".py"};
constexpr std::string_view kNotebookFiles[] = {".ipynb"};

// Terraform first: its ".tf.json" and ".tfvars.json" files are not JSON
// documents to sniff. A plan (`terraform show -json`) before a template.
constexpr FrontEnd kFrontEnds[] = {
    {"terraform", "terraform", Format::kTerraform, kTerraformFiles, nullptr, nullptr, ParseTerraformModule,
     CommentSyntax::kHcl, CommentSyntax::kNone, false},
    {"terraform-plan", "yaml/json", Format::kTerraform, kYamlOrJsonFiles, LooksLikeTerraformPlan, ParseTerraformPlan,
     nullptr, CommentSyntax::kNone, CommentSyntax::kNone, false},
    {"cloudformation", "yaml/json", Format::kCloudFormation, kYamlOrJsonFiles, LooksLikeCloudFormation, ParseTemplate,
     nullptr, CommentSyntax::kYaml, CommentSyntax::kYaml, false},
    // IAM policy documents: JSON has no comments (suppress by exclude:, rules: or a baseline).
    {"iam-policy", "yaml/json", Format::kCloudFormation, kYamlOrJsonFiles, LooksLikeIamPolicyDocument,
     ParseIamPolicyDocument, nullptr, CommentSyntax::kNone, CommentSyntax::kNone, false},
    {"python", "python", Format::kPython, kPythonFiles, nullptr, ParsePython, nullptr, CommentSyntax::kPython,
     CommentSyntax::kPython, true},
    {"notebook", "notebook", Format::kNotebook, kNotebookFiles, nullptr, ParseNotebook, nullptr,
     CommentSyntax::kNotebook, CommentSyntax::kNotebook, true},
};

}  // namespace

CommentSyntax FrontEnd::CommentsIn(std::string_view path) const {
  return path.ends_with(".json") ? json_comments : comments;
}

std::span<const FrontEnd> FrontEnds() { return kFrontEnds; }

const FrontEnd* FrontEndForPath(std::string_view path) {
  for (const FrontEnd& fe : kFrontEnds) {
    for (std::string_view suffix : fe.suffixes) {
      if (EndsWithNoCase(path, suffix)) return &fe;
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
