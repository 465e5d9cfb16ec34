// The Python / notebook front end read the way Python and IPython run code:
// IPython syntax, program order and scopes, dict mutation, local mode, tests
// that expect failure, every SDK call shape (trigger and clean fixtures, .py
// and .ipynb), and constants built to be expensive.
#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <sstream>

#include "linter/cli/scan_options.h"
#include "linter/model/rule.h"
#include "linter/report/model_dump.h"
#include "parsers/frontend.h"
#include "parsers/python/notebook.h"
#include "tests/catch.h"
#include "tests/test_util.h"

namespace fs = std::filesystem;
using namespace sagelint;
using sagelint::testing::CompareGolden;

namespace {

ScanResult ScanPaths(std::vector<std::string> paths, std::vector<std::string> select = {}) {
  fs::current_path(SAGELINT_SOURCE_DIR);
  ScanOptions opts;
  opts.paths = std::move(paths);
  opts.select.insert(select.begin(), select.end());
  opts.jobs = 1;
  return Scan(opts);
}

std::string Line(const Finding& f) {
  std::ostringstream s;
  s << f.path << ":" << f.range.begin.line << ":" << f.range.begin.column << ": " << f.rule << " " << f.message;
  if (!f.condition.empty()) s << " [when " << f.condition << "]";
  if (f.range.cell > 0) s << " [cell " << f.range.cell << " line " << f.range.cell_line << "]";
  return s.str();
}

// Workloads and parse errors of a scan, as the golden files hold them.
std::string Dump(const ScanResult& r) {
  std::string out;
  for (const Workload& w : r.workloads) out += w.path + ": " + DumpWorkload(w);
  for (const Finding& f : r.findings) {
    if (f.rule == "SM000") out += Line(f) + "\n";
  }
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("IPython cell transformations keep every line and neutralise only IPython syntax", "[python][notebook]") {
  using sagelint::py::NeutraliseCell;
  SECTION("shell and magic lines with their backslash continuations") {
    auto c = NeutraliseCell(Lines("!pip install -q \\\n    sagemaker\nimport os\n  %env A=1"));
    CHECK(c.text == std::vector<std::string>{"pass", "pass", "import os", "  pass"});
  }
  SECTION("a continuation line that starts with != or % is Python") {
    auto c = NeutraliseCell(Lines("ok = (a\n      != b)\nr = (a\n     % 2)"));
    CHECK(c.text == Lines("ok = (a\n      != b)\nr = (a\n     % 2)"));
  }
  SECTION("assignments from shell commands and magics, help lines") {
    auto c = NeutraliseCell(Lines("files = !ls\nt = %timeit -o f()\nd = {'a': 1}\nx == !y\nobj?\nobj.method??"));
    CHECK(c.text == std::vector<std::string>{"pass", "pass", "d = {'a': 1}", "x == !y", "pass", "pass"});
  }
  SECTION("%%time and %%capture cells run Python; other cell magics run none") {
    CHECK(NeutraliseCell(Lines("%%time\n!ls\nx = 1")).text == std::vector<std::string>{"", "pass", "x = 1"});
    CHECK(NeutraliseCell(Lines("\n%%capture out\nx = 1")).text == std::vector<std::string>{"", "", "x = 1"});
    CHECK(NeutraliseCell(Lines("%%bash\nfor f in *; do\necho $f; done")).text == std::vector<std::string>{"", "", ""});
    CHECK(NeutraliseCell(Lines("%%time\n%%writefile a.py\nimport os")).text == std::vector<std::string>{"", "", ""});
  }
  SECTION("one-line automagic cells, but not Python that starts with a magic's name") {
    CHECK(NeutraliseCell(Lines("pip install sagemaker")).text == std::vector<std::string>{"pass"});
    CHECK(NeutraliseCell(Lines("cd ..")).text == std::vector<std::string>{"pass"});
    CHECK(NeutraliseCell(Lines("time.sleep(1)")).text == std::vector<std::string>{"time.sleep(1)"});
    CHECK(NeutraliseCell(Lines("env = 'prod'")).text == std::vector<std::string>{"env = 'prod'"});
    CHECK(NeutraliseCell(Lines("history['loss']")).text == std::vector<std::string>{"history['loss']"});
    // Two lines: IPython applies automagic only to single-line cells.
    CHECK(NeutraliseCell(Lines("x = 1\npip install y")).text == std::vector<std::string>{"x = 1", "pip install y"});
  }
  SECTION("strings and brackets hide what looks like magic") {
    auto c = NeutraliseCell(Lines("s = '''\n!not a command\n'''\nf(1,\n  %2)"));
    CHECK(c.text == Lines("s = '''\n!not a command\n'''\nf(1,\n  %2)"));
  }
  SECTION("an indented cell and pasted prompts are stripped, with the shift recorded") {
    auto c = NeutraliseCell(Lines("    x = 1\n    if x:\n        y = 2"));
    CHECK(c.text == Lines("x = 1\nif x:\n    y = 2"));
    CHECK(c.shift == std::vector<int>{4, 4, 4});
    auto p = NeutraliseCell(Lines(">>> x = 1\n>>> y = 2"));
    CHECK(p.text == Lines("x = 1\ny = 2"));
    auto q = NeutraliseCell(Lines("In [3]: x = (1,\n   ...:      2)"));
    CHECK(q.text == Lines("x = (1,\n     2)"));
  }
}

TEST_CASE("notebooks: every IPython form, other kernels, genuine errors with their cell", "[python][notebook]") {
  ScanResult r = ScanPaths({"fixtures/parsers/python/notebooks"});
  CHECK(CompareGolden("tests/golden/python/ipython.model", Dump(r)) == "");
  std::multiset<std::string> errors;
  for (const Finding& f : r.findings) {
    if (f.rule == "SM000") errors.insert(f.path.substr(f.path.rfind('/') + 1));
    // Every notebook finding has its cell view, boto3 requests and parse errors included.
    if (f.path.ends_with(".ipynb")) {
      INFO(Line(f));
      CHECK(f.range.cell > 0);
      CHECK(f.range.cell_line > 0);
    }
  }
  // Only the two notebooks with code Python rejects; nothing from the R notebook.
  CHECK(errors == std::multiset<std::string>{"broken_cell.ipynb", "broken_magic.ipynb"});
  for (const Workload& w : r.workloads) CHECK(w.path.find("r_kernel") == std::string::npos);
}

TEST_CASE("scopes, program order, branches, loops and dict mutation", "[python]") {
  CHECK(CompareGolden("tests/golden/python/scopes.model", Dump(ScanPaths({"fixtures/parsers/python/scopes.py"}))) ==
        "");
}

TEST_CASE("SDK call shapes: trigger and clean fixtures, as .py and as .ipynb", "[python][notebook]") {
  const std::vector<std::string> rules = {"SM102", "SM401", "SM402", "SM403"};
  ScanResult r = ScanPaths({"fixtures/parsers/python/shapes"}, rules);
  CHECK(CompareGolden("tests/golden/python/shapes.model", Dump(r)) == "");
  std::string findings;
  std::map<std::string, int> per_file;
  std::map<std::string, std::multiset<std::string>> by_shape;  // stem -> "ext rule message"
  for (const Finding& f : r.findings) {
    findings += Line(f) + "\n";
    ++per_file[f.path];
    fs::path p(f.path);
    by_shape[p.parent_path().filename().string() + "/" + p.stem().string() + p.extension().string()].insert(
        f.rule + " " + f.message + " " + f.condition);
  }
  CHECK(CompareGolden("tests/golden/python/shapes.findings", findings) == "");
  for (const auto& entry : fs::recursive_directory_iterator("fixtures/parsers/python/shapes")) {
    std::string p = entry.path().generic_string();
    if (!entry.is_regular_file() || (!p.ends_with(".py") && !p.ends_with(".ipynb"))) continue;
    INFO(p);
    if (p.find("/trigger/") != std::string::npos) {
      CHECK(per_file[p] > 0);
    } else {
      CHECK(per_file[p] == 0);
    }
    // The notebook version of a shape gives the same findings as the script.
    if (p.ends_with(".py")) {
      fs::path py(p);
      std::string key = py.parent_path().filename().string() + "/" + py.stem().string();
      CHECK(by_shape[key + ".py"] == by_shape[key + ".ipynb"]);
    }
  }
}

TEST_CASE("nested and self-referencing constants stay linear, and the per-file budget ends in unknown",
          "[python][adversarial]") {
  // 22 nested dicts that each hold the previous one twice: 4 million leaves if copied.
  std::string src =
      "import boto3\nfrom sagemaker.estimator import Estimator\na0 = {\"instance_type\": \"ml.p3.2xlarge\"}\n";
  std::string path = "a22";
  for (int i = 1; i <= 22; ++i) {
    src +=
        "a" + std::to_string(i) + " = {\"l\": a" + std::to_string(i - 1) + ", \"r\": a" + std::to_string(i - 1) + "}\n";
    path += i % 2 ? "[\"l\"]" : "[\"r\"]";
  }
  path += "[\"instance_type\"]";
  src += "deep = Estimator(image_uri=\"img\", role=\"r\", instance_count=1, instance_type=" + path + ")\n";
  src += "deep.fit()\n";
  src +=
      "boto3.client(\"sagemaker\").create_training_job(TrainingJobName=\"big\", HyperParameters=a22, "
      "ResourceConfig={\"InstanceType\": \"ml.m5.xlarge\", \"InstanceCount\": 1})\n";
  // 40 doublings of a string, used by 50 estimators.
  src += "s0 = \"ab\"\n";
  for (int i = 1; i <= 40; ++i) {
    src += "s" + std::to_string(i) + " = s" + std::to_string(i - 1) + " + s" + std::to_string(i - 1) + "\n";
  }
  for (int i = 0; i < 50; ++i) {
    src += "Estimator(image_uri=s40, role=\"r\", instance_count=1, instance_type=\"ml.m5.large\").fit()\n";
  }
  // Lists that double the same way.
  src += "l0 = [\"ml.m5.large\"]\n";
  for (int i = 1; i <= 40; ++i) {
    src += "l" + std::to_string(i) + " = l" + std::to_string(i - 1) + " + l" + std::to_string(i - 1) + "\n";
  }
  src += "Estimator(image_uri=\"img\", role=\"r\", instance_count=1, instance_type=l40[0]).fit()\n";

  for (const bool notebook : {false, true}) {
    FileResult r;
    if (notebook) {
      // The same code as one notebook cell per line.
      std::string nb = "{\"cells\": [";
      bool first = true;
      for (const std::string& line : Lines(src)) {
        std::string escaped;
        for (char c : line) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
        nb += std::string(first ? "" : ",") + "{\"cell_type\": \"code\", \"source\": [\"" + escaped + "\"]}";
        first = false;
      }
      nb += "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}";
      r = ParseNotebook(SourceFile{"adversarial.ipynb", "/nonexistent/adversarial.ipynb", nb}, ResolveOptions{});
    } else {
      r = ParsePython(SourceFile{"adversarial.py", "/nonexistent/adversarial.py", src}, ResolveOptions{});
    }
    INFO((notebook ? "notebook" : "python"));
    CHECK(r.errors.empty());
    REQUIRE(r.workloads.size() == 53);
    // The nested constant resolves through 22 levels.
    CHECK(r.workloads[0].instance_type.known());
    CHECK(r.workloads[0].instance_type.text == "ml.p3.2xlarge");
    // The request that spreads it is read up to a budget: incomplete, never expanded in full.
    CHECK(r.workloads[1].label == "boto3 create_training_job 'big'");
    CHECK(!r.workloads[1].complete);
    CHECK(r.workloads[1].instance_type.text == "ml.m5.xlarge");
    // The doubled string outgrows the size limit: unknown, and every estimator using it is still read.
    for (size_t i = 2; i < 52; ++i) {
      CHECK(r.workloads[i].image.unknown());
      CHECK(r.workloads[i].instance_type.text == "ml.m5.large");
    }
    CHECK(r.workloads[52].instance_type.unknown());
  }
}

TEST_CASE("notebook endpoints: whether a later cell deletes them, and by which idiom", "[python][notebook]") {
  CHECK(CompareGolden("tests/golden/python/deletes.model", Dump(ScanPaths({"fixtures/rules/SM213"}))) == "");
}

TEST_CASE("inputs the fuzzers found: fields tree-sitter leaves out while recovering", "[python][adversarial]") {
  // Chained assignments whose last right-hand side is missing, among others.
  for (const char* src : {"a = b =\n", "a = b = c =\nx = 1\n", "x: int =\n", "def f(:\n  return\n", "with :\n  pass\n",
                          "for in x:\n  pass\n", "import\nfrom import x\n", "f(**)\n", "d[] = 1\n"}) {
    INFO(src);
    FileResult r =
        ParsePython(SourceFile{"x.py", "/nonexistent/x.py", std::string("import sagemaker\n") + src}, ResolveOptions{});
    CHECK(r.errors.size() <= 1);  // read to the end, never a crash
  }
  for (const char* path : {"tests/fuzz/corpus/python/regress-missing-field.py",
                           "tests/fuzz/corpus/notebook/regress-missing-field.ipynb"}) {
    std::string text = sagelint::testing::ReadFileOrDie(sagelint::testing::SourcePath(path));
    FileResult r = std::string(path).ends_with(".py") ? ParsePython(SourceFile{path, path, text}, ResolveOptions{})
                                                      : ParseNotebook(SourceFile{path, path, text}, ResolveOptions{});
    CHECK(!r.errors.empty());
  }
}

TEST_CASE("code that names neither the SDK nor boto3 is not read", "[python]") {
  // The engine's byte scan matched a comment; the code itself cannot declare a workload.
  FileResult r = ParsePython(SourceFile{"train.py", "/nonexistent/train.py",
                                        "# Runs inside a SageMaker training container.\nprint 'python 2'\n"},
                             ResolveOptions{});
  CHECK(r.errors.empty());
  CHECK(r.workloads.empty());
}

namespace {

// `lines` as a notebook of one code cell per line (nbformat 4).
std::string OneCellPerLine(const std::vector<std::string>& lines) {
  std::string nb = "{\"cells\": [";
  bool first = true;
  for (const std::string& line : lines) {
    std::string escaped;
    for (char c : line) escaped += c == '"' ? std::string("\\\"") : std::string(1, c);
    nb += std::string(first ? "" : ",") + "{\"cell_type\": \"code\", \"source\": [\"" + escaped + "\"]}";
    first = false;
  }
  return nb + "], \"metadata\": {}, \"nbformat\": 4, \"nbformat_minor\": 5}";
}

}  // namespace

TEST_CASE("a file that outgrows the evaluation budget says where (SM007) and its later calls are still read",
          "[python][adversarial]") {
  // 80,000 generated assignments, then an 8 × ml.p3.16xlarge estimator: the
  // budget runs out long before the estimator, which must not go unseen.
  std::vector<std::string> lines = {"from sagemaker.estimator import Estimator", "itype = \"ml.p3.16xlarge\""};
  for (int i = 0; i < 80000; ++i) lines.push_back("x" + std::to_string(i) + " = 1");
  lines.push_back("est = Estimator(image_uri=\"img\", role=\"r\", instance_count=8, instance_type=\"ml.p3.16xlarge\")");
  lines.push_back("est.fit(\"s3://ml-data/train/\")");
  // Past the stop only literals count: a constant set before it may have changed since.
  lines.push_back("late = Estimator(image_uri=\"img\", role=\"r\", instance_count=1, instance_type=itype)");
  lines.push_back("late.fit()");
  std::string src;
  for (const std::string& l : lines) src += l + "\n";
  for (const bool notebook : {false, true}) {
    INFO((notebook ? "notebook" : "python"));
    FileResult r = notebook ? ParseNotebook(SourceFile{"big.ipynb", "/nonexistent/big.ipynb", OneCellPerLine(lines)},
                                            ResolveOptions{})
                            : ParsePython(SourceFile{"big.py", "/nonexistent/big.py", src}, ResolveOptions{});
    CHECK(r.errors.empty());
    REQUIRE(r.bounds.size() == 1);
    CHECK(r.bounds[0].message.find("stopped evaluating this file here") != std::string::npos);
    if (notebook) {
      CHECK(r.bounds[0].cell > 2);
      CHECK(r.bounds[0].cell < 80003);
    } else {
      CHECK(r.bounds[0].pos.line > 2);
      CHECK(r.bounds[0].pos.line < 80003);
    }
    REQUIRE(r.workloads.size() == 2);
    CHECK(r.workloads[0].label == "estimator 'est'");
    CHECK(r.workloads[0].instance_type.text == "ml.p3.16xlarge");
    CHECK(r.workloads[0].instance_count.text == "8");
    CHECK(r.workloads[0].channels.size() == 1);  // est.fit() after the stop still links to est
    CHECK(r.workloads[1].instance_type.unknown());
  }
  // Through the engine: the note, and the gate still sees the estimator.
  sagelint::testing::TempDir dir;
  dir.Write("big.py", src);
  ScanResult scan = ScanPaths({dir.path()}, {"SM401"});
  std::multiset<std::string> rules;
  for (const Finding& f : scan.findings) rules.insert(f.rule);
  CHECK(rules == std::multiset<std::string>{"SM007", "SM401", "SM401"});
}

TEST_CASE("notebooks of one directory are one workflow: deletes and scaling across them", "[python][notebook]") {
  ScanResult r = ScanPaths({"fixtures/parsers/python/workflows"}, {"SM211", "SM213"});
  std::string findings;
  for (const Finding& f : r.findings) findings += Line(f) + "\n";
  CHECK(CompareGolden("tests/golden/python/workflows.findings", findings) == "");
}

TEST_CASE("a notebook cell Python rejects is read alone: only it is lost, and only it is reported",
          "[python][notebook]") {
  // tree-sitter recovering from the YAML cell would otherwise report errors in
  // the valid cells around it and lose their code.
  std::vector<std::string> cells = {"from sagemaker.model import Model",
                                    "redis.conf: |",
                                    "m = Model(image_uri=\"img:1\", role=\"r\")",
                                    "p = m.deploy(initial_instance_count=1, instance_type=\"ml.m5.xlarge\")",
                                    "<redis-service-name>.<namespace>:6379",
                                    "p.predict(1)"};
  FileResult r =
      ParseNotebook(SourceFile{"yaml.ipynb", "/nonexistent/yaml.ipynb", OneCellPerLine(cells)}, ResolveOptions{});
  std::string errors;
  for (const ParseError& e : r.errors) errors += e.message + " @cell " + std::to_string(e.cell) + "\n";
  INFO(errors);
  REQUIRE(r.errors.size() == 2);
  CHECK(r.errors[0].cell == 2);
  CHECK(r.errors[1].cell == 5);
  REQUIRE(r.workloads.size() == 1);
  CHECK(r.workloads[0].instance_type.text == "ml.m5.xlarge");
  CHECK(r.workloads[0].deleted.text == "false");
}

TEST_CASE("sagemaker.core resources send the requests they name: every rule reads them", "[python][notebook]") {
  // TrainingJob.create, ProcessingJob.create, TransformJob.create, EndpointConfig.create with
  // ProductionVariant shapes, Endpoint.create, Model.create; SDK v3 and the sagemaker_core
  // package; endpoint.delete() and Endpoint.get(...).delete() for SM213 (cleaned/).
  ScanResult r = ScanPaths({"fixtures/parsers/python/core"});
  std::string findings;
  for (const Finding& f : r.findings) findings += Line(f) + "\n";
  CHECK(CompareGolden("tests/golden/python/core.findings", findings) == "");
  std::string workloads;
  for (const Workload& w : r.workloads)
    workloads +=
        w.path + ":" + std::to_string(w.range.begin.line) + " " + w.label +
        (w.kind == WorkloadKind::kEndpointVariant ? " deleted=" + (w.deleted.known() ? w.deleted.text : "?") : "") +
        "\n";
  CHECK(CompareGolden("tests/golden/python/core.workloads", workloads) == "");
}

TEST_CASE("only a submitted estimator or trainer is a job", "[python][notebook]") {
  // Never fit (train() commented out), only in a try that fails the test when the call
  // returns, dropped as made: no job. Fit, tuned, handed on or returned: a job.
  ScanResult r = ScanPaths({"fixtures/parsers/python/submitted"});
  std::string findings;
  for (const Finding& f : r.findings) findings += Line(f) + "\n";
  CHECK(CompareGolden("tests/golden/python/submitted.findings", findings) == "");
  std::set<std::string> labels;
  for (const Workload& w : r.workloads) labels.insert(w.label);
  CHECK(labels == std::set<std::string>{"PyTorch estimator 'submitted'", "PyTorch estimator 'handed'",
                                        "HyperparameterTuner 'tuner'", "estimator 'est'",
                                        "ModelTrainer created by ModelTrainer()"});
}

TEST_CASE("a helper's workload is reported at each call that passes an argument it reads, else once at the helper",
          "[python]") {
  ScanResult r = ScanPaths({"fixtures/parsers/python/helpers"});
  std::string findings;
  for (const Finding& f : r.findings) findings += Line(f) + "\n";
  CHECK(CompareGolden("tests/golden/python/helpers.findings", findings) == "");
  CHECK(CompareGolden("tests/golden/python/helpers.model", Dump(r)) == "");
}

TEST_CASE("a pipeline's steps are jobs: @step functions, step_args and estimator steps", "[python]") {
  ScanResult r = ScanPaths({"fixtures/parsers/python/pipeline"});
  std::string findings;
  for (const Finding& f : r.findings) findings += Line(f) + "\n";
  CHECK(CompareGolden("tests/golden/python/pipeline.findings", findings) == "");
}

TEST_CASE("a boto3 endpoint configuration's shadow variants are endpoint variants too", "[python]") {
  // Shadow variants run (and bill) instances of their own, as CloudFormation and Terraform read them.
  ScanResult r = ScanPaths({"fixtures/parsers/python/boto3_shadow_variant.py"});
  std::vector<const Workload*> variants;
  for (const Workload& w : r.workloads) {
    if (w.kind == WorkloadKind::kEndpointVariant) variants.push_back(&w);
  }
  REQUIRE(variants.size() == 2);
  const Workload& prod = *variants[0];
  const Workload& shadow = *variants[1];
  CHECK(prod.label == "boto3 create_endpoint_config variant 'shadow-test/prod'");
  CHECK(prod.instance_type.text == "ml.m5.large");
  CHECK(shadow.label == "boto3 create_endpoint_config variant 'shadow-test/shadow'");
  CHECK(shadow.name == "shadow-test/shadow");
  CHECK(shadow.variant_name.text == "shadow");
  CHECK(shadow.instance_type.text == "ml.g5.xlarge");
  CHECK(shadow.instance_type.range.begin.line == 12);
  CHECK(shadow.instance_count.text == "2");
  CHECK(shadow.endpoint_name.text == "shadow-ep");
  CHECK(std::find(shadow.keys.begin(), shadow.keys.end(), "endpoint:shadow-ep/variant/shadow") != shadow.keys.end());
  CHECK(shadow.range.begin.line == 6);
}
