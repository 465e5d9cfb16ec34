// EditPython (README "Fixes"): arguments and dict entries inserted beside their
// siblings and removed with their comma, on the calls the front end reports;
// every edited text parses again.
#include <optional>
#include <string>

#include "linter/model/fix.h"
#include "parsers/frontend.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

// The estimator (`est`) or trainer (`t`) of these sources is submitted after
// them: only a submitted job is a workload (docs/python.md). Appended text
// moves no position of the source.
FileResult Py(const std::string& src) {
  return ParsePython(SourceFile{"t.py", "/nonexistent/t.py", src + "\nest.fit()\nt.train()\n"}, ResolveOptions{});
}

const Workload& First(const FileResult& r, WorkloadKind kind) {
  for (const Workload& w : r.workloads) {
    if (w.kind == kind) return w;
  }
  FAIL("no workload of that kind");
  return r.workloads.front();
}

// The text after `change`, or nullopt when the editor refuses it. The result
// must parse without errors.
std::optional<std::string> Edit(const std::string& src, const FixChange& change) {
  std::optional<TextEdit> e = EditPython(src, change);
  if (!e) return std::nullopt;
  REQUIRE(e->begin <= e->end);
  REQUIRE(e->end <= src.size());
  std::string out = src.substr(0, e->begin) + e->content + src.substr(e->end);
  FileResult r = Py(out);
  INFO(out);
  CHECK(r.errors.empty());
  return out;
}

FixChange Insert(const SourceRange& at, std::string field, std::string value) {
  FixChange c;
  c.op = FixChange::Op::kInsert;
  c.range = at;
  c.field = std::move(field);
  c.value = std::move(value);
  return c;
}
FixChange Remove(const SourceRange& at, std::string field) {
  FixChange c;
  c.op = FixChange::Op::kRemove;
  c.range = at;
  c.field = std::move(field);
  return c;
}

// The text after inserting `field` into the training job of `src`.
std::optional<std::string> InsertInto(const std::string& src, const std::string& field, const std::string& value) {
  FileResult r = Py(src);
  return Edit(src, Insert(First(r, WorkloadKind::kTrainingJob).range, field, value));
}

constexpr const char* kHead = "from sagemaker.pytorch import PyTorch\n";

}  // namespace

TEST_CASE("An argument goes on a new line of a multi-line call, with the siblings' indentation and comma",
          "[python][fix][edit]") {
  std::string h = kHead;
  CHECK(InsertInto(h + "est = PyTorch(\n    entry_point='t.py',\n    instance_type='ml.p3.2xlarge',\n)\n",
                   "max_wait_seconds", "86400") ==
        h + "est = PyTorch(\n    entry_point='t.py',\n    instance_type='ml.p3.2xlarge',\n    max_wait=86400,\n)\n");
  // No trailing comma, aligned under the bracket, a comment after the last argument.
  CHECK(InsertInto(h + "est = PyTorch(entry_point='t.py',\n              instance_type='ml.p3.2xlarge'  # GPU\n)\n",
                   "spot", "true") == h + "est = PyTorch(entry_point='t.py',\n              "
                                          "instance_type='ml.p3.2xlarge', use_spot_instances=True  # GPU\n)\n");
  // The closing bracket on the last argument's line.
  CHECK(InsertInto(h + "est = PyTorch(entry_point='t.py',\n\tinstance_type='ml.p3.2xlarge')\n", "max_wait_seconds",
                   "7200") ==
        h + "est = PyTorch(entry_point='t.py',\n\tinstance_type='ml.p3.2xlarge',\n\tmax_wait=7200)\n");
  // A comma then a comment ends the line.
  CHECK(
      InsertInto(h + "est = PyTorch(\n    instance_type='ml.p3.2xlarge',  # GPU\n)\n", "input_mode", "\"FastFile\"") ==
      h + "est = PyTorch(\n    instance_type='ml.p3.2xlarge',  # GPU\n    input_mode='FastFile',\n)\n");
  // CRLF lines stay CRLF.
  CHECK(InsertInto(
            "from sagemaker.pytorch import PyTorch\r\nest = PyTorch(\r\n    instance_type='ml.p3.2xlarge',\r\n)\r\n",
            "max_wait_seconds", "86400") ==
        "from sagemaker.pytorch import PyTorch\r\nest = PyTorch(\r\n    instance_type='ml.p3.2xlarge',\r\n"
        "    max_wait=86400,\r\n)\r\n");
}

