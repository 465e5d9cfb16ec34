// CloudFormation front end: golden dumps of the normalized model, and bounded
// handling of hostile input.
#include <filesystem>
#include <string>

#include "linter/cli/scan_options.h"
#include "linter/report/model_dump.h"
#include "parsers/common/node.h"
#include "parsers/frontend.h"
#include "tests/catch.h"
#include "tests/test_util.h"

using namespace sagelint;
using sagelint::testing::CompareGolden;
using sagelint::testing::ReadFileOrDie;
using sagelint::testing::SourcePath;

namespace {

FileResult ParseText(const std::string& path, const std::string& text) {
  SourceFile f{path, path, text};
  return ParseCloudFormation(f, ResolveOptions{});
}

}  // namespace

TEST_CASE("CloudFormation model goldens", "[cloudformation]") {
  for (const char* name :
       {"intrinsics.yaml", "resources.yaml", "template.json", "duplicate.yaml", "broken.yaml", "bom-crlf.yaml",
        "properties-if.yaml", "merge-keys.yaml", "foreach.yaml", "multi-doc.yaml"}) {
    std::string rel = std::string("fixtures/parsers/cloudformation/") + name;
    DYNAMIC_SECTION(name) {
      FileResult r = ParseText(rel, ReadFileOrDie(SourcePath(rel)));
      CHECK(CompareGolden(std::string("tests/golden/cloudformation/") + name + ".model", DumpFileResult(r)) == "");
    }
  }
}

TEST_CASE("parameter values given by the user win over defaults", "[cloudformation]") {
  std::string rel = "fixtures/parsers/cloudformation/intrinsics.yaml";
  ResolveOptions opts;
  opts.cfn_parameters["NotebookType"] = "ml.m5.large";
  opts.cfn_parameters["Env"] = "dev";
  FileResult r = ParseCloudFormation({rel, rel, ReadFileOrDie(SourcePath(rel))}, opts);
  REQUIRE(r.workloads.size() >= 2);
  CHECK(DumpVal(r.workloads[0].instance_type) == "\"ml.m5.large\"@22:21 (parameter NotebookType (given))");
  CHECK(DumpVal(r.workloads[1].instance_type) == "\"ml.t3.medium\"@29:21 (mapping Sizes)");
}

TEST_CASE("a tag alone on the line after its key is read where it stands", "[cloudformation]") {
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument("A:\n  B:\n    !Sub |\n    {\"x\": 1}\n", 0, cfn::LoadLimits{}, &doc, &errors));
  const cfn::Node* b = doc.Find({"A", "B"});
  REQUIRE(b);
  CHECK(b->tag == "!Sub");
  CHECK(b->text == "{\"x\": 1}\n");
  CHECK(b->pos.line == 3);
  CHECK(b->pos.column == 5);
}

TEST_CASE("a UTF-16 surrogate pair escape in JSON is one character, positions as written", "[cloudformation]") {
  // Python's json.dumps writes characters beyond U+FFFF this way; YAML has no such escape.
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  std::string text = "{\"A\": \"smile \\ud83d\\ude00 \\u00e9\", \"B\": \"ml.t3.medium\"}";
  REQUIRE(cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors));
  CHECK(errors.empty());
  CHECK(doc.Get("A")->text == "smile \xF0\x9F\x98\x80 \xC3\xA9");
  CHECK(doc.Get("B")->pos.column == static_cast<int>(text.find("\"ml.t3")) + 1);
  CHECK(doc.KeyPos("B").column == static_cast<int>(text.find("\"B\"")) + 1);
  // A lone surrogate is still an error, at its place.
  std::string lone = "{\"A\": \"\\ud83d x\"}";
  CHECK_FALSE(cfn::LoadDocument(lone, 0, cfn::LoadLimits{}, &doc, &errors));
  REQUIRE(errors.size() == 1);
  CHECK(errors[0].message.find("invalid Unicode character escape code") != std::string::npos);
}

