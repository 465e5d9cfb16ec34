// CDK apps in Python (docs/architecture.md "CDK apps"): what the Python evaluator records of an app —
// its files, stacks, constructs with their props (values from constructor
// defaults, dataclass defaults, imported module constants, a JSON config
// file, cdk.json context), references between constructs, IAM statements and
// the methods called on constructs — and its bounds.
#include <filesystem>
#include <string>

#include "parsers/aws/request.h"
#include "parsers/cdk/app.h"
#include "parsers/common/node.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::TempDir;

namespace {

cfn::Node Json(const std::string& text) {
  cfn::Node n;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &n, &errors));
  return n;
}

struct Run {
  ResolveOptions opts;
  cdk::App app;
};

// Evaluates `dir`/`entry` as a CDK app whose scan root is `root` (default `dir`).
void Evaluate(Run* run, const std::string& dir, const std::string& context_json = "{}", const std::string& root = "",
              const std::string& entry = "app.py") {
  run->opts.root = root.empty() ? dir : root;
  cdk::AppInput in;
  in.entry.path = entry;
  in.entry.abs_path = dir + "/" + entry;
  in.entry.text = sagelint::testing::ReadFileOrDie(in.entry.abs_path);
  in.context = Json(context_json);
  in.opts = &run->opts;
  run->app = cdk::EvaluatePythonApp(in);
}

const cdk::Construct* Find(const cdk::App& app, const std::string& id, int* index = nullptr) {
  for (size_t i = 0; i < app.constructs.size(); ++i) {
    if (app.constructs[i].id == id) {
      if (index) *index = static_cast<int>(i);
      return &app.constructs[i];
    }
  }
  return nullptr;
}

int FileIndex(const cdk::App& app, const std::string& path) {
  for (size_t i = 0; i < app.files.size(); ++i) {
    if (app.files[i].path == path) return static_cast<int>(i);
  }
  return -1;
}

bool Mentions(const cfn::Node& n, const std::string& text) {
  if (n.text.find(text) != std::string::npos) return true;
  for (const auto& e : n.entries) {
    if (Mentions(e.second, text)) return true;
  }
  for (const auto& i : n.items) {
    if (Mentions(i, text)) return true;
  }
  return false;
}

const char* kMlStack = R"(from dataclasses import dataclass

from aws_cdk import Stack, aws_iam as iam
from aws_cdk import aws_sagemaker as sagemaker
from constructs import Construct

from .settings import DEFAULT_VOLUME


@dataclass
class EndpointSettings:
    instance_type: str = "ml.m5.large"
    count: int = 1


class MlStack(Stack):
    def __init__(self, scope: Construct, construct_id: str, instance_type: str = "ml.t3.medium",
                 volume: int = DEFAULT_VOLUME, **kwargs) -> None:
        super().__init__(scope, construct_id, **kwargs)
        self.prefix = self.node.try_get_context("prefix")
        role = iam.Role(
            self,
            "NotebookRole",
            assumed_by=iam.ServicePrincipal("sagemaker.amazonaws.com"),
            managed_policies=[iam.ManagedPolicy.from_aws_managed_policy_name("AmazonSageMakerFullAccess")],
        )
        statement = iam.PolicyStatement(actions=["sagemaker:*"], resources=["*"])
        role.add_to_policy(statement)
        self.notebook = sagemaker.CfnNotebookInstance(
            self,
            "ExploreNotebook",
            instance_type=instance_type,
            role_arn=role.role_arn,
            volume_size_in_gb=volume,
            notebook_instance_name=f"{self.prefix}-explore",
        )
        self.make_endpoint(EndpointSettings(), role)

    def make_endpoint(self, settings, role):
        model = sagemaker.CfnModel(self, "Model", execution_role_arn=role.role_arn)
        config = sagemaker.CfnEndpointConfig(
            self,
            "Config",
            production_variants=[
                sagemaker.CfnEndpointConfig.ProductionVariantProperty(
                    variant_name="AllTraffic",
                    model_name=model.attr_model_name,
                    initial_instance_count=settings.count,
                    instance_type=settings.instance_type,
                )
            ],
        )
        endpoint = sagemaker.CfnEndpoint(self, "Endpoint", endpoint_config_name=config.attr_endpoint_config_name)
        endpoint.add_metadata("sagelint", {"ignore": ["SM211"]})
)";

const char* kApp = R"(import json

import aws_cdk as cdk

from stacks.ml_stack import MlStack

app = cdk.App()
with open("config.json") as f:
    config = json.load(f)
MlStack(app, "MlStack", instance_type=config["notebook_type"], env=cdk.Environment(region="us-east-1"))
app.synth()
)";

void WriteApp(const TempDir& dir) {
  dir.Write("app.py", kApp);
  dir.Write("stacks/__init__.py", "");
  dir.Write("stacks/ml_stack.py", kMlStack);
  dir.Write("stacks/settings.py", "DEFAULT_VOLUME = 50\n");
  dir.Write("config.json", "{\"notebook_type\": \"ml.p3.2xlarge\"}\n");
}

}  // namespace

