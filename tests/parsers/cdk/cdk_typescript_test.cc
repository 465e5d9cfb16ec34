// The TypeScript/JavaScript evaluator of CDK apps: what it records of small
// apps written in a scratch directory (bin/app.ts, lib/*.ts, JSON
// configuration, cdk.json context).
#include <algorithm>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "linter/report/model_dump.h"
#include "parsers/aws/request.h"
#include "parsers/cdk/app.h"
#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;
using sagelint::testing::TempDir;

namespace {

std::string Show(const cfn::Node& n) {
  switch (n.kind) {
    case cfn::Node::Kind::kNull:
      return "null";
    case cfn::Node::Kind::kScalar: {
      std::string t = n.text == aws::kUnknownMarker ? "?" : n.text;
      if (n.tag == cdk::kConstructTag) return "#" + t;
      return n.quoted ? "'" + t + "'" : t;
    }
    case cfn::Node::Kind::kMap: {
      if (n.tag == cdk::kAttributeTag) return "#" + n.Get("construct")->text + "." + n.Get("attribute")->text;
      std::string s = "{";
      for (size_t i = 0; i < n.entries.size(); ++i)
        s += (i ? ", " : "") + n.entries[i].first + ": " + Show(n.entries[i].second);
      return s + "}";
    }
    case cfn::Node::Kind::kSeq: {
      std::string s = "[";
      for (size_t i = 0; i < n.items.size(); ++i) s += (i ? ", " : "") + Show(n.items[i]);
      return s + "]";
    }
  }
  return "";
}

// Evaluates `dir`'s bin/app.ts with `context` (JSON text of cdk.json's context).
cdk::App Evaluate(const TempDir& dir, const std::string& context = "{}", const std::string& entry = "bin/app.ts",
                  const std::string& root = "") {
  static ResolveOptions opts;
  opts.root = root.empty() ? dir.path() : root;
  cdk::AppInput in;
  in.entry.abs_path = dir.path() + "/" + entry;
  in.entry.path = entry;
  in.entry.root_path = entry;
  in.entry.text = sagelint::testing::ReadFileOrDie(in.entry.abs_path);
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(context, 0, cfn::LoadLimits{}, &in.context, &errors));
  in.opts = &opts;
  return cdk::EvaluateTypeScriptApp(in);
}

const cdk::Construct* Find(const cdk::App& app, const std::string& cls, const std::string& id = "") {
  for (const auto& c : app.constructs)
    if (c.cls == cls && (id.empty() || c.id == id)) return &c;
  return nullptr;
}

const char* kNotebookStack = R"(import * as cdk from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as config from '../config.json';

export interface NotebookStackProps extends cdk.StackProps {
  readonly instanceType?: string;
  readonly volumeSize?: number;
}

const PREFIX = 'research';

export class NotebookStack extends cdk.Stack {
  constructor(scope: Construct, id: string, props: NotebookStackProps = {}) {
    super(scope, id, props);
    const { volumeSize = 20 } = props;
    const instanceType = props.instanceType ?? 'ml.t3.medium';
    const owner = this.node.tryGetContext('owner') as string;
    const lifecycle = new sagemaker.CfnNotebookInstanceLifecycleConfig(this, 'Lifecycle', {
      onStart: [{ content: 'echo hi' }],
    });
    new sagemaker.CfnNotebookInstance(this, 'ExploreNotebook', {
      notebookInstanceName: `${PREFIX}-${owner}`,
      instanceType,
      volumeSizeInGb: volumeSize,
      roleArn: config.roleArn,
      lifecycleConfigName: lifecycle.attrNotebookInstanceLifecycleConfigName,
      directInternetAccess: config.internet ? 'Enabled' : 'Disabled',
    });
  }
}
)";

}  // namespace