TEST_CASE("characters libyaml refuses become U+FFFD and columns stay in bytes of the file", "[cloudformation]") {
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  // A Latin-1 byte and a control character before values on the same line; a
  // multi-byte character too.
  std::string text = "A: {x: Caf\xE9, y: \x01z, \xC3\xA9: w}\n";
  REQUIRE(cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors));
  const cfn::Node* a = doc.Get("A");
  REQUIRE(a);
  CHECK(a->Get("x")->text == "Caf\xEF\xBF\xBD");
  CHECK(a->Get("y")->pos.column == static_cast<int>(text.find("\x01z")) + 1);
  CHECK(a->Get("\xC3\xA9")->pos.column == static_cast<int>(text.find(": w")) + 3);
  CHECK(a->KeyPos("\xC3\xA9").column == static_cast<int>(text.find("\xC3\xA9")) + 1);
}

TEST_CASE("lines are counted by newlines alone, as editors count them", "[cloudformation]") {
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  // libyaml (YAML 1.1) also breaks lines at NEL, LS and PS: in YAML they are
  // U+FFFD (YAML 1.2 and editors see no line break there).
  std::string yaml =
      "A: x # a\xE2\x80\xA8"
      "comment\nC: \xC2\x85\xC2\x85, d\nB: y\n";
  REQUIRE(cfn::LoadDocument(yaml, 0, cfn::LoadLimits{}, &doc, &errors));
  CHECK(doc.Get("C")->text == "\xEF\xBF\xBD\xEF\xBF\xBD, d");
  CHECK(doc.Get("B")->pos.line == 3);
  CHECK(doc.Get("B")->pos.column == 4);
  // A lone CR ends a line for libyaml; the file's line is still counted by "\n".
  REQUIRE(cfn::LoadDocument("A: x\rB: \xC3\xA9\nC: z\n", 0, cfn::LoadLimits{}, &doc, &errors));
  CHECK(doc.Get("B")->pos.line == 1);
  CHECK(doc.Get("B")->pos.column == 9);
  CHECK(doc.Get("C")->pos.line == 2);
  // In a JSON string they are characters of the string.
  std::string json = "{\"A\": \"x\xE2\x80\xA8y\xC2\x85z\", \"B\":\n \"w\"}";
  REQUIRE(cfn::LoadDocument(json, 0, cfn::LoadLimits{}, &doc, &errors));
  CHECK(errors.empty());
  CHECK(doc.Get("A")->text == "x\xE2\x80\xA8y\xC2\x85z");
  CHECK(doc.KeyPos("B").line == 1);
  CHECK(doc.KeyPos("B").column == static_cast<int>(json.find("\"B\"")) + 1);
  CHECK(doc.Get("B")->pos.line == 2);
  CHECK(doc.Get("B")->pos.column == 2);
}

TEST_CASE("positions on one long line with non-ASCII text are exact", "[cloudformation]") {
  std::string text = "{\"\xC3\xA9\": 0";
  for (int i = 0; i < 20000; ++i) text += ", \"k" + std::to_string(i) + "\": \"\xE2\x82\xAC" + std::to_string(i) + "\"";
  text += "}";
  cfn::Node doc;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &doc, &errors));
  CHECK(doc.KeyPos("k19999").column == static_cast<int>(text.find("\"k19999\"")) + 1);
  CHECK(doc.Get("k19999")->pos.column == static_cast<int>(text.find("\"\xE2\x82\xAC"
                                                                    "19999\"")) +
                                             1);
}

TEST_CASE("alias bombs and deep nesting end in a clear error", "[cloudformation][adversarial]") {
  std::string bomb = sagelint::testing::AliasBomb();
  FileResult r = ParseText("bomb.yaml", bomb);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message ==
        "the document expands to more than 1000000 nodes or 256 MiB (YAML aliases?); not parsed");

  std::string deep =
      "AWSTemplateFormatVersion: x\nResources: " + std::string(1000, '[') + std::string(1000, ']') + "\n";
  r = ParseText("deep.yaml", deep);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message.find("not parsed") != std::string::npos);
  CHECK(r.errors[0].pos.line == 2);
}

TEST_CASE("templates are recognised by content", "[cloudformation]") {
  CHECK(LooksLikeCloudFormation("AWSTemplateFormatVersion: '2010-09-09'\n"));
  CHECK(LooksLikeCloudFormation("Resources:\n  X:\n    Type: AWS::S3::Bucket\n"));
  CHECK(!LooksLikeCloudFormation("{\"Parameters\": {\"InstanceType\": \"ml.m5.xlarge\"}}"));
  CHECK(!LooksLikeCloudFormation("name: ci\non: push\n"));
}