TEST_CASE("a multi-file Python CDK app: stacks, constructs and props with the values the app gives", "[cdk][python]") {
  TempDir dir;
  WriteApp(dir);
  Run run;
  Evaluate(&run, dir.path(), R"({"prefix": "team"})");
  const cdk::App& app = run.app;
  INFO("errors " << app.errors.size() << " budgets " << app.budgets.size());
  CHECK(app.errors.empty());
  CHECK(app.budgets.empty());
  REQUIRE(app.files.size() >= 3);
  CHECK(app.files[0].path == "app.py");
  int stack_file = FileIndex(app, "stacks/ml_stack.py");
  REQUIRE(stack_file > 0);
  CHECK(FileIndex(app, "stacks/settings.py") > 0);

  REQUIRE(app.stacks.size() == 1);
  CHECK(app.stacks[0].id == "MlStack");
  CHECK(app.stacks[0].file == 0);
  CHECK(app.stacks[0].call.begin.line == 10);

  int nb_index = -1;
  const cdk::Construct* nb = Find(app, "ExploreNotebook", &nb_index);
  REQUIRE(nb);
  CHECK(nb->module == "sagemaker");
  CHECK(nb->cls == "CfnNotebookInstance");
  CHECK(nb->stack == 0);
  CHECK(nb->file == stack_file);
  CHECK(nb->call.begin.line == 29);
  REQUIRE(nb->props.is_map());
  // From config.json through the stack's parameter: at the use in the stack file.
  const cfn::Node* type = nb->props.Get("instance_type");
  REQUIRE(type);
  CHECK(type->text == "ml.p3.2xlarge");
  CHECK(type->quoted);
  CHECK(type->pos.line == 32);
  // A parameter default from another module's constant.
  const cfn::Node* volume = nb->props.Get("volume_size_in_gb");
  REQUIRE(volume);
  CHECK(volume->text == "50");
  CHECK(volume->pos.line == 34);
  // cdk.json context through an attribute of the stack and an f-string.
  const cfn::Node* name = nb->props.Get("notebook_instance_name");
  REQUIRE(name);
  CHECK(name->text == "team-explore");

  // role.role_arn: an attribute of the role construct.
  int role_index = -1;
  const cdk::Construct* role = Find(app, "NotebookRole", &role_index);
  REQUIRE(role);
  CHECK(role->module == "iam");
  CHECK(role->cls == "Role");
  const cfn::Node* arn = nb->props.Get("role_arn");
  REQUIRE(arn);
  CHECK(arn->tag == cdk::kAttributeTag);
  REQUIRE(arn->Get("construct"));
  CHECK(arn->Get("construct")->text == std::to_string(role_index));
  CHECK(arn->Get("attribute")->text == "role_arn");
  // The managed policy: the value the shared part gives the CDK call.
  const cfn::Node* managed = role->props.Get("managed_policies");
  REQUIRE(managed);
  REQUIRE(managed->is_seq());
  REQUIRE(managed->items.size() == 1);
  CHECK(Mentions(managed->items[0], "AmazonSageMakerFullAccess"));
  CHECK(managed->items[0].text != aws::kUnknownMarker);
}

TEST_CASE("Python CDK: an IAM statement is a record add_to_policy names by index", "[cdk][python]") {
  TempDir dir;
  WriteApp(dir);
  Run run;
  Evaluate(&run, dir.path(), R"({"prefix": "team"})");
  const cdk::App& app = run.app;
  int role_index = -1;
  REQUIRE(Find(app, "NotebookRole", &role_index));
  int statement = -1;
  for (size_t i = 0; i < app.constructs.size(); ++i) {
    if (app.constructs[i].cls == "PolicyStatement") statement = static_cast<int>(i);
  }
  REQUIRE(statement >= 0);
  const cdk::Construct& s = app.constructs[statement];
  CHECK(s.id.empty());
  CHECK(s.module == "iam");
  REQUIRE(s.props.Get("actions"));
  REQUIRE(s.props.Get("actions")->items.size() == 1);
  CHECK(s.props.Get("actions")->items[0].text == "sagemaker:*");
  bool found = false;
  for (const cdk::MethodCall& m : app.methods) {
    if (m.method != "add_to_policy") continue;
    found = true;
    CHECK(m.construct == role_index);
    REQUIRE(m.args.size() == 1);
    CHECK(m.args[0].tag == cdk::kConstructTag);
    CHECK(m.args[0].text == std::to_string(statement));
    CHECK(m.call.begin.line == 28);
  }
  CHECK(found);
}

