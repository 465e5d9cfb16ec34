// What the CDK's own value types stand for: module names, instance types and
// sizes, durations, managed policy ARNs, enum members, and the property names
// a construct's props are matched to.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <string>
#include <string_view>

#include "linter/base/strings.h"
#include "parsers/aws/request.h"
#include "parsers/aws/resources.h"
#include "parsers/cdk/app.h"

namespace sagelint::cdk {
namespace {

// Case- and underscore-insensitive form of a name.
std::string Folded(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (c != '_' && c != '-') out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  }
  return out;
}

// The property names sagelint reads whose spelling a plain case conversion
// does not give back ("VolumeSizeInGB" from "volume_size_in_gb"), and the
// other names read, so a key written in either style lands on the name the
// CloudFormation extractor looks for: these, and the names of the resource
// table (aws::PropertyNames, parsers/aws/resources.cc).
constexpr std::string_view kPropertyNames[] = {"Action",
                                               "AlgorithmName",
                                               "AppLifecycleManagement",
                                               "AppSettings",
                                               "AppSpecification",
                                               "AppType",
                                               "Arguments",
                                               "AssumeRolePolicyDocument",
                                               "AsyncInferenceConfig",
                                               "CapWarmPoolKeepAlive",
                                               "ChannelName",
                                               "ClusterConfig",
                                               "CodeEditorAppSettings",
                                               "Condition",
                                               "ContainerStartupHealthCheckTimeoutInSeconds",
                                               "Containers",
                                               "Content",
                                               "CopyCount",
                                               "DataSource",
                                               "DefaultResourceSpec",
                                               "Definition",
                                               "DefinitionString",
                                               "DefinitionSubstitutions",
                                               "DefinitionUri",
                                               "DirectInternetAccess",
                                               "DomainId",
                                               "Effect",
                                               "EndpointName",
                                               "Environment",
                                               "ExecutionRole",
                                               "ExecutionRoleArn",
                                               "FileSystemDataSource",
                                               "GBSize",
                                               "HyperParameters",
                                               "IdleSettings",
                                               "IdleTimeoutInMinutes",
                                               "Image",
                                               "ImageUri",
                                               "InitialVariantWeight",
                                               "InputDataConfig",
                                               "InputMode",
                                               "InputName",
                                               "InstanceCount",
                                               "InstanceGroupName",
                                               "InstanceGroups",
                                               "JupyterLabAppSettings",
                                               "JupyterServerAppSettings",
                                               "KeepAlivePeriodInSeconds",
                                               "KernelGatewayAppSettings",
                                               "KmsKeyId",
                                               "LifecycleConfigArn",
                                               "LifecycleConfigArns",
                                               "LifecycleManagement",
                                               "ManagedInstanceScaling",
                                               "ManagedPolicyArns",
                                               "ManagedPolicyName",
                                               "MaxInstanceCount",
                                               "MaxRuntimeInSeconds",
                                               "MinInstanceCount",
                                               "ModelDataDownloadTimeoutInSeconds",
                                               "ModelDataUrl",
                                               "ModelName",
                                               "NotAction",
                                               "NotResource",
                                               "OutputDataConfig",
                                               "PipelineDefinition",
                                               "PipelineDefinitionBody",
                                               "PipelineName",
                                               "Policies",
                                               "PolicyDocument",
                                               "PolicyName",
                                               "PrimaryContainer",
                                               "ProcessingInputs",
                                               "ProcessingResources",
                                               "Resource",
                                               "ResourceConfig",
                                               "ResourceSpec",
                                               "RoleArn",
                                               "RoleName",
                                               "Roles",
                                               "RuntimeConfig",
                                               "S3DataDistributionType",
                                               "S3DataSource",
                                               "S3DataType",
                                               "S3Input",
                                               "S3InputMode",
                                               "S3OutputPath",
                                               "ServerlessConfig",
                                               "Sid",
                                               "Specification",
                                               "Statement",
                                               "Status",
                                               "TrainingImage",
                                               "TransformResources",
                                               "Version"};

// A member name in the CDK's enum style: "G4DN", "XLARGE2", "M5_LARGE".
bool IsEnumName(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isupper(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '_';
  });
}