namespace {

std::string ScanDump(const std::vector<std::string>& paths, ResolveOptions resolve = {}) {
  std::filesystem::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = paths;
  opts.jobs = 1;
  opts.resolve = std::move(resolve);
  ScanResult r = Scan(opts);
  std::string out;
  for (const Workload& w : r.workloads) out += w.path + ": " + DumpWorkload(w);
  for (const std::string& s : r.skipped) out += "skipped " + s + "\n";
  return out;
}

}  // namespace

TEST_CASE("SAM state machines (inline and DefinitionUri) and function policies", "[cloudformation][sam]") {
  CHECK(CompareGolden("tests/golden/cloudformation/sam.model",
                      ScanDump({"fixtures/parsers/cloudformation/sam/template.yaml"})) == "");
}

TEST_CASE("template configuration files: one evaluation per file, findings name it", "[cloudformation][params]") {
  ResolveOptions globs;
  globs.cfn_param_file_globs = {{"**/params/endpoint.yaml", {"staging-config.json", "prod-config.json"}}};
  globs.cfn_param_base = SAGELINT_SOURCE_DIR;
  CHECK(CompareGolden("tests/golden/cloudformation/params.model",
                      ScanDump({"fixtures/parsers/cloudformation/params/endpoint.yaml"}, globs)) == "");
  // One file: its values, no label suffix; --param still wins.
  ResolveOptions one;
  one.cfn_param_files = {"fixtures/parsers/cloudformation/params/prod-config.json"};
  one.cfn_parameters = one.cfn_cli_parameters = {{"EndpointInstanceCount", "3"}};
  std::string dump = ScanDump({"fixtures/parsers/cloudformation/params/endpoint.yaml"}, one);
  CHECK(dump.find("instance_type: \"ml.g5.xlarge\"@16:25 (parameter EndpointInstanceType (prod-config.json))") !=
        std::string::npos);
  CHECK(dump.find("instance_count: \"3\"@17:33 (parameter EndpointInstanceCount (given))") != std::string::npos);
  CHECK(dump.find("(parameters from") == std::string::npos);
}

TEST_CASE("template configuration files in both forms, and clear errors", "[cloudformation][params]") {
  std::map<std::string, std::string> values;
  ParseError error;
  CHECK(LoadTemplateConfiguration("{\"Parameters\": {\"A\": \"x\", \"L\": [\"a\", \"b\"]}}", &values, &error));
  CHECK(values == std::map<std::string, std::string>{{"A", "x"}, {"L", "a,b"}});
  values.clear();
  CHECK(LoadTemplateConfiguration("[{\"ParameterKey\": \"A\", \"ParameterValue\": \"y\"}]", &values, &error));
  CHECK(values == std::map<std::string, std::string>{{"A", "y"}});
  CHECK(!LoadTemplateConfiguration("{\"Tags\": {}}", &values, &error));
  CHECK(error.message.find("expected {\"Parameters\"") == 0);
  CHECK(!LoadTemplateConfiguration("{\"Parameters\": {\"A\": {\"B\": 1}}}", &values, &error));
  CHECK(error.message == "parameter A: the value must be a string");
  CHECK(error.pos.line == 1);
}

