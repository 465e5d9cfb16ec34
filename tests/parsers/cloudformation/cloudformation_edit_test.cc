// CloudFormation fix edits (README "Fixes"): members removed from and inserted into
// templates as stored, YAML (block and flow) and JSON, every other byte kept;
// each result re-parsed. Positions come from the front end, as a fix's do.
#include <optional>
#include <string>

#include "linter/model/fix.h"
#include "parsers/frontend.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

FileResult Parse(const std::string& text, const std::string& path = "t.yaml") {
  SourceFile f{path, path, text};
  return ParseCloudFormation(f, ResolveOptions{});
}

const Workload& Named(const FileResult& r, std::string_view name) {
  for (const Workload& w : r.workloads) {
    if (w.name == name) return w;
  }
  FAIL("no workload " << name);
  return r.workloads.front();
}

// The text after the change, or nullopt when the editor refuses it. A result
// must parse as a template without errors.
std::optional<std::string> Apply(const std::string& text, const FixChange& c, const std::string& path = "t.yaml") {
  std::optional<TextEdit> e = EditCloudFormation(text, c);
  if (!e) return std::nullopt;
  REQUIRE(e->begin <= e->end);
  REQUIRE(e->end <= text.size());
  std::string out = text.substr(0, e->begin) + e->content + text.substr(e->end);
  FileResult r = Parse(out, path);
  INFO(out);
  CHECK(r.errors.empty());
  return out;
}

FixChange Remove(const Val& v, std::string field) {
  FixChange c;
  c.op = FixChange::Op::kRemove;
  c.range = v.range;
  c.field = std::move(field);
  return c;
}

FixChange Insert(SourceRange at, std::string field, std::string value) {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.range = at;
  c.field = std::move(field);
  c.value = std::move(value);
  return c;
}

const char* kIdle = R"({"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60})";

// The settings block of the first app of a Studio workload.
SourceRange AppRange(const std::string& text, std::string_view name, const std::string& path = "t.yaml") {
  FileResult r = Parse(text, path);
  const Workload& w = Named(r, name);
  REQUIRE(!w.apps.empty());
  return w.apps.front().range;
}

std::optional<std::string> RemoveAccelerator(const std::string& text, std::string_view workload,
                                             const std::string& path = "t.yaml") {
  FileResult r = Parse(text, path);
  REQUIRE(r.errors.empty());
  return Apply(text, Remove(Named(r, workload).accelerator_type, "accelerator_type"), path);
}

}  // namespace

TEST_CASE("remove: an Elastic Inference accelerator of a YAML variant, with its comment", "[cloudformation][edit]") {
  const std::string head = R"(Resources:
  Cfg:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
)";
  // A member on lines of its own: the lines go, the comment before it stays.
  CHECK(RemoveAccelerator(head + R"(        - VariantName: A
          InstanceType: ml.m5.xlarge
          # the accelerator
          AcceleratorType: ml.eia2.medium   # EI
          InitialInstanceCount: 1
)",
                          "Cfg/A") == head + R"(        - VariantName: A
          InstanceType: ml.m5.xlarge
          # the accelerator
          InitialInstanceCount: 1
)");
  // The last member, at the end of a file without a final line break.
  CHECK(RemoveAccelerator(head + "        - VariantName: A\n          AcceleratorType: \"ml.eia2.medium\"", "Cfg/A") ==
        head + "        - VariantName: A\n");
  // The first member of a sequence item: the next one takes its place after `- `.
  CHECK(RemoveAccelerator(head + R"(        - AcceleratorType: ml.eia2.medium
          VariantName: A
        - VariantName: B
)",
                          "Cfg/A") == head + R"(        - VariantName: A
        - VariantName: B
)");
  // Flow mappings: the member and one separator.
  CHECK(RemoveAccelerator(
            head + "        - {VariantName: A, AcceleratorType: ml.eia1.medium, InstanceType: ml.m5.large}\n",
            "Cfg/A") == head + "        - {VariantName: A, InstanceType: ml.m5.large}\n");
  CHECK(RemoveAccelerator(
            head + "        - {VariantName: A, InstanceType: ml.m5.large, AcceleratorType: ml.eia1.medium }\n",
            "Cfg/A") == head + "        - {VariantName: A, InstanceType: ml.m5.large }\n");
  // The only member: the mapping would be empty, so nothing is written.
  CHECK(RemoveAccelerator(head + "        - {AcceleratorType: ml.eia1.medium}\n", "Cfg/?") == std::nullopt);
}

