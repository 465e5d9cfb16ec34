// The interface between the scan driver and the front ends.
#ifndef SAGELINT_PARSERS_FRONTEND_H_
#define SAGELINT_PARSERS_FRONTEND_H_

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"

namespace sagelint {

// Values the user supplies from outside the files.
struct ResolveOptions {
  std::map<std::string, std::string> cfn_parameters;  // --param, config `parameters:`
  std::map<std::string, std::string> tf_variables;    // --var, config `variables:`
  std::vector<std::string> tf_var_files;              // --var-file (paths as given)
  std::string root;  // absolute scan root: file functions never read outside it
};

// One file handed to a front end: its display path (relative, '/'), its
// absolute path on disk, and its whole content.
struct SourceFile {
  std::string path;
  std::string abs_path;
  std::string text;
};

// CloudFormation template (YAML or JSON). Sibling `{"Parameters": {...}}`
// files are not read here; the driver passes their values in `opts`.
FileResult ParseCloudFormation(const SourceFile& file, const ResolveOptions& opts);

// True if `text` looks like a CloudFormation template (cheap byte scan plus
// a structural check): `AWSTemplateFormatVersion`, or `Resources` holding
// `Type: AWS::...` entries.
bool LooksLikeCloudFormation(std::string_view text);

// Terraform: all `*.tf`, `*.tf.json`, `*.tfvars` files of one module
// directory, evaluated together (variables, locals, local module calls). One
// FileResult per input file that declares something (or fails to parse).
// `report_only` non-empty: workloads are returned only for these display paths
// (pre-commit passes single files; siblings are context).
std::vector<FileResult> ParseTerraformModule(const std::vector<SourceFile>& files,
                                             const ResolveOptions& opts,
                                             const std::vector<std::string>& report_only);
// Plan JSON from `terraform show -json`.
FileResult ParseTerraformPlan(const SourceFile& file, const ResolveOptions& opts);
bool LooksLikeTerraformPlan(std::string_view text);

// SageMaker Python SDK / boto3 code, and Jupyter notebooks (code cells in order).
FileResult ParsePython(const SourceFile& file, const ResolveOptions& opts);
FileResult ParseNotebook(const SourceFile& file, const ResolveOptions& opts);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_FRONTEND_H_