TEST_CASE("Python CDK: struct props, dataclass defaults and references between L1 constructs", "[cdk][python]") {
  TempDir dir;
  WriteApp(dir);
  Run run;
  Evaluate(&run, dir.path(), R"({"prefix": "team"})");
  const cdk::App& app = run.app;
  int model_index = -1, config_index = -1, endpoint_index = -1;
  REQUIRE(Find(app, "Model", &model_index));
  const cdk::Construct* config = Find(app, "Config", &config_index);
  REQUIRE(config);
  const cfn::Node* variants = config->props.Get("production_variants");
  REQUIRE(variants);
  REQUIRE(variants->is_seq());
  REQUIRE(variants->items.size() == 1);
  const cfn::Node& v = variants->items[0];
  REQUIRE(v.is_map());
  REQUIRE(v.Get("instance_type"));
  CHECK(v.Get("instance_type")->text == "ml.m5.large");  // the dataclass default
  CHECK(v.Get("initial_instance_count")->text == "1");
  const cfn::Node* model_name = v.Get("model_name");
  REQUIRE(model_name);
  CHECK(model_name->tag == cdk::kAttributeTag);
  CHECK(model_name->Get("construct")->text == std::to_string(model_index));
  CHECK(model_name->Get("attribute")->text == "attr_model_name");
  const cdk::Construct* endpoint = Find(app, "Endpoint", &endpoint_index);
  REQUIRE(endpoint);
  const cfn::Node* ref = endpoint->props.Get("endpoint_config_name");
  REQUIRE(ref);
  CHECK(ref->tag == cdk::kAttributeTag);
  CHECK(ref->Get("construct")->text == std::to_string(config_index));
  CHECK(ref->Get("attribute")->text == "attr_endpoint_config_name");
  bool metadata = false;
  for (const cdk::MethodCall& m : app.methods) {
    if (m.method == "add_metadata" && m.construct == endpoint_index) {
      metadata = true;
      REQUIRE(m.args.size() == 2);
      CHECK(m.args[0].text == "sagelint");
      CHECK(m.args[1].is_map());
    }
  }
  CHECK(metadata);
  for (const cdk::Construct& c : app.constructs) CHECK(c.stack == 0);
}

TEST_CASE("Python CDK: app.node.try_get_context, a stack without a subclass, enum members, ref", "[cdk][python]") {
  TempDir dir;
  dir.Write("app.py", R"(from datetime import datetime

import aws_cdk as cdk
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_sagemaker as sagemaker

app = cdk.App()
stack = cdk.Stack(app, "Plain")
size = app.node.try_get_context("size") or "ml.m5.large"
missing = app.node.try_get_context("nothing")
cfg = sagemaker.CfnEndpointConfig(stack, "Cfg", production_variants=[{"instanceType": size, "variantName": "A"}])
ep = sagemaker.CfnEndpoint(stack, "Ep", endpoint_config_name=cfg.ref, tags=missing)
named = sagemaker.CfnEndpointConfig(stack, "Named", endpoint_config_name="fixed-name", production_variants=[])
stamped = sagemaker.CfnEndpointConfig(stack, "Stamped", endpoint_config_name=f"cfg-{datetime.now()}",
                                      production_variants=[])
sagemaker.CfnEndpoint(stack, "ByName", endpoint_config_name=named.endpoint_config_name)
sagemaker.CfnEndpoint(stack, "ByRuntimeName", endpoint_config_name=stamped.endpoint_config_name)
target = appscaling.ScalableTarget(stack, "Target", service_namespace=appscaling.ServiceNamespace.SAGEMAKER,
                                   resource_id=f"endpoint/{ep.attr_endpoint_name}/variant/A",
                                   scalable_dimension="sagemaker:variant:DesiredInstanceCount",
                                   min_capacity=1, max_capacity=2)
target.scale_to_track_metric("Invocations", target_value=70)
sagemaker.CfnModelPackageGroup(stack, "Account", model_package_group_name="g",
                               resource=f"arn:aws:sagemaker:*:{cdk.Aws.ACCOUNT_ID}:model-package-group/*")
app.synth()
)");
  Run run;
  Evaluate(&run, dir.path(), R"({"size": "ml.g5.xlarge"})");
  const cdk::App& app = run.app;
  REQUIRE(app.stacks.size() == 1);
  CHECK(app.stacks[0].id == "Plain");
  int cfg_index = -1, target_index = -1;
  const cdk::Construct* cfg = Find(app, "Cfg", &cfg_index);
  REQUIRE(cfg);
  CHECK(cfg->stack == 0);
  const cfn::Node* type = cfg->props.Find({"production_variants"});
  REQUIRE(type);
  REQUIRE(type->items.size() == 1);
  CHECK(type->items[0].Get("instanceType")->text == "ml.g5.xlarge");
  const cdk::Construct* ep = Find(app, "Ep");
  REQUIRE(ep);
  const cfn::Node* ref = ep->props.Get("endpoint_config_name");
  REQUIRE(ref);
  CHECK(ref->tag == cdk::kAttributeTag);
  CHECK(ref->Get("attribute")->text == "ref");
  REQUIRE(ep->props.Get("tags"));
  CHECK(ep->props.Get("tags")->is_null());  // a context key that is absent: None
  // A prop read back: the literal when the app wrote one, else the construct's attribute.
  CHECK(Find(app, "ByName")->props.Get("endpoint_config_name")->text == "fixed-name");
  int stamped = -1;
  REQUIRE(Find(app, "Stamped", &stamped));
  const cfn::Node* runtime = Find(app, "ByRuntimeName")->props.Get("endpoint_config_name");
  CHECK(runtime->tag == cdk::kAttributeTag);
  CHECK(runtime->Get("construct")->text == std::to_string(stamped));
  CHECK(runtime->Get("attribute")->text == "endpoint_config_name");
  const cdk::Construct* target = Find(app, "Target", &target_index);
  REQUIRE(target);
  CHECK(target->module == "applicationautoscaling");
  CHECK(target->props.Get("max_capacity")->text == "2");
  // An f-string naming an attribute: the Fn::Join the CDK renders.
  const cfn::Node* resource = target->props.Get("resource_id");
  REQUIRE(resource);
  const cfn::Node* join = resource->Get("Fn::Join");
  REQUIRE(join);
  REQUIRE(join->items.size() == 2);
  const cfn::Node& parts = join->items[1];
  REQUIRE(parts.items.size() == 3);
  CHECK(parts.items[0].text == "endpoint/");
  CHECK(parts.items[1].tag == cdk::kAttributeTag);
  CHECK(parts.items[1].Get("attribute")->text == "attr_endpoint_name");
  CHECK(parts.items[2].text == "/variant/A");
  CHECK(resource->pos.line == 19);
  // A pseudo parameter inside an f-string: the Ref the CDK renders, joined with the text.
  const cdk::Construct* statement = Find(app, "Account");
  REQUIRE(statement);
  const cfn::Node* arn = statement->props.Get("resource");
  REQUIRE(arn);
  REQUIRE(arn->Get("Fn::Join"));
  const cfn::Node& arn_parts = arn->Get("Fn::Join")->items[1];
  REQUIRE(arn_parts.items.size() == 3);
  CHECK(arn_parts.items[0].text == "arn:aws:sagemaker:*:");
  REQUIRE(arn_parts.items[1].Get("Ref"));
  CHECK(arn_parts.items[1].Get("Ref")->text == "AWS::AccountId");
  CHECK(arn_parts.items[2].text == ":model-package-group/*");
  bool scaled = false;
  for (const cdk::MethodCall& m : app.methods) {
    if (m.method == "scale_to_track_metric" && m.construct == target_index) scaled = true;
  }
  CHECK(scaled);
}