// ec2.InstanceClass: the family a member names ("P3" → "p3", "STANDARD5" → "m5").
std::optional<std::string> InstanceClass(std::string_view member) {
  struct Alias {
    std::string_view name, family;
  };
  static constexpr Alias kAliases[] = {{"STANDARD4", "m4"},
                                       {"STANDARD5", "m5"},
                                       {"STANDARD6_INTEL", "m6i"},
                                       {"STANDARD7_INTEL", "m7i"},
                                       {"STANDARD6_GRAVITON", "m6g"},
                                       {"STANDARD7_GRAVITON", "m7g"},
                                       {"COMPUTE4", "c4"},
                                       {"COMPUTE5", "c5"},
                                       {"COMPUTE6_INTEL", "c6i"},
                                       {"COMPUTE7_INTEL", "c7i"},
                                       {"MEMORY4", "r4"},
                                       {"MEMORY5", "r5"},
                                       {"MEMORY6_INTEL", "r6i"},
                                       {"BURSTABLE2", "t2"},
                                       {"BURSTABLE3", "t3"},
                                       {"BURSTABLE3_AMD", "t3a"},
                                       {"ACCELERATED_COMPUTING_P2", "p2"},
                                       {"PARALLEL2", "p2"},
                                       {"PARALLEL3", "p3"},
                                       {"PARALLEL4", "p4d"},
                                       {"GRAPHICS4_NVME_DRIVE_HIGH_PERFORMANCE", "g4dn"},
                                       {"GRAPHICS5", "g5"},
                                       {"INFERENCE1", "inf1"},
                                       {"INFERENCE2", "inf2"},
                                       {"TRAINING1", "trn1"}};
  for (const Alias& a : kAliases) {
    if (a.name == member) return std::string(a.family);
  }
  // "P3", "G4DN", "P4D", "INF2", "TRN1N": letters, digits, letters.
  if (member.empty() || !IsEnumName(member) || member.find('_') != std::string_view::npos ||
      !std::isalpha(static_cast<unsigned char>(member[0])) || member.find_first_of("0123456789") == std::string::npos) {
    return std::nullopt;
  }
  return AsciiLower(member);
}

// ec2.InstanceSize: "XLARGE2" → "2xlarge", "LARGE" → "large".
std::optional<std::string> InstanceSize(std::string_view member) {
  static constexpr std::string_view kPlain[] = {"NANO", "MICRO", "SMALL", "MEDIUM", "LARGE", "XLARGE", "METAL"};
  for (std::string_view p : kPlain) {
    if (member == p) return AsciiLower(member);
  }
  if (member.starts_with("XLARGE")) {
    std::string_view n = member.substr(6);
    if (!n.empty() &&
        std::all_of(n.begin(), n.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); })) {
      return std::string(n) + "xlarge";
    }
  }
  return std::nullopt;
}

std::optional<double> Number(const cfn::Node& n) {
  if (!n.is_scalar() || n.text.empty() || n.text == aws::kUnknownMarker) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(n.text.c_str(), &end);
  if (end != n.text.c_str() + n.text.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

std::string NumberText(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return std::to_string(static_cast<long long>(v));
  return std::to_string(v);
}

std::optional<std::string> Text(std::span<const cfn::Node> args, size_t i) {
  if (i >= args.size() || !args[i].is_scalar() || args[i].text == aws::kUnknownMarker || !args[i].tag.empty()) {
    return std::nullopt;
  }
  return args[i].text;
}

// A keyword argument (Python: the evaluator's trailing map of keywords), in any spelling.
std::optional<std::string> Keyword(std::span<const cfn::Node> args, std::string_view name) {
  if (args.empty() || !args.back().is_map()) return std::nullopt;
  for (const auto& [k, v] : args.back().entries) {
    if (Folded(k) == Folded(name) && v.is_scalar() && v.tag.empty() && v.text != aws::kUnknownMarker) return v.text;
  }
  return std::nullopt;
}

// A struct built with `new` / a Python call whose props matter later
// (iam.PolicyDocument): a map tagged "!cdk:new", its text the class.
cfn::Node Struct(std::string_view module, std::string_view cls, std::span<const cfn::Node> args, SourcePos at) {
  cfn::Node n;
  n.kind = cfn::Node::Kind::kMap;
  n.tag = "!cdk:new";
  n.text = std::string(module) + "." + std::string(cls);
  n.pos = at;
  for (const cfn::Node& a : args) {
    if (!a.is_map()) continue;
    for (size_t i = 0; i < a.entries.size(); ++i) {
      n.entries.push_back(a.entries[i]);
      n.key_pos.push_back(i < a.key_pos.size() ? a.key_pos[i] : at);
    }
  }
  return n;
}

}  // namespace

std::string Token(size_t i) { return "\x02" + std::to_string(i) + "\x02"; }

ParseError DynamicImport(std::string_view call, SourcePos at) {
  std::string shown;
  for (char c : call) {
    bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space) {
      shown += c;
    } else if (!shown.empty() && shown.back() != ' ') {
      shown += ' ';
    }
  }
  if (shown.size() > 120) {
    size_t cut = 117;
    while (cut > 0 && (static_cast<unsigned char>(shown[cut]) & 0xC0) == 0x80) --cut;  // not inside a character
    shown = shown.substr(0, cut) + "...";
  }
  return {"sagelint did not read the module this line loads: " + shown +
              " names it only at run time, so the stacks it defines were not checked",
          at};
}

