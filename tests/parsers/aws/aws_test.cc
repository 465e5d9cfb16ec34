// The AWS resource descriptions the CloudFormation, Terraform and Python
// front ends share: link keys, property names, Studio's settings.
#include <algorithm>
#include <string>
#include <vector>

#include "parsers/aws/resources.h"
#include "parsers/cdk/app.h"
#include "parsers/terraform/value.h"
#include "tests/catch.h"

using namespace sagelint;

TEST_CASE("link keys are spelled one way", "[aws]") {
  CHECK(aws::ResourceKey("infra/x.yaml", "Ep") == "ref:infra/x.yaml#Ep");
  CHECK(aws::LifecycleConfigKey("idle") == "lc:idle");
  CHECK(aws::VariantKey(aws::EndpointKey("prod"), "AllTraffic") == "endpoint:prod/variant/AllTraffic");
  CHECK(aws::VariantKey(aws::ResourceKey("main.tf", "aws_sagemaker_endpoint.e"), "a") ==
        "ref:main.tf#aws_sagemaker_endpoint.e/variant/a");
}

TEST_CASE("the endpoint name of a variant key", "[aws]") {
  CHECK(aws::EndpointNameOfVariantKey(aws::VariantKey(aws::EndpointKey("prod"), "a")) == "prod");
  CHECK(aws::EndpointNameOfVariantKey("endpoint:a/variant/b/variant/c") == "a/variant/b");
  CHECK(!aws::EndpointNameOfVariantKey("ref:x.yaml#Ep/variant/a"));
  CHECK(!aws::EndpointNameOfVariantKey("endpoint:prod"));
}

TEST_CASE("an inference pipeline serves its first image, or scikit-learn's", "[aws]") {
  auto served = [](std::vector<Val> images) {
    Val v;
    for (const Val& i : images) aws::ChooseServedImage(i, &v);
    return v.known() ? v.text : v.unknown() ? "unknown" : "absent";
  };
  CHECK(served({}) == "absent");
  CHECK(served({Val::Known("xgboost:1"), Val::Known("other:2")}) == "xgboost:1");
  CHECK(served({Val::Known("xgboost:1"), Val::Known("sagemaker-scikit-learn:1.2")}) == "sagemaker-scikit-learn:1.2");
  CHECK(served({Val::Unknown({}), Val::Known("pytorch:2")}) == "unknown");
  CHECK(served({Val::Absent(), Val::Known("pytorch:2")}) == "pytorch:2");
}

TEST_CASE("a deployed variant is known by its endpoints' keys and names", "[aws]") {
  Workload w;
  std::vector<aws::Deployer> deployers = {{aws::ResourceKey("t.yaml", "A"), Val::Known("prod")},
                                          {aws::ResourceKey("t.yaml", "B"), Val::Unknown()}};
  aws::AddVariantKeys(deployers, "AllTraffic", &w);
  CHECK(w.keys == std::vector<std::string>{"ref:t.yaml#A/variant/AllTraffic", "endpoint:prod/variant/AllTraffic",
                                           "ref:t.yaml#B/variant/AllTraffic"});
  CHECK(w.endpoint_name.text == "prod");
}

TEST_CASE("a notebook links to every lifecycle configuration its value may name", "[aws]") {
  Workload w;
  Val a = Val::Known("idle"), b = Val::Unknown();
  a.condition = "when x is true";
  b.condition = "when x is false";
  w.lifecycle_config = Val::OneOf({a, b});
  aws::AddLifecycleConfigRefs(&w);
  CHECK(w.refs == std::vector<std::string>{"lc:idle"});
  w.refs.clear();
  w.lifecycle_config = Val::Known("stop");
  aws::AddLifecycleConfigRefs(&w);
  CHECK(w.refs == std::vector<std::string>{"lc:stop"});
}

TEST_CASE("a scalable target's resource id names an endpoint variant", "[aws]") {
  auto parts = aws::SplitVariantResourceId("endpoint/prod/variant/AllTraffic");
  REQUIRE(parts);
  CHECK(parts->first == "prod");
  CHECK(parts->second == "AllTraffic");
  parts = aws::SplitVariantResourceId("endpoint//variant/");
  REQUIRE(parts);
  CHECK(parts->first.empty());
  CHECK(parts->second.empty());
  CHECK(!aws::SplitVariantResourceId("table/orders"));
  CHECK(!aws::SplitVariantResourceId("endpoint/prod"));
  CHECK(!aws::SplitVariantResourceId("x/endpoint/prod/variant/a"));
}