TEST_CASE("Python CDK: imports outside the scan root and test files are not read", "[cdk][python]") {
  TempDir dir;
  dir.Write("outside/lib.py",
            "from aws_cdk import aws_sagemaker as sm\n"
            "def make(scope):\n    sm.CfnNotebookInstance(scope, \"Outside\", instance_type=\"ml.p3.2xlarge\")\n");
  dir.Write("app/tests/helpers.py",
            "from aws_cdk import aws_sagemaker as sm\n"
            "def make(scope):\n    sm.CfnNotebookInstance(scope, \"FromTest\", instance_type=\"ml.p3.2xlarge\")\n");
  dir.Write("app/app.py",
            "import aws_cdk as cdk\nfrom lib import make\nfrom tests.helpers import make as make2\n"
            "from aws_cdk import aws_sagemaker as sm\n"
            "app = cdk.App()\nstack = cdk.Stack(app, \"S\")\nmake(stack)\nmake2(stack)\n"
            "sm.CfnNotebookInstance(stack, \"Inside\", instance_type=\"ml.t3.medium\")\n");
  fs::create_symlink(fs::path(dir.path()) / "outside" / "lib.py", fs::path(dir.path()) / "app" / "lib.py");
  Run run;
  Evaluate(&run, dir.path() + "/app", "{}", dir.path() + "/app");
  const cdk::App& app = run.app;
  CHECK(app.files.size() == 1);
  CHECK(Find(app, "Inside"));
  CHECK_FALSE(Find(app, "Outside"));
  CHECK_FALSE(Find(app, "FromTest"));
  // The JSON file a program opens is refused outside the root too.
  dir.Write("secret.json", "{\"t\": \"ml.p3.2xlarge\"}");
  dir.Write("app/app.py",
            "import json\nimport aws_cdk as cdk\nfrom aws_cdk import aws_sagemaker as sm\n"
            "cfg = json.load(open(\"../secret.json\"))\n"
            "app = cdk.App()\nstack = cdk.Stack(app, \"S\")\n"
            "sm.CfnNotebookInstance(stack, \"Nb\", instance_type=cfg[\"t\"])\n");
  Run second;
  Evaluate(&second, dir.path() + "/app", "{}", dir.path() + "/app");
  const cdk::Construct* nb = Find(second.app, "Nb");
  REQUIRE(nb);
  CHECK(nb->props.Get("instance_type")->text == aws::kUnknownMarker);
}