TEST_CASE("document nodes know where they end and their byte range", "[cloudformation]") {
  // Multi-byte characters before the values: columns and offsets count bytes.
  const std::string text =
      "Description: \"caf\xC3\xA9 \xE2\x82\xAC\"\nResources:\n  Nb:\n    Type: 'AWS::SageMaker::NotebookInstance'\n"
      "    Properties: {InstanceType: ml.t3.medium, VolumeSizeInGB: 5}\n";
  cfn::Node root;
  std::vector<cfn::LoadError> errors;
  REQUIRE(cfn::LoadDocument(text, 0, cfn::LoadLimits{}, &root, &errors));
  auto source = [&](const cfn::Node* n) {
    REQUIRE(n);
    return text.substr(n->offset, n->end_offset - n->offset);
  };
  CHECK(source(root.Get("Description")) == "\"caf\xC3\xA9 \xE2\x82\xAC\"");
  const cfn::Node* type = root.Find({"Resources", "Nb", "Type"});
  CHECK(source(type) == "'AWS::SageMaker::NotebookInstance'");
  CHECK(type->end.line == 4);
  CHECK(type->end.column == type->pos.column + 34);
  CHECK(source(root.Find({"Resources", "Nb", "Properties", "InstanceType"})) == "ml.t3.medium");
  CHECK(source(root.Find({"Resources", "Nb", "Properties"})) == "{InstanceType: ml.t3.medium, VolumeSizeInGB: 5}");
  // JSON the same, on one line.
  const std::string json = R"({"Resources": {"Nb": {"Properties": {"InstanceType": "ml.p3.2xlarge"}}}})";
  REQUIRE(cfn::LoadDocument(json, 0, cfn::LoadLimits{}, &root, &errors));
  const cfn::Node* it = root.Find({"Resources", "Nb", "Properties", "InstanceType"});
  REQUIRE(it);
  CHECK(json.substr(it->offset, it->end_offset - it->offset) == "\"ml.p3.2xlarge\"");
}

namespace {

// Findings as "path:line:col: severity[rule] message", one a line.
std::string ScanFindings(const std::vector<std::string>& paths) {
  std::filesystem::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = paths;
  opts.jobs = 1;
  ScanResult r = Scan(opts);
  std::string out;
  for (const Finding& f : r.findings) {
    out += f.path + ":" + std::to_string(f.range.begin.line) + ":" + std::to_string(f.range.begin.column) + ": " +
           std::string(SeverityName(f.severity)) + "[" + f.rule + "] " + f.message + "\n";
  }
  for (const Workload& w : r.workloads) out += "workload " + w.path + ": " + w.label + "\n";
  for (const std::string& s : r.skipped) out += "skipped " + s + "\n";
  return out;
}

}  // namespace

TEST_CASE("cdk synth output: Fn::Join ARNs and bodies, construct paths, the other cdk.out files",
          "[cloudformation][cdk]") {
  std::string found = ScanFindings({"fixtures/cdk/synth"});
  CHECK(CompareGolden("tests/golden/cloudformation/cdk-synth.findings", found) == "");
  // manifest.json, tree.json, *.assets.json and the cdk.out version file give nothing, not even SM000.
  for (const char* other : {"manifest.json", "tree.json", "assets.json", "cdk.out/cdk.out"}) {
    INFO(other);
    CHECK(found.find(other) == std::string::npos);
  }
}

TEST_CASE("Fn::Join keeps its known text only where the unknown parts cannot change the meaning", "[cloudformation]") {
  auto dump = [](const std::string& body) {
    std::string text = R"({"Resources": {"P": {"Type": "AWS::SageMaker::Pipeline", "Properties": {
        "PipelineDefinition": {"PipelineDefinitionBody": {"Fn::Join": ["", )" +
                       body + "]}}}}}}";
    return DumpFileResult(ParseText("p.json", text));
  };
  // The unknown role ARN stands in a string: the step is read, its role unknown.
  std::string in_value = dump(
      R"(["{\"Steps\": [{\"Name\": \"T\", \"Type\": \"Training\", \"Arguments\": {\"RoleArn\": \"",
          {"Fn::GetAtt": ["Role", "Arn"]}, "\", \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\",
          \"InstanceCount\": 1}}}]}"])");
  CHECK(in_value.find("training_job") != std::string::npos);
  CHECK(in_value.find("ml.p3.2xlarge") != std::string::npos);
  // A bare token as a whole value (CDK writes a number so): read, the count unknown.
  std::string bare = dump(
      R"(["{\"Steps\": [{\"Name\": \"T\", \"Type\": \"Training\", \"Arguments\": {\"ResourceConfig\":
          {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": ", {"Ref": "Count"}, "}}}]}"])");
  CHECK(bare.find("training_job") != std::string::npos);
  CHECK(bare.find("instance_count: unknown") != std::string::npos);
  // An unknown part where members stand (or in a member's name) could set
  // EnableManagedSpotTraining: the body is not read.
  for (const char* structure :
       {R"(["{\"Steps\": [{\"Name\": \"T\", \"Type\": \"Training\", \"Arguments\": {", {"Ref": "Args"},
            ", \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": 1}}}]}"])",
        R"(["{\"Steps\": [{\"Name\": \"T\", \"Type\": \"Training\", \"Arguments\": {\"", {"Ref": "Key"},
            "\": true, \"ResourceConfig\": {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": 1}}}]}"])",
        R"(["{\"Steps\": [{\"Name\": \"T\", \"Type\": \"Training\", \"Arguments\": {\"ResourceConfig\":
            {\"InstanceType\": \"ml.p3.2xlarge\", \"InstanceCount\": 1}, ", {"Ref": "More"}, "}}]}"])"}) {
    INFO(structure);
    CHECK(dump(structure).find("training_job") == std::string::npos);
  }
}

