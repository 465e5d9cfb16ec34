// Literal sites of Python and notebook values (README "Fixes"): a value written as
// one literal that only its setting reads, and nothing else.
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

// The bytes of `text` a literal site covers ("" when it is invalid).
std::string At(const std::string& text, const SourceRange& r) {
  if (!r.valid()) return "";
  auto b = OffsetOf(text, r.begin), e = OffsetOf(text, r.end);
  REQUIRE(b);
  REQUIRE(e);
  REQUIRE(*b <= *e);
  return text.substr(*b, *e - *b);
}

const Workload& Only(const FileResult& r, WorkloadKind kind) {
  const Workload* found = nullptr;
  for (const Workload& w : r.workloads) {
    if (w.kind == kind) {
      REQUIRE(found == nullptr);
      found = &w;
    }
  }
  REQUIRE(found != nullptr);
  return *found;
}

constexpr const char* kHead = "from sagemaker.pytorch import PyTorch\n";

}  // namespace

TEST_CASE("A literal argument is its own literal site, quotes included", "[python][fix]") {
  std::string src = std::string(kHead) +
                    "est = PyTorch(entry_point='t.py', instance_type=\"ml.p3.2xlarge\", instance_count=2,\n"
                    "              max_run=3600, output_path=\"s3://b/out\")\nest.fit()\n";
  FileResult r = Py(src);
  const Workload& w = Only(r, WorkloadKind::kTrainingJob);
  CHECK(At(src, w.instance_type.literal) == "\"ml.p3.2xlarge\"");
  CHECK(w.instance_type.literal.begin == SourcePos{2, 49});
  CHECK(w.instance_type.literal.end == SourcePos{2, 64});
  CHECK(w.instance_type.literal_path.empty());
  CHECK(At(src, w.instance_count.literal) == "2");
  CHECK(At(src, w.max_run_seconds.literal) == "3600");
  CHECK(w.output_path.known());
  CHECK(w.output_path.text == "s3://b/out");
  CHECK(At(src, w.output_path.literal) == "\"s3://b/out\"");
}

TEST_CASE("A module constant assigned once and read once is the literal site", "[python][fix]") {
  std::string src = std::string(kHead) + "INSTANCE = 'ml.p3.2xlarge'\nest = PyTorch(instance_type=INSTANCE)\n";
  FileResult r = Py(src);
  const Workload& w = Only(r, WorkloadKind::kTrainingJob);
  CHECK(w.instance_type.text == "ml.p3.2xlarge");
  CHECK(At(src, w.instance_type.literal) == "'ml.p3.2xlarge'");
  CHECK(w.instance_type.literal.begin == SourcePos{2, 12});
}

TEST_CASE("Values from elsewhere have no literal site", "[python][fix]") {
  auto site = [](const std::string& body) {
    std::string src = std::string(kHead) + body;
    FileResult r = Py(src);
    const Workload& w = Only(r, WorkloadKind::kTrainingJob);
    INFO(body);
    CHECK(w.instance_type.known());
    return w.instance_type.literal.valid();
  };
  // The literal forms themselves.
  CHECK(site("est = PyTorch(instance_type='ml.p3.2xlarge')\n"));
  // A constant read twice, re-assigned, augmented, declared global, read in a function.
  CHECK_FALSE(site("T = 'ml.p3.2xlarge'\nest = PyTorch(instance_type=T)\nprint(T)\n"));
  CHECK_FALSE(site("T = 'ml.p3.2xlarge'\nT = 'ml.p3.2xlarge'\nest = PyTorch(instance_type=T)\n"));
  CHECK_FALSE(site("T = 'ml.p3'\nT += '.2xlarge'\nest = PyTorch(instance_type=T)\n"));
  CHECK_FALSE(site("T = 'ml.p3.2xlarge'\ndef f():\n    global T\nest = PyTorch(instance_type=T)\n"));
  CHECK_FALSE(site("T = 'ml.p3.2xlarge'\ndef f():\n    return PyTorch(instance_type=T)\nest = f()\n"));
  // f-strings, concatenation, implicit concatenation, escapes, a parameter, a dict lookup.
  CHECK_FALSE(site("F = 'p3'\nest = PyTorch(instance_type=f'ml.{F}.2xlarge')\n"));
  CHECK_FALSE(site("est = PyTorch(instance_type='ml.p3' + '.2xlarge')\n"));
  CHECK_FALSE(site("est = PyTorch(instance_type='ml.p3' '.2xlarge')\n"));
  CHECK_FALSE(site("est = PyTorch(instance_type='ml.p3\\x2e2xlarge')\n"));
  CHECK_FALSE(site("def make(t):\n    return PyTorch(instance_type=t)\nest = make('ml.p3.2xlarge')\n"));
  CHECK_FALSE(site("cfg = {'t': 'ml.p3.2xlarge'}\nest = PyTorch(instance_type=cfg['t'])\n"));
  // A dict of arguments spread into the call: written elsewhere.
  CHECK_FALSE(site("kw = dict(instance_type='ml.p3.2xlarge')\nest = PyTorch(**kw)\n"));
  CHECK_FALSE(site("kw = {'instance_type': 'ml.p3.2xlarge'}\nest = PyTorch(**kw)\n"));
  // A constant assigned inside a branch, or from another constant.
  CHECK_FALSE(site("if True:\n    T = 'ml.p3.2xlarge'\nest = PyTorch(instance_type=T)\n"));
  CHECK_FALSE(site("A = 'ml.p3.2xlarge'\nT = A\nest = PyTorch(instance_type=T)\n"));
}