TEST_CASE("Python CDK: import cycles and unbounded recursion stop at a bound, never hang", "[cdk][python]") {
  TempDir dir;
  dir.Write("a.py", "import b\nfrom aws_cdk import aws_sagemaker as sm\nVALUE = 'ml.m5.large'\n");
  dir.Write("b.py", "import a\nfrom a import VALUE\n");
  dir.Write("c.py", "import app\n");
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sm
import a
import c

app = cdk.App()
stack = cdk.Stack(app, "S")
sm.CfnNotebookInstance(stack, "Before", instance_type=a.VALUE)


def grow(n):
    sm.CfnNotebookInstance(stack, "Deep", instance_type="ml.t3.medium")
    return grow(n + 1) + grow(n + 2)


class Node:
    def __init__(self, depth):
        self.child = Node(depth + 1)


grow(0)
Node(0)
sm.CfnNotebookInstance(stack, "After", instance_type="ml.t3.medium")
)");
  Run run;
  Evaluate(&run, dir.path());
  const cdk::App& app = run.app;
  const cdk::Construct* before = Find(app, "Before");
  REQUIRE(before);
  CHECK(before->props.Get("instance_type")->text == "ml.m5.large");
  REQUIRE_FALSE(app.budgets.empty());
  CHECK(app.budgets[0].second.message.find("sagelint stopped evaluating this app here") != std::string::npos);
  CHECK(app.constructs.size() < 100);
  CHECK(app.files.size() == 4);  // app.py, a.py, b.py, c.py: each once (c imports the entry: not run again)
  int runs = 0;
  for (const cdk::Construct& c : app.constructs) runs += c.id == "Before";
  CHECK(runs == 1);
}

TEST_CASE("Python CDK fixtures: each app evaluates with the values its defaults, JSON config and context give",
          "[cdk][python]") {
  struct Expect {
    const char* dir;
    const char* id;
    const char* prop;
    const char* value;
  };
  const Expect expects[] = {
      {"notebook", "ExploreNotebook", "instance_type", "ml.p3.2xlarge"},
      {"notebook", "ExploreNotebook", "volume_size_in_gb", "100"},
      {"notebook", "ExploreLifecycle", "on_start", nullptr},
      {"notebook", "ExploreNotebook", "notebook_instance_name", "research-explore"},
      {"endpoint", "InferenceModel", "primary_container", nullptr},
      {"endpoint", "InferenceEndpointConfig", "production_variants", nullptr},
      {"endpoint", "InferenceTarget", "max_capacity", "4"},
      {"iam", "SageMakerExecutionRole", "managed_policies", nullptr},
  };
  for (const Expect& e : expects) {
    std::string dir = sagelint::testing::SourcePath(std::string("fixtures/cdk/python/") + e.dir);
    std::string context = sagelint::testing::ReadFileOrDie(dir + "/cdk.json");
    cfn::Node cdk_json = Json(context);
    const cfn::Node* ctx = cdk_json.Get("context");
    REQUIRE(ctx);
    Run run;
    run.opts.root = dir;
    cdk::AppInput in;
    in.entry.path = "app.py";
    in.entry.abs_path = dir + "/app.py";
    in.entry.text = sagelint::testing::ReadFileOrDie(in.entry.abs_path);
    in.context = *ctx;
    in.opts = &run.opts;
    run.app = cdk::EvaluatePythonApp(in);
    INFO(e.dir << " " << e.id << " " << e.prop);
    CHECK(run.app.errors.empty());
    CHECK(run.app.budgets.empty());
    const cdk::Construct* c = Find(run.app, e.id);
    REQUIRE(c);
    const cfn::Node* p = c->props.Get(e.prop);
    REQUIRE(p);
    if (e.value) CHECK(p->text == e.value);
    CHECK_FALSE(Mentions(*p, std::string(aws::kUnknownMarker)));
  }
}

TEST_CASE("Python CDK fixtures synthesize to the workloads they define, at the construct call", "[cdk][python]") {
  auto evaluate = [](const std::string& name, Run* run) {
    std::string dir = sagelint::testing::SourcePath("fixtures/cdk/python/" + name);
    cfn::Node cdk_json = Json(sagelint::testing::ReadFileOrDie(dir + "/cdk.json"));
    run->opts.root = dir;
    cdk::AppInput in;
    in.entry.path = "app.py";
    in.entry.abs_path = dir + "/app.py";
    in.entry.text = sagelint::testing::ReadFileOrDie(in.entry.abs_path);
    in.context = *cdk_json.Get("context");
    in.opts = &run->opts;
    run->app = cdk::EvaluatePythonApp(in);
    return cdk::Synthesize(run->app, run->opts);
  };
  auto find = [](const std::vector<FileResult>& results, std::string_view label) -> const Workload* {
    for (const FileResult& r : results) {
      for (const Workload& w : r.workloads) {
        if (w.label == label) return &w;
      }
    }
    return nullptr;
  };
  Run notebook;
  std::vector<FileResult> results = evaluate("notebook", &notebook);
  const Workload* nb = find(results, "notebook instance 'ExploreNotebook'");
  REQUIRE(nb);
  CHECK(nb->path == "stacks/notebook_stack.py");
  CHECK(nb->format == Format::kCdk);
  CHECK(nb->range.begin.line == 31);
  CHECK(nb->instance_type.text == "ml.p3.2xlarge");
  CHECK(nb->volume_gb.text == "100");

  Run endpoint;
  results = evaluate("endpoint", &endpoint);
  const Workload* v = find(results, "endpoint variant 'InferenceEndpointConfig/AllTraffic'");
  REQUIRE(v);
  CHECK(v->path == "stacks/endpoint_stack.py");
  CHECK(v->instance_type.text == "ml.g5.2xlarge");
  CHECK(v->instance_count.text == "1");
}