TEST_CASE("remove: a member of a JSON template, its comma right", "[cloudformation][edit]") {
  const std::string before = R"({
    "Resources": {
        "Cfg": {
            "Type": "AWS::SageMaker::EndpointConfig",
            "Properties": {
                "ProductionVariants": [
                    {
                        "VariantName": "A",
                        "AcceleratorType": "ml.eia2.medium",
                        "InstanceType": "ml.m5.xlarge"
                    },
                    {
                        "VariantName": "B",
                        "InstanceType": "ml.m5.xlarge",
                        "AcceleratorType": "ml.eia2.medium"
                    }
                ]
            }
        }
    }
}
)";
  std::optional<std::string> a = RemoveAccelerator(before, "Cfg/A", "t.json");
  REQUIRE(a);
  CHECK(*a == R"({
    "Resources": {
        "Cfg": {
            "Type": "AWS::SageMaker::EndpointConfig",
            "Properties": {
                "ProductionVariants": [
                    {
                        "VariantName": "A",
                        "InstanceType": "ml.m5.xlarge"
                    },
                    {
                        "VariantName": "B",
                        "InstanceType": "ml.m5.xlarge",
                        "AcceleratorType": "ml.eia2.medium"
                    }
                ]
            }
        }
    }
}
)");
  std::optional<std::string> b = RemoveAccelerator(*a, "Cfg/B", "t.json");
  REQUIRE(b);
  CHECK(b->find("\"InstanceType\": \"ml.m5.xlarge\"\n                    }\n                ]") != std::string::npos);
  CHECK(b->find("AcceleratorType") == std::string::npos);
  // One line.
  const std::string line =
      R"({"Resources": {"Cfg": {"Type": "AWS::SageMaker::EndpointConfig", "Properties": {"ProductionVariants": [{"VariantName": "A","InstanceType": "ml.m5.xlarge","AcceleratorType": "ml.eia1.medium"}]}}}})";
  CHECK(
      RemoveAccelerator(line, "Cfg/A", "t.json") ==
      R"({"Resources": {"Cfg": {"Type": "AWS::SageMaker::EndpointConfig", "Properties": {"ProductionVariants": [{"VariantName": "A","InstanceType": "ml.m5.xlarge"}]}}}})");
}

TEST_CASE("remove: a notebook's AcceleratorTypes, block or flow list", "[cloudformation][edit]") {
  const std::string head = R"(Resources:
  Nb:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.medium
)";
  CHECK(RemoveAccelerator(head + "      AcceleratorTypes:\n        - ml.eia1.medium\n        - ml.eia1.large\n      "
                                 "VolumeSizeInGB: 5\n",
                          "Nb") == head + "      VolumeSizeInGB: 5\n");
  CHECK(RemoveAccelerator(head + "      AcceleratorTypes: [ml.eia1.medium]\n", "Nb") == head);
}

TEST_CASE("remove: CRLF line breaks and a byte-order mark stay as they were", "[cloudformation][edit]") {
  const std::string text =
      "\xEF\xBB\xBFResources:\r\n  Cfg:\r\n    Type: AWS::SageMaker::EndpointConfig\r\n    Properties:\r\n"
      "      ProductionVariants:\r\n        - VariantName: A\r\n          AcceleratorType: ml.eia2.medium\r\n"
      "          InstanceType: ml.m5.large\r\n";
  CHECK(RemoveAccelerator(text, "Cfg/A") ==
        "\xEF\xBB\xBFResources:\r\n  Cfg:\r\n    Type: AWS::SageMaker::EndpointConfig\r\n    Properties:\r\n"
        "      ProductionVariants:\r\n        - VariantName: A\r\n          InstanceType: ml.m5.large\r\n");
}

