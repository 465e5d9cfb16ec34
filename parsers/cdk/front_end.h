// The CDK front end's entry points (docs/architecture.md "CDK apps"): an app directory's `cdk.json`
// brings the app (its entry and what the entry imports), and a source file
// of an app named alone (pre-commit) is evaluated from its app's entry.
#ifndef SAGELINT_PARSERS_CDK_FRONT_END_H_
#define SAGELINT_PARSERS_CDK_FRONT_END_H_

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/frontend.h"

namespace sagelint {

// A file named `cdk.json`.
bool IsCdkJson(std::string_view path);
// Python code that may build CDK constructs (it names the `aws_cdk` package).
bool MentionsCdk(std::string_view text);
// The cdk.json of the app whose directory holds `abs_path` (searched upward,
// never above the scan root), or nullopt.
std::optional<std::string> FindCdkApp(const std::string& abs_path, const ResolveOptions& opts);

// The app of `cdk_json`: one result per app file with a workload or an
// error, and cdk.json's own errors and notes.
std::vector<FileResult> ParseCdkApp(const SourceFile& cdk_json, bool named, const ResolveOptions& opts);
// A Python file that names aws_cdk, or a TypeScript / JavaScript file. In an
// app and named: its app, with the other files' results as context; in an
// app, not named: nothing (cdk.json brings the app); outside any app: Python
// as SDK code, TypeScript / JavaScript not at all.
std::vector<FileResult> ParseCdkSource(const SourceFile& file, bool named, const ResolveOptions& opts);

// Fixes in an app's Python or TypeScript source (docs/cdk.md "Fixes", parsers/cdk/edit.cc):
// a member removed from a construct's props, a property inserted into them
// (the file's kind from `change.path`); nullopt where it cannot be written.
std::optional<TextEdit> EditCdk(std::string_view text, const FixChange& change);
// Why a training job made by a Step Functions `SageMakerCreateTrainingJob` task (the
// call at `at` in the source `text` of `path`) takes no Spot fix; empty for any other job.
std::string CdkTaskSpotReason(std::string_view path, std::string_view text, SourcePos at);
// Why a value at `at` in an app source is no literal a fix edits: where it comes
// from (a name, a conditional, a call, a literal outside the construct's props).
std::string CdkValueReason(std::string_view path, std::string_view text, SourcePos at);
// Whether an app source still parses after fixes: its syntax errors (0 or 1),
// nullopt when it cannot be parsed at all.
std::optional<size_t> CdkSyntaxErrors(std::string_view path, std::string_view text);

}  // namespace sagelint

#endif  // SAGELINT_PARSERS_CDK_FRONT_END_H_