TEST_CASE("Terraform names a property in snake_case unless the provider renames it", "[aws][terraform]") {
  CHECK(aws::SnakeCase("InitialInstanceCount") == "initial_instance_count");
  CHECK(aws::SnakeCase("VolumeSizeInGB") == "volume_size_in_gb");
  CHECK(aws::SnakeCase("JupyterLabAppSettings") == "jupyter_lab_app_settings");
  CHECK(aws::SnakeCase("GBSize") == "gb_size");
  CHECK(aws::SnakeCase("S3Uri") == "s3_uri");
  CHECK(aws::SnakeCase("S3DataDistributionType") == "s3_data_distribution_type");
  CHECK(aws::TerraformName("aws_sagemaker_notebook_instance", "VolumeSizeInGB") == "volume_size");
  CHECK(aws::TerraformName("aws_sagemaker_notebook_instance", "InstanceType") == "instance_type");
  // Every shared name goes back to itself through the Terraform front end's conversion.
  std::vector<std::string> names;
  for (aws::ResourceType t :
       {aws::ResourceType::kNotebookInstance, aws::ResourceType::kEndpointConfig, aws::ResourceType::kScalableTarget}) {
    for (const aws::Field& f : aws::ResourceOf(t).fields) names.emplace_back(f.property);
  }
  for (WorkloadKind k : {WorkloadKind::kStudioDomain, WorkloadKind::kStudioUserProfile, WorkloadKind::kStudioSpace}) {
    for (std::string_view s : aws::StudioSettings(k)) names.emplace_back(s);
  }
  for (std::string_view app : aws::StudioApps()) names.push_back(std::string(app) + "AppSettings");
  REQUIRE(names.size() == 19);
  for (const std::string& n : names) {
    INFO(n);
    CHECK(tf::PascalCase(aws::SnakeCase(n)) == n);
  }
}

TEST_CASE("Studio resources: labels, settings blocks and apps", "[aws]") {
  CHECK(aws::StudioLabel(WorkloadKind::kStudioDomain) == "Studio domain");
  CHECK(aws::StudioLabel(WorkloadKind::kStudioUserProfile) == "Studio user profile");
  CHECK(aws::StudioLabel(WorkloadKind::kStudioSpace) == "Studio space");
  CHECK(aws::StudioSettings(WorkloadKind::kStudioDomain).size() == 2);
  CHECK(aws::StudioSettings(WorkloadKind::kStudioUserProfile).front() == "UserSettings");
  CHECK(aws::StudioSettings(WorkloadKind::kNotebookInstance).empty());
  CHECK(aws::StudioApps().size() == 3);
}

TEST_CASE("AmazonSageMakerFullAccess stands for every SageMaker action", "[aws][iam]") {
  CHECK(aws::IsSageMakerFullAccessArn("arn:aws:iam::aws:policy/AmazonSageMakerFullAccess"));
  CHECK(aws::IsSageMakerFullAccessArn("arn:${AWS::Partition}:iam::aws:policy/AmazonSageMakerFullAccess"));
  CHECK(!aws::IsSageMakerFullAccessArn("arn:aws:iam::aws:policy/AmazonSageMakerReadOnly"));
  CHECK(!aws::IsSageMakerFullAccessArn("arn:aws:iam::123456789012:policy/AmazonSageMakerFullAccess"));
  Workload base;
  base.name = "Role";
  Workload w = aws::SageMakerFullAccess(base, {{3, 7}, {3, 7}}, "IAM role 'Role'", "Role");
  CHECK(w.kind == WorkloadKind::kIamStatement);
  CHECK(w.label == "IAM role 'Role' managed policy AmazonSageMakerFullAccess");
  CHECK(w.iam.policy == "Role");
  CHECK(w.iam.managed_policy == "AmazonSageMakerFullAccess");
  REQUIRE(w.iam.actions.size() == 1);
  CHECK(w.iam.actions[0].text == "sagemaker:*");
  CHECK(w.iam.effect.text == "Allow");
  CHECK(w.range.begin.line == 3);
}

namespace {

// A properties tree from YAML text, read with PlainValue as Terraform's values are.
cfn::Node Props(const std::string& yaml) {
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(yaml, 0, cfn::LoadLimits{}, &doc, &errors));
  return doc;
}

}  // namespace