TEST_CASE("remove: refused where the bytes stand for more, or are not the member named", "[cloudformation][edit]") {
  // Under an anchor another mapping aliases.
  const std::string anchored = R"(Resources:
  Cfg:
    Type: AWS::SageMaker::EndpointConfig
    Properties:
      ProductionVariants:
        - VariantName: A
          AcceleratorType: &acc ml.eia2.medium
          InstanceType: ml.m5.large
        - VariantName: B
          AcceleratorType: *acc
          InstanceType: ml.m5.large
)";
  CHECK(RemoveAccelerator(anchored, "Cfg/A") == std::nullopt);
  // A field whose key is another one's, and a position where no value stands.
  FileResult r = Parse(anchored);
  const Workload& a = Named(r, "Cfg/A");
  CHECK(EditCloudFormation(anchored, Remove(a.instance_type, "accelerator_type")) == std::nullopt);
  CHECK(EditCloudFormation(anchored, Remove(a.accelerator_type, "max_wait_seconds")) == std::nullopt);
  Val nowhere = Val::Known("x", {{3, 1}, {3, 1}});
  CHECK(EditCloudFormation(anchored, Remove(nowhere, "accelerator_type")) == std::nullopt);
  // A file that does not read.
  CHECK(EditCloudFormation("A: [\n", Remove(a.accelerator_type, "accelerator_type")) == std::nullopt);
}

TEST_CASE("remove: a max wait in a state machine's training task", "[cloudformation][edit]") {
  const std::string text = R"(Resources:
  Flow:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      Definition:
        StartAt: Train
        States:
          Train:
            Type: Task
            Resource: arn:aws:states:::sagemaker:createTrainingJob.sync
            Parameters:
              StoppingCondition:
                MaxRuntimeInSeconds: 3600
                MaxWaitTimeInSeconds: 7200
              ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1, VolumeSizeInGB: 30}
            End: true
)";
  FileResult r = Parse(text);
  const Workload& w = Named(r, "Flow.Train");
  std::optional<std::string> out = Apply(text, Remove(w.max_wait_seconds, "max_wait_seconds"));
  REQUIRE(out);
  std::string expected = text;
  expected.erase(expected.find("                MaxWaitTimeInSeconds: 7200\n"), 43);
  CHECK(*out == expected);
}

