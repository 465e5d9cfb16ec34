// EditNotebook (README "Fixes"): Python edits written back into a cell's JSON
// strings (array and one-string sources), the clean-up cell appended in the
// notebook's own layout; every other byte unchanged, and the result a
// notebook that reads as before.
#include <optional>
#include <string>

#include "linter/model/fix.h"
#include "parsers/frontend.h"
#include "tests/catch.h"

using namespace sagelint;

namespace {

FileResult Nb(const std::string& json) {
  return ParseNotebook(SourceFile{"t.ipynb", "/nonexistent/t.ipynb", json}, ResolveOptions{});
}

const Workload& First(const FileResult& r, WorkloadKind kind) {
  for (const Workload& w : r.workloads) {
    if (w.kind == kind) return w;
  }
  FAIL("no workload of that kind");
  return r.workloads.front();
}

std::optional<std::string> Edit(const std::string& json, const FixChange& change) {
  std::optional<TextEdit> e = EditNotebook(json, change);
  if (!e) return std::nullopt;
  REQUIRE(e->begin <= e->end);
  REQUIRE(e->end <= json.size());
  std::string out = json.substr(0, e->begin) + e->content + json.substr(e->end);
  INFO(out);
  CHECK(Nb(out).errors.empty());
  return out;
}

FixChange Change(FixChange::Op op, const SourceRange& at, std::string field, std::string value = {}) {
  FixChange c;
  c.op = op;
  c.range = at;
  c.field = std::move(field);
  c.value = std::move(value);
  return c;
}

// A notebook of the given cells (their JSON text), in nbformat's own layout.
std::string Notebook(const std::string& cells, int minor = 5) {
  return "{\n \"cells\": [\n" + cells +
         "\n ],\n \"metadata\": {\n  \"kernelspec\": {\n   \"language\": \"python\"\n  }\n },\n"
         " \"nbformat\": 4,\n \"nbformat_minor\": " +
         std::to_string(minor) + "\n}\n";
}

std::string CodeCell(const std::string& id, const std::string& source) {
  return "  {\n   \"cell_type\": \"code\",\n   \"execution_count\": 1,\n   \"id\": \"" + id +
         "\",\n   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": " + source + "\n  }";
}

}  // namespace

TEST_CASE("An argument inserted in a cell becomes a new source line, escaped as stored", "[notebook][fix][edit]") {
  std::string before = Notebook(CodeCell("a", "[\n    \"from sagemaker.pytorch import PyTorch\"\n   ]") + ",\n" +
                                CodeCell("b",
                                         "[\n    \"est = PyTorch(\\n\",\n"
                                         "    \"    entry_point=\\\"train.py\\\",\\n\",\n"
                                         "    \"    instance_type=\\\"ml.p3.2xlarge\\\",\\n\",\n"
                                         "    \")\\n\",\n    \"est.fit()\"\n   ]"));
  FileResult r = Nb(before);
  const Workload& w = First(r, WorkloadKind::kTrainingJob);
  std::optional<std::string> after =
      Edit(before, Change(FixChange::Op::kInsert, w.range, "checkpoint", "\"s3://b/\\\"q\\\"/c\""));
  std::string expected = Notebook(CodeCell("a", "[\n    \"from sagemaker.pytorch import PyTorch\"\n   ]") + ",\n" +
                                  CodeCell("b",
                                           "[\n    \"est = PyTorch(\\n\",\n"
                                           "    \"    entry_point=\\\"train.py\\\",\\n\",\n"
                                           "    \"    instance_type=\\\"ml.p3.2xlarge\\\",\\n\",\n"
                                           "    \"    checkpoint_s3_uri=\\\"s3://b/\\\\\\\"q\\\\\\\"/c\\\",\\n\",\n"
                                           "    \")\\n\",\n    \"est.fit()\"\n   ]"));
  CHECK(after == expected);
  // The edited notebook reads the new argument.
  FileResult again = Nb(*after);
  CHECK(First(again, WorkloadKind::kTrainingJob).checkpoint.text == "s3://b/\"q\"/c");
}

TEST_CASE("A one-line call in a one-string source is edited inside that string", "[notebook][fix][edit]") {
  std::string before =
      Notebook(CodeCell("a",
                        "\"from sagemaker.pytorch import PyTorch\\nest = PyTorch(entry_point=\\\"t.py\\\", "
                        "instance_type=\\\"ml.p3.2xlarge\\\")\\nest.fit()\\n\""));
  FileResult r = Nb(before);
  const Workload& w = First(r, WorkloadKind::kTrainingJob);
  std::optional<std::string> after = Edit(before, Change(FixChange::Op::kInsert, w.range, "spot", "true"));
  CHECK(after == Notebook(CodeCell("a",
                                   "\"from sagemaker.pytorch import PyTorch\\nest = PyTorch(entry_point=\\\"t.py\\\", "
                                   "instance_type=\\\"ml.p3.2xlarge\\\", use_spot_instances=True)\\nest.fit()\\n\"")));
  // A multi-line call in a one-string source: the new line is a `\n` in that string.
  std::string multi = Notebook(CodeCell("a",
                                        "\"from sagemaker.pytorch import PyTorch\\nest = PyTorch(\\n    "
                                        "instance_type='ml.p3.2xlarge',\\n)\\nest.fit()\\n\""));
  FileResult m = Nb(multi);
  CHECK(Edit(multi,
             Change(FixChange::Op::kInsert, First(m, WorkloadKind::kTrainingJob).range, "max_wait_seconds", "86400")) ==
        Notebook(CodeCell("a",
                          "\"from sagemaker.pytorch import PyTorch\\nest = PyTorch(\\n    "
                          "instance_type='ml.p3.2xlarge',\\n    max_wait=86400,\\n)\\nest.fit()\\n\"")));
}