TEST_CASE("A one-line call gets `, kw=value` before its bracket", "[python][fix][edit]") {
  std::string h = kHead;
  CHECK(InsertInto(h + "est = PyTorch(entry_point=\"t.py\", instance_type=\"ml.p3.2xlarge\")\n", "checkpoint",
                   "\"s3://b/out/checkpoints\"") ==
        h + "est = PyTorch(entry_point=\"t.py\", instance_type=\"ml.p3.2xlarge\", "
            "checkpoint_s3_uri=\"s3://b/out/checkpoints\")\n");
  // The string quotes follow the call's own.
  CHECK(InsertInto(h + "est = PyTorch(instance_type='ml.p3.2xlarge',)\n", "checkpoint", "\"s3://b/c\"") ==
        h + "est = PyTorch(instance_type='ml.p3.2xlarge', checkpoint_s3_uri='s3://b/c',)\n");
  // Arguments that end on a later line than the call starts, the last not on a line of its own.
  CHECK(InsertInto(h + "est = PyTorch(instance_type='ml.p3.2xlarge', hyperparameters={\n    'a': 1,\n})\n",
                   "max_wait_seconds", "86400") ==
        h + "est = PyTorch(instance_type='ml.p3.2xlarge', hyperparameters={\n    'a': 1,\n}, max_wait=86400)\n");
  // SDK v1 names.
  CHECK(InsertInto(h + "est = PyTorch(train_instance_type='ml.p3.2xlarge')\n", "spot", "true") ==
        h + "est = PyTorch(train_instance_type='ml.p3.2xlarge', train_use_spot_instances=True)\n");
  // An imported alias of an estimator class.
  CHECK(InsertInto(
            "from sagemaker.estimator import Estimator as E\nest = E(image_uri='i', instance_type='ml.c5.xlarge')\n",
            "spot", "true") ==
        "from sagemaker.estimator import Estimator as E\n"
        "est = E(image_uri='i', instance_type='ml.c5.xlarge', use_spot_instances=True)\n");
}

TEST_CASE("An argument is not inserted where it cannot be placed safely", "[python][fix][edit]") {
  std::string h = kHead;
  // Already written, or perhaps given by a spread dict.
  CHECK_FALSE(InsertInto(h + "est = PyTorch(instance_type='ml.p3.2xlarge', max_wait=None)\n", "max_wait_seconds", "1"));
  CHECK_FALSE(InsertInto(h + "kw = {}\nest = PyTorch(instance_type='ml.p3.2xlarge', **kw)\n", "spot", "true"));
  // A helper's call stands for the estimator: not the estimator's own call.
  CHECK_FALSE(
      InsertInto(h + "def make(t):\n    return PyTorch(instance_type=t)\nest = make('ml.p3.2xlarge')\nest.fit()\n",
                 "spot", "true"));
  // Not a call at that range; a field the editor does not know; a value that is not a scalar.
  std::string src = h + "est = PyTorch(instance_type='ml.p3.2xlarge')\n";
  CHECK_FALSE(Edit(src, Insert(SourceRange{{2, 1}, {2, 4}}, "spot", "true")));
  CHECK_FALSE(Edit(src, Insert(First(Py(src), WorkloadKind::kTrainingJob).range, "volume", "30")));
  CHECK_FALSE(Edit(src, Insert(First(Py(src), WorkloadKind::kTrainingJob).range, "spot", "{\"a\": 1}")));
  // SDK v3 ModelTrainer: a compute given by a variable is not edited here.
  CHECK_FALSE(
      InsertInto("from sagemaker.train import ModelTrainer\nc = None\nt = ModelTrainer(training_image='i', "
                 "compute=c)\nt.train()\n",
                 "spot", "true"));
}

