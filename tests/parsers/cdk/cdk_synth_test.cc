// The shared part of the CDK front end: recorded constructs → the
// CloudFormation they synthesize → workloads, and the CDK's own values.
#include <string>
#include <vector>

#include "parsers/aws/resources.h"
#include "parsers/cdk/app.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

cfn::Node Yaml(const std::string& text, int line = 0) {
  cfn::Node n;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(text, line, cfn::LoadLimits{}, &n, &errors));
  return n;
}

cdk::Construct Make(std::string module, std::string cls, std::string id, const std::string& props, int line,
                    int file = 0) {
  cdk::Construct c;
  c.module = std::move(module);
  c.cls = std::move(cls);
  c.id = std::move(id);
  if (!props.empty()) c.props = Yaml(props, line - 1);
  c.file = file;
  c.call.begin = {line, 5};
  c.call.end = {line, 40};
  c.stack = 0;
  return c;
}

cfn::Node ConstructRef(int index) {
  cfn::Node n;
  n.kind = cfn::Node::Kind::kScalar;
  n.tag = std::string(cdk::kConstructTag);
  n.text = std::to_string(index);
  return n;
}

cdk::App TwoFileApp() {
  cdk::App app;
  app.files.push_back({"app.py", "", "", "app.py"});
  app.files.push_back({"stacks/ml.py", "", "", "stacks/ml.py"});
  app.stacks.push_back({"MlStack", 0, {{3, 1}, {3, 30}}});
  return app;
}

const Workload* Find(const std::vector<FileResult>& results, std::string_view label) {
  for (const FileResult& r : results) {
    for (const Workload& w : r.workloads) {
      if (w.label == label) return &w;
    }
  }
  return nullptr;
}

}  // namespace

TEST_CASE("cdk: property names match case- and underscore-insensitively", "[cdk]") {
  CHECK(cdk::PropertyName("volume_size_in_gb") == "VolumeSizeInGB");
  CHECK(cdk::PropertyName("volumeSizeInGb") == "VolumeSizeInGB");
  CHECK(cdk::PropertyName("lifecycle_config_name") == "LifecycleConfigName");
  CHECK(cdk::PropertyName("instanceType") == "InstanceType");
  CHECK(cdk::PropertyName("some_new_property") == "SomeNewProperty");
  CHECK(cdk::CfnType("sagemaker", "CfnNotebookInstance") == "AWS::SageMaker::NotebookInstance");
  CHECK(cdk::CfnType("iam", "CfnRole") == "AWS::IAM::Role");
  CHECK_FALSE(cdk::CfnType("sagemaker", "Endpoint"));
}

TEST_CASE("cdk: module names of Python and TypeScript imports", "[cdk]") {
  CHECK(cdk::ModuleOf("aws_cdk.aws_sagemaker") == "sagemaker");
  CHECK(cdk::ModuleOf("aws-cdk-lib/aws-sagemaker") == "sagemaker");
  CHECK(cdk::ModuleOf("aws_cdk.aws_sagemaker_alpha") == "sagemaker-alpha");
  CHECK(cdk::ModuleOf("@aws-cdk/aws-sagemaker-alpha") == "sagemaker-alpha");
  CHECK(cdk::ModuleOf("aws_cdk.aws_stepfunctions_tasks") == "stepfunctions-tasks");
  CHECK(cdk::ModuleOf("aws-cdk-lib") == "core");
  CHECK(cdk::ModuleOf("aws_cdk") == "core");
  CHECK(cdk::ModuleOf("sagemaker") == "");
  CHECK(cdk::ModuleOf("./lib/stack") == "");
}