TEST_CASE("an IAM policy document in its own JSON file: its statements, a trust policy none", "[iam-policy]") {
  SourceFile f{"policies/sm.json", "policies/sm.json",
               R"({"Version": "2012-10-17", "Statement": [{"Effect": "Allow",
  "Action": ["sagemaker:CreateTrainingJob"], "Resource": "*"}, {"Effect": "Deny", "Action": "sagemaker:*",
  "Resource": "*", "Condition": {"StringLike": {"sagemaker:InstanceTypes": "ml.p*"}}}]})"};
  FileResult r = ParseIamPolicyDocument(f, ResolveOptions{});
  REQUIRE(r.workloads.size() == 2);
  CHECK(r.errors.empty());
  CHECK(r.workloads[0].kind == WorkloadKind::kIamStatement);
  CHECK(r.workloads[0].label == "IAM policy document 'policies/sm.json' statement 1");
  CHECK(r.workloads[0].iam.policy == "policies/sm.json");
  CHECK(r.workloads[0].range.begin.line == 1);
  CHECK(r.workloads[1].range.begin.line == 2);
  CHECK(r.workloads[1].iam.conditions.size() == 1);

  SourceFile trust{"trust.json", "trust.json", R"({"Version": "2012-10-17", "Statement": {"Effect": "Allow",
      "Principal": {"Service": "sagemaker.amazonaws.com"}, "Action": "sts:AssumeRole"}})"};
  CHECK(ParseIamPolicyDocument(trust, ResolveOptions{}).workloads.empty());

  SourceFile broken{"b.json", "b.json", "{\"Version\": \"2012-10-17\",\n \"Statement\": [\"sagemaker:*\",]\n"};
  FileResult b = ParseIamPolicyDocument(broken, ResolveOptions{});
  REQUIRE(!b.errors.empty());
  CHECK(b.errors[0].pos.line >= 2);
  CHECK(b.workloads.empty());
}

namespace {

// The text a value's literal covers ("" when it has none), checking it is the
// workload's own file.
std::string LiteralText(const std::string& text, const Val& v) {
  if (!v.literal.valid()) return "";
  CHECK(v.literal_path.empty());
  auto begin = OffsetOf(text, v.literal.begin);
  auto end = OffsetOf(text, v.literal.end);
  REQUIRE(begin);
  REQUIRE(end);
  REQUIRE(*end > *begin);
  return text.substr(*begin, *end - *begin);
}

const Workload& Named(const FileResult& r, std::string_view name) {
  for (const Workload& w : r.workloads) {
    if (w.name == name) return w;
  }
  FAIL("no workload " << name);
  return r.workloads.front();
}

const std::string kLiteralTemplate = R"(Parameters:
  OnceType:
    Type: String
    Default: "ml.p2.xlarge"
  TwiceType:
    Type: String
    Default: ml.p3.2xlarge
  SubType:
    Type: String
    Default: ml.m4.xlarge
  AllowedType:
    Type: String
    Default: ml.p2.xlarge
    AllowedValues: [ml.p2.xlarge, ml.g4dn.xlarge]
  CondType:
    Type: String
    Default: ml.t2.medium
  LoopType:
    Type: String
    Default: ml.c4.xlarge
Conditions:
  Big: !Equals [!Ref CondType, ml.t2.medium]
Mappings:
  Sizes:
    dev: {Type: ml.t2.large}
Resources:
  UseSite:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.p2.xlarge   # a comment
      VolumeSizeInGB: 5
  Quoted:
    Type: AWS::SageMaker::NotebookInstance
    Properties: {InstanceType: 'ml.p3.2xlarge', VolumeSizeInGB: "10"}
  FromOnce:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref OnceType
  FromTwice1:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref TwiceType
  FromTwice2:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: {"Ref": "TwiceType"}
  FromSubMention:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref SubType
      LifecycleConfigName: !Sub "lc-${SubType}"
  FromAllowed:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref AllowedType
  FromCondition:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Ref CondType
  Computed:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !Sub "ml.p2.${AWS::NoValue}xlarge"
      VolumeSizeInGB: !Select [0, [5, 6]]
      LifecycleConfigName: !Join ["-", [a, b]]
  Mapped:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !FindInMap [Sizes, dev, Type]
  Conditional:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: !If [Big, ml.p3.8xlarge, ml.p3.2xlarge]
  Anchored:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: &t ml.p2.8xlarge
      VolumeSizeInGB: 5
  Aliased:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: *t
  Branches:
    Type: AWS::SageMaker::NotebookInstance
    Properties: !If
      - Big
      - {InstanceType: ml.p2.16xlarge}
      - {InstanceType: ml.p2.xlarge}
Outputs:
  Loop:
    Value: !Ref LoopType
)";

}  // namespace

