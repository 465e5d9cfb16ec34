// AWS CDK apps (docs/architecture.md "CDK apps"). A language evaluator (Python: parsers/python,
// TypeScript/JavaScript: parsers/cdk/typescript) runs an app's entry file and
// the files it imports, and records every construct the app creates and every
// method it calls on one, with the values of their arguments as plain
// document trees (cfn::Node) whose positions are in the file of the call.
// The shared part (synth.cc) turns those records into the CloudFormation the
// CDK would synthesize — L1 `Cfn*` constructs, the alpha SageMaker module,
// IAM constructs, Application Auto Scaling and Step Functions SageMaker tasks
// — and hands it to the CloudFormation extractor, so every rule applies
// unchanged; findings land at the construct call, labelled by construct id.
#ifndef SAGELINT_PARSERS_CDK_APP_H_
#define SAGELINT_PARSERS_CDK_APP_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "linter/model/model.h"
#include "parsers/common/node.h"
#include "parsers/frontend.h"

namespace sagelint::cdk {

// ---- Values the evaluators hand over -------------------------------------
//
// A value is a cfn::Node: scalars (strings, numbers, booleans as their text;
// `quoted` for strings), maps (object literals, keyword arguments, dicts,
// `XxxProperty(...)` structs — keys as the code writes them), sequences.
// Besides those:
// - unknown: a scalar whose text is aws::kUnknownMarker;
// - a construct object itself (passed as a prop, `role=role`): a scalar
//   tagged kConstructTag whose text is the construct's index in App::constructs;
// - an attribute of a construct: `.ref` / `.attrEndpointName` /
//   `.attr_endpoint_name` / `.roleArn` / `.role_arn` → a map tagged
//   kAttributeTag {"construct": index, "attribute": name as written};
// - a value with alternatives (a name assigned differently in the branches of
//   an unknown condition): `Fn::If` [condition, then, else] whose condition is
//   the code's ("`props.gpu`"), as CloudFormation writes one;
// - a value-producing CDK call or enum member the evaluator cannot know
//   itself (`ec2.InstanceType("p3.2xlarge")`, `InstanceType.of(…)`,
//   `Size.gibibytes(50)`, `Duration.hours(2)`,
//   `ManagedPolicy.from_aws_managed_policy_name("X")`, `InstanceClass.P3`,
//   `sagemaker.InstanceType.M5_LARGE`, `Fn.join`): ask CallValue /
//   MemberValue below; they answer the node the CDK would render, or nullopt
//   (then the value is unknown).
inline constexpr std::string_view kConstructTag = "!cdk:construct";
inline constexpr std::string_view kAttributeTag = "!cdk:attribute";

// The names by which the code refers to a CDK module, normalized: Python
// `aws_cdk.aws_sagemaker` / `aws_cdk.aws_sagemaker_alpha`, TypeScript
// `aws-cdk-lib/aws-sagemaker`, `@aws-cdk/aws-sagemaker-alpha`,
// `aws-cdk-lib` (root: Stack, App, Size, Duration, Fn, …). Returns the
// module's short name ("sagemaker", "sagemaker-alpha", "iam", "ec2",
// "applicationautoscaling", "stepfunctions-tasks", "stepfunctions", "core")
// or empty for a module that is not the CDK's.
std::string ModuleOf(std::string_view import_path);

// A call of `member` ("of", "gibibytes", "fromAwsManagedPolicyName" or its
// snake_case spelling, or "" for a constructor `InstanceType(...)`) on class
// `cls` of CDK module `module` (ModuleOf). nullopt when it is not such a
// value or its arguments are unknown. A role's principal made of services
// (`iam.ServicePrincipal("sagemaker.amazonaws.com")`, a `CompositePrincipal` of
// them) is a trust policy's `Principal` map (`{"Service": …}`) tagged
// kServicePrincipalTag; any other principal is unknown.
inline constexpr std::string_view kServicePrincipalTag = "!cdk:service-principal";
std::optional<cfn::Node> CallValue(std::string_view module, std::string_view cls, std::string_view member,
                                   std::span<const cfn::Node> args, SourcePos at);
// What serializing `value` to JSON gives (`JSON.stringify`, `json.dumps`,
// `Fn.toJsonString`, a stack's `toJsonString`): for an object or an array,
// `Fn::ToJsonString` of it, as the CDK renders one holding tokens — so a
// pipeline or state machine definition built as an object is read as that
// object. nullopt for anything else.
std::optional<cfn::Node> JsonString(const cfn::Node& value, SourcePos at);
// `{fn: [args…]}`, an intrinsic function as CloudFormation writes it.
cfn::Node Intrinsic(const std::string& fn, std::vector<cfn::Node> args, SourcePos at);
// A value with alternatives: `Fn::If` [cond, then, otherwise], `cond` the code's
// condition ("`props.gpu`"), as CloudFormation writes one.
cfn::Node Alternatives(const std::string& cond, cfn::Node then, cfn::Node otherwise, SourcePos at);
// An enum member or static constant: `InstanceClass.P3` → "p3",
// `InstanceSize.XLARGE2` → "2xlarge", sagemaker-alpha `InstanceType.M5_LARGE`
// → "ml.m5.large", `RemovalPolicy.DESTROY` → nullopt (no meaning here).
std::optional<cfn::Node> MemberValue(std::string_view module, std::string_view cls, std::string_view member,
                                     SourcePos at);

// ---- What an evaluator records ---------------------------------------------

// `new Cls(scope, "Id", props)` / `Cls(scope, "Id", **kw)`.
struct Construct {
  std::string module;  // ModuleOf: "sagemaker", "iam", …
  std::string cls;     // "CfnNotebookInstance", "Role", "SageMakerCreateTrainingJob"
  std::string id;      // the construct id as written; empty when unknown
  cfn::Node props;     // a map of the props (keys as written), or null when none
  int file = 0;        // index into App::files: where the call is written
  SourceRange call;    // the call, in that file
  int stack = -1;      // index into App::stacks of the stack it belongs to (-1: not known)
  // The unknown conditions the app creates it under, outermost first ("`props.gpu`
  // is true"); none when it is created unconditionally. Its workloads are
  // conditional, as those of a CloudFormation resource with a Condition.
  std::vector<std::string> conditions;
};

// `obj.method(args)` on a recorded construct: `add_to_policy`,
// `addToPolicy`, `add_managed_policy`, `add_to_principal_policy`,
// `attach_inline_policy`, `scale_on_metric`, `scaleToTrackMetric`,
// `auto_scale_instance_count`, `findInstanceProductionVariant` (its result
// is a construct-valued object too: see synth.cc), `node.add_metadata` /
// `node.addMetadata` / `add_metadata` (through `.node` — record the
// construct), `add_property_override`.
struct MethodCall {
  int construct = -1;  // index into App::constructs
  std::string method;  // as written
  std::vector<cfn::Node> args;
  int file = 0;
  SourceRange call;
};

struct Stack {
  std::string id;  // the stack's construct id ("SageMakerStack"); empty when unknown
  int file = 0;
  SourceRange call;
};

struct App {
  std::vector<SourceFile> files;  // files[0] is the entry; the imports read follow
  std::vector<Stack> stacks;
  std::vector<Construct> constructs;
  std::vector<MethodCall> methods;
  // Parse errors and notes of the app's files, by file index.
  std::vector<std::pair<int, ParseError>> errors;
  std::vector<std::pair<int, ParseError>> notes;
  // Where an evaluation bound stopped (SM007), by file index.
  std::vector<std::pair<int, ParseError>> budgets;
  // Modules imported by a name known only at run time, at the importing
  // line (SM008, rules/SM008.md), by file index.
  std::vector<std::pair<int, ParseError>> unread;
  // Values known only at deploy time that the code put inside a string (an
  // f-string or template literal naming `Aws.ACCOUNT_ID` or an attribute): the
  // string holds Token(i) where tokens[i] is the value (a `Ref` / attribute
  // node), as the CDK's own tokens stand in strings until synthesis. Such a
  // string synthesizes to `Fn::Join` of its text and values.
  std::vector<cfn::Node> tokens;
};

// The text standing for App::tokens[i] inside a string.
std::string Token(size_t i);

// The SM008 record of a call that loads a module named only at run time
// (`call` as written: whitespace collapsed, shortened to 120 bytes).
ParseError DynamicImport(std::string_view call, SourcePos at);

// What an evaluator is given: the entry (read), `cdk.json`'s `context`
// (a map, or null) for try_get_context / tryGetContext, and the options
// (scan root, FileSource) to read imported files and JSON configuration
// files with — never outside the root.
struct AppInput {
  SourceFile entry;
  cfn::Node context;
  const ResolveOptions* opts = nullptr;
};

// ---- The evaluators -----------------------------------------------------------

// Python (parsers/python/cdk.cc): the entry and the modules it imports within
// the scan root, through the Python interpreter with the CDK library model.
App EvaluatePythonApp(const AppInput& in);
// TypeScript / JavaScript (parsers/cdk/typescript/): the entry and what it
// imports / requires within the scan root.
App EvaluateTypeScriptApp(const AppInput& in);

// ---- The shared part ---------------------------------------------------------

// The CloudFormation property name a prop key written in camelCase or
// snake_case stands for: matched case- and underscore-insensitively against
// the property names sagelint reads ("volumeSizeInGb" → "VolumeSizeInGB",
// "lifecycle_config_name" → "LifecycleConfigName"); else the key with its
// first letter upper-cased and underscores removed.
std::string PropertyName(std::string_view key);

// The CloudFormation resource type of an L1 construct class ("sagemaker",
// "CfnNotebookInstance" → "AWS::SageMaker::NotebookInstance"), or nullopt.
std::optional<std::string> CfnType(std::string_view module, std::string_view cls);

// The app as the templates the CDK would synthesize (one per stack), read
// by the CloudFormation extractor: one FileResult per file of the app that
// holds a construct call or an error, with Format::kCdk.
std::vector<FileResult> Synthesize(const App& app, const ResolveOptions& opts);

}  // namespace sagelint::cdk

#endif  // SAGELINT_PARSERS_CDK_APP_H_