TEST_CASE("cdk ts: a stack's constructor defaults, JSON config and context give the props", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("cdk.json", R"({"app": "npx ts-node --prefer-ts-exts bin/app.ts", "context": {"owner": "ana"}})");
  dir.Write("config.json", R"({"roleArn": "arn:aws:iam::123456789012:role/Nb", "internet": false})");
  dir.Write("bin/app.ts", R"(#!/usr/bin/env node
import 'source-map-support/register';
import * as cdk from 'aws-cdk-lib';
import { NotebookStack } from '../lib/notebook-stack';

const app = new cdk.App();
new NotebookStack(app, 'NotebookStack', { volumeSize: 50 });
)");
  dir.Write("lib/notebook-stack.ts", kNotebookStack);
  cdk::App app = Evaluate(dir, R"({"owner": "ana"})");
  INFO(app.errors.size());
  REQUIRE(app.errors.empty());
  REQUIRE(app.files.size() == 2);
  CHECK(app.files[1].root_path == "lib/notebook-stack.ts");
  REQUIRE(app.stacks.size() == 1);
  CHECK(app.stacks[0].id == "NotebookStack");
  CHECK(app.stacks[0].file == 0);
  CHECK(app.stacks[0].call.begin.line == 7);
  const cdk::Construct* nb = Find(app, "CfnNotebookInstance");
  REQUIRE(nb);
  CHECK(nb->module == "sagemaker");
  CHECK(nb->id == "ExploreNotebook");
  CHECK(nb->stack == 0);
  CHECK(nb->file == 1);
  CHECK(nb->call.begin.line == 22);
  CHECK(nb->call.begin.column == 5);
  CHECK(
      Show(nb->props) ==
      "{notebookInstanceName: 'research-ana', instanceType: 'ml.t3.medium', volumeSizeInGb: 50, "
      "roleArn: 'arn:aws:iam::123456789012:role/Nb', lifecycleConfigName: #0.attrNotebookInstanceLifecycleConfigName, "
      "directInternetAccess: 'Disabled'}");
  // Each prop where it is written: the default in the stack's file; a value
  // from another file (the caller, config.json) where the stack uses it.
  CHECK(nb->props.Get("instanceType")->pos.line == 17);
  CHECK(nb->props.Get("volumeSizeInGb")->pos.line == 25);
  CHECK(nb->props.Get("roleArn")->pos.line == 26);
  CHECK(nb->props.KeyPos("roleArn").line == 26);
  const cdk::Construct* lc = Find(app, "CfnNotebookInstanceLifecycleConfig");
  REQUIRE(lc);
  CHECK(lc->id == "Lifecycle");
  CHECK(Show(lc->props) == "{onStart: [{content: 'echo hi'}]}");
}

TEST_CASE("cdk ts: defaults apply only where the caller leaves a prop out", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(const cdk = require('aws-cdk-lib');
const { NotebookStack } = require('../lib/notebook-stack');
const app = new cdk.App();
const size = app.node.tryGetContext('size');
new NotebookStack(app, 'A', { instanceType: 'ml.p3.2xlarge', volumeSize: size });
new NotebookStack(app, 'B', { ...{ instanceType: process.env.TYPE } });
)");
  dir.Write("config.json", R"({"roleArn": "r", "internet": true})");
  dir.Write("lib/notebook-stack.ts", kNotebookStack);
  cdk::App app = Evaluate(dir, R"({"size": 100})");
  REQUIRE(app.stacks.size() == 2);
  std::vector<std::string> types, sizes;
  for (const auto& c : app.constructs) {
    if (c.cls != "CfnNotebookInstance") continue;
    types.push_back(Show(*c.props.Get("instanceType")));
    sizes.push_back(Show(*c.props.Get("volumeSizeInGb")));
    CHECK(Show(*c.props.Get("directInternetAccess")) == "'Enabled'");
    // No owner in the context: the name is unknown, its known text kept.
    CHECK(Show(*c.props.Get("notebookInstanceName")) == "{Fn::Join: ['', ['research-', ?]]}");
  }
  CHECK(types == std::vector<std::string>{"'ml.p3.2xlarge'", "?"});
  CHECK(sizes == std::vector<std::string>{"100", "20"});
  CHECK(app.constructs[1].stack == 0);
  CHECK(app.constructs[3].stack == 1);
}

TEST_CASE("cdk ts: endpoint references, template literals and scaling", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import { App, Stack, StackProps } from 'aws-cdk-lib';
import { aws_sagemaker as sagemaker, aws_applicationautoscaling as appscaling } from 'aws-cdk-lib';
import { Construct } from 'constructs';
import * as fs from 'fs';
import * as path from 'path';

const settings = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'settings.json'), 'utf8'));

class Serving extends Construct {
  public readonly endpoint: sagemaker.CfnEndpoint;
  constructor(scope: Construct, id: string, private readonly variant = 'AllTraffic') {
    super(scope, id);
    const model = new sagemaker.CfnModel(this, 'Model', { executionRoleArn: settings.role });
    const cfg = new sagemaker.CfnEndpointConfig(this, 'Config', {
      productionVariants: [{
        variantName: this.variant,
        modelName: model.attrModelName,
        instanceType: settings.instances?.serving ?? 'ml.m5.large',
        initialInstanceCount: settings.count || 1,
      }],
    });
    this.endpoint = new sagemaker.CfnEndpoint(this, 'Endpoint', {
      endpointConfigName: cfg.attrEndpointConfigName,
    });
  }
}

class ServingStack extends Stack {
  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    const s = new Serving(this, 'Serving');
    const target = new appscaling.CfnScalableTarget(this, 'Target', {
      resourceId: `endpoint/${s.endpoint.attrEndpointName}/variant/AllTraffic`,
      scalableDimension: 'sagemaker:variant:DesiredInstanceCount',
      minCapacity: 1, maxCapacity: 4,
      serviceNamespace: 'sagemaker',
    });
    target.node.addDependency(s.endpoint);
  }
}