TEST_CASE("Python CDK: a loop over known items creates one construct per item", "[cdk][python]") {
  TempDir dir;
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sm

app = cdk.App()
stack = cdk.Stack(app, "S")
for i in range(3):
    sm.CfnNotebookInstance(stack, "User" + str(i), instance_type="ml.t3.medium")
for team in app.node.try_get_context("teams"):
    sm.CfnNotebookInstance(stack, f"Team-{team['name']}", instance_type=team["type"])
    if team["name"] == "b":
        break
for i in range(100000):
    sm.CfnNotebookInstance(stack, "Many", instance_type="ml.t3.medium")
)");
  Run run;
  Evaluate(&run, dir.path(), R"({"teams": [{"name": "a", "type": "ml.p3.2xlarge"},
                                           {"name": "b", "type": "ml.g5.xlarge"},
                                           {"name": "c", "type": "ml.m5.large"}]})");
  const cdk::App& app = run.app;
  CHECK(Find(app, "User0"));
  CHECK(Find(app, "User1"));
  CHECK(Find(app, "User2"));
  CHECK_FALSE(Find(app, "User3"));
  const cdk::Construct* a = Find(app, "Team-a");
  REQUIRE(a);
  CHECK(a->props.Get("instance_type")->text == "ml.p3.2xlarge");
  REQUIRE(Find(app, "Team-b"));
  CHECK(Find(app, "Team-b")->props.Get("instance_type")->text == "ml.g5.xlarge");
  CHECK_FALSE(Find(app, "Team-c"));  // the loop broke at b
  // Too many iterations to run one by one: the body is read once, as for any Python file.
  int many = 0;
  for (const cdk::Construct& c : app.constructs) many += c.id == "Many";
  CHECK(many == 1);
}

TEST_CASE("Python CDK: submodules imported from a package, `import a.b as c`, module attributes", "[cdk][python]") {
  TempDir dir;
  dir.Write("infra/__init__.py", "REGION = 'us-east-1'\n");
  dir.Write("infra/sizes.py", "NOTEBOOK = 'ml.t3.large'\n");
  dir.Write("infra/names.py", "PREFIX = 'ds'\n");
  dir.Write("infra/deep/__init__.py", "");
  dir.Write("infra/deep/more.py", "VOLUME = 30\n");
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sm
from infra import sizes, names, REGION
import infra.deep.more as more
import infra

app = cdk.App()
stack = cdk.Stack(app, "S")
sm.CfnNotebookInstance(stack, "Nb", instance_type=sizes.NOTEBOOK, notebook_instance_name=names.PREFIX + "-" + REGION,
                       volume_size_in_gb=more.VOLUME, kms_key_id=infra.sizes.NOTEBOOK)
)");
  Run run;
  Evaluate(&run, dir.path());
  const cdk::Construct* nb = Find(run.app, "Nb");
  REQUIRE(nb);
  CHECK(nb->props.Get("instance_type")->text == "ml.t3.large");
  CHECK(nb->props.Get("notebook_instance_name")->text == "ds-us-east-1");
  CHECK(nb->props.Get("volume_size_in_gb")->text == "30");
  CHECK(nb->props.Get("kms_key_id")->text == "ml.t3.large");
  CHECK(run.app.files.size() == 5);  // each module read once (a package is read when a name is taken from it)
}

