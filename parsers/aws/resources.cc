#include "parsers/aws/resources.h"

namespace sagelint::aws {
namespace {

constexpr Field kNotebookInstance[] = {{"InstanceType", &Workload::instance_type},
                                       {"VolumeSizeInGB", &Workload::volume_gb}};
constexpr Field kEndpointVariant[] = {{"InstanceType", &Workload::instance_type},
                                      {"InitialInstanceCount", &Workload::instance_count},
                                      {"AcceleratorType", &Workload::accelerator_type}};
constexpr Field kScalableTarget[] = {{"ServiceNamespace", &Workload::service_namespace},
                                     {"ScalableDimension", &Workload::scalable_dimension},
                                     {"MinCapacity", &Workload::min_capacity},
                                     {"MaxCapacity", &Workload::max_capacity},
                                     {"ResourceId", &Workload::resource_id}};

// Where the Terraform provider's name is not the snake_case of CloudFormation's.
struct TerraformRename {
  std::string_view tf_type, property, name;
};
constexpr TerraformRename kTerraformRenames[] = {
    {"aws_sagemaker_notebook_instance", "VolumeSizeInGB", "volume_size"},
    {"aws_sagemaker_cluster", "InstanceGroups", "instance_group"},
    {"aws_sagemaker_inference_component", "InferenceComponentName", "name"},
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

std::span<const Field> NotebookInstanceFields() { return kNotebookInstance; }
std::span<const Field> EndpointVariantFields() { return kEndpointVariant; }
std::span<const Field> ScalableTargetFields() { return kScalableTarget; }

std::string SnakeCase(std::string_view pascal) {
  std::string out;
  for (size_t i = 0; i < pascal.size(); ++i) {
    char c = pascal[i];
    if (Upper(c)) {
      // A word starts at a capital after a small letter, or at the last
      // capital of a run followed by a small letter ("GBSize" -> "gb_size").
      bool after_lower = i > 0 && Lower(pascal[i - 1]);
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
  return kind == WorkloadKind::kStudioDomain        ? "Studio domain"
         : kind == WorkloadKind::kStudioUserProfile ? "Studio user profile"
                                                    : "Studio space";
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