TEST_CASE("a HyperPod cluster is one workload with every instance group", "[aws]") {
  std::vector<Workload> out;
  cfn::Node p = Props(
      "InstanceGroups:\n"
      "  - {InstanceGroupName: controller, InstanceType: ml.m5.xlarge, InstanceCount: 1}\n"
      "  - {InstanceGroupName: workers, InstanceType: ml.g5.12xlarge, InstanceCount: 4}\n"
      "RestrictedInstanceGroups:\n"
      "  - {InstanceGroupName: restricted, InstanceType: ml.p5.48xlarge, InstanceCount: 2}\n");
  aws::MapCluster(&p, aws::PlainValue, Workload{}, &out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].kind == WorkloadKind::kHyperPodCluster);
  REQUIRE(out[0].instance_groups.size() == 3);
  CHECK(out[0].instance_groups[1].name.text == "workers");
  CHECK(out[0].instance_groups[1].instance_count.text == "4");
  CHECK(out[0].instance_groups[2].instance_type.text == "ml.p5.48xlarge");
  CHECK(!out[0].instance_type.present());

  // A computed group list: a group of unknown type and count, so the cost is unknown, not zero.
  out.clear();
  cfn::Node computed = Props("InstanceGroups: __sagelint_unknown__\n");
  aws::MapCluster(&computed, aws::PlainValue, Workload{}, &out);
  REQUIRE(out.size() == 1);
  REQUIRE(out[0].instance_groups.size() == 1);
  CHECK(out[0].instance_groups[0].instance_type.unknown());
  CHECK(out[0].instance_groups[0].instance_count.unknown());
}

TEST_CASE("a Studio app's instance type, and the JupyterServer app's system instance", "[aws]") {
  auto app = [](const std::string& yaml) {
    std::vector<Workload> out;
    cfn::Node p = Props(yaml);
    Workload base;
    base.label = "Studio app 'A'";
    aws::MapStudioApp(&p, aws::PlainValue, base, &out);
    REQUIRE(out.size() == 1);
    CHECK(out[0].kind == WorkloadKind::kStudioApp);
    return out[0];
  };
  Workload gpu = app("AppType: KernelGateway\nResourceSpec: {InstanceType: ml.g5.xlarge}\n");
  CHECK(gpu.instance_type.text == "ml.g5.xlarge");
  CHECK(gpu.label == "Studio app 'A' (KernelGateway)");
  CHECK(app("AppType: JupyterServer\n").instance_type.text == "system");
  CHECK(app("AppType: CodeEditor\n").instance_type.absent());
  CHECK(app("AppType: JupyterLab\nResourceSpec: __sagelint_unknown__\n").instance_type.unknown());
}

TEST_CASE("an inference component's copies, reservations and variant", "[aws]") {
  std::vector<Workload> out;
  cfn::Node p = Props(
      "EndpointName: llm\n"
      "VariantName: AllTraffic\n"
      "Specification:\n"
      "  ComputeResourceRequirements: {NumberOfAcceleratorDevicesRequired: 2, MinMemoryRequiredInMb: 16384}\n"
      "RuntimeConfig: {CopyCount: 3}\n");
  aws::MapInferenceComponent(&p, aws::PlainValue, aws::ResourceKey("t.yaml", "Endpoint"), Workload{}, &out);
  REQUIRE(out.size() == 1);
  const Workload& w = out[0];
  CHECK(w.kind == WorkloadKind::kInferenceComponent);
  CHECK(w.copy_count.text == "3");
  CHECK(w.accelerators_required.text == "2");
  CHECK(w.memory_required_mb.text == "16384");
  CHECK(w.cpu_cores_required.absent());
  CHECK(!w.instance_type.present());
  CHECK(w.refs ==
        std::vector<std::string>{"ref:t.yaml#Endpoint/variant/AllTraffic", "endpoint:llm/variant/AllTraffic"});

  out.clear();
  cfn::Node computed = Props("EndpointName: llm\nVariantName: v\nSpecification: __sagelint_unknown__\n");
  aws::MapInferenceComponent(&computed, aws::PlainValue, "", Workload{}, &out);
  CHECK(out[0].memory_required_mb.unknown());
  CHECK(out[0].copy_count.absent());
}

TEST_CASE("Terraform names of the whole-mapped resources turn back into CloudFormation's", "[aws]") {
  CHECK(aws::PropertyOfTerraform("aws_sagemaker_cluster", tf::PascalCase("instance_group")) == "InstanceGroups");
  CHECK(aws::PropertyOfTerraform("aws_sagemaker_inference_component", tf::PascalCase("name")) ==
        "InferenceComponentName");
  CHECK(aws::PropertyOfTerraform("aws_sagemaker_app", tf::PascalCase("resource_spec")) == "ResourceSpec");
  CHECK(aws::TerraformName("aws_sagemaker_cluster", "InstanceGroups") == "instance_group");
}