TEST_CASE("cdk: the CDK's value types render as the template does", "[cdk]") {
  SourcePos at{1, 1};
  auto text = [](const std::optional<cfn::Node>& n) { return n ? n->text : std::string("<none>"); };
  cfn::Node p3 = *cdk::MemberValue("ec2", "InstanceClass", "P3", at);
  cfn::Node x2 = *cdk::MemberValue("ec2", "InstanceSize", "XLARGE2", at);
  CHECK(text(cdk::CallValue("ec2", "InstanceType", "of", std::vector<cfn::Node>{p3, x2}, at)) == "p3.2xlarge");
  CHECK(text(cdk::MemberValue("ec2", "InstanceClass", "STANDARD5", at)) == "m5");
  CHECK(text(cdk::MemberValue("ec2", "InstanceSize", "LARGE", at)) == "large");
  CHECK(text(cdk::MemberValue("sagemaker-alpha", "InstanceType", "M5_LARGE", at)) == "ml.m5.large");
  CHECK(text(cdk::MemberValue("sagemaker-alpha", "InstanceType", "P3_2XLARGE", at)) == "ml.p3.2xlarge");
  cfn::Node fifty = Yaml("50");
  CHECK(text(cdk::CallValue("core", "Size", "gibibytes", std::vector<cfn::Node>{fifty}, at)) == "50");
  cfn::Node two = Yaml("2");
  CHECK(text(cdk::CallValue("core", "Duration", "hours", std::vector<cfn::Node>{two}, at)) == "7200");
  cfn::Node name = Yaml("AmazonSageMakerFullAccess");
  CHECK(text(cdk::CallValue("iam", "ManagedPolicy", "from_aws_managed_policy_name", std::vector<cfn::Node>{name},
                            at)) == "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess");
  CHECK(text(cdk::CallValue("iam", "ManagedPolicy", "fromAwsManagedPolicyName", std::vector<cfn::Node>{name}, at)) ==
        "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess");
  CHECK_FALSE(cdk::MemberValue("core", "RemovalPolicy", "DESTROY", at));
}

TEST_CASE("cdk: L1 constructs become their resources, at their calls in their files", "[cdk]") {
  cdk::App app = TwoFileApp();
  app.constructs.push_back(
      Make("sagemaker", "CfnNotebookInstance", "ExploreNotebook",
           "instance_type: ml.p3.2xlarge\nrole_arn: arn:aws:iam::1:role/r\nvolume_size_in_gb: 50\n", 12, 1));
  app.constructs.push_back(Make("sagemaker", "CfnEndpointConfig", "Config",
                                "productionVariants:\n  - variantName: AllTraffic\n    modelName: m\n"
                                "    instanceType: ml.g5.xlarge\n    initialInstanceCount: 2\n",
                                20, 1));
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  REQUIRE(results.size() == 1);
  CHECK(results[0].path == "stacks/ml.py");
  CHECK(results[0].format == Format::kCdk);
  const Workload* nb = Find(results, "notebook instance 'ExploreNotebook'");
  REQUIRE(nb);
  CHECK(nb->instance_type.text == "ml.p3.2xlarge");
  CHECK(nb->volume_gb.text == "50");
  CHECK(nb->range.begin.line == 12);
  CHECK(nb->format == Format::kCdk);
  const Workload* v = Find(results, "endpoint variant 'Config/AllTraffic'");
  REQUIRE(v);
  CHECK(v->instance_type.text == "ml.g5.xlarge");
  CHECK(v->instance_count.text == "2");
}

TEST_CASE("cdk: IAM roles, statements added to them and AWS managed policies", "[cdk]") {
  cdk::App app = TwoFileApp();
  SourcePos at{30, 9};
  app.constructs.push_back(Make("iam", "Role", "ExecRole", "role_name: exec\n", 10, 1));
  app.constructs.push_back(Make("iam", "PolicyStatement", "", "actions: ['sagemaker:*']\nresources: ['*']\n", 14, 1));
  cdk::MethodCall add;
  add.construct = 0;
  add.method = "add_to_policy";
  add.args.push_back(ConstructRef(1));
  add.file = 1;
  add.call.begin = {16, 1};
  app.methods.push_back(add);
  cdk::MethodCall managed;
  managed.construct = 0;
  managed.method = "addManagedPolicy";
  managed.args.push_back(*cdk::CallValue("iam", "ManagedPolicy", "fromAwsManagedPolicyName",
                                         std::vector<cfn::Node>{Yaml("AmazonSageMakerFullAccess")}, at));
  managed.file = 1;
  managed.call.begin = at;
  app.methods.push_back(managed);
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  REQUIRE(results.size() == 1);
  int statements = 0, full_access = 0;
  for (const Workload& w : results[0].workloads) {
    if (w.kind != WorkloadKind::kIamStatement) continue;
    ++statements;
    if (w.label.find("AmazonSageMakerFullAccess") != std::string::npos) ++full_access;
  }
  CHECK(statements == 2);
  CHECK(full_access == 1);
}

