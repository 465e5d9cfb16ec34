// The AWS resources sagelint reads, described once for every front end that
// declares them (CloudFormation, Terraform, boto3 requests) by their
// CloudFormation (API) property names: the properties a workload copies as
// they are, the Terraform name of a property, Studio's settings and apps, the
// AmazonSageMakerFullAccess grant, and the link keys by which workloads of
// different resources (and files) find each other.
#ifndef SAGELINT_PARSERS_AWS_RESOURCES_H_
#define SAGELINT_PARSERS_AWS_RESOURCES_H_

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "linter/model/model.h"
#include "parsers/aws/request.h"
#include "parsers/common/node.h"

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

// ---- The resources ----

// A property and the workload field it fills.
struct Field {
  std::string_view property;  // CloudFormation / API name
  Val Workload::*member;
};

// Which front ends read a property: a mask of these.
inline constexpr unsigned kReadByCloudFormation = 1, kReadByTerraform = 2, kReadByBoto3 = 4,
                          kReadByAll = kReadByCloudFormation | kReadByTerraform | kReadByBoto3;
struct ListProperty {
  std::string_view property;  // CloudFormation / API name of a list
  unsigned read_by;
};

enum class ResourceType : std::uint8_t {
  kNotebookInstance,
  kLifecycleConfig,
  kEndpointConfig,
  kStudioDomain,
  kStudioUserProfile,
  kStudioSpace,
  kStudioApp,
  kHyperPodCluster,
  kInferenceComponent,
  kScalableTarget,
  kTrainingJob,
  kTuningJob,
  kProcessingJob,
  kTransformJob,
};

// One resource sagelint reads, as each front end declares it. A name is empty
// where that front end has no such resource (or sagelint does not read it).
struct Resource {
  ResourceType type;
  std::string_view cloudformation;    // "AWS::SageMaker::NotebookInstance"
  std::string_view terraform;         // "aws_sagemaker_notebook_instance"
  std::string_view boto3;             // "create_notebook_instance" (a SageMaker or Application Auto Scaling client)
  std::string_view cdk;               // "CfnNotebookInstance": the L1 construct class
  std::string_view label;             // "notebook instance": how a workload's label names it
  WorkloadKind kind;                  // the workload it makes
  RequestKind request;                // an API request MapRequest reads whole; kNone otherwise
  std::string_view name_property;     // "NotebookInstanceName"
  std::span<const Field> fields;      // properties copied as they are
  std::span<const Field> list_heads;  // lists whose first item fills a field ("AcceleratorTypes")
  std::span<const Field> scripts;     // base64 script hooks, decoded ("OnStart")
  std::span<const ListProperty> variants;  // lists of endpoint variants (ProductionVariant each)
};
std::span<const Resource> Resources();
const Resource& ResourceOf(ResourceType type);
// The resource a CloudFormation type, a Terraform resource type or a boto3
// client method names; nullptr for none sagelint reads.
const Resource* ResourceOfCloudFormation(std::string_view type);
const Resource* ResourceOfTerraform(std::string_view type);
const Resource* ResourceOfBoto3(std::string_view method);

// Every property name the table holds (fields, lists, scripts, names, the
// settings fixes write and their objects, Studio's settings blocks), each once.
std::vector<std::string_view> PropertyNames();

// ---- Where a fix writes a setting ----

// A training job's setting a fix writes into a request written in the API's
// own names (README "Fixes"): a CloudFormation or CDK state machine task's
// `Parameters`, a pipeline step's `Arguments`, a boto3 call, a Terraform
// request object (and, in snake_case, a training job resource's arguments).
struct RequestSetting {
  std::string_view field;   // the fix's field: "max_wait_seconds"
  std::string_view parent;  // the object that holds it ("StoppingCondition"); empty: the request itself
  std::string_view key;     // "MaxWaitTimeInSeconds"
  Val Workload::*member;    // what MapRequest reads from there
};
std::span<const RequestSetting> TrainingRequestSettings();
// The key path under the request of a fix's field ("max_wait_seconds" →
// StoppingCondition.MaxWaitTimeInSeconds), or nullopt for a field no request holds.
std::optional<std::vector<std::string>> TrainingRequestPath(std::string_view field);
// The API names a setting a fix removes is written under ("accelerator_type":
// "AcceleratorType", and a notebook's "AcceleratorTypes"); empty for a field no fix removes.
std::vector<std::string_view> RemovableKeys(std::string_view field);

// How the Terraform AWS provider names `property` of a resource of type
// `tf_type`: the snake_case of the name ("InitialInstanceCount" ->
// "initial_instance_count", "VolumeSizeInGB" -> "volume_size_in_gb"), unless
// the provider names it otherwise ("volume_size" on a notebook instance).
std::string TerraformName(std::string_view tf_type, std::string_view property);
// The snake_case of an API name, as the Terraform provider and the SDK write it
// ("VolumeSizeInGB" -> "volume_size_in_gb", "S3Uri" -> "s3_uri").
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

// ---- HyperPod clusters, Studio apps, inference components ----
// Each reads the resource's properties as a document tree with CloudFormation's
// (API) names — CloudFormation's own `Properties`, or a Terraform body through
// tf::ToNode with its keys renamed back (TerraformProperty) — and appends the
// workload it makes to `out`. `w` supplies path, name, label and range.

// AWS::SageMaker::Cluster, aws_sagemaker_cluster: one workload whose instance
// groups are the cluster's `InstanceGroups` and `RestrictedInstanceGroups`
// (name, type, count each); a group list that cannot be seen adds a group of
// unknown type and count, so the cluster's cost stays unknown.
void MapCluster(const cfn::Node* props, const ValueFn& value, Workload w, std::vector<Workload>* out);
// AWS::SageMaker::App, aws_sagemaker_app: the app's `ResourceSpec.InstanceType`
// ("system" for a JupyterServer app that names none), its `AppType` in the label.
void MapStudioApp(const cfn::Node* props, const ValueFn& value, Workload w, std::vector<Workload>* out);
// AWS::SageMaker::InferenceComponent, aws_sagemaker_inference_component: its
// copies and what each reserves, and refs to the variant it runs on (by the
// endpoint's name, and by `endpoint_resource_key` when the front end saw the
// endpoint resource it references).
void MapInferenceComponent(const cfn::Node* props, const ValueFn& value, std::string_view endpoint_resource_key,
                           Workload w, std::vector<Workload>* out);
// The CloudFormation name of a Terraform argument of `tf_type` whose PascalCase
// is `pascal` (the inverse of TerraformName's renames: "InstanceGroup" of
// aws_sagemaker_cluster is "InstanceGroups"); `pascal` itself otherwise.
std::string_view PropertyOfTerraform(std::string_view tf_type, std::string_view pascal);

// ---- AWS managed policies ----

// The ARN (or its known parts) names the AWS managed policy AmazonSageMakerFullAccess.
bool IsSageMakerFullAccessArn(std::string_view arn);
// The statement AmazonSageMakerFullAccess stands for (every SageMaker action,
// unconditionally), attached at `at` by `holder` ("IAM role 'R'") of `policy`.
Workload SageMakerFullAccess(const Workload& base, SourceRange at, const std::string& holder,
                             const std::string& policy);

}  // namespace sagelint::aws

#endif  // SAGELINT_PARSERS_AWS_RESOURCES_H_
