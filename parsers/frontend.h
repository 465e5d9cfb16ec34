// The interface between the scan driver and the front ends.
#ifndef SAGELINT_PARSERS_FRONTEND_H_
#define SAGELINT_PARSERS_FRONTEND_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linter/base/file_source.h"
#include "linter/model/fix.h"
#include "linter/model/model.h"

namespace sagelint {

// Values the user supplies from outside the files.
struct ResolveOptions {
  std::map<std::string, std::string> cfn_parameters;      // --param, config `parameters:`
  std::map<std::string, std::string> cfn_cli_parameters;  // --param alone (wins over parameter files)
  // Where each parameter of `cfn_parameters` came from when not the command
  // line or the configuration (a parameter file's name); origins say so.
  std::map<std::string, std::string> cfn_parameter_sources;
  // CloudFormation template configuration files. With several for one
  // template, it is evaluated once per file and its workloads name the file.
  std::vector<std::string> cfn_param_files;  // --param-file: every template (paths as given)
  // config `parameter_files:`: template glob (relative to `cfn_param_base`) ->
  // files relative to the template's directory (never outside the scan root).
  std::vector<std::pair<std::string, std::vector<std::string>>> cfn_param_file_globs;
  std::string cfn_param_base;
  std::map<std::string, std::string> tf_variables;  // --var, config `variables:`
  std::map<std::string, std::string> cdk_context;   // --context (over cdk.json and cdk.context.json)
  std::vector<std::string> tf_var_files;            // --var-file (paths as given)
  // The absolute scan root (README "Usage"): module sources, file reads and var
  // files are resolved against the directory of the file that names them and
  // refused outside it. The driver sets it per unit of work.
  std::string root;
  // Where every file is read (the disk, or the base revision's tree in `diff`).
  const FileSource* files = &DiskFiles();
};

// One file handed to a front end: its display path (relative, '/'), its
// absolute path on disk, its whole content, and its path relative to the
// scan root (empty: the front end derives it from `ResolveOptions::root`).
struct SourceFile {
  std::string path;
  std::string abs_path;
  std::string text;
  std::string root_path;
};

// CloudFormation template (YAML or JSON). Sibling `{"Parameters": {...}}`
// files are not read here; the driver passes their values in `opts`.
FileResult ParseCloudFormation(const SourceFile& file, const ResolveOptions& opts);

// A template configuration file's parameters: `{"Parameters": {...}}` (the
// CodePipeline / SageMaker Projects form) or `[{"ParameterKey": …,
// "ParameterValue": …}]` (the form `aws cloudformation --parameters file://`
// reads). A list value is joined with commas. False, with `error`'s message
// and position, when the text is neither.
bool LoadTemplateConfiguration(std::string_view text, std::map<std::string, std::string>* out, ParseError* error);

// A CloudFormation template, evaluated once per template configuration file
// that applies to it (--param-file, config `parameter_files:`; read through
// `opts.files`), or once: the CloudFormation front end's entry point.
FileResult ParseTemplateWithParameters(const SourceFile& file, const ResolveOptions& opts);

// True if `text` looks like a CloudFormation template (cheap byte scan plus
// a structural check): `AWSTemplateFormatVersion`, or `Resources` holding
// `Type: AWS::...` entries.
bool LooksLikeCloudFormation(std::string_view text);

// Terraform: one root module directory's files (`*.tf`, `*.tf.json` and
// variable files), evaluated together with the local modules it calls (read
// from disk, inside the scan root) as `terraform plan` would. One FileResult
// per file that declares something or fails to parse, the called modules'
// files included.
struct TerraformRoot {
  std::vector<SourceFile> files;
  // Pre-commit: the files named on the command line (display paths), in any
  // module of the tree. The workloads of other files come back as context
  // (FileResult::context); one whose value a named file sets also comes back
  // in that file as a stand-in (Workload::stand_in) placed at that value.
  std::vector<std::string> named;
  // A module another module calls: only its files' syntax errors (it is
  // evaluated through its calls).
  bool syntax_only = false;
};
std::vector<FileResult> ParseTerraformModule(const TerraformRoot& root, const ResolveOptions& opts);
// The local module sources (`./x`, `../y`) a Terraform file's module calls name.
std::vector<std::string> TerraformLocalModuleSources(const SourceFile& file);
// A --var-file that cannot be read (a regular file of at most
// kMaxTerraformFileBytes) or has a syntax error: "file:line:col: message".
std::optional<std::string> CheckTerraformVarFile(const std::string& path, const FileSource& files = DiskFiles());
// Plan JSON from `terraform show -json`.
FileResult ParseTerraformPlan(const SourceFile& file, const ResolveOptions& opts);
bool LooksLikeTerraformPlan(std::string_view text);

// An IAM policy document in its own JSON file (top level `Version` and
// `Statement`, nothing but `Id` besides): its statements, as CloudFormation
// reads an AWS::IAM::Policy's document. A trust or resource policy (a
// statement naming a Principal) gives none.
FileResult ParseIamPolicyDocument(const SourceFile& file, const ResolveOptions& opts);
bool LooksLikeIamPolicyDocument(std::string_view text);

// SageMaker Python SDK / boto3 code, and Jupyter notebooks (code cells in order).
FileResult ParsePython(const SourceFile& file, const ResolveOptions& opts);
FileResult ParseNotebook(const SourceFile& file, const ResolveOptions& opts);

// Fixes (README "Fixes"): each format's edit for a change that inserts or removes a
// member, or appends a notebook cell (FrontEnd::edit). The edit keeps the
// file's indentation, quoting and layout outside the edited bytes; nullopt
// where the change cannot be written there.
std::optional<TextEdit> EditCloudFormation(std::string_view text, const FixChange& change);
std::optional<TextEdit> EditTerraform(std::string_view text, const FixChange& change);
std::optional<TextEdit> EditPython(std::string_view text, const FixChange& change);
std::optional<TextEdit> EditNotebook(std::string_view text, const FixChange& change);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_FRONTEND_H_