TEST_CASE("literal sites: a value written once, at its use or as a parameter default read once",
          "[cloudformation][literal]") {
  FileResult r = ParseText("t.yaml", kLiteralTemplate);
  REQUIRE(r.errors.empty());
  auto lit = [&](std::string_view name, Val Workload::*m = &Workload::instance_type) {
    const Workload& w = Named(r, name);
    return LiteralText(kLiteralTemplate, w.*m);
  };
  // At the use site: the token, quotes included, end exclusive.
  CHECK(lit("UseSite") == "ml.p2.xlarge");
  CHECK(lit("UseSite", &Workload::volume_gb) == "5");
  CHECK(lit("Quoted") == "'ml.p3.2xlarge'");
  CHECK(lit("Quoted", &Workload::volume_gb) == "\"10\"");
  const Val& use = Named(r, "UseSite").instance_type;
  CHECK(use.literal.begin == SourcePos{30, 21});
  CHECK(use.literal.end == SourcePos{30, 33});
  // A parameter's default, read by this setting alone.
  CHECK(lit("FromOnce") == "\"ml.p2.xlarge\"");
  CHECK(Named(r, "FromOnce").instance_type.literal.begin == SourcePos{4, 14});
  // Mentioned twice (Ref and {"Ref"}, a Sub's ${P}, a condition, Outputs): none.
  CHECK(lit("FromTwice1") == "");
  CHECK(lit("FromTwice2") == "");
  CHECK(lit("FromSubMention") == "");
  CHECK(lit("FromCondition") == "");
  // A new default must stay among the allowed values: none.
  CHECK(lit("FromAllowed") == "");
  // Computed, mapped, conditional values: none.
  CHECK(lit("Computed") == "");
  CHECK(lit("Computed", &Workload::volume_gb) == "");
  CHECK(lit("Computed", &Workload::lifecycle_config) == "");
  CHECK(lit("Mapped") == "");
  const Val& cond = Named(r, "Conditional").instance_type;
  REQUIRE(cond.conditional());
  for (const Val& alt : cond.alternatives) CHECK(!alt.literal.valid());
  // Under an anchor, or an alias of it: the text stands for both.
  CHECK(lit("Anchored") == "");
  CHECK(lit("Aliased") == "");
  CHECK(lit("Anchored", &Workload::volume_gb) == "5");
  // One branch of `Properties: !If`: none.
  for (const Workload& w : r.workloads) {
    if (w.name == "Branches") CHECK(!w.instance_type.literal.valid());
  }
}