TEST_CASE("SDK v3 ModelTrainer takes Spot in its compute, stopping condition and checkpoint configuration",
          "[python][fix][edit]") {
  std::string h = "from sagemaker.train import ModelTrainer\nfrom sagemaker.train.configs import Compute\n";
  CHECK(InsertInto(h + "t = ModelTrainer(training_image='i', compute=Compute(instance_type='ml.g5.xlarge'))\n", "spot",
                   "true") == h + "t = ModelTrainer(training_image='i', compute=Compute(instance_type='ml.g5.xlarge', "
                                  "enable_managed_spot_training=True))\n");
  // No compute: the default written out; the classes not imported: dicts, which ModelTrainer validates.
  std::string bare = "from sagemaker.train import ModelTrainer\n";
  CHECK(InsertInto(bare + "t = ModelTrainer(training_image='i')\n", "spot", "true") ==
        bare +
            "t = ModelTrainer(training_image='i', compute={'instance_type': 'ml.m5.xlarge', 'instance_count': 1, "
            "'enable_managed_spot_training': True})\n");
  CHECK(InsertInto(bare + "t = ModelTrainer(training_image='i')\n", "max_wait_seconds", "7200") ==
        bare + "t = ModelTrainer(training_image='i', stopping_condition={'max_wait_time_in_seconds': 7200})\n");
  CHECK(InsertInto(bare + "t = ModelTrainer(training_image='i')\n", "checkpoint", "\"s3://b/c\"") ==
        bare + "t = ModelTrainer(training_image='i', checkpoint_config={'s3_uri': 's3://b/c'})\n");
}

TEST_CASE("A checkpoint location is built from the output path or the session's default bucket",
          "[python][fix][edit]") {
  std::string h = kHead;
  const std::string under_output = R"({"under": "output_path", "suffix": "checkpoints"})";
  const std::string under_bucket = R"({"under": "default_bucket", "suffix": "checkpoints"})";
  // An f-string output path gets the suffix inside it; a name or call is interpolated; a concatenation extended.
  CHECK(InsertInto(h + "b = 'x'\nest = PyTorch(output_path=f's3://{b}/out/')\n", "checkpoint", under_output) ==
        h + "b = 'x'\nest = PyTorch(output_path=f's3://{b}/out/', checkpoint_s3_uri=f's3://{b}/out/checkpoints')\n");
  CHECK(InsertInto(h + "o = 's3://b/o'\nest = PyTorch(output_path=o)\n", "checkpoint", under_output) ==
        h + "o = 's3://b/o'\nest = PyTorch(output_path=o, checkpoint_s3_uri=f\"{o}/checkpoints\")\n");
  CHECK(InsertInto(h + "est = PyTorch(output_path='s3://{}/o'.format(1))\n", "checkpoint", under_output) ==
        h + "est = PyTorch(output_path='s3://{}/o'.format(1), checkpoint_s3_uri='s3://{}/o'.format(1) + "
            "'/checkpoints')\n");
  // The session's default_bucket() written before the job, in its scope.
  std::string sess = "import sagemaker\nfrom sagemaker.pytorch import PyTorch\ns = sagemaker.Session()\n";
  CHECK(
      InsertInto(sess + "bucket = s.default_bucket()\nest = PyTorch(instance_type='ml.c5.xlarge')\n", "checkpoint",
                 under_bucket) ==
      sess +
          "bucket = s.default_bucket()\n"
          "est = PyTorch(instance_type='ml.c5.xlarge', checkpoint_s3_uri=f's3://{s.default_bucket()}/checkpoints')\n");
  // One inside another function is not visible: a new session's, as `sagemaker` is imported.
  CHECK(InsertInto(sess + "def f():\n    return s.default_bucket()\nest = PyTorch(instance_type='ml.c5.xlarge')\n",
                   "checkpoint", under_bucket) ==
        sess +
            "def f():\n    return s.default_bucket()\n"
            "est = PyTorch(instance_type='ml.c5.xlarge', "
            "checkpoint_s3_uri=f's3://{sagemaker.Session().default_bucket()}/checkpoints')\n");
  // The session the job is given comes first.
  CHECK(InsertInto(sess + "est = PyTorch(instance_type='ml.c5.xlarge', sagemaker_session=s)\n", "checkpoint",
                   under_bucket) == sess +
                                        "est = PyTorch(instance_type='ml.c5.xlarge', sagemaker_session=s, "
                                        "checkpoint_s3_uri=f's3://{s.default_bucket()}/checkpoints')\n");
  // Nothing to build one from.
  CHECK_FALSE(InsertInto(h + "est = PyTorch(instance_type='ml.c5.xlarge')\n", "checkpoint", under_bucket));
  // A boto3 request: under its OutputDataConfig's S3OutputPath; a concatenation ending in a slash takes the suffix.
  std::string boto = "import boto3\nsm = boto3.client('sagemaker')\nb = 'x'\n";
  CHECK(InsertInto(boto + "sm.create_training_job(OutputDataConfig={'S3OutputPath': 's3://' + b + '/out/'})\n",
                   "checkpoint", under_output) ==
        boto +
            "sm.create_training_job(OutputDataConfig={'S3OutputPath': 's3://' + b + '/out/'}, "
            "CheckpointConfig={'S3Uri': 's3://' + b + '/out/' + 'checkpoints'})\n");
}