TEST_CASE("Python CDK: the alpha module, its autoscaling chain and a Step Functions SageMaker task", "[cdk][python]") {
  TempDir dir;
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import Size, Duration, aws_ec2 as ec2, aws_stepfunctions as sfn, aws_stepfunctions_tasks as tasks
import aws_cdk.aws_sagemaker_alpha as sagemaker


class AlphaStack(cdk.Stack):
    def __init__(self, scope, construct_id, **kwargs):
        super().__init__(scope, construct_id, **kwargs)
        model = sagemaker.Model(self, "Model", containers=[sagemaker.ContainerDefinition(
            image=sagemaker.ContainerImage.from_registry("123.dkr.ecr.us-east-1.amazonaws.com/x:1"))])
        config = sagemaker.EndpointConfig(self, "Config", instance_production_variants=[
            sagemaker.InstanceProductionVariantProps(model=model, variant_name="AllTraffic",
                                                     instance_type=sagemaker.InstanceType.G5_XLARGE)])
        endpoint = sagemaker.Endpoint(self, "Endpoint", endpoint_config=config)
        variant = endpoint.find_instance_production_variant("AllTraffic")
        scaling = variant.auto_scale_instance_count(max_capacity=3)
        scaling.scale_on_invocations("Invocations", max_requests_per_second=30)
        train = tasks.SageMakerCreateTrainingJob(self, "Train",
            training_job_name=sfn.JsonPath.string_at("$.name"),
            algorithm_specification=tasks.AlgorithmSpecification(algorithm_name="xgboost"),
            input_data_config=[],
            output_data_config=tasks.OutputDataConfig(s3_output_location=tasks.S3Location.from_json_expression("$.out")),
            resource_config=tasks.ResourceConfig(instance_count=2,
                instance_type=ec2.InstanceType.of(ec2.InstanceClass.P3, ec2.InstanceSize.XLARGE2),
                volume_size=Size.gibibytes(50)),
            stopping_condition=tasks.StoppingCondition(max_runtime=Duration.hours(2)))
        sfn.StateMachine(self, "Machine", definition_body=sfn.DefinitionBody.from_chainable(train))


app = cdk.App()
AlphaStack(app, "Alpha")
app.synth())");
  Run run;
  Evaluate(&run, dir.path());
  const cdk::App& app = run.app;
  int endpoint = -1;
  REQUIRE(Find(app, "Endpoint", &endpoint));
  const cdk::Construct* config = Find(app, "Config");
  REQUIRE(config);
  CHECK(config->module == "sagemaker-alpha");
  const cfn::Node* variants = config->props.Get("instance_production_variants");
  REQUIRE(variants);
  REQUIRE(variants->items.size() == 1);
  CHECK(variants->items[0].Get("instance_type")->text == "ml.g5.xlarge");  // InstanceType.G5_XLARGE
  CHECK(variants->items[0].Get("model")->tag == cdk::kConstructTag);
  // find_instance_production_variant(...).auto_scale_instance_count(...).scale_on_invocations(...): on the endpoint.
  std::vector<std::string> chain;
  for (const cdk::MethodCall& m : app.methods) {
    if (m.construct == endpoint) chain.push_back(m.method);
  }
  CHECK(chain == std::vector<std::string>{"find_instance_production_variant", "auto_scale_instance_count",
                                          "scale_on_invocations"});
  const cdk::Construct* train = Find(app, "Train");
  REQUIRE(train);
  CHECK(train->module == "stepfunctions-tasks");
  const cfn::Node* resources = train->props.Get("resource_config");
  REQUIRE(resources);
  CHECK(resources->Get("instance_type")->text == "p3.2xlarge");  // InstanceType.of(InstanceClass.P3, XLARGE2)
  CHECK(resources->Get("instance_count")->text == "2");
  CHECK(resources->Get("volume_size")->text == "50");  // Size.gibibytes(50)
  std::vector<FileResult> results = cdk::Synthesize(app, run.opts);
  int training = 0;
  for (const FileResult& r : results) {
    for (const Workload& w : r.workloads) {
      if (w.kind == WorkloadKind::kTrainingJob && w.instance_type.text == "ml.p3.2xlarge") ++training;
    }
  }
  CHECK(training == 1);
}

TEST_CASE("Python CDK: a syntax error in an imported module is that file's error, and the rest still reads",
          "[cdk][python]") {
  TempDir dir;
  dir.Write("broken.py", "SIZE = 'ml.m5.large'\ndef oops(:\n    pass\n");
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sm
from broken import SIZE

app = cdk.App()
stack = cdk.Stack(app, "S")
sm.CfnNotebookInstance(stack, "Nb", instance_type=SIZE)
)");
  Run run;
  Evaluate(&run, dir.path());
  REQUIRE(run.app.errors.size() == 1);
  CHECK(run.app.errors[0].first == FileIndex(run.app, "broken.py"));
  CHECK(run.app.errors[0].second.pos.line == 2);
  const cdk::Construct* nb = Find(run.app, "Nb");
  REQUIRE(nb);
  CHECK(nb->props.Get("instance_type")->text == "ml.m5.large");
}

TEST_CASE("Python CDK: values shared many times and loops of loops stay bounded", "[cdk][python]") {
  TempDir dir;
  dir.Write("app.py", R"(import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sm

app = cdk.App()
stack = cdk.Stack(app, "S")
sm.CfnNotebookInstance(stack, "First", instance_type="ml.t3.medium")
d = {}
for i in range(64):
    d = {"a": d, "b": d}
sm.CfnNotebookInstance(stack, "Deep", instance_type="ml.t3.medium", tags=[d])
for a in range(64):
    for b in range(64):
        for c in range(64):
            sm.CfnNotebookInstance(stack, "N" + str(a) + "-" + str(b) + "-" + str(c), instance_type="ml.t3.medium")
)");
  Run run;
  Evaluate(&run, dir.path());
  const cdk::App& app = run.app;
  CHECK(Find(app, "First"));
  REQUIRE(app.budgets.size() == 1);
  CHECK(app.budgets[0].second.message.find("sagelint stopped evaluating this app here") != std::string::npos);
  CHECK(app.constructs.size() <= 10000);
}