TEST_CASE("literal sites: a parameter value from outside the template overrides its default",
          "[cloudformation][literal]") {
  ResolveOptions opts;
  opts.cfn_parameters["OnceType"] = "ml.p3.2xlarge";
  opts.cfn_parameter_sources["OnceType"] = "prod.json";
  SourceFile f{"t.yaml", "t.yaml", kLiteralTemplate};
  FileResult r = ParseCloudFormation(f, opts);
  const Val& v = Named(r, "FromOnce").instance_type;
  CHECK(v.text == "ml.p3.2xlarge");
  CHECK(!v.literal.valid());
  // The use site is the template's still.
  CHECK(LiteralText(kLiteralTemplate, Named(r, "UseSite").instance_type) == "ml.p2.xlarge");
}

TEST_CASE("literal sites: JSON tokens with their quotes, loops and pipelines", "[cloudformation][literal]") {
  const std::string json = R"({
  "Parameters": {"T": {"Type": "String", "Default": "ml.p2.xlarge"}},
  "Resources": {
    "Nb": {"Type": "AWS::SageMaker::NotebookInstance", "Properties": {"InstanceType": {"Ref": "T"}}},
    "Cfg": {"Type": "AWS::SageMaker::EndpointConfig", "Properties": {"ProductionVariants": [
      {"VariantName": "A", "InstanceType": "ml.m4.xlarge", "InitialInstanceCount": 1,
       "AcceleratorType": "ml.eia2.medium"}]}}
  }
})";
  FileResult r = ParseText("t.json", json);
  REQUIRE(r.errors.empty());
  CHECK(LiteralText(json, Named(r, "Nb").instance_type) == "\"ml.p2.xlarge\"");
  const Workload& v = Named(r, "Cfg/A");
  CHECK(LiteralText(json, v.instance_type) == "\"ml.m4.xlarge\"");
  CHECK(LiteralText(json, v.instance_count) == "1");
  CHECK(LiteralText(json, v.accelerator_type) == "\"ml.eia2.medium\"");
  // A resource `cdk synth` wrote: its source is the app, not this file.
  const std::string synth = R"({"Resources": {"Nb": {"Type": "AWS::SageMaker::NotebookInstance",
    "Properties": {"InstanceType": "ml.p2.xlarge"}, "Metadata": {"aws:cdk:path": "App/Nb/Resource"}}}})";
  CHECK(!Named(ParseText("s.json", synth), "Nb").instance_type.literal.valid());

  // Fn::ForEach: each copy of the body reads the same text; a parameter
  // mentioned in a loop body counts once per value.
  const std::string loop = R"(Transform: AWS::LanguageExtensions
Parameters:
  T: {Type: String, Default: ml.p2.xlarge}
Resources:
  Fn::ForEach::Nbs:
    - Name
    - [A]
    - Nb${Name}:
        Type: AWS::SageMaker::NotebookInstance
        Properties: {InstanceType: !Ref T, VolumeSizeInGB: 5}
)";
  FileResult l = ParseText("loop.yaml", loop);
  REQUIRE(l.errors.empty());
  const Workload& nb = Named(l, "NbA");
  CHECK(nb.instance_type.text == "ml.p2.xlarge");
  CHECK(!nb.instance_type.literal.valid());
  CHECK(!nb.volume_gb.literal.valid());

  // A pipeline written as a structured mapping (Fn::ToJsonString): the step's
  // own literal; a pipeline parameter's default is every step's.
  const std::string pipeline = R"(Transform: AWS::LanguageExtensions
Resources:
  P:
    Type: AWS::SageMaker::Pipeline
    Properties:
      PipelineDefinition:
        PipelineDefinitionBody:
          Fn::ToJsonString:
            Parameters: [{Name: Count, DefaultValue: 2}]
            Steps:
              - Name: Train
                Type: Training
                Arguments:
                  ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: {Get: Parameters.Count}}
                  StoppingCondition: {MaxRuntimeInSeconds: 3600}
                  OutputDataConfig: {S3OutputPath: s3://bucket/out}
)";
  FileResult p = ParseText("p.yaml", pipeline);
  REQUIRE(p.errors.empty());
  const Workload& t = Named(p, "P.Train");
  CHECK(LiteralText(pipeline, t.instance_type) == "ml.p3.2xlarge");
  CHECK(LiteralText(pipeline, t.max_run_seconds) == "3600");
  CHECK(t.output_path.text == "s3://bucket/out");
  CHECK(t.instance_count.text == "2");
  CHECK(!t.instance_count.literal.valid());
}