TEST_CASE("boto3 create_training_job members are inserted as the request spells them", "[python][fix][edit]") {
  std::string head = "import boto3\nsm = boto3.client('sagemaker')\n";
  std::string call = head +
                     "sm.create_training_job(\n"
                     "    TrainingJobName='j',\n"
                     "    AlgorithmSpecification={'TrainingImage': 'i', 'TrainingInputMode': 'File'},\n"
                     "    ResourceConfig={'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1, 'VolumeSizeInGB': 30},\n"
                     "    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n    },\n"
                     ")\n";
  auto with = [&](const std::string& tail) {
    return head + "sm.create_training_job(\n    TrainingJobName='j',\n" +
           "    AlgorithmSpecification={'TrainingImage': 'i', 'TrainingInputMode': 'File'},\n" +
           "    ResourceConfig={'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1, 'VolumeSizeInGB': 30},\n" + tail;
  };
  CHECK(InsertInto(call, "max_wait_seconds", "7200") ==
        with("    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n        'MaxWaitTimeInSeconds': 7200,\n"
             "    },\n)\n"));
  CHECK(InsertInto(call, "spot", "true") ==
        with("    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n    },\n"
             "    EnableManagedSpotTraining=True,\n)\n"));
  CHECK(InsertInto(call, "checkpoint", "\"s3://b/c\"") ==
        with("    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n    },\n"
             "    CheckpointConfig={'S3Uri': 's3://b/c'},\n)\n"));
  // TrainingInputMode exists: not inserted again (a replace changes it).
  CHECK_FALSE(InsertInto(call, "input_mode", "\"FastFile\""));
  std::string no_mode = head +
                        "sm.create_training_job(TrainingJobName='j', AlgorithmSpecification={'TrainingImage': 'i'},\n"
                        "    ResourceConfig={'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1})\n";
  CHECK(InsertInto(no_mode, "input_mode", "\"FastFile\"") ==
        head +
            "sm.create_training_job(TrainingJobName='j', AlgorithmSpecification={'TrainingImage': 'i', "
            "'TrainingInputMode': 'FastFile'},\n"
            "    ResourceConfig={'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1})\n");
  CHECK(InsertInto(no_mode, "max_wait_seconds", "86400") ==
        head +
            "sm.create_training_job(TrainingJobName='j', AlgorithmSpecification={'TrainingImage': 'i'},\n"
            "    ResourceConfig={'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1},\n"
            "    StoppingCondition={'MaxWaitTimeInSeconds': 86400})\n");
  // The specification in a variable: the mode is not inserted there.
  std::string spec = head +
                     "spec = {'TrainingImage': 'i'}\nsm.create_training_job(TrainingJobName='j', "
                     "AlgorithmSpecification=spec, ResourceConfig={'InstanceType': 'ml.p3.2xlarge', "
                     "'InstanceCount': 1})\n";
  CHECK_FALSE(InsertInto(spec, "input_mode", "\"FastFile\""));
  // A spread request may hold the member already.
  std::string spread = head +
                       "req = {'TrainingJobName': 'j', 'ResourceConfig': {'InstanceType': 'ml.p3.2xlarge', "
                       "'InstanceCount': 1}}\nsm.create_training_job(**req)\n";
  CHECK_FALSE(InsertInto(spread, "max_wait_seconds", "86400"));
}