TEST_CASE("Python CDK: a method of a base class from outside the program leaves the instance's attributes unknown",
          "[cdk][python]") {
  TempDir dir;
  dir.Write("app.py", R"(from dataclasses import dataclass

import aws_cdk as cdk
from aws_cdk import aws_sagemaker as sagemaker
from yamldataclassconfig.config import YamlDataClassConfig


@dataclass
class Variant(YamlDataClassConfig):
    instance_type: str = "ml.m5.2xlarge"


@dataclass
class Plain:
    instance_type: str = "ml.g5.xlarge"


app = cdk.App()
stack = cdk.Stack(app, "S")
loaded = Variant()
loaded.load_for_stack(stack)  # reads a YAML file: any field may change
plain = Plain()
sagemaker.CfnEndpointConfig(stack, "Loaded", production_variants=[{"instanceType": loaded.instance_type}])
sagemaker.CfnEndpointConfig(stack, "Plain", production_variants=[{"instanceType": plain.instance_type}])
)");
  Run run;
  Evaluate(&run, dir.path(), "{}");
  const cdk::Construct* loaded = Find(run.app, "Loaded");
  const cdk::Construct* plain = Find(run.app, "Plain");
  REQUIRE(loaded);
  REQUIRE(plain);
  CHECK(loaded->props.Find({"production_variants"})->items[0].Get("instanceType")->text == aws::kUnknownMarker);
  CHECK(plain->props.Find({"production_variants"})->items[0].Get("instanceType")->text == "ml.g5.xlarge");
}

TEST_CASE("Python CDK: attributes set in both branches of an unknown condition are alternatives, not the last branch",
          "[cdk][python]") {
  // The last branch's `autoscale = False` would drop the scalable target and report a
  // variant that may well be scaled (a false SM211).
  TempDir dir;
  dir.Write("app.py", R"(import os

import aws_cdk as cdk
from aws_cdk import aws_applicationautoscaling as appscaling
from aws_cdk import aws_sagemaker as sagemaker


class Settings:
    def __init__(self, raw):
        self.family = "ml.m5"
        if type(raw) is dict:
            self.autoscale = raw.get("autoscale", True)
            self.size = "2xlarge"
            self.count = 2
        else:
            self.autoscale = False
            self.size = "xlarge"
            self.count = 2
            self.only_else = 1


app = cdk.App()
stack = cdk.Stack(app, "S")
s = Settings(os.environ.get("SETTINGS"))
sagemaker.CfnEndpointConfig(stack, "Cfg", production_variants=[{"instanceType": s.size, "count": s.count,
                                                                 "family": s.family, "once": s.only_else}])
if s.autoscale:
    appscaling.CfnScalableTarget(stack, "T", max_capacity=4, min_capacity=1, resource_id="endpoint/e/variant/A",
                                 scalable_dimension="sagemaker:variant:DesiredInstanceCount",
                                 service_namespace="sagemaker")
    if os.environ.get("TWO"):
        appscaling.CfnScalableTarget(stack, "T2", resource_id="endpoint/e/variant/B")
)");
  Run run;
  Evaluate(&run, dir.path());
  REQUIRE(run.app.constructs.size() == 3);
  const cdk::Construct* cfg = Find(run.app, "Cfg");
  REQUIRE(cfg);
  CHECK(cfg->conditions.empty());
  const cfn::Node& variant = cfg->props.Find({"production_variants"})->items[0];
  // Known in both branches and different: Fn::If on the code's condition.
  const cfn::Node* alternatives = variant.Find({"instanceType", "Fn::If"});
  REQUIRE(alternatives);
  REQUIRE(alternatives->items.size() == 3);
  CHECK(alternatives->items[0].text == "`type(raw) is dict`");
  CHECK(alternatives->items[1].text == "2xlarge");
  CHECK(alternatives->items[2].text == "xlarge");
  CHECK(variant.Get("count")->text == "2");       // the same on both paths
  CHECK(variant.Get("family")->text == "ml.m5");  // set before the if
  CHECK(variant.Get("once")->text == "1");        // set on one path only: the other path leaves it unset
  const cdk::Construct* target = Find(run.app, "T");
  REQUIRE(target);
  CHECK(target->conditions == std::vector<std::string>{"`s.autoscale` is true"});
  const cdk::Construct* inner = Find(run.app, "T2");
  REQUIRE(inner);
  CHECK(inner->conditions == std::vector<std::string>{"`s.autoscale` is true", "`os.environ.get(\"TWO\")` is true"});
  // Synthesized, the target's workload is conditional as a resource with a Condition.
  bool conditional = false;
  for (const FileResult& r : cdk::Synthesize(run.app, run.opts)) {
    for (const Workload& w : r.workloads) {
      if (w.name == "T") conditional = w.condition == "condition `s.autoscale` is true";
    }
  }
  CHECK(conditional);
}