const app = new App();
new ServingStack(app, 'Serving', { env: { region: 'us-east-1' } });
app.synth();
)");
  dir.Write("settings.json", R"({"role": "arn:role", "instances": {"serving": "ml.g5.xlarge"}, "count": 0})");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.errors.empty());
  REQUIRE(app.constructs.size() == 4);
  CHECK(Show(app.constructs[0].props) == "{executionRoleArn: 'arn:role'}");
  CHECK(Show(app.constructs[1].props) ==
        "{productionVariants: [{variantName: 'AllTraffic', modelName: #0.attrModelName, instanceType: 'ml.g5.xlarge', "
        "initialInstanceCount: 1}]}");
  CHECK(Show(app.constructs[2].props) == "{endpointConfigName: #1.attrEndpointConfigName}");
  CHECK(Show(*app.constructs[3].props.Get("resourceId")) ==
        "{Fn::Join: ['', ['endpoint/', #2.attrEndpointName, '/variant/AllTraffic']]}");
  for (const auto& c : app.constructs) CHECK(c.stack == 0);
  CHECK(app.methods.empty());  // addDependency is not one the synthesis reads
}

TEST_CASE("cdk ts: IAM statements, managed policies and method calls", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.js", R"(const cdk = require('aws-cdk-lib');
const iam = require('aws-cdk-lib/aws-iam');

class Access extends cdk.Stack {
  constructor(scope, id, props) {
    super(scope, id, props);
    const role = new iam.Role(this, 'Role', {
      assumedBy: new iam.ServicePrincipal('sagemaker.amazonaws.com'),
      managedPolicies: [iam.ManagedPolicy.fromAwsManagedPolicyName('AmazonSageMakerFullAccess')],
    });
    const stmt = new iam.PolicyStatement({ actions: ['sagemaker:*'], resources: ['*'] });
    role.addToPolicy(stmt);
    role.addManagedPolicy(iam.ManagedPolicy.fromAwsManagedPolicyName('AmazonS3FullAccess'));
    role.node.addMetadata('sagelint', { ignore: ['SM501'] });
  }
}
const app = new cdk.App();
new Access(app, 'Access');
)");
  cdk::App app = Evaluate(dir, "{}", "bin/app.js");
  REQUIRE(app.errors.empty());
  REQUIRE(app.constructs.size() == 2);
  CHECK(app.constructs[0].cls == "Role");
  CHECK(app.constructs[0].module == "iam");
  auto managed = [](const std::string& name) {
    cfn::Node arg;
    arg.kind = cfn::Node::Kind::kScalar;
    arg.text = name;
    arg.quoted = true;
    auto v = cdk::CallValue("iam", "ManagedPolicy", "fromAwsManagedPolicyName", std::span(&arg, 1), {1, 1});
    return v ? Show(*v) : std::string("?");
  };
  REQUIRE(app.constructs[0].props.Get("managedPolicies"));
  CHECK(Show(*app.constructs[0].props.Get("managedPolicies")) == "[" + managed("AmazonSageMakerFullAccess") + "]");
  CHECK(app.constructs[1].cls == "PolicyStatement");
  CHECK(app.constructs[1].id.empty());
  CHECK(Show(app.constructs[1].props) == "{actions: ['sagemaker:*'], resources: ['*']}");
  REQUIRE(app.methods.size() == 3);
  CHECK(app.methods[0].construct == 0);
  CHECK(app.methods[0].method == "addToPolicy");
  CHECK(Show(app.methods[0].args[0]) == "#1");
  CHECK(app.methods[0].call.begin.line == 12);
  CHECK(app.methods[1].method == "addManagedPolicy");
  CHECK(Show(app.methods[1].args[0]) == managed("AmazonS3FullAccess"));
  CHECK(app.methods[2].method == "addMetadata");
  CHECK(Show(app.methods[2].args[1]) == "{ignore: ['SM501']}");
}

TEST_CASE("cdk ts: CDK value calls and enum members", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import * as sagemaker from '@aws-cdk/aws-sagemaker-alpha';
const app = new cdk.App();
const stack = new cdk.Stack(app, 'Models');
const a = new ec2.InstanceType('p3.2xlarge');
const b = ec2.InstanceType.of(ec2.InstanceClass.P3, ec2.InstanceSize.XLARGE2);
const endpointConfig = new sagemaker.EndpointConfig(stack, 'Config', {
  instanceProductionVariants: [{ variantName: 'v', instanceType: sagemaker.InstanceType.M5_LARGE, a, b }],
});
const endpoint = new sagemaker.Endpoint(stack, 'Endpoint', { endpointConfig });
endpoint.findInstanceProductionVariant('v').autoScaleInstanceCount({ maxCapacity: 3 });
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.errors.empty());
  REQUIRE(app.stacks.size() == 1);
  CHECK(app.stacks[0].id == "Models");
  REQUIRE(app.constructs.size() == 2);
  CHECK(app.constructs[0].module == "sagemaker-alpha");
  // The values the shared part gives for the CDK's own calls and enum members.
  auto str = [](const std::string& t) {
    cfn::Node n;
    n.kind = cfn::Node::Kind::kScalar;
    n.text = t;
    n.quoted = true;
    return n;
  };
  auto show = [](const std::optional<cfn::Node>& n) { return n ? Show(*n) : std::string("?"); };
  cfn::Node p3 = str("p3.2xlarge");
  std::string a = show(cdk::CallValue("ec2", "InstanceType", "", std::span(&p3, 1), {1, 1}));
  auto cls = cdk::MemberValue("ec2", "InstanceClass", "P3", {1, 1});
  auto size = cdk::MemberValue("ec2", "InstanceSize", "XLARGE2", {1, 1});
  std::string b = "?";
  if (cls && size) {
    std::vector<cfn::Node> of = {*cls, *size};
    b = show(cdk::CallValue("ec2", "InstanceType", "of", of, {1, 1}));
  }
  std::string m5 = show(cdk::MemberValue("sagemaker-alpha", "InstanceType", "M5_LARGE", {1, 1}));
  CHECK(Show(app.constructs[0].props) ==
        "{instanceProductionVariants: [{variantName: 'v', instanceType: " + m5 + ", a: " + a + ", b: " + b + "}]}");
  CHECK(Show(app.constructs[1].props) == "{endpointConfig: #0}");
  REQUIRE(app.methods.size() == 2);
  CHECK(app.methods[0].method == "findInstanceProductionVariant");
  CHECK(app.methods[1].method == "autoScaleInstanceCount");
  CHECK(app.methods[1].construct == 1);
  CHECK(Show(app.methods[1].args[0]) == "{maxCapacity: 3}");
}