std::string ModuleOf(std::string_view path) {
  std::string p(path);
  for (std::string_view prefix : {"aws_cdk.", "aws-cdk-lib/", "@aws-cdk/", "aws_cdk/"}) {
    if (p.starts_with(prefix)) {
      p = p.substr(prefix.size());
      break;
    }
  }
  if (p == "aws_cdk" || p == "aws-cdk-lib" || p == "core" || p == "aws_cdk.core") return "core";
  if (path == p) return "";  // not under the CDK's packages
  if (p.starts_with("aws_") || p.starts_with("aws-")) p = p.substr(4);
  std::replace(p.begin(), p.end(), '_', '-');
  return p;
}

std::optional<cfn::Node> MemberValue(std::string_view module, std::string_view cls, std::string_view member,
                                     SourcePos at) {
  if (module == "ec2" && cls == "InstanceClass") {
    if (auto f = InstanceClass(member)) return cfn::MakeScalar(*f, at);
  } else if (module == "ec2" && cls == "InstanceSize") {
    if (auto s = InstanceSize(member)) return cfn::MakeScalar(*s, at);
  } else if (module == "sagemaker-alpha" && cls == "InstanceType" && IsEnumName(member)) {
    // M5_LARGE → ml.m5.large, P3_2XLARGE → ml.p3.2xlarge.
    size_t us = member.find('_');
    if (us == std::string_view::npos || us == 0 || us + 1 == member.size()) return std::nullopt;
    return cfn::MakeScalar("ml." + AsciiLower(member.substr(0, us)) + "." + AsciiLower(member.substr(us + 1)), at);
  } else if (module == "iam" && cls == "Effect") {
    if (member == "ALLOW") return cfn::MakeScalar("Allow", at);
    if (member == "DENY") return cfn::MakeScalar("Deny", at);
  } else if (module == "applicationautoscaling" && cls == "ServiceNamespace" && IsEnumName(member)) {
    return cfn::MakeScalar(Folded(member), at);
  } else if (module == "stepfunctions-tasks" && cls == "InputMode") {
    if (member == "FILE") return cfn::MakeScalar("File", at);
    if (member == "PIPE") return cfn::MakeScalar("Pipe", at);
    if (member == "FAST_FILE") return cfn::MakeScalar("FastFile", at);
  } else if (module == "stepfunctions-tasks" && cls == "S3DataType") {
    if (member == "S3_PREFIX") return cfn::MakeScalar("S3Prefix", at);
    if (member == "MANIFEST_FILE") return cfn::MakeScalar("ManifestFile", at);
    if (member == "AUGMENTED_MANIFEST_FILE") return cfn::MakeScalar("AugmentedManifestFile", at);
  } else if (module == "stepfunctions-tasks" && cls == "S3DataDistributionType") {
    if (member == "FULLY_REPLICATED") return cfn::MakeScalar("FullyReplicated", at);
    if (member == "SHARDED_BY_S3_KEY") return cfn::MakeScalar("ShardedByS3Key", at);
  } else if (module == "core" && cls == "Aws") {
    static constexpr std::pair<std::string_view, std::string_view> kPseudo[] = {{"PARTITION", "AWS::Partition"},
                                                                                {"REGION", "AWS::Region"},
                                                                                {"ACCOUNT_ID", "AWS::AccountId"},
                                                                                {"STACK_NAME", "AWS::StackName"},
                                                                                {"URL_SUFFIX", "AWS::URLSuffix"}};
    for (const auto& [m, pseudo] : kPseudo) {
      if (m != member) continue;
      cfn::Node ref;
      ref.kind = cfn::Node::Kind::kMap;
      ref.pos = at;
      ref.entries.emplace_back("Ref", cfn::MakeScalar(std::string(pseudo), at));
      ref.key_pos.push_back(at);
      return ref;
    }
  }
  return std::nullopt;
}