TEST_CASE("insert: idle settings into a YAML app settings block, only the missing levels", "[cloudformation][edit]") {
  const std::string head = R"(Resources:
  Domain:
    Type: AWS::SageMaker::Domain
    Properties:
      DefaultUserSettings:
        ExecutionRole: arn:aws:iam::123456789012:role/x
        JupyterLabAppSettings:
)";
  const std::string tail = "        SecurityGroups: [sg-1]\n";
  auto insert = [&](const std::string& body) {
    std::string text = head + body + tail;
    return Apply(text, Insert(AppRange(text, "Domain"), "idle_settings", kIdle));
  };
  // No lifecycle management at all: the whole path, indented as the file's levels are.
  CHECK(insert("          DefaultResourceSpec:\n            InstanceType: ml.t3.medium  # small\n") ==
        head + R"(          DefaultResourceSpec:
            InstanceType: ml.t3.medium  # small
          AppLifecycleManagement:
            IdleSettings:
              LifecycleManagement: ENABLED
              IdleTimeoutInMinutes: 60
)" + tail);
  // AppLifecycleManagement without IdleSettings.
  CHECK(insert("          AppLifecycleManagement:\n            Other: x\n") ==
        head + R"(          AppLifecycleManagement:
            Other: x
            IdleSettings:
              LifecycleManagement: ENABLED
              IdleTimeoutInMinutes: 60
)" + tail);
  // IdleSettings already there: only what it lacks; a member is never overwritten.
  CHECK(insert("          AppLifecycleManagement:\n            IdleSettings:\n              LifecycleManagement: "
               "DISABLED\n") == head + R"(          AppLifecycleManagement:
            IdleSettings:
              LifecycleManagement: DISABLED
              IdleTimeoutInMinutes: 60
)" + tail);
  CHECK(insert("          AppLifecycleManagement:\n            IdleSettings: {LifecycleManagement: ENABLED, "
               "IdleTimeoutInMinutes: 30}\n") == std::nullopt);
  // A level that is computed is not written into.
  CHECK(insert("          AppLifecycleManagement: !If [C, {}, {}]\n") == std::nullopt);
  // Flow mappings, quoted keys and values: the siblings' style.
  CHECK(insert("          {DefaultResourceSpec: {InstanceType: ml.t3.medium}}\n") ==
        head +
            "          {DefaultResourceSpec: {InstanceType: ml.t3.medium}, AppLifecycleManagement: {IdleSettings: "
            "{LifecycleManagement: ENABLED, IdleTimeoutInMinutes: 60}}}\n" +
            tail);
  CHECK(insert("          {}\n") == head +
                                        "          {AppLifecycleManagement: {IdleSettings: {LifecycleManagement: "
                                        "ENABLED, IdleTimeoutInMinutes: 60}}}\n" +
                                        tail);
  CHECK(insert("          \"DefaultResourceSpec\":\n            \"InstanceType\": \"ml.t3.medium\"\n          "
               "\"LifecycleConfigArns\": []\n") ==
        head +
            "          \"DefaultResourceSpec\":\n            \"InstanceType\": \"ml.t3.medium\"\n          "
            "\"LifecycleConfigArns\": []\n          \"AppLifecycleManagement\":\n            \"IdleSettings\":\n       "
            "       \"LifecycleManagement\": ENABLED\n              \"IdleTimeoutInMinutes\": 60\n" +
            tail);
}

TEST_CASE("insert: idle settings with the file's own indentation step, and a space's timeout",
          "[cloudformation][edit]") {
  const std::string text = R"(Resources:
    Space:
        Type: AWS::SageMaker::Space
        Properties:
            SpaceSettings:
                CodeEditorAppSettings:
                    DefaultResourceSpec:
                        InstanceType: ml.t3.medium
)";
  CHECK(Apply(text, Insert(AppRange(text, "Space"), "idle_settings", R"({"IdleTimeoutInMinutes": 60})")) ==
        text + R"(                    AppLifecycleManagement:
                        IdleSettings:
                            IdleTimeoutInMinutes: 60
)");
}