TEST_CASE("cdk ts: imports outside the scan root and test files are not read", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("shared/secret.ts", "export const TYPE = 'ml.p4d.24xlarge';\n");
  dir.Write("app/bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import { TYPE } from '../../shared/secret';
import { helper } from '../test/helper';
const app = new cdk.App();
const s = new cdk.Stack(app, 'S');
new sagemaker.CfnNotebookInstance(s, 'Nb', { instanceType: TYPE, roleArn: helper });
)");
  dir.Write("app/test/helper.ts", "export const helper = 'x';\n");
  cdk::App app = Evaluate(dir, "{}", "app/bin/app.ts", dir.path() + "/app");
  REQUIRE(app.files.size() == 1);
  REQUIRE(app.constructs.size() == 1);
  CHECK(Show(app.constructs[0].props) == "{instanceType: ?, roleArn: ?}");
  REQUIRE(app.notes.size() == 1);
  CHECK(app.notes[0].second.message.find("outside the scan root") != std::string::npos);
  CHECK(app.notes[0].second.pos.line == 3);
}

TEST_CASE("cdk ts: a broken file gives an error with its position and the rest is still read", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import { Broken } from '../lib/broken';
const app = new cdk.App();
new Broken(app, 'B');
)");
  dir.Write("lib/broken.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
export class Broken extends cdk.Stack {
  constructor(scope: any, id: string) {
    super(scope, id);
    new sagemaker.CfnNotebookInstance(this, 'Nb', { instanceType: 'ml.t3.medium' });
    const x = ((;
  }
}
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.errors.size() == 1);
  CHECK(app.errors[0].first == 1);
  CHECK(app.errors[0].second.pos.line == 7);
  CHECK_FALSE(app.errors[0].second.message.empty());
  REQUIRE(app.constructs.size() == 1);
  CHECK(Show(app.constructs[0].props) == "{instanceType: 'ml.t3.medium'}");
}

TEST_CASE("cdk ts: hostile apps are bounded", "[cdk][typescript]") {
  SECTION("an import cycle reads each file once") {
    TempDir dir;
    dir.Write("bin/app.ts", "import { b } from '../lib/a';\nexport const a = 1;\n");
    dir.Write("lib/a.ts", "import { a } from '../bin/app';\nimport { c } from './b';\nexport const b = a;\n");
    dir.Write("lib/b.ts", "import { b } from './a';\nexport const c = b;\n");
    cdk::App app = Evaluate(dir);
    CHECK(app.files.size() == 3);
    CHECK(app.budgets.empty());
  }
  SECTION("deep nesting stops with a budget entry") {
    TempDir dir;
    std::string deep = "const x = " + std::string(5000, '[') + std::string(5000, ']') + ";\n";
    deep += "function f(n: number): number { return f(n + 1); }\nf(0);\n";
    dir.Write("bin/app.ts", deep);
    cdk::App app = Evaluate(dir);
    REQUIRE(app.budgets.size() == 1);
    CHECK(app.budgets[0].second.message.find("nests deeper") != std::string::npos);
  }
  SECTION("unbounded recursion stops") {
    TempDir dir;
    dir.Write("bin/app.ts", "function f(n: number): number { return f(n + 1) + f(n + 2); }\nf(0);\n");
    cdk::App app = Evaluate(dir);
    REQUIRE(app.budgets.size() == 1);
    CHECK(app.budgets[0].second.pos.line == 1);
  }
  SECTION("values that double on each line stay bounded") {
    TempDir dir;
    std::string text = "let s = 'ab';\nlet a = [1, 2];\n";
    for (int i = 0; i < 60; ++i) text += "s = s + s;\na = [...a, ...a];\n";
    text += "import * as cdk from 'aws-cdk-lib';\nimport * as sagemaker from 'aws-cdk-lib/aws-sagemaker';\n";
    text += "const st = new cdk.Stack(new cdk.App(), 'S');\n";
    text += "new sagemaker.CfnNotebookInstance(st, 'Nb', { instanceType: s, tags: a, roleArn: `${s}` });\n";
    dir.Write("bin/app.ts", text);
    cdk::App app = Evaluate(dir);
    CHECK(app.budgets.empty());
    REQUIRE(app.constructs.size() == 1);
    CHECK(Show(*app.constructs[0].props.Get("instanceType")) == "?");
    CHECK(Show(*app.constructs[0].props.Get("roleArn")) == "?");
    CHECK(app.constructs[0].props.Get("tags")->items.size() <= 20'001);
  }
  SECTION("160 KB of unclosed object literals: a parse error, read in one pass") {
    // Each statement of a block is visited once (a tree cursor, not an index per
    // child): this file took 15 s to 2 min when every child was found by index.
    TempDir dir;
    std::string text = "import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';\nconst T = ";
    for (int i = 0; i < 40000; ++i) text += "{a: ";
    dir.Write("bin/app.ts", text + "\n");
    cdk::App app = Evaluate(dir);
    REQUIRE(app.errors.size() == 1);
    CHECK(app.errors[0].second.pos.line == 1);  // where tree-sitter's recovery starts
    CHECK(app.constructs.empty());
  }
  SECTION("hoisting is a step of the file's budget") {
    // Each call of f hoists its 1000 statements before running them: with
    // hoisting counted, 200 calls spend the 500 000 steps; without, they fit.
    TempDir dir;
    std::string text = "function f() {";
    for (int i = 0; i < 1000; ++i) text += "0;";
    text += "}\n";
    for (int i = 0; i < 200; ++i) text += "f();\n";
    dir.Write("bin/app.ts", text);
    cdk::App app = Evaluate(dir);
    REQUIRE(app.budgets.size() == 1);
    CHECK(app.budgets[0].second.message == "CDK app evaluation stopped after 500000 steps");
  }
  SECTION("a loop over a huge array runs once with an unknown item") {
    TempDir dir;
    dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
const app = new cdk.App();
const s = new cdk.Stack(app, 'S');
const xs: number[] = [];
for (let i = 0; i < 1e9; i++) { xs.push(i); }
for (const t of ['ml.t3.medium', 'ml.m5.large']) {
  new sagemaker.CfnNotebookInstance(s, `Nb-${t}`, { instanceType: t });
}
)");
    cdk::App app = Evaluate(dir);
    REQUIRE(app.constructs.size() == 2);
    CHECK(app.constructs[1].id == "Nb-ml.m5.large");
    CHECK(Show(app.constructs[1].props) == "{instanceType: 'ml.m5.large'}");
  }
}

namespace {

std::string Where(const cdk::App& app, int file, SourcePos p) {
  std::string path = file >= 0 && file < static_cast<int>(app.files.size()) ? app.files[file].root_path : "?";
  return path + ":" + std::to_string(p.line) + ":" + std::to_string(p.column);
}

// Every record of an app, one a line, with where its values are written.
std::string Dump(const cdk::App& app) {
  std::string out;
  for (size_t i = 0; i < app.files.size(); ++i)
    out += "file " + std::to_string(i) + " " + app.files[i].root_path + "\n";
  for (size_t i = 0; i < app.stacks.size(); ++i) {
    const auto& s = app.stacks[i];
    out += "stack " + std::to_string(i) + " '" + s.id + "' at " + Where(app, s.file, s.call.begin) + "\n";
  }
  for (size_t i = 0; i < app.constructs.size(); ++i) {
    const auto& c = app.constructs[i];
    out += "construct " + std::to_string(i) + " " + c.module + "." + c.cls + " '" + c.id + "' stack " +
           std::to_string(c.stack) + " at " + Where(app, c.file, c.call.begin) + "-" + std::to_string(c.call.end.line) +
           ":" + std::to_string(c.call.end.column) + "\n";
    if (c.props.is_map()) {
      for (size_t k = 0; k < c.props.entries.size(); ++k) {
        const auto& e = c.props.entries[k];
        out += "  " + e.first + " = " + Show(e.second) + " @" + std::to_string(e.second.pos.line) + ":" +
               std::to_string(e.second.pos.column) + "\n";
      }
    }
  }
  for (const auto& m : app.methods) {
    out += "method " + m.method + " on " + std::to_string(m.construct) + " at " + Where(app, m.file, m.call.begin);
    for (const auto& a : m.args) out += " " + Show(a);
    out += "\n";
  }
  for (const auto& [f, e] : app.errors) out += "error " + Where(app, f, e.pos) + " " + e.message + "\n";
  for (const auto& [f, e] : app.notes) out += "note " + Where(app, f, e.pos) + " " + e.message + "\n";
  for (const auto& [f, e] : app.budgets) out += "budget " + Where(app, f, e.pos) + " " + e.message + "\n";
  return out;
}

}  // namespace

TEST_CASE("cdk ts: the fixture apps", "[cdk][typescript]") {
  for (std::string name : {"notebook", "endpoint", "iam"}) {
    DYNAMIC_SECTION(name) {
      std::string dir = sagelint::testing::SourcePath("fixtures/cdk/typescript/" + name);
      static ResolveOptions opts;
      opts.root = dir;
      cdk::AppInput in;
      in.entry.abs_path = dir + "/bin/app.ts";
      in.entry.path = "bin/app.ts";
      in.entry.root_path = "bin/app.ts";
      in.entry.text = sagelint::testing::ReadFileOrDie(in.entry.abs_path);
      cfn::Node cdk_json;
      std::vector<cfn::LoadError> errors;
      REQUIRE(cfn::LoadDocument(sagelint::testing::ReadFileOrDie(dir + "/cdk.json"), 0, cfn::LoadLimits{}, &cdk_json,
                                &errors));
      REQUIRE(cdk_json.Get("context"));
      in.context = *cdk_json.Get("context");
      in.opts = &opts;
      cdk::App app = cdk::EvaluateTypeScriptApp(in);
      std::string diff = sagelint::testing::CompareGolden("tests/golden/cdk-typescript/" + name + ".txt", Dump(app));
      INFO(diff);
      CHECK(diff.empty());
      // What the app synthesizes, read as workloads.
      std::string model;
      for (const FileResult& r : cdk::Synthesize(app, opts)) model += DumpFileResult(r);
      std::string model_diff =
          sagelint::testing::CompareGolden("tests/golden/cdk-typescript/" + name + ".model.txt", model);
      INFO(model_diff);
      CHECK(model_diff.empty());
    }
  }
}

TEST_CASE("cdk ts: both branches of an unknown condition run, one stack per id", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
class Nb extends cdk.Stack {
  constructor(scope: cdk.App, id: string, props?: { big?: boolean }) {
    super(scope, id);
    const type = props?.big ? 'ml.p3.2xlarge' : 'ml.t3.medium';
    new sagemaker.CfnNotebookInstance(this, 'Nb', { instanceType: type, roleArn: 'r' });
  }
}
const app = new cdk.App();
if (process.env.ALL_STACKS) {
  new Nb(app, 'Research', { big: true });
  new Nb(app, 'Extra');
} else {
  new Nb(app, 'Research', { big: true });
}
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.stacks.size() == 2);
  CHECK(app.stacks[0].id == "Research");
  CHECK(app.stacks[1].id == "Extra");
  REQUIRE(app.constructs.size() == 2);
  CHECK(Show(app.constructs[0].props) == "{instanceType: 'ml.p3.2xlarge', roleArn: 'r'}");
  CHECK(Show(app.constructs[1].props) == "{instanceType: 'ml.t3.medium', roleArn: 'r'}");
}