TEST_CASE("the resource table: one row per resource, found by each front end's name", "[aws]") {
  using aws::ResourceType;
  for (size_t i = 0; i < aws::Resources().size(); ++i) {
    const aws::Resource& r = aws::Resources()[i];
    INFO(r.label);
    CHECK(&aws::ResourceOf(r.type) == &r);
    if (!r.cloudformation.empty()) CHECK(aws::ResourceOfCloudFormation(r.cloudformation) == &r);
    if (!r.terraform.empty()) CHECK(aws::ResourceOfTerraform(r.terraform) == &r);
    if (!r.boto3.empty()) CHECK(aws::ResourceOfBoto3(r.boto3) == &r);
    // The L1 construct class is the one the CDK synthesizes as the CloudFormation type.
    if (!r.cdk.empty()) {
      std::string module = r.cloudformation.starts_with("AWS::SageMaker::") ? "sagemaker" : "applicationautoscaling";
      CHECK(cdk::CfnType(module, r.cdk) == std::string(r.cloudformation));
    }
    CHECK(!r.label.empty());
    CHECK(!r.name_property.empty());
  }
  CHECK(aws::Resources().size() == 14);
  CHECK(aws::ResourceOfCloudFormation("AWS::SageMaker::NotebookInstance")->type == ResourceType::kNotebookInstance);
  CHECK(aws::ResourceOfTerraform("aws_appautoscaling_target")->type == ResourceType::kScalableTarget);
  CHECK(aws::ResourceOfBoto3("create_endpoint_config")->kind == WorkloadKind::kEndpointVariant);
  CHECK(aws::ResourceOfBoto3("create_endpoint") == nullptr);
  CHECK(aws::ResourceOfTerraform("aws_sagemaker_endpoint") == nullptr);
  CHECK(aws::RequestKindLabel(aws::RequestKind::kTuning) == "tuning job");
  CHECK(aws::RequestKindLabel(aws::RequestKind::kNone) == "job");
  // Names the Terraform provider gives otherwise than in snake_case.
  CHECK(aws::TerraformName("aws_sagemaker_endpoint_configuration", "EndpointConfigName") == "name");
  CHECK(aws::TerraformName("aws_sagemaker_notebook_instance_lifecycle_configuration",
                           "NotebookInstanceLifecycleConfigName") == "name");
  CHECK(aws::TerraformName("aws_sagemaker_endpoint_configuration", "ShadowProductionVariants") ==
        "shadow_production_variants");
}

TEST_CASE("where a fix writes a training job's setting, and the keys a removal takes", "[aws]") {
  CHECK(aws::TrainingRequestPath("max_wait_seconds") ==
        std::vector<std::string>{"StoppingCondition", "MaxWaitTimeInSeconds"});
  CHECK(aws::TrainingRequestPath("spot") == std::vector<std::string>{"EnableManagedSpotTraining"});
  CHECK(aws::TrainingRequestPath("checkpoint") == std::vector<std::string>{"CheckpointConfig", "S3Uri"});
  CHECK(aws::TrainingRequestPath("input_mode") ==
        std::vector<std::string>{"AlgorithmSpecification", "TrainingInputMode"});
  CHECK(!aws::TrainingRequestPath("idle_settings"));
  CHECK(aws::RemovableKeys("accelerator_type") == std::vector<std::string_view>{"AcceleratorType", "AcceleratorTypes"});
  CHECK(aws::RemovableKeys("max_wait_seconds") == std::vector<std::string_view>{"MaxWaitTimeInSeconds"});
  CHECK(aws::RemovableKeys("spot").empty());
  // The table's names, each once: what the CDK front end matches a prop key against.
  std::vector<std::string_view> names = aws::PropertyNames();
  for (std::string_view n : {"VolumeSizeInGB", "S3Uri", "ShadowProductionVariants", "DefaultUserSettings"}) {
    CHECK(std::count(names.begin(), names.end(), n) == 1);
  }
  CHECK(cdk::PropertyName("volume_size_in_gb") == "VolumeSizeInGB");
  CHECK(cdk::PropertyName("s3_uri") == "S3Uri");
}

TEST_CASE("a Step Functions task names its request by the boto3 method in camelCase", "[aws]") {
  using aws::RequestKind;
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::sagemaker:createTrainingJob.sync") == RequestKind::kTraining);
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::sagemaker:createHyperParameterTuningJob") ==
        RequestKind::kTuning);
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::sagemaker:createProcessingJob.sync") ==
        RequestKind::kProcessing);
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::sagemaker:createTransformJob") == RequestKind::kTransform);
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::sagemaker:createEndpoint") == RequestKind::kNone);
  CHECK(aws::RequestKindOfTaskResource("arn:aws:states:::lambda:createTrainingJob") == RequestKind::kNone);
}