TEST_CASE("A removed argument takes its comma, and its line when alone there", "[python][fix][edit]") {
  std::string h = "from sagemaker.pytorch import PyTorchModel\nm = PyTorchModel(model_data='s3://b/m', role='r')\n";
  auto removed = [&](const std::string& deploy) {
    std::string src = h + deploy;
    FileResult r = Py(src);
    const Workload& w = First(r, WorkloadKind::kEndpointVariant);
    REQUIRE(w.accelerator_type.known());
    std::optional<std::string> out = Edit(src, Remove(w.accelerator_type.range, "accelerator_type"));
    return out ? out->substr(h.size()) : std::string("(refused)");
  };
  CHECK(removed("p = m.deploy(\n    initial_instance_count=1,\n    instance_type='ml.m5.large',\n"
                "    accelerator_type='ml.eia2.medium',  # EI\n)\n") ==
        "p = m.deploy(\n    initial_instance_count=1,\n    instance_type='ml.m5.large',\n)\n");
  CHECK(removed("p = m.deploy(1, 'ml.m5.large', accelerator_type='ml.eia2.medium')\n") ==
        "p = m.deploy(1, 'ml.m5.large')\n");
  CHECK(
      removed(
          "p = m.deploy(accelerator_type='ml.eia2.medium', initial_instance_count=1, instance_type='ml.m5.large')\n") ==
      "p = m.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n");
  CHECK(removed("p = m.deploy(initial_instance_count=1, instance_type='ml.m5.large',\n"
                "             accelerator_type='ml.eia2.medium')\n") ==
        "p = m.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n");
  // A constant: the argument goes, the constant stays.
  CHECK(removed("ACC = 'ml.eia2.medium'\np = m.deploy(initial_instance_count=1, instance_type='ml.m5.large', "
                "accelerator_type=ACC)\n") ==
        "ACC = 'ml.eia2.medium'\np = m.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n");
  // Written in a dict of arguments spread into the call: not edited there.
  CHECK(removed("kw = dict(accelerator_type='ml.eia2.medium')\np = m.deploy(initial_instance_count=1, "
                "instance_type='ml.m5.large', **kw)\n") == "(refused)");
}

TEST_CASE("A max wait is removed as an argument or as a dict entry", "[python][fix][edit]") {
  std::string src = std::string(kHead) + "est = PyTorch(instance_type='ml.c5.xlarge', max_run=3600, max_wait=7200)\n";
  FileResult r = Py(src);
  const Workload& w = First(r, WorkloadKind::kTrainingJob);
  CHECK(Edit(src, Remove(w.max_wait_seconds.range, "max_wait_seconds")) ==
        std::string(kHead) + "est = PyTorch(instance_type='ml.c5.xlarge', max_run=3600)\n");
  // The field must name the argument.
  CHECK_FALSE(Edit(src, Remove(w.max_run_seconds.range, "max_wait_seconds")));

  std::string head = "import boto3\nsm = boto3.client('sagemaker')\n";
  std::string boto = head +
                     "sm.create_training_job(TrainingJobName='j', ResourceConfig={'InstanceType': 'ml.c5.xlarge', "
                     "'InstanceCount': 1},\n    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n"
                     "        'MaxWaitTimeInSeconds': 7200,\n    })\n";
  FileResult b = Py(boto);
  const Workload& v = First(b, WorkloadKind::kTrainingJob);
  REQUIRE(v.max_wait_seconds.known());
  CHECK(Edit(boto, Remove(v.max_wait_seconds.range, "max_wait_seconds")) ==
        head +
            "sm.create_training_job(TrainingJobName='j', ResourceConfig={'InstanceType': 'ml.c5.xlarge', "
            "'InstanceCount': 1},\n    StoppingCondition={\n        'MaxRuntimeInSeconds': 3600,\n    })\n");
  // The dict would be left empty: refused.
  std::string alone = head +
                      "sm.create_training_job(TrainingJobName='j', ResourceConfig={'InstanceType': 'ml.c5.xlarge', "
                      "'InstanceCount': 1}, StoppingCondition={'MaxWaitTimeInSeconds': 7200})\n";
  FileResult a = Py(alone);
  CHECK_FALSE(Edit(alone, Remove(First(a, WorkloadKind::kTrainingJob).max_wait_seconds.range, "max_wait_seconds")));
}

TEST_CASE("EditPython takes the file as stored, a byte-order mark included", "[python][fix][edit]") {
  std::string src =
      "\xEF\xBB\xBF"
      "from sagemaker.pytorch import PyTorch\nest = PyTorch(instance_type='ml.p3.2xlarge')\n";
  FileResult r = Py(src);
  const Workload& w = First(r, WorkloadKind::kTrainingJob);
  std::optional<TextEdit> e = EditPython(src, Insert(w.range, "spot", "true"));
  REQUIRE(e);
  CHECK(src.substr(0, e->begin) + e->content + src.substr(e->end) ==
        "\xEF\xBB\xBF"
        "from sagemaker.pytorch import PyTorch\n"
        "est = PyTorch(instance_type='ml.p3.2xlarge', use_spot_instances=True)\n");
}