TEST_CASE("cdk: alpha endpoints with instance count autoscaling, and Step Functions training tasks", "[cdk]") {
  cdk::App app = TwoFileApp();
  app.constructs.push_back(Make("sagemaker-alpha", "Model", "Model", "containers:\n  - image: img\n", 5, 1));
  cdk::Construct cfg = Make("sagemaker-alpha", "EndpointConfig", "Config", "", 8, 1);
  cfg.props =
      Yaml("instance_production_variants:\n  - variant_name: AllTraffic\n    instance_type: ml.g5.2xlarge\n", 7);
  cfg.props.entries[0].second.items[0].entries.emplace_back("model", ConstructRef(0));
  cfg.props.entries[0].second.items[0].key_pos.push_back({11, 7});
  app.constructs.push_back(cfg);
  cdk::Construct ep = Make("sagemaker-alpha", "Endpoint", "Endpoint", "", 14, 1);
  ep.props.kind = cfn::Node::Kind::kMap;
  ep.props.entries.emplace_back("endpoint_config", ConstructRef(1));
  ep.props.key_pos.push_back({14, 30});
  app.constructs.push_back(ep);
  cdk::MethodCall find;
  find.construct = 2;
  find.method = "find_instance_production_variant";
  find.args.push_back(Yaml("AllTraffic"));
  find.file = 1;
  app.methods.push_back(find);
  cdk::MethodCall scale = find;
  scale.method = "auto_scale_instance_count";
  scale.args = {Yaml("max_capacity: 4")};
  scale.call.begin = {16, 1};
  app.methods.push_back(scale);
  app.constructs.push_back(Make("stepfunctions-tasks", "SageMakerCreateTrainingJob", "Train",
                                "resource_config:\n  instance_type: p3.2xlarge\n  volume_size: 100\n", 20, 1));
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  REQUIRE(results.size() == 1);
  const Workload* v = Find(results, "endpoint variant 'Config/AllTraffic'");
  REQUIRE(v);
  CHECK(v->instance_type.text == "ml.g5.2xlarge");
  CHECK(v->instance_count.text == "1");
  bool target = false, training = false;
  for (const Workload& w : results[0].workloads) {
    if (w.kind == WorkloadKind::kScalableTarget) {
      target = true;
      CHECK(w.max_capacity.text == "4");
    }
    if (w.kind == WorkloadKind::kTrainingJob) {
      training = true;
      CHECK(w.instance_type.text == "ml.p3.2xlarge");
      CHECK(w.instance_count.text == "1");
      CHECK(w.volume_gb.text == "100");
      CHECK(w.range.begin.line == 20);
    }
  }
  CHECK(target);
  CHECK(training);
}