TEST_CASE("Alternatives have no literal site", "[python][fix]") {
  std::string src = std::string(kHead) +
                    "import os\ngpu = os.environ.get('GPU')\n"
                    "est = PyTorch(instance_type='ml.p3.2xlarge' if gpu else 'ml.m5.xlarge')\n";
  FileResult r = Py(src);
  const Workload& w = Only(r, WorkloadKind::kTrainingJob);
  REQUIRE(w.instance_type.conditional());
  CHECK_FALSE(w.instance_type.literal.valid());
  for (const Val& a : w.instance_type.alternatives) CHECK_FALSE(a.literal.valid());
}

TEST_CASE("A helper's literal is a site only where its workload is reported once, at the helper", "[python][fix]") {
  // Every call builds it the same way: one workload at the helper, whose literal a fix edits.
  std::string once = std::string(kHead) +
                     "def make():\n    return PyTorch(instance_type='ml.p3.2xlarge')\n"
                     "a = make()\na.fit()\n";
  FileResult r = Py(once);
  REQUIRE(r.workloads.size() == 1);
  CHECK(r.workloads[0].instance_type.literal.valid());
  // Each call passes a count the job reads: one workload per call, at the call; the
  // helper's literal serves every call, so no single finding edits it.
  std::string per_call = std::string(kHead) +
                         "def make(n):\n    return PyTorch(instance_type='ml.p3.2xlarge', instance_count=n)\n"
                         "a = make(1)\na.fit()\nb = make(2)\nb.fit()\n";
  r = Py(per_call);
  REQUIRE(r.workloads.size() == 2);
  for (const Workload& w : r.workloads) CHECK_FALSE(w.instance_type.literal.valid());
}

TEST_CASE("boto3 request values written in the call are literal sites", "[python][fix]") {
  std::string src =
      "import boto3\nsm = boto3.client('sagemaker')\nTYPE = \"ml.p3.2xlarge\"\n"
      "sm.create_training_job(\n    TrainingJobName='j',\n"
      "    ResourceConfig={'InstanceType': TYPE, 'InstanceCount': 1, 'VolumeSizeInGB': 30},\n"
      "    OutputDataConfig={'S3OutputPath': 's3://b/o'},\n"
      "    StoppingCondition={'MaxRuntimeInSeconds': 7200},\n)\n";
  FileResult r = Py(src);
  const Workload& w = Only(r, WorkloadKind::kTrainingJob);
  CHECK(At(src, w.instance_type.literal) == "\"ml.p3.2xlarge\"");
  CHECK(At(src, w.instance_count.literal) == "1");
  CHECK(At(src, w.max_run_seconds.literal) == "7200");
  CHECK(w.output_path.text == "s3://b/o");
  CHECK(At(src, w.output_path.literal) == "'s3://b/o'");

  std::string spread =
      "import boto3\nsm = boto3.client('sagemaker')\n"
      "params = {'TrainingJobName': 'j', 'ResourceConfig': {'InstanceType': 'ml.p3.2xlarge', 'InstanceCount': 1}}\n"
      "sm.create_training_job(**params)\n";
  FileResult s = Py(spread);
  const Workload& v = Only(s, WorkloadKind::kTrainingJob);
  CHECK(v.instance_type.text == "ml.p3.2xlarge");
  CHECK_FALSE(v.instance_type.literal.valid());
}