TEST_CASE("cdk ts: callbacks run, per item over a known array, once over unknown items", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
const app = new cdk.App();
const s = new cdk.Stack(app, 'S');
['a', 'b'].forEach((name, i) => {
  new sagemaker.CfnNotebookInstance(s, `Nb${name}`, { instanceType: 'ml.t3.medium', volumeSizeInGb: i });
});
const subnets: string[] = [];
someVpc.publicSubnets.forEach((subnet) => subnets.push(subnet.subnetId));
const ids = ['x'].map((x) => `${x}-1`);
new sagemaker.CfnDomain(s, 'Domain', { subnetIds: subnets, domainName: ids[0] });
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 3);
  CHECK(app.constructs[0].id == "Nba");
  CHECK(Show(app.constructs[1].props) == "{instanceType: 'ml.t3.medium', volumeSizeInGb: 1}");
  CHECK(Show(app.constructs[2].props) == "{subnetIds: [?], domainName: 'x-1'}");
}

TEST_CASE("cdk ts: props set on an L1 construct after it is made, base64 of a script", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import { CfnNotebookInstance, CfnNotebookInstanceLifecycleConfig } from 'aws-cdk-lib/aws-sagemaker';
const app = new cdk.App();
const s = new cdk.Stack(app, 'S');
const nb = new CfnNotebookInstance(s, 'Nb', { instanceType: 'ml.t3.medium', roleArn: 'r' });
const lc = new CfnNotebookInstanceLifecycleConfig(s, 'Lc', {
  onStart: [{ content: Buffer.from('echo start').toString('base64') }],
});
nb.lifecycleConfigName = lc.attrNotebookInstanceLifecycleConfigName;
nb.instanceType = 'ml.t3.large';
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 2);
  CHECK(Show(app.constructs[0].props) ==
        "{instanceType: 'ml.t3.large', roleArn: 'r', lifecycleConfigName: #1.attrNotebookInstanceLifecycleConfigName}");
  CHECK(app.constructs[0].props.KeyPos("lifecycleConfigName").line == 9);
  CHECK(Show(app.constructs[1].props) == "{onStart: [{content: 'ZWNobyBzdGFydA=='}]}");
}