TEST_CASE("cdk: a string holding deploy-time values synthesizes to Fn::Join", "[cdk]") {
  cdk::App app = TwoFileApp();
  app.tokens.push_back(*cdk::MemberValue("core", "Aws", "ACCOUNT_ID", {1, 1}));
  // A token that names itself stays bounded.
  app.tokens.push_back(Yaml("'x" + cdk::Token(1) + "'"));
  app.constructs.push_back(Make("sagemaker", "CfnNotebookInstance", "Nb", "instance_type: ml.t3.medium\n", 4, 1));
  app.constructs[0].props.entries.emplace_back("role_arn", Yaml("'arn:aws:iam::" + cdk::Token(0) + ":role/r'"));
  app.constructs[0].props.key_pos.push_back({5, 3});
  app.constructs[0].props.entries.emplace_back("kms_key_id", Yaml("'" + cdk::Token(1) + "'"));
  app.constructs[0].props.key_pos.push_back({6, 3});
  app.constructs.push_back(Make("iam", "PolicyStatement", "", "actions: ['sagemaker:*']\n", 8, 1));
  app.constructs[1].props.entries.emplace_back(
      "resources", Yaml("['arn:aws:sagemaker:*:" + cdk::Token(0) + ":model-package-group/*']"));
  app.constructs[1].props.key_pos.push_back({9, 3});
  app.constructs.push_back(Make("iam", "Policy", "P", "", 10, 1));
  app.constructs[2].props.kind = cfn::Node::Kind::kMap;
  cfn::Node list;
  list.kind = cfn::Node::Kind::kSeq;
  list.items.push_back(ConstructRef(1));
  app.constructs[2].props.entries.emplace_back("statements", list);
  app.constructs[2].props.key_pos.push_back({10, 20});
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  REQUIRE(results.size() == 1);
  REQUIRE(Find(results, "notebook instance 'Nb'"));
  const Workload* st = Find(results, "IAM policy 'P' statement 1");
  REQUIRE(st);
  REQUIRE(st->iam.resources.size() == 1);
  // The account is unknown; the resource type is known.
  CHECK(st->iam.resources[0].text.find(":model-package-group/*") != std::string::npos);
}

TEST_CASE("cdk: a script with a part the app computes keeps its text, a script wholly unknown stays unknown", "[cdk]") {
  cdk::App app = TwoFileApp();
  std::string marker(aws::kUnknownMarker);
  app.constructs.push_back(
      Make("sagemaker", "CfnNotebookInstanceLifecycleConfig", "Partial",
           "on_start:\n  - content:\n      Fn::Base64:\n        Fn::Join: ['', ['#!/bin/bash\\nmount ', '" + marker +
               "', ' /efs\\n']]\n",
           3, 1));
  app.constructs.push_back(Make("sagemaker", "CfnNotebookInstanceLifecycleConfig", "Whole",
                                "on_start:\n  - content: '" + marker + "'\n", 9, 1));
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  const Workload* partial = Find(results, "lifecycle configuration 'Partial'");
  REQUIRE(partial);
  REQUIRE(partial->on_start.known());
  CHECK(partial->on_start.text == "#!/bin/bash\\nmount ${value} /efs\\n");  // YAML single quotes: no escapes
  const Workload* whole = Find(results, "lifecycle configuration 'Whole'");
  REQUIRE(whole);
  CHECK_FALSE(whole->on_start.known());
}

TEST_CASE("cdk: managed policies as objects and through keyword arguments", "[cdk]") {
  cdk::App app = TwoFileApp();
  app.constructs.push_back(
      Make("iam", "Role", "V1Role",
           "managedPolicies:\n  - managedPolicyArn: arn:aws:iam::aws:policy/AmazonSageMakerFullAccess\n", 3, 1));
  std::vector<FileResult> results = cdk::Synthesize(app, ResolveOptions{});
  CHECK(Find(results, "IAM role 'V1Role' managed policy AmazonSageMakerFullAccess"));
  std::vector<cfn::Node> keywords{Yaml("{managed_policy_name: AmazonSageMakerFullAccess}")};
  auto arn = cdk::CallValue("iam", "ManagedPolicy", "from_aws_managed_policy_name", keywords, {1, 1});
  REQUIRE(arn);
  CHECK(arn->text == "arn:aws:iam::aws:policy/AmazonSageMakerFullAccess");
  std::vector<cfn::Node> by_arn{Yaml("{id: P, managed_policy_arn: 'arn:aws:iam::1:policy/p'}")};
  auto p = cdk::CallValue("iam", "ManagedPolicy", "from_managed_policy_arn", by_arn, {1, 1});
  REQUIRE(p);
  CHECK(p->text == "arn:aws:iam::1:policy/p");
}