TEST_CASE("An argument alone on its line is removed with its array element", "[notebook][fix][edit]") {
  std::string head = CodeCell("a",
                              "[\n    \"from sagemaker.pytorch import PyTorchModel\\n\",\n"
                              "    \"m = PyTorchModel(model_data='s3://b/m', role='r')\"\n   ]") +
                     ",\n";
  std::string before = Notebook(head + CodeCell("b",
                                                "[\n    \"p = m.deploy(\\n\",\n"
                                                "    \"    initial_instance_count=1,\\n\",\n"
                                                "    \"    instance_type='ml.m5.large',\\n\",\n"
                                                "    \"    accelerator_type='ml.eia2.medium',\\n\",\n"
                                                "    \")\"\n   ]"));
  FileResult r = Nb(before);
  const Workload& w = First(r, WorkloadKind::kEndpointVariant);
  REQUIRE(w.accelerator_type.known());
  CHECK(Edit(before, Change(FixChange::Op::kRemove, w.accelerator_type.range, "accelerator_type")) ==
        Notebook(head + CodeCell("b",
                                 "[\n    \"p = m.deploy(\\n\",\n"
                                 "    \"    initial_instance_count=1,\\n\",\n"
                                 "    \"    instance_type='ml.m5.large',\\n\",\n"
                                 "    \")\"\n   ]")));
  // Inline: only the argument and its comma.
  std::string inline_before = Notebook(
      head + CodeCell("b", "[\n    \"p = m.deploy(1, 'ml.m5.large', accelerator_type='ml.eia2.medium')\"\n   ]"));
  FileResult i = Nb(inline_before);
  CHECK(Edit(inline_before,
             Change(FixChange::Op::kRemove, First(i, WorkloadKind::kEndpointVariant).accelerator_type.range,
                    "accelerator_type")) ==
        Notebook(head + CodeCell("b", "[\n    \"p = m.deploy(1, 'ml.m5.large')\"\n   ]")));
}

TEST_CASE("The clean-up cell is appended in the notebook's layout", "[notebook][fix][edit]") {
  std::string cells = CodeCell("a", "[\n    \"import sagemaker\"\n   ]");
  std::string before = Notebook(cells);
  FixChange c = Change(FixChange::Op::kAppendCell, {}, "",
                       "predictor.delete_endpoint()\nsm.delete_endpoint(EndpointName=\"e\")\n");
  std::string cell =
      "  {\n   \"cell_type\": \"code\",\n   \"execution_count\": null,\n   \"id\": \"sagelint-cleanup\",\n"
      "   \"metadata\": {},\n   \"outputs\": [],\n   \"source\": [\n"
      "    \"predictor.delete_endpoint()\\n\",\n    \"sm.delete_endpoint(EndpointName=\\\"e\\\")\"\n   ]\n  }";
  CHECK(Edit(before, c) == Notebook(cells + ",\n" + cell));
  // No id before nbformat 4.5; an id already taken gets a suffix.
  std::string old_cell = cell;
  old_cell.erase(old_cell.find("   \"id\""), std::string("   \"id\": \"sagelint-cleanup\",\n").size());
  CHECK(Edit(Notebook(cells, 4), c) == Notebook(cells + ",\n" + old_cell, 4));
  std::string taken = CodeCell("sagelint-cleanup", "[]");
  std::string renamed = cell;
  renamed.replace(renamed.find("sagelint-cleanup"), 16, "sagelint-cleanup-2");
  CHECK(Edit(Notebook(taken), c) == Notebook(taken + ",\n" + renamed));
  // A notebook written on one line gets a cell on one line.
  std::string flat =
      R"J({"cells": [{"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [], "source": ["x = 1"]}], )J"
      R"J("metadata": {}, "nbformat": 4, "nbformat_minor": 2})J";
  CHECK(
      Edit(flat, Change(FixChange::Op::kAppendCell, {}, "", "p.delete_endpoint()")) ==
      R"J({"cells": [{"cell_type": "code", "execution_count": 3, "metadata": {}, "outputs": [], "source": ["x = 1"]}, )J"
      R"J({"cell_type": "code", "execution_count": null, "metadata": {}, "outputs": [], )J"
      R"J("source": ["p.delete_endpoint()"]}], "metadata": {}, "nbformat": 4, "nbformat_minor": 2})J");
  // Not a notebook of cells: refused.
  CHECK_FALSE(EditNotebook("{\"worksheets\": []}", c));
  CHECK_FALSE(EditNotebook("not json", c));
}