TEST_CASE("cdk ts: enums and static members of the app", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
export enum Tier { Small = 'ml.t3.medium', Large = 'ml.p3.2xlarge' }
enum Count { One = 1, Two }
class Defaults { static readonly ROLE = `arn:${'role'}`; static role() { return Defaults.ROLE; } }
const app = new cdk.App();
const s = new cdk.Stack(app, 'S');
new sagemaker.CfnNotebookInstance(s, 'Nb', { instanceType: Tier.Large, volumeSizeInGb: Count.Two, roleArn: Defaults.role() });
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 1);
  CHECK(Show(app.constructs[0].props) == "{instanceType: 'ml.p3.2xlarge', volumeSizeInGb: 2, roleArn: 'arn:role'}");
}

TEST_CASE("cdk ts: default exports, CommonJS modules, casts and parameter destructuring", "[cdk][typescript]") {
  TempDir dir;
  dir.Write("cfg.json", R"({"type": "ml.c5.xlarge", "n": 3})");
  dir.Write("lib/a.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import cfg from '../cfg.json';
export default class A extends cdk.Stack {
  constructor(scope: any, id: string, props?: { t?: string }) {
    super(scope, id);
    const ctx = this.node.tryGetContext('size') as string;
    new sagemaker.CfnEndpointConfig(this, 'C', {
      productionVariants: [{ instanceType: props!.t ?? ctx, initialInstanceCount: (cfg as any).n }],
    });
    new sagemaker.CfnEndpointConfig(this, 'D', {
      productionVariants: [{ instanceType: cfg.type, initialInstanceCount: <number>cfg.n }],
    });
  }
}
)");
  dir.Write("lib/b.js", R"(const { Stack } = require('aws-cdk-lib');
const sm = require('aws-cdk-lib').aws_sagemaker;
class B extends Stack {
  constructor(scope, id, { type = 'ml.t3.medium', ...rest } = {}) {
    super(scope, id);
    new sm.CfnNotebookInstance(this, 'Nb', { instanceType: type, ...rest });
  }
}
module.exports = { B };
)");
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import A from '../lib/a';
const { B } = require('../lib/b');
const app = new cdk.App();
new A(app, 'A1', {});
new B(app, 'B1', { roleArn: 'arn:r', volumeSizeInGb: 10 });
)");
  cdk::App app = Evaluate(dir, R"({"size": "ml.m5.xlarge"})");
  REQUIRE(app.stacks.size() == 2);
  REQUIRE(app.constructs.size() == 3);
  CHECK(Show(app.constructs[0].props) ==
        "{productionVariants: [{instanceType: 'ml.m5.xlarge', initialInstanceCount: 3}]}");
  CHECK(Show(app.constructs[1].props) ==
        "{productionVariants: [{instanceType: 'ml.c5.xlarge', initialInstanceCount: 3}]}");
  CHECK(Show(app.constructs[2].props) == "{instanceType: 'ml.t3.medium', roleArn: 'arn:r', volumeSizeInGb: 10}");
  CHECK(app.constructs[2].file == 2);
  CHECK(app.files[2].root_path == "lib/b.js");
}