cfn::Node Intrinsic(const std::string& fn, std::vector<cfn::Node> args, SourcePos at) {
  cfn::Node list;
  list.kind = cfn::Node::Kind::kSeq;
  list.pos = at;
  list.items = std::move(args);
  cfn::Node n;
  n.kind = cfn::Node::Kind::kMap;
  n.pos = at;
  n.entries.emplace_back(fn, std::move(list));
  n.key_pos.push_back(at);
  return n;
}

cfn::Node Alternatives(const std::string& cond, cfn::Node then, cfn::Node otherwise, SourcePos at) {
  std::vector<cfn::Node> args;
  args.push_back(cfn::MakeScalar(cond, at, false));
  args.push_back(std::move(then));
  args.push_back(std::move(otherwise));
  return Intrinsic("Fn::If", std::move(args), at);
}

std::optional<cfn::Node> JsonString(const cfn::Node& value, SourcePos at) {
  if (!value.is_map() && !value.is_seq()) return std::nullopt;
  cfn::Node n;
  n.kind = cfn::Node::Kind::kMap;
  n.pos = at;
  n.entries.emplace_back("Fn::ToJsonString", value);
  n.key_pos.push_back(at);
  return n;
}

std::optional<cfn::Node> CallValue(std::string_view module, std::string_view cls, std::string_view member,
                                   std::span<const cfn::Node> args, SourcePos at) {
  std::string m = Folded(member);
  if (module == "core" && (cls == "Fn" || cls == "Stack") && m == "tojsonstring" && !args.empty()) {
    return JsonString(args[0], at);
  }
  // `DefinitionBody.fromString(text)`: the definition text itself (a serialized object stays one).
  if (module == "stepfunctions" && cls == "DefinitionBody" && m == "fromstring" && !args.empty()) return args[0];
  if (module == "ec2" && cls == "InstanceType") {
    if (m.empty()) {
      if (auto t = Text(args, 0)) return cfn::MakeScalar(*t, at);
    } else if (m == "of" && args.size() >= 2) {
      auto family = Text(args, 0), size = Text(args, 1);
      if (family && size) return cfn::MakeScalar(*family + "." + *size, at);
    }
    return std::nullopt;
  }
  if (module == "sagemaker-alpha" && cls == "InstanceType" && (m.empty() || m == "of")) {
    if (auto t = Text(args, 0)) return cfn::MakeScalar(*t, at);
    return std::nullopt;
  }
  if (module == "core" && cls == "Size" && !args.empty()) {
    auto n = Number(args[0]);
    if (!n) return std::nullopt;
    if (m == "gibibytes") return cfn::MakeScalar(NumberText(*n), at, false);
    if (m == "tebibytes") return cfn::MakeScalar(NumberText(*n * 1024), at, false);
    if (m == "mebibytes") return cfn::MakeScalar(NumberText(std::ceil(*n / 1024)), at, false);
    return std::nullopt;
  }
  if (module == "core" && cls == "Duration" && !args.empty()) {
    auto n = Number(args[0]);
    if (!n) return std::nullopt;
    if (m == "seconds") return cfn::MakeScalar(NumberText(*n), at, false);
    if (m == "minutes") return cfn::MakeScalar(NumberText(*n * 60), at, false);
    if (m == "hours") return cfn::MakeScalar(NumberText(*n * 3600), at, false);
    if (m == "days") return cfn::MakeScalar(NumberText(*n * 86400), at, false);
    return std::nullopt;
  }
  if (module == "iam" && cls == "ManagedPolicy") {
    if (m == "fromawsmanagedpolicyname") {
      std::optional<std::string> name = Text(args, 0);
      if (!name) name = Keyword(args, "managedPolicyName");
      if (name) return cfn::MakeScalar("arn:aws:iam::aws:policy/" + *name, at);
    } else if (m == "frommanagedpolicyarn") {
      std::optional<std::string> arn = Text(args, 2);
      if (!arn) arn = Keyword(args, "managedPolicyArn");
      if (arn) return cfn::MakeScalar(*arn, at);
    }
    return std::nullopt;
  }
  if ((module == "stepfunctions-tasks" && cls == "DockerImage") ||
      (module == "sagemaker-alpha" && cls == "ContainerImage")) {
    if (m == "fromregistry") {
      if (auto image = Text(args, 0)) return cfn::MakeScalar(*image, at);
    }
    return std::nullopt;
  }
  if (module == "core" && cls == "Fn" && (m == "join" || m == "sub" || m == "select" || m == "base64")) {
    static constexpr std::pair<std::string_view, std::string_view> kFns[] = {
        {"join", "Fn::Join"}, {"sub", "Fn::Sub"}, {"select", "Fn::Select"}, {"base64", "Fn::Base64"}};
    cfn::Node call;
    call.kind = cfn::Node::Kind::kMap;
    call.pos = at;
    cfn::Node list;
    list.kind = cfn::Node::Kind::kSeq;
    list.pos = at;
    list.items.assign(args.begin(), args.end());
    for (const auto& [name, fn] : kFns) {
      if (name != m) continue;
      call.entries.emplace_back(std::string(fn), m == "base64" && !args.empty() ? args[0] : std::move(list));
      call.key_pos.push_back(at);
    }
    return call;
  }
  if (module == "iam" && cls == "PolicyDocument" && m.empty()) return Struct(module, cls, args, at);
  if (module == "iam" && (cls == "ServicePrincipal" || cls == "CompositePrincipal") && m.empty()) {
    std::vector<std::string> services;
    if (cls == "ServicePrincipal") {
      // Its options (conditions) do not change who may assume the role.
      auto service = Text(args, 0);
      if (!service) return std::nullopt;
      // A bare service name ("ecs-tasks") is the service's principal in the partition.
      if (service->find('.') == std::string::npos) *service += ".amazonaws.com";
      services.push_back(*service);
    } else {
      for (const cfn::Node& a : args) {
        const cfn::Node* s = a.is_map() && a.tag == kServicePrincipalTag ? a.Get("Service") : nullptr;
        if (!s) return std::nullopt;  // another kind of principal, or one not known
        if (s->is_scalar()) services.push_back(s->text);
        for (const cfn::Node& item : s->items) services.push_back(item.text);
      }
      if (services.empty()) return std::nullopt;
    }
    cfn::Node list;
    list.kind = cfn::Node::Kind::kSeq;
    list.pos = at;
    for (std::string& s : services) list.items.push_back(cfn::MakeScalar(std::move(s), at));
    cfn::Node principal;
    principal.kind = cfn::Node::Kind::kMap;
    principal.tag = std::string(kServicePrincipalTag);
    principal.pos = at;
    principal.entries.emplace_back("Service", std::move(list));
    principal.key_pos.push_back(at);
    return principal;
  }
  return std::nullopt;
}