TEST_CASE("insert: idle settings into a JSON template, pretty or on one line", "[cloudformation][edit]") {
  const std::string text = R"({
  "Resources": {
    "Profile": {
      "Type": "AWS::SageMaker::UserProfile",
      "Properties": {
        "UserSettings": {
          "JupyterLabAppSettings": {
            "DefaultResourceSpec": {"InstanceType": "ml.t3.medium"}
          }
        }
      }
    }
  }
}
)";
  CHECK(Apply(text, Insert(AppRange(text, "Profile", "t.json"), "idle_settings", kIdle), "t.json") == R"({
  "Resources": {
    "Profile": {
      "Type": "AWS::SageMaker::UserProfile",
      "Properties": {
        "UserSettings": {
          "JupyterLabAppSettings": {
            "DefaultResourceSpec": {"InstanceType": "ml.t3.medium"},
            "AppLifecycleManagement": {
              "IdleSettings": {
                "LifecycleManagement": "ENABLED",
                "IdleTimeoutInMinutes": 60
              }
            }
          }
        }
      }
    }
  }
}
)");
  const std::string line =
      R"({"Resources":{"P":{"Type":"AWS::SageMaker::UserProfile","Properties":{"UserSettings":{"JupyterLabAppSettings":{"DefaultResourceSpec":{"InstanceType":"ml.t3.medium"}}}}}}})";
  CHECK(
      Apply(line, Insert(AppRange(line, "P", "t.json"), "idle_settings", kIdle), "t.json") ==
      R"({"Resources":{"P":{"Type":"AWS::SageMaker::UserProfile","Properties":{"UserSettings":{"JupyterLabAppSettings":{"DefaultResourceSpec":{"InstanceType":"ml.t3.medium"},"AppLifecycleManagement":{"IdleSettings":{"LifecycleManagement":"ENABLED","IdleTimeoutInMinutes":60}}}}}}}})");
  // An empty object.
  const std::string empty =
      R"({"Resources": {"P": {"Type": "AWS::SageMaker::UserProfile", "Properties": {"UserSettings": {"JupyterLabAppSettings": {}}}}}})";
  CHECK(
      Apply(empty, Insert(AppRange(empty, "P", "t.json"), "idle_settings", kIdle), "t.json") ==
      R"({"Resources": {"P": {"Type": "AWS::SageMaker::UserProfile", "Properties": {"UserSettings": {"JupyterLabAppSettings": {"AppLifecycleManagement": {"IdleSettings": {"LifecycleManagement": "ENABLED", "IdleTimeoutInMinutes": 60}}}}}}}})");
}

TEST_CASE("insert: a training job's settings where its request is a mapping", "[cloudformation][edit]") {
  const std::string text = R"(Transform: AWS::LanguageExtensions
Resources:
  P:
    Type: AWS::SageMaker::Pipeline
    Properties:
      PipelineDefinition:
        PipelineDefinitionBody:
          Fn::ToJsonString:
            Steps:
              - Name: Train
                Type: Training
                Arguments:
                  AlgorithmSpecification: {TrainingImage: img, TrainingInputMode: File}
                  ResourceConfig: {InstanceType: ml.p3.2xlarge, InstanceCount: 1}
                  StoppingCondition:
                    MaxRuntimeInSeconds: 3600
                  OutputDataConfig: {S3OutputPath: s3://bucket/out}
)";
  SourceRange at = Named(Parse(text), "P.Train").range;
  CHECK(Apply(text, Insert(at, "max_wait_seconds", "7200")) ==
        text.substr(0, text.find("                  OutputDataConfig")) +
            "                    MaxWaitTimeInSeconds: 7200\n                  OutputDataConfig: {S3OutputPath: "
            "s3://bucket/out}\n");
  CHECK(Apply(text, Insert(at, "spot", "true")) == text + "                  EnableManagedSpotTraining: true\n");
  CHECK(Apply(text, Insert(at, "checkpoint", "\"s3://bucket/out/checkpoints\"")) ==
        text + "                  CheckpointConfig:\n                    S3Uri: \"s3://bucket/out/checkpoints\"\n");
  // Present already: never overwritten.
  CHECK(Apply(text, Insert(at, "input_mode", "\"FastFile\"")) == std::nullopt);
  CHECK(Apply(text, Insert(at, "unknown_field", "1")) == std::nullopt);

  // A Step Functions task in JSON; one set from the state input is left alone.
  const std::string json = R"({"Resources": {"Flow": {"Type": "AWS::StepFunctions::StateMachine", "Properties": {
  "Definition": {"StartAt": "Train", "States": {"Train": {
    "Type": "Task", "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
    "Parameters": {
      "AlgorithmSpecification": {"TrainingImage": "img"},
      "ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
      "StoppingCondition.$": "$.stop"
    },
    "End": true}}}}}}}
)";
  SourceRange task = Named(Parse(json, "t.json"), "Flow.Train").range;
  CHECK(Apply(json, Insert(task, "input_mode", "\"FastFile\""), "t.json") ==
        R"({"Resources": {"Flow": {"Type": "AWS::StepFunctions::StateMachine", "Properties": {
  "Definition": {"StartAt": "Train", "States": {"Train": {
    "Type": "Task", "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
    "Parameters": {
      "AlgorithmSpecification": {"TrainingImage": "img", "TrainingInputMode": "FastFile"},
      "ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1},
      "StoppingCondition.$": "$.stop"
    },
    "End": true}}}}}}}
)");
  CHECK(Apply(json, Insert(task, "spot", "true"), "t.json") == json.substr(0, json.find("\n    },")) +
                                                                   ",\n      \"EnableManagedSpotTraining\": true" +
                                                                   json.substr(json.find("\n    },")));
  CHECK(Apply(json, Insert(task, "max_wait_seconds", "7200"), "t.json") == std::nullopt);

  // A definition written as a string is not edited.
  const std::string string_def = R"(Resources:
  Flow:
    Type: AWS::StepFunctions::StateMachine
    Properties:
      DefinitionString: |
        {"StartAt": "Train", "States": {"Train": {"Type": "Task",
          "Resource": "arn:aws:states:::sagemaker:createTrainingJob.sync",
          "Parameters": {"ResourceConfig": {"InstanceType": "ml.p3.2xlarge", "InstanceCount": 1}}, "End": true}}}
)";
  SourceRange in_string = Named(Parse(string_def), "Flow.Train").range;
  CHECK(Apply(string_def, Insert(in_string, "spot", "true")) == std::nullopt);
}