TEST_CASE("cdk ts: a name the branches of an unknown condition leave different is not the last branch's value",
          "[cdk][typescript]") {
  // Not the last branch's value: `autoscale` false would drop the scalable target and
  // report a variant that may well be scaled (a false SM211).
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
const app = new cdk.App();
const stack = new cdk.Stack(app, 'S');
const raw = app.node.tryGetContext('settings');
let autoscale = true;
let count = 2;
let family = 'ml.m5';
if (typeof raw === 'object') {
  count = 3;
} else {
  autoscale = false;
  count = 2;
}
const cfg = new sagemaker.CfnEndpointConfig(stack, 'Cfg', { productionVariants: [
  { variantName: 'AllTraffic', modelName: 'm', instanceType: `${family}.xlarge`, initialInstanceCount: count }] });
if (autoscale) {
  new appscaling.CfnScalableTarget(stack, 'T', { maxCapacity: 4, minCapacity: 1,
    resourceId: 'endpoint/e/variant/AllTraffic', roleArn: 'arn:aws:iam::1:role/r',
    scalableDimension: 'sagemaker:variant:DesiredInstanceCount', serviceNamespace: 'sagemaker' });
}
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 2);
  CHECK(app.constructs[1].id == "T");
  // `family`, assigned in neither branch, keeps its value; `count` differs by path: alternatives.
  CHECK(Show(app.constructs[0].props) ==
        "{productionVariants: [{variantName: 'AllTraffic', modelName: 'm', instanceType: 'ml.m5.xlarge', "
        "initialInstanceCount: {Fn::If: [`typeof raw === 'object'`, 3, 2]}}]}");
}

