// Intrinsic-function resolution over a loaded template: parameters (user
// values, then Default), Fn::FindInMap, Fn::Sub, Fn::Join, Fn::Select,
// Fn::If (both branches), Fn::Base64, and Ref/GetAtt between resources.
#ifndef SAGELINT_PARSERS_CLOUDFORMATION_TEMPLATE_H_
#define SAGELINT_PARSERS_CLOUDFORMATION_TEMPLATE_H_

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "parsers/common/node.h"
#include "parsers/frontend.h"

namespace sagelint::cfn {

// In link texts, a reference to a resource is written \x01LogicalId\x01.
inline constexpr char kRefMark = '\x01';

// How many times each parameter is mentioned in a template: `Ref`, `${P}` in
// an `Fn::Sub` template, `Fn::ValueOf` in Rules; anywhere (Conditions,
// Outputs, Rules, mapping keys), and twice inside an `Fn::ForEach` body, which
// stands for one copy per value.
std::map<std::string, int> CountParameterMentions(const Node& root);

class Template {
 public:
  // `mentions`: the parameters' mentions when `root` is not the template as
  // written (its loops expanded); counted in `root` otherwise.
  Template(const Node& root, const ResolveOptions& opts, const std::map<std::string, int>* mentions = nullptr);

  // Whether known values carry the literal a fix may edit (Val::literal, README
  // "Fixes"): a scalar at the use site, or a parameter's Default that nothing
  // overrides and nothing else mentions. Off while a workload that is one
  // branch of its resource's `Properties: !If` is read.
  void set_literals(bool on) { literals_ = on; }

  // The value of a property node; nullptr is Absent.
  Val Resolve(const Node* n) const;
  // The text of a node with references to resources kept as \x01Id\x01
  // marks, for linking; nullopt when anything else is unknown.
  std::optional<std::string> LinkText(const Node* n) const;
  // The text of a script: references that cannot be resolved (parameters
  // without defaults, attributes, pseudo parameters) stand as ${Name}. They
  // are values substituted into the script, never its commands.
  std::optional<std::string> ScriptText(const Node* n) const;
  // The text of a node with what cannot be resolved inside an Fn::Join or
  // Fn::Sub (a pseudo parameter such as AWS::Partition, a resource attribute,
  // a parameter without a value) written as aws::kUnknownMarker, so the known
  // text around it stays readable: the suffix of an ARN, the structure of a
  // JSON document. nullopt when the value as a whole is unknown or
  // conditional. Never a value for rules: a text with the marker is unknown
  // to aws::PlainValue.
  std::optional<std::string> PartialText(const Node* n) const;
  // The logical ID a `Ref X` / `GetAtt X.Attr` / `!Sub ${X.Attr}` names, if X is a resource.
  std::optional<std::string> RefTarget(const Node* n) const;

  const Node* Resource(std::string_view id) const;
  std::string_view ResourceType(std::string_view id) const;
  const Node& root() const { return root_; }

 private:
  // kValue: what the setting is; kLink: resource references as marks;
  // kScript: unresolvable references as ${Name}; kPartial: like kValue, but
  // the unknown parts of a Join or Sub as the marker (PartialText).
  enum class Mode { kValue, kLink, kScript, kPartial };
  Val Eval(const Node* n, Mode mode, int depth) const;
  Val Intrinsic(std::string_view fn, const Node& args, const Node& at, Mode mode, int depth) const;
  Val RefValue(std::string_view name, const Node& at, Mode mode) const;
  Val GetAttValue(std::string_view res, std::string_view attr, const Node& at, Mode mode) const;
  Val SubValue(const Node& args, const Node& at, Mode mode, int depth) const;

  const Node& root_;
  bool literals_ = true;
  std::map<std::string, int> mentions_;
  const Node* params_ = nullptr;
  const Node* mappings_ = nullptr;
  const Node* resources_ = nullptr;
  std::map<std::string, std::string> overrides_;
  std::map<std::string, std::string> sources_;
};

// "Fn::If" for `{"Fn::If": [...]}` and for the tag `!If`; empty if `n` is no intrinsic.
std::string IntrinsicName(const Node& n, const Node** args);

// The plain text of a known Val, or nullopt.
std::optional<std::string> KnownText(const Val& v);

// The workloads of a template already loaded (a CDK app's, synthesized from
// its constructs): as a template file's, linked in `scope`. `owners`, when
// given, gets the logical ID of each workload's resource, in order.
void ExtractTemplate(const Node& root, const SourceFile& file, const ResolveOptions& opts, const std::string& scope,
                     FileResult* out, std::vector<std::string>* owners = nullptr);

}  // namespace sagelint::cfn

#endif  // SAGELINT_PARSERS_CLOUDFORMATION_TEMPLATE_H_