TEST_CASE("Deployed endpoints name the statement that deletes them", "[python][fix]") {
  std::string src = std::string(kHead) +
                    "est = PyTorch(instance_type='ml.m5.xlarge')\n"
                    "predictor = est.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n"
                    "est.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n"
                    "p2 = est.deploy(initial_instance_count=1, instance_type='ml.m5.large')\n"
                    "p2 = None\n";
  FileResult r = Py(src);
  std::vector<std::string> statements, captures;
  for (const Workload& w : r.workloads) {
    if (w.kind != WorkloadKind::kEndpointVariant) continue;
    statements.push_back(w.delete_statement);
    captures.push_back(w.delete_capture);
    if (!w.delete_capture.empty()) CHECK(At(src, w.delete_capture_at).starts_with("p2 = est.deploy("));
  }
  // p2 is bound again later: its endpoint is kept under a name of its own.
  CHECK(statements == std::vector<std::string>{"predictor.delete_endpoint()", "", "p2_1.delete_endpoint()"});
  CHECK(captures == std::vector<std::string>{"", "", "p2_1 = p2"});

  // In a loop or a function: no line at the deploy keeps each one.
  std::string loop = std::string(kHead) +
                     "est = PyTorch(instance_type='ml.m5.xlarge')\n"
                     "for size in ['ml.m5.large', 'ml.m5.xlarge']:\n"
                     "    p = est.deploy(initial_instance_count=1, instance_type=size)\n"
                     "p = None\n";
  for (const Workload& w : Py(loop).workloads) {
    if (w.kind == WorkloadKind::kEndpointVariant) CHECK(w.delete_capture.empty());
  }

  std::string boto =
      "import boto3\nsm_client = boto3.client('sagemaker')\n"
      "sm_client.create_endpoint_config(EndpointConfigName='c', ProductionVariants=[{'VariantName': 'v',\n"
      "    'ModelName': 'm', 'InstanceType': 'ml.m5.large', 'InitialInstanceCount': 1}])\n"
      "sm_client.create_endpoint(EndpointName='my-endpoint', EndpointConfigName='c')\n";
  FileResult b = Py(boto);
  const Workload& v = Only(b, WorkloadKind::kEndpointVariant);
  CHECK(v.delete_statement == "sm_client.delete_endpoint(EndpointName=\"my-endpoint\")");
  CHECK(At(boto, v.instance_type.literal) == "'ml.m5.large'");

  std::string unnamed =
      "import boto3, time\nsm_client = boto3.client('sagemaker')\n"
      "sm_client.create_endpoint_config(EndpointConfigName='c', ProductionVariants=[{'VariantName': 'v',\n"
      "    'ModelName': 'm', 'InstanceType': 'ml.m5.large', 'InitialInstanceCount': 1}])\n"
      "sm_client.create_endpoint(EndpointName='ep-' + str(time.time()), EndpointConfigName='c')\n";
  FileResult u = Py(unnamed);
  CHECK(Only(u, WorkloadKind::kEndpointVariant).delete_statement.empty());

  // A name known only at run time, still held by its variable when the code has run: deleted through it.
  std::string runtime =
      "import boto3, time\nsm_client = boto3.client('sagemaker')\n"
      "sm_client.create_endpoint_config(EndpointConfigName='c', ProductionVariants=[{'VariantName': 'v',\n"
      "    'ModelName': 'm', 'InstanceType': 'ml.m5.large', 'InitialInstanceCount': 1}])\n"
      "name = 'ep-' + str(time.time())\n"
      "sm_client.create_endpoint(EndpointName=name, EndpointConfigName='c')\n";
  CHECK(Only(Py(runtime), WorkloadKind::kEndpointVariant).delete_statement ==
        "sm_client.delete_endpoint(EndpointName=name)");
  // Bound again afterwards: the variable no longer names it.
  CHECK(Only(Py(runtime + "name = 'other'\n"), WorkloadKind::kEndpointVariant).delete_statement.empty());
}

TEST_CASE("A notebook literal site is the token as the .ipynb stores it, in another cell too", "[notebook][fix]") {
  std::string nb = R"({
 "cells": [
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": [
    "from sagemaker.pytorch import PyTorch\n",
    "INSTANCE = \"ml.p3.2xlarge\"  # \"GPU\" \u00e9"
   ]
  },
  {
   "cell_type": "markdown",
   "metadata": {},
   "source": ["text"]
  },
  {
   "cell_type": "code",
   "execution_count": null,
   "metadata": {},
   "outputs": [],
   "source": "est = PyTorch(entry_point=\"a.py\",\n    instance_count=\"\u0031\", instance_type=INSTANCE, max_run=3600)\nest.fit()\n"
  }
 ],
 "metadata": {"kernelspec": {"language": "python"}},
 "nbformat": 4,
 "nbformat_minor": 5
})";
  FileResult r = ParseNotebook(SourceFile{"t.ipynb", "/nonexistent/t.ipynb", nb}, ResolveOptions{});
  const Workload& w = Only(r, WorkloadKind::kTrainingJob);
  CHECK(At(nb, w.instance_type.literal) == "\\\"ml.p3.2xlarge\\\"");
  CHECK(w.instance_type.literal.begin.line == 10);
  CHECK(w.instance_type.literal.cell == 1);
  // In the one-string source form, after escapes on the same JSON line.
  CHECK(At(nb, w.max_run_seconds.literal) == "3600");
  // A token spelled with a JSON escape: the site is the token as stored.
  CHECK(At(nb, w.instance_count.literal) == "\\\"\\u0031\\\"");
}