TEST_CASE("cdk ts: fields set in the branches of an unknown condition are alternatives or unknown after them",
          "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
class Settings {
  family = 'ml.m5';
  size: string;
  count: number;
  autoscale: boolean;
  extra: any;
  constructor(raw: any) {
    if (typeof raw === 'object') {
      this.size = '2xlarge';
      this.count = 2;
      this.autoscale = raw.autoscale ?? true;
      this.extra = { a: 1 };
    } else {
      this.size = 'xlarge';
      this.count = 2;
      this.autoscale = false;
      this.extra = { a: 1 };
    }
  }
}
const app = new cdk.App();
const stack = new cdk.Stack(app, 'S');
const s = new Settings(process.env.SETTINGS);
const lc = new sagemaker.CfnNotebookInstanceLifecycleConfig(stack, 'Lc', {});
const nb = new sagemaker.CfnNotebookInstance(stack, 'Nb', { instanceType: s.size, roleArn: 'r' });
if (s.autoscale) {
  new appscaling.CfnScalableTarget(stack, 'T', { resourceId: 'endpoint/e/variant/A' });
  nb.lifecycleConfigName = lc.attrNotebookInstanceLifecycleConfigName;
}
new sagemaker.CfnEndpointConfig(stack, 'Cfg', { productionVariants: [
  { instanceType: `${s.family}.large`, initialInstanceCount: s.count, extra: s.extra }] });
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 4);
  CHECK(Show(app.constructs[1].props) ==
        "{instanceType: {Fn::If: [`typeof raw === 'object'`, '2xlarge', 'xlarge']}, roleArn: 'r', "
        "lifecycleConfigName: ?}");
  CHECK(app.constructs[2].id == "T");
  CHECK(app.constructs[2].conditions == std::vector<std::string>{"`s.autoscale` is true"});
  CHECK(app.constructs[1].conditions.empty());
  // Two objects alike are still two values: unknown; the same number on both paths is that number.
  CHECK(Show(app.constructs[3].props) ==
        "{productionVariants: [{instanceType: 'ml.m5.large', initialInstanceCount: 2, extra: ?}]}");
}

TEST_CASE("cdk ts: a ternary on an unknown condition is alternatives, and a construct made in one arm is conditional",
          "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sagemaker from 'aws-cdk-lib/aws-sagemaker';
import * as appscaling from 'aws-cdk-lib/aws-applicationautoscaling';
const app = new cdk.App();
const stack = new cdk.Stack(app, 'S');
const gpu = process.env.GPU === 'yes';
new sagemaker.CfnNotebookInstance(stack, 'Nb', { instanceType: gpu ? 'ml.g5.xlarge' : 'ml.t3.medium', roleArn: 'r',
  volumeSizeInGb: gpu ? 50 : 50 });
const target = gpu ? new appscaling.CfnScalableTarget(stack, 'T', { resourceId: 'endpoint/e/variant/A' }) : undefined;
)");
  cdk::App app = Evaluate(dir);
  REQUIRE(app.constructs.size() == 2);
  CHECK(Show(app.constructs[0].props) ==
        "{instanceType: {Fn::If: [`gpu`, 'ml.g5.xlarge', 'ml.t3.medium']}, roleArn: 'r', volumeSizeInGb: 50}");
  CHECK(app.constructs[1].conditions == std::vector<std::string>{"`gpu` is true"});
}

TEST_CASE("cdk ts: an L2 state machine's definition body from a string is its definition, a chain adds none",
          "[cdk][typescript]") {
  TempDir dir;
  dir.Write("bin/app.ts", R"(import * as cdk from 'aws-cdk-lib';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import * as tasks from 'aws-cdk-lib/aws-stepfunctions-tasks';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
const app = new cdk.App();
const stack = new cdk.Stack(app, 'S');
const train = new tasks.SageMakerCreateTrainingJob(stack, 'Train', { trainingJobName: 'x',
  resourceConfig: { instanceCount: 1, instanceType: new ec2.InstanceType('p3.2xlarge'), volumeSize: cdk.Size.gibibytes(10) } });
new sfn.StateMachine(stack, 'Chain', { definitionBody: sfn.DefinitionBody.fromChainable(train) });
new sfn.StateMachine(stack, 'Text', { definitionBody: sfn.DefinitionBody.fromString(JSON.stringify({ StartAt: 'T',
  States: { T: { Type: 'Task', Resource: 'arn:aws:states:::sagemaker:createTrainingJob.sync', End: true,
    Parameters: { ResourceConfig: { InstanceType: 'ml.g5.xlarge', InstanceCount: 1, VolumeSizeInGB: 5 } } } } })) });
)");
  cdk::App app = Evaluate(dir);
  static ResolveOptions opts;
  opts.root = dir.path();
  std::vector<std::string> jobs;
  for (const FileResult& r : cdk::Synthesize(app, opts)) {
    for (const Workload& w : r.workloads) jobs.push_back(w.label + " " + w.instance_type.text);
  }
  std::sort(jobs.begin(), jobs.end());
  CHECK(jobs ==
        std::vector<std::string>{"training job 'Text.T' ml.g5.xlarge", "training job 'Train.Train' ml.p3.2xlarge"});
}