std::string PropertyName(std::string_view key) {
  std::string folded = Folded(key);
  for (std::string_view name : kPropertyNames) {
    if (Folded(name) == folded) return std::string(name);
  }
  static const std::vector<std::string_view> kTableNames = aws::PropertyNames();
  for (std::string_view name : kTableNames) {
    if (Folded(name) == folded) return std::string(name);
  }
  std::string out;
  bool upper = true;
  for (char c : key) {
    if (c == '_') {
      upper = true;
      continue;
    }
    out += upper ? static_cast<char>(std::toupper(static_cast<unsigned char>(c))) : c;
    upper = false;
  }
  return out;
}

std::optional<std::string> CfnType(std::string_view module, std::string_view cls) {
  if (!cls.starts_with("Cfn") || cls.size() <= 3) return std::nullopt;
  std::string_view name = cls.substr(3);
  static constexpr std::pair<std::string_view, std::string_view> kServices[] = {
      {"sagemaker", "SageMaker"},         {"iam", "IAM"},       {"applicationautoscaling", "ApplicationAutoScaling"},
      {"stepfunctions", "StepFunctions"}, {"lambda", "Lambda"}, {"s3", "S3"},
  };
  for (const auto& [mod, service] : kServices) {
    if (mod == module) return "AWS::" + std::string(service) + "::" + std::string(name);
  }
  return std::nullopt;
}

}  // namespace sagelint::cdk
