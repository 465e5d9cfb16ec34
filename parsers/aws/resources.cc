#include "parsers/aws/resources.h"

#include <algorithm>
#include <iterator>

namespace sagelint::aws {
namespace {

constexpr Field kNotebookInstance[] = {{"InstanceType", &Workload::instance_type},
                                       {"VolumeSizeInGB", &Workload::volume_gb},
                                       {"LifecycleConfigName", &Workload::lifecycle_config}};
constexpr Field kNotebookListHeads[] = {{"AcceleratorTypes", &Workload::accelerator_type}};
constexpr Field kLifecycleScripts[] = {{"OnStart", &Workload::on_start}, {"OnCreate", &Workload::on_create}};
constexpr Field kEndpointVariant[] = {{"VariantName", &Workload::variant_name},
                                      {"InstanceType", &Workload::instance_type},
                                      {"InitialInstanceCount", &Workload::instance_count},
                                      {"AcceleratorType", &Workload::accelerator_type}};
// Shadow variants run (and bill) instances of their own too.
constexpr ListProperty kEndpointVariantLists[] = {
    {"ProductionVariants", kReadByAll},
    {"ShadowProductionVariants", kReadByAll},
};
constexpr Field kScalableTarget[] = {{"ServiceNamespace", &Workload::service_namespace},
                                     {"ScalableDimension", &Workload::scalable_dimension},
                                     {"MinCapacity", &Workload::min_capacity},
                                     {"MaxCapacity", &Workload::max_capacity},
                                     {"ResourceId", &Workload::resource_id}};

using RT = ResourceType;
using WK = WorkloadKind;
using RK = RequestKind;
// clang-format off
constexpr Resource kResources[] = {
    {RT::kNotebookInstance, "AWS::SageMaker::NotebookInstance", "aws_sagemaker_notebook_instance",
     "create_notebook_instance", "CfnNotebookInstance", "notebook instance", WK::kNotebookInstance, RK::kNone,
     "NotebookInstanceName", kNotebookInstance, kNotebookListHeads, {}, {}},
    {RT::kLifecycleConfig, "AWS::SageMaker::NotebookInstanceLifecycleConfig",
     "aws_sagemaker_notebook_instance_lifecycle_configuration", "create_notebook_instance_lifecycle_config",
     "CfnNotebookInstanceLifecycleConfig", "lifecycle configuration", WK::kLifecycleScript, RK::kNone,
     "NotebookInstanceLifecycleConfigName", {}, {}, kLifecycleScripts, {}},
    {RT::kEndpointConfig, "AWS::SageMaker::EndpointConfig", "aws_sagemaker_endpoint_configuration",
     "create_endpoint_config", "CfnEndpointConfig", "endpoint variant", WK::kEndpointVariant, RK::kNone,
     "EndpointConfigName", kEndpointVariant, {}, {}, kEndpointVariantLists},
    {RT::kStudioDomain, "AWS::SageMaker::Domain", "aws_sagemaker_domain", "", "CfnDomain", "Studio domain",
     WK::kStudioDomain, RK::kNone, "DomainName", {}, {}, {}, {}},
    {RT::kStudioUserProfile, "AWS::SageMaker::UserProfile", "aws_sagemaker_user_profile", "", "CfnUserProfile",
     "Studio user profile", WK::kStudioUserProfile, RK::kNone, "UserProfileName", {}, {}, {}, {}},
    {RT::kStudioSpace, "AWS::SageMaker::Space", "aws_sagemaker_space", "", "CfnSpace", "Studio space",
     WK::kStudioSpace, RK::kNone, "SpaceName", {}, {}, {}, {}},
    {RT::kStudioApp, "AWS::SageMaker::App", "aws_sagemaker_app", "", "CfnApp", "Studio app", WK::kStudioApp,
     RK::kNone, "AppName", {}, {}, {}, {}},
    {RT::kHyperPodCluster, "AWS::SageMaker::Cluster", "aws_sagemaker_cluster", "", "CfnCluster", "HyperPod cluster",
     WK::kHyperPodCluster, RK::kNone, "ClusterName", {}, {}, {}, {}},
    {RT::kInferenceComponent, "AWS::SageMaker::InferenceComponent", "aws_sagemaker_inference_component", "",
     "CfnInferenceComponent", "inference component", WK::kInferenceComponent, RK::kNone, "InferenceComponentName",
     {}, {}, {}, {}},
    {RT::kScalableTarget, "AWS::ApplicationAutoScaling::ScalableTarget", "aws_appautoscaling_target",
     "register_scalable_target", "CfnScalableTarget", "scalable target", WK::kScalableTarget, RK::kNone,
     "ResourceId", kScalableTarget, {}, {}, {}},
    {RT::kTrainingJob, "", "aws_sagemaker_training_job", "create_training_job", "", "training job",
     WK::kTrainingJob, RK::kTraining, "TrainingJobName", {}, {}, {}, {}},
    {RT::kTuningJob, "", "aws_sagemaker_hyper_parameter_tuning_job", "create_hyper_parameter_tuning_job", "",
     "tuning job", WK::kTuningJob, RK::kTuning, "HyperParameterTuningJobName", {}, {}, {}, {}},
    {RT::kProcessingJob, "AWS::SageMaker::ProcessingJob", "", "create_processing_job", "CfnProcessingJob",
     "processing job", WK::kProcessingJob, RK::kProcessing, "ProcessingJobName", {}, {}, {}, {}},
    {RT::kTransformJob, "", "", "create_transform_job", "", "transform job", WK::kTransformJob, RK::kTransform,
     "TransformJobName", {}, {}, {}, {}},
};
// clang-format on
constexpr bool InTypeOrder() {
  for (size_t i = 0; i < std::size(kResources); ++i) {
    if (kResources[i].type != static_cast<ResourceType>(i)) return false;
  }
  return true;
}
static_assert(InTypeOrder(), "kResources lists every resource type once, in the order of ResourceType");

// The settings of a training request a fix writes (rules/SM401.md, rules/SM403.md).
constexpr RequestSetting kTrainingSettings[] = {
    {"spot", "", "EnableManagedSpotTraining", &Workload::spot},
    {"max_wait_seconds", "StoppingCondition", "MaxWaitTimeInSeconds", &Workload::max_wait_seconds},
    {"checkpoint", "CheckpointConfig", "S3Uri", &Workload::checkpoint},
    {"input_mode", "AlgorithmSpecification", "TrainingInputMode", &Workload::input_mode},
};

// The API names of the settings a fix removes.
struct Removable {
  std::string_view field, key;
};
constexpr Removable kRemovable[] = {
    {"accelerator_type", "AcceleratorType"},
    {"accelerator_type", "AcceleratorTypes"},  // a notebook instance's list
    {"max_wait_seconds", "MaxWaitTimeInSeconds"},
};

// Where the Terraform provider's name is not the snake_case of CloudFormation's.
struct TerraformRename {
  std::string_view tf_type, property, name;
};
constexpr TerraformRename kTerraformRenames[] = {
    {"aws_sagemaker_notebook_instance", "VolumeSizeInGB", "volume_size"},
    {"aws_sagemaker_cluster", "InstanceGroups", "instance_group"},
    {"aws_sagemaker_inference_component", "InferenceComponentName", "name"},
    {"aws_sagemaker_notebook_instance_lifecycle_configuration", "NotebookInstanceLifecycleConfigName", "name"},
    {"aws_sagemaker_endpoint_configuration", "EndpointConfigName", "name"},
};

// The instance group lists of a HyperPod cluster (CreateCluster).
constexpr std::string_view kClusterGroupLists[] = {"InstanceGroups", "RestrictedInstanceGroups"};

constexpr std::string_view kDomainSettings[] = {"DefaultUserSettings", "DefaultSpaceSettings"};
constexpr std::string_view kUserProfileSettings[] = {"UserSettings"};
constexpr std::string_view kSpaceSettings[] = {"SpaceSettings"};
constexpr std::string_view kStudioApps[] = {"JupyterLab", "CodeEditor", "KernelGateway"};

constexpr std::string_view kFullAccessArnEnd = ":iam::aws:policy/AmazonSageMakerFullAccess";

bool Upper(char c) { return c >= 'A' && c <= 'Z'; }
bool Lower(char c) { return c >= 'a' && c <= 'z'; }

}  // namespace

std::string ResourceKey(std::string_view scope, std::string_view id) {
  return "ref:" + std::string(scope) + "#" + std::string(id);
}

std::string LifecycleConfigKey(std::string_view name) { return "lc:" + std::string(name); }

std::string EndpointKey(std::string_view name) { return "endpoint:" + std::string(name); }

std::string VariantKey(std::string_view endpoint_key, std::string_view variant) {
  return std::string(endpoint_key) + "/variant/" + std::string(variant);
}

std::optional<std::string> EndpointNameOfVariantKey(std::string_view key) {
  constexpr std::string_view kEndpoint = "endpoint:";
  size_t variant = key.rfind("/variant/");
  if (!key.starts_with(kEndpoint) || variant == std::string_view::npos) return std::nullopt;
  return std::string(key.substr(kEndpoint.size(), variant - kEndpoint.size()));
}

std::optional<std::pair<std::string, std::string>> SplitVariantResourceId(std::string_view resource_id) {
  constexpr std::string_view kEndpoint = "endpoint/", kVariant = "/variant/";
  size_t v = resource_id.find(kVariant);
  if (!resource_id.starts_with(kEndpoint) || v == std::string_view::npos) return std::nullopt;
  return std::pair{std::string(resource_id.substr(kEndpoint.size(), v - kEndpoint.size())),
                   std::string(resource_id.substr(v + kVariant.size()))};
}

void AddVariantKeys(std::span<const Deployer> deployers, std::string_view variant, Workload* w) {
  for (const Deployer& d : deployers) {
    w->keys.push_back(VariantKey(d.key, variant));
    if (d.name.known()) {
      w->endpoint_name = d.name;
      w->keys.push_back(VariantKey(EndpointKey(d.name.text), variant));
    }
  }
}

void AddLifecycleConfigRefs(Workload* w) {
  w->lifecycle_config.ForEach([&](const Val& v) {
    if (v.known()) w->refs.push_back(LifecycleConfigKey(v.text));
  });
}

std::span<const Resource> Resources() { return kResources; }

const Resource& ResourceOf(ResourceType type) { return kResources[static_cast<size_t>(type)]; }

const Resource* ResourceOfCloudFormation(std::string_view type) {
  for (const Resource& r : kResources) {
    if (!r.cloudformation.empty() && r.cloudformation == type) return &r;
  }
  return nullptr;
}

const Resource* ResourceOfTerraform(std::string_view type) {
  for (const Resource& r : kResources) {
    if (!r.terraform.empty() && r.terraform == type) return &r;
  }
  return nullptr;
}

const Resource* ResourceOfBoto3(std::string_view method) {
  for (const Resource& r : kResources) {
    if (!r.boto3.empty() && r.boto3 == method) return &r;
  }
  return nullptr;
}

std::span<const RequestSetting> TrainingRequestSettings() { return kTrainingSettings; }

std::vector<std::string_view> PropertyNames() {
  std::vector<std::string_view> out;
  auto add = [&](std::string_view name) {
    if (!name.empty() && std::find(out.begin(), out.end(), name) == out.end()) out.push_back(name);
  };
  for (const Resource& r : kResources) {
    add(r.name_property);
    for (auto fields : {r.fields, r.list_heads, r.scripts}) {
      for (const Field& f : fields) add(f.property);
    }
    for (const ListProperty& l : r.variants) add(l.property);
  }
  for (const RequestSetting& s : kTrainingSettings) {
    add(s.parent);
    add(s.key);
  }
  for (const Resource& r : kResources) {
    for (std::string_view s : StudioSettings(r.kind)) add(s);
  }
  return out;
}

std::optional<std::vector<std::string>> TrainingRequestPath(std::string_view field) {
  for (const RequestSetting& s : kTrainingSettings) {
    if (s.field != field) continue;
    std::vector<std::string> path;
    if (!s.parent.empty()) path.emplace_back(s.parent);
    path.emplace_back(s.key);
    return path;
  }
  return std::nullopt;
}

std::vector<std::string_view> RemovableKeys(std::string_view field) {
  std::vector<std::string_view> out;
  for (const Removable& r : kRemovable) {
    if (r.field == field) out.push_back(r.key);
  }
  return out;
}

std::string SnakeCase(std::string_view pascal) {
  std::string out;
  for (size_t i = 0; i < pascal.size(); ++i) {
    char c = pascal[i];
    if (Upper(c)) {
      // A word starts at a capital after a small letter or a digit ("S3Uri"
      // -> "s3_uri"), or at the last capital of a run followed by a small
      // letter ("GBSize" -> "gb_size").
      bool after_lower = i > 0 && (Lower(pascal[i - 1]) || (pascal[i - 1] >= '0' && pascal[i - 1] <= '9'));
      bool ends_run = i > 0 && Upper(pascal[i - 1]) && i + 1 < pascal.size() && Lower(pascal[i + 1]);
      if (after_lower || ends_run) out += '_';
      c = static_cast<char>(c - 'A' + 'a');
    }
    out += c;
  }
  return out;
}

std::string TerraformName(std::string_view tf_type, std::string_view property) {
  for (const TerraformRename& r : kTerraformRenames) {
    if (r.tf_type == tf_type && r.property == property) return std::string(r.name);
  }
  return SnakeCase(property);
}

void ChooseServedImage(const Val& container_image, Val* served) {
  if (!served->present() ||
      (container_image.known() && container_image.text.find("scikit-learn") != std::string::npos)) {
    *served = container_image;
  }
}

std::string_view PropertyOfTerraform(std::string_view tf_type, std::string_view pascal) {
  for (const TerraformRename& r : kTerraformRenames) {
    if (r.tf_type == tf_type && SnakeCase(pascal) == r.name) return r.property;
  }
  return pascal;
}

void MapCluster(const cfn::Node* props, const ValueFn& value, Workload w, std::vector<Workload>* out) {
  w.kind = WorkloadKind::kHyperPodCluster;
  auto unseen = [&](SourcePos at, const char* why) {
    InstanceGroup g;
    g.range = {at, at};
    g.name = Val::Unknown(g.range, why);
    g.instance_type = Val::Unknown(g.range, why);
    g.instance_count = Val::Unknown(g.range, why);
    w.instance_groups.push_back(std::move(g));
  };
  if (props && !props->is_map()) unseen(props->pos, "the cluster's properties are not a map");
  for (std::string_view key : kClusterGroupLists) {
    const cfn::Node* list = props && props->is_map() ? props->Get(key) : nullptr;
    if (!list) continue;
    if (!list->is_seq()) {
      unseen(list->pos, "the instance group list is computed");
      continue;
    }
    for (const cfn::Node& item : list->items) {
      if (!item.is_map()) {
        unseen(item.pos, "an instance group is computed");
        continue;
      }
      InstanceGroup g;
      g.range = {item.pos, item.pos};
      g.name = value(item.Get("InstanceGroupName"));
      g.instance_type = value(item.Get("InstanceType"));
      g.instance_count = value(item.Get("InstanceCount"));
      w.instance_groups.push_back(std::move(g));
    }
  }
  out->push_back(std::move(w));
}

void MapStudioApp(const cfn::Node* props, const ValueFn& value, Workload w, std::vector<Workload>* out) {
  w.kind = WorkloadKind::kStudioApp;
  const cfn::Node* p = props && props->is_map() ? props : nullptr;
  if (props && !p) w.complete = false;
  Val app_type = p ? value(p->Get("AppType")) : Val::Absent();
  const cfn::Node* spec = p ? p->Get("ResourceSpec") : nullptr;
  if (spec && !spec->is_map()) {
    w.instance_type = Val::Unknown({spec->pos, spec->pos}, "the resource spec is computed");
  } else {
    w.instance_type = value(spec ? spec->Get("InstanceType") : nullptr);
  }
  // Studio runs the JupyterServer app on its own `system` instance unless told otherwise.
  if (w.instance_type.absent() && !(spec && !spec->is_map()) && app_type.known() && app_type.text == "JupyterServer") {
    w.instance_type = Val::Known("system", w.range, "the JupyterServer app's default");
  }
  if (app_type.known()) w.label += " (" + app_type.text + ")";
  out->push_back(std::move(w));
}

void MapInferenceComponent(const cfn::Node* props, const ValueFn& value, std::string_view endpoint_resource_key,
                           Workload w, std::vector<Workload>* out) {
  w.kind = WorkloadKind::kInferenceComponent;
  const cfn::Node* p = props && props->is_map() ? props : nullptr;
  if (props && !p) w.complete = false;
  // A value under blocks that are computed (not maps) is unknown, not absent.
  auto at = [&](std::initializer_list<std::string_view> path) {
    const cfn::Node* n = p;
    for (std::string_view key : path) {
      if (n && !n->is_map()) return Val::Unknown({n->pos, n->pos}, "computed");
      n = n ? n->Get(key) : nullptr;
    }
    return value(n);
  };
  w.endpoint_name = at({"EndpointName"});
  w.variant_name = at({"VariantName"});
  w.copy_count = at({"RuntimeConfig", "CopyCount"});
  w.accelerators_required = at({"Specification", "ComputeResourceRequirements", "NumberOfAcceleratorDevicesRequired"});
  w.memory_required_mb = at({"Specification", "ComputeResourceRequirements", "MinMemoryRequiredInMb"});
  w.cpu_cores_required = at({"Specification", "ComputeResourceRequirements", "NumberOfCpuCoresRequired"});
  if (w.variant_name.known()) {
    if (!endpoint_resource_key.empty()) w.refs.push_back(VariantKey(endpoint_resource_key, w.variant_name.text));
    if (w.endpoint_name.known()) w.refs.push_back(VariantKey(EndpointKey(w.endpoint_name.text), w.variant_name.text));
  }
  out->push_back(std::move(w));
}

std::string_view StudioLabel(WorkloadKind kind) {
  for (const Resource& r : kResources) {
    if (r.kind == kind) return r.label;
  }
  return {};
}

std::span<const std::string_view> StudioSettings(WorkloadKind kind) {
  if (kind == WorkloadKind::kStudioDomain) return kDomainSettings;
  if (kind == WorkloadKind::kStudioUserProfile) return kUserProfileSettings;
  if (kind == WorkloadKind::kStudioSpace) return kSpaceSettings;
  return {};
}

std::span<const std::string_view> StudioApps() { return kStudioApps; }

bool IsSageMakerFullAccessArn(std::string_view arn) { return arn.ends_with(kFullAccessArnEnd); }

Workload SageMakerFullAccess(const Workload& base, SourceRange at, const std::string& holder,
                             const std::string& policy) {
  Workload w = base;
  w.kind = WorkloadKind::kIamStatement;
  w.range = at;
  w.label = holder + " managed policy AmazonSageMakerFullAccess";
  w.iam.policy = policy;
  w.iam.managed_policy = "AmazonSageMakerFullAccess";
  w.iam.effect = Val::Known("Allow", w.range);
  w.iam.actions.push_back(Val::Known("sagemaker:*", w.range));
  return w;
}

}  // namespace sagelint::aws