TEST_CASE("insert: tabs in JSON and CRLF line breaks are the file's", "[cloudformation][edit]") {
  const std::string tabs =
      "{\n\t\"Resources\": {\n\t\t\"P\": {\n\t\t\t\"Type\": \"AWS::SageMaker::UserProfile\",\n\t\t\t\"Properties\": "
      "{\n\t\t\t\t\"UserSettings\": {\n\t\t\t\t\t\"CodeEditorAppSettings\": {\n\t\t\t\t\t\t\"LifecycleConfigArns\": "
      "[]\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n}\n";
  CHECK(Apply(tabs, Insert(AppRange(tabs, "P", "t.json"), "idle_settings", kIdle), "t.json") ==
        "{\n\t\"Resources\": {\n\t\t\"P\": {\n\t\t\t\"Type\": \"AWS::SageMaker::UserProfile\",\n\t\t\t\"Properties\": "
        "{\n\t\t\t\t\"UserSettings\": {\n\t\t\t\t\t\"CodeEditorAppSettings\": {\n\t\t\t\t\t\t\"LifecycleConfigArns\": "
        "[],\n\t\t\t\t\t\t\"AppLifecycleManagement\": {\n\t\t\t\t\t\t\t\"IdleSettings\": "
        "{\n\t\t\t\t\t\t\t\t\"LifecycleManagement\": \"ENABLED\",\n\t\t\t\t\t\t\t\t\"IdleTimeoutInMinutes\": "
        "60\n\t\t\t\t\t\t\t}\n\t\t\t\t\t\t}\n\t\t\t\t\t}\n\t\t\t\t}\n\t\t\t}\n\t\t}\n\t}\n}\n");
  const std::string crlf =
      "Resources:\r\n  D:\r\n    Type: AWS::SageMaker::Domain\r\n    Properties:\r\n      DefaultUserSettings:\r\n"
      "        JupyterLabAppSettings:\r\n          LifecycleConfigArns: []  # none\r\n# end\r\n";
  CHECK(Apply(crlf, Insert(AppRange(crlf, "D"), "idle_settings", kIdle)) ==
        "Resources:\r\n  D:\r\n    Type: AWS::SageMaker::Domain\r\n    Properties:\r\n      DefaultUserSettings:\r\n"
        "        JupyterLabAppSettings:\r\n          LifecycleConfigArns: []  # none\r\n"
        "          AppLifecycleManagement:\r\n            IdleSettings:\r\n              LifecycleManagement: "
        "ENABLED\r\n              IdleTimeoutInMinutes: 60\r\n# end\r\n");
}
