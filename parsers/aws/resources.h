// The AWS resources sagelint reads, described once for every front end that
// declares them (CloudFormation, Terraform, boto3 requests) by their
// CloudFormation (API) property names: the properties a workload copies as
// they are, the Terraform name of a property, Studio's settings and apps, the
// AmazonSageMakerFullAccess grant, and the link keys by which workloads of
// different resources (and files) find each other.
#ifndef SAGELINT_PARSERS_AWS_RESOURCES_H_
#define SAGELINT_PARSERS_AWS_RESOURCES_H_

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "linter/model/model.h"

namespace sagelint::aws {

// ---- Link keys (Workload::keys and Workload::refs) ----

// A resource of one scope (a file, a document of it, a Terraform root module
// evaluation): "ref:<scope>#<id>".
std::string ResourceKey(std::string_view scope, std::string_view id);
// A notebook lifecycle configuration by name: "lc:<name>".
std::string LifecycleConfigKey(std::string_view name);
// An endpoint by name: "endpoint:<name>".
std::string EndpointKey(std::string_view name);
// A variant of the endpoint `endpoint_key` names: "<endpoint key>/variant/<variant>".
std::string VariantKey(std::string_view endpoint_key, std::string_view variant);
// The endpoint name a variant key spells ("endpoint:<name>/variant/<variant>"), if it is one.
std::optional<std::string> EndpointNameOfVariantKey(std::string_view key);
// Application Auto Scaling's ResourceId of a variant, "endpoint/<endpoint>/variant/<variant>":
// the endpoint and the variant as written.
std::optional<std::pair<std::string, std::string>> SplitVariantResourceId(std::string_view resource_id);

// An endpoint that deploys an endpoint configuration: the key of its
// resource, and its name (absent unless known).
struct Deployer {
  std::string key;
  Val name;
};
// A variant of a configuration these endpoints deploy is known by each one's
// resource key and name ("…/variant/<variant>"); it takes the last known name.
void AddVariantKeys(std::span<const Deployer> deployers, std::string_view variant, Workload* w);
// A notebook instance links to the lifecycle configuration every known
// alternative of its `lifecycle_config` names.
void AddLifecycleConfigRefs(Workload* w);

// ---- Properties a workload copies as they are ----

struct Field {
  std::string_view property;  // CloudFormation / API name
  Val Workload::*member;
};
// AWS::SageMaker::NotebookInstance, CreateNotebookInstance.
std::span<const Field> NotebookInstanceFields();
// A ProductionVariant of AWS::SageMaker::EndpointConfig.
std::span<const Field> EndpointVariantFields();
// AWS::ApplicationAutoScaling::ScalableTarget, RegisterScalableTarget.
std::span<const Field> ScalableTargetFields();

// How the Terraform AWS provider names `property` of a resource of type
// `tf_type`: the snake_case of the name ("InitialInstanceCount" ->
// "initial_instance_count", "VolumeSizeInGB" -> "volume_size_in_gb"), unless
// the provider names it otherwise ("volume_size" on a notebook instance).
std::string TerraformName(std::string_view tf_type, std::string_view property);
std::string SnakeCase(std::string_view pascal);

// ---- Models ----

// The image an endpoint variant serves from a model with several containers
// (an inference pipeline), taking the containers' images in order: the first
// one, unless a later one is scikit-learn's (the framework decides the rules).
void ChooseServedImage(const Val& container_image, Val* served);

// ---- Studio ----

// "Studio domain", "Studio user profile", "Studio space".
std::string_view StudioLabel(WorkloadKind kind);
// The settings blocks of a domain, user profile or space that hold app settings.
std::span<const std::string_view> StudioSettings(WorkloadKind kind);
// The apps whose settings (`<app>AppSettings`) a settings block holds.
std::span<const std::string_view> StudioApps();

// ---- AWS managed policies ----

// The ARN (or its known parts) names the AWS managed policy AmazonSageMakerFullAccess.
bool IsSageMakerFullAccessArn(std::string_view arn);
// The statement AmazonSageMakerFullAccess stands for (every SageMaker action,
// unconditionally), attached at `at` by `holder` ("IAM role 'R'") of `policy`.
Workload SageMakerFullAccess(const Workload& base, SourceRange at, const std::string& holder,
                             const std::string& policy);

}  // namespace sagelint::aws

#endif  // SAGELINT_PARSERS_AWS_RESOURCES_H_
