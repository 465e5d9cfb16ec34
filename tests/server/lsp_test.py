#!/usr/bin/env python3
"""`sagelint server` driven by a scripted LSP client (README.md, "Editors").

Usage: lsp_test.py SAGELINT_BINARY [unittest arguments]
"""

import json
import os
import subprocess
import sys
import tempfile
import time
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_client import LspClient, apply_edits  # noqa: E402

BINARY = None

TEMPLATE = """AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.p3.2xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution
      LifecycleConfigName: auto-stop-idle
"""

CELL_SETUP = 'import sagemaker\nfrom sagemaker.sklearn import SKLearn\n\nrole = sagemaker.get_execution_role()\n'
CELL_TRAIN = ('est = SKLearn(entry_point="train.py", role=role, framework_version="1.2-1",\n'
              '              instance_type="ml.p3.2xlarge", instance_count=1)\n'
              'est.fit({"train": "s3://bucket/train/"})\n')


def rules_of(diagnostics):
    return sorted(d["code"] for d in diagnostics)


def change(uri, version, start, end, text):
    return {"textDocument": {"uri": uri, "version": version},
            "contentChanges": [{"range": {"start": start, "end": end}, "text": text}]}


class ServerTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.root = os.path.realpath(self.dir.name)
        self.client = LspClient(BINARY, self.root)
        self.addCleanup(self.client.kill)
        self.addCleanup(self.dir.cleanup)

    def write(self, name, text):
        path = os.path.join(self.root, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def open(self, name, text, language="yaml", on_disk=True):
        path = self.write(name, text) if on_disk else os.path.join(self.root, name)
        uri = "file://" + path
        self.client.notify("textDocument/didOpen",
                           {"textDocument": {"uri": uri, "languageId": language, "version": 1, "text": text}})
        return uri

    def test_initialize_capabilities(self):
        caps = self.client.initialize(self.root)["result"]["capabilities"]
        self.assertEqual(caps["textDocumentSync"]["change"], 2)  # incremental
        self.assertTrue(caps["textDocumentSync"]["openClose"])
        self.assertEqual(caps["positionEncoding"], "utf-16")
        self.assertIn({"notebook": {"pattern": "**/*.ipynb"}}, caps["notebookDocumentSync"]["notebookSelector"])
        self.assertEqual(caps["codeActionProvider"]["codeActionKinds"], ["quickfix"])
        self.assertTrue(caps["hoverProvider"])
        self.assertEqual(self.client.shutdown(), ({"jsonrpc": "2.0", "id": 2, "result": None}, 0))

    def test_open_change_fix_and_shutdown(self):
        c = self.client
        c.initialize(self.root)
        uri = self.open("notebook.yaml", TEMPLATE)
        diags = c.diagnostics(uri, version=1)
        self.assertEqual(rules_of(diags), ["SM103"])
        d = diags[0]
        self.assertEqual(d["range"], {"start": {"line": 5, "character": 20}, "end": {"line": 5, "character": 33}})
        self.assertEqual(d["severity"], 2)
        self.assertEqual(d["source"], "sagelint")
        self.assertIn("notebook instance 'Explore'", d["message"])
        self.assertIn("\ncost: ml.p3.2xlarge ≈ $", d["message"])
        # The build does not know the project's address: no link to a placeholder.
        self.assertNotIn("codeDescription", d)

        # A CPU type: the diagnostic goes (an incremental change, UTF-16 positions).
        c.notify("textDocument/didChange", change(uri, 2, {"line": 5, "character": 20},
                                                  {"line": 5, "character": 33}, "ml.t3.medium"))
        self.assertEqual(c.diagnostics(uri, version=2), [])

        # Back to the GPU type, then the fix the code action offers.
        c.notify("textDocument/didChange", change(uri, 3, {"line": 5, "character": 20},
                                                  {"line": 5, "character": 32}, "ml.p3.2xlarge"))
        diags = c.diagnostics(uri, version=3)
        self.assertEqual(rules_of(diags), ["SM103"])
        actions = c.request("textDocument/codeAction", {
            "textDocument": {"uri": uri}, "range": diags[0]["range"], "context": {"diagnostics": diags}})["result"]
        titles = [a["title"] for a in actions]
        self.assertEqual(len(actions), 2, titles)
        fix = actions[0]
        self.assertEqual(fix["kind"], "quickfix")
        self.assertTrue(fix["title"].startswith("SM103: "), fix["title"])
        self.assertFalse(fix["isPreferred"])  # an unsafe fix: the author reviews it
        self.assertEqual(list(fix["edit"]["changes"]), [uri])
        ignore = actions[1]
        self.assertEqual(ignore["title"], "Ignore SM103 on this line")
        self.assertEqual(ignore["edit"]["changes"][uri],
                         [{"range": {"start": {"line": 5, "character": 0}, "end": {"line": 5, "character": 0}},
                           "newText": "      # sagelint:ignore=SM103\n"}])

        fixed = apply_edits(TEMPLATE, fix["edit"]["changes"][uri])
        self.assertNotIn("ml.p3.2xlarge", fixed)
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 4},
                                            "contentChanges": [{"text": fixed}]})
        self.assertEqual(c.diagnostics(uri, version=4), [])

        # The ignore comment, applied to the GPU template, silences the rule.
        ignored = apply_edits(TEMPLATE, ignore["edit"]["changes"][uri])
        c.notify("textDocument/didChange", {"textDocument": {"uri": uri, "version": 5},
                                            "contentChanges": [{"text": ignored}]})
        self.assertEqual(c.diagnostics(uri, version=5), [])

        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        self.assertEqual(c.diagnostics(uri), [])
        response, status = c.shutdown()
        self.assertEqual(response["result"], None)
        self.assertEqual(status, 0)

    def test_unsaved_buffer_and_utf16(self):
        c = self.client
        c.initialize(self.root)
        # Nothing on disk; a comment with characters beyond the basic plane before the value.
        text = TEMPLATE.replace("      InstanceType:", "      # 🚀🚀 GPU\n      InstanceType:")
        uri = self.open("unsaved.yaml", text, on_disk=False)
        diags = c.diagnostics(uri, version=1)
        self.assertEqual(rules_of(diags), ["SM103"])
        self.assertEqual(diags[0]["range"]["start"], {"line": 6, "character": 20})
        # An edit inside the comment counted in UTF-16 units (each rocket is two).
        c.notify("textDocument/didChange", change(uri, 2, {"line": 5, "character": 12},
                                                  {"line": 5, "character": 15}, "CPU"))
        c.notify("textDocument/didChange", change(uri, 3, {"line": 6, "character": 20},
                                                  {"line": 6, "character": 33}, "ml.t3.large"))
        self.assertEqual(c.diagnostics(uri, version=3), [])

    def test_hover_on_instance_type(self):
        c = self.client
        c.initialize(self.root)
        uri = self.open("notebook.yaml", TEMPLATE)
        c.diagnostics(uri)
        hover = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                 "position": {"line": 5, "character": 25}})["result"]
        value = hover["contents"]["value"]
        self.assertEqual(hover["contents"]["kind"], "markdown")
        self.assertTrue(value.startswith("**ml.p3.2xlarge** — 1 × NVIDIA V100 (16 GiB each), 8 vCPU, 61 GiB memory"),
                        value)
        self.assertIn("| training | $", value)
        self.assertIn("| notebook | $", value)
        self.assertIn("prices: us-east-1", value)
        self.assertEqual(hover["range"], {"start": {"line": 5, "character": 20}, "end": {"line": 5, "character": 33}})
        nothing = c.request("textDocument/hover", {"textDocument": {"uri": uri},
                                                   "position": {"line": 3, "character": 8}})
        self.assertIsNone(nothing["result"])
        # The type under the cursor, of two on a line; a CPU type has no accelerator.
        puri = self.open("types.py", 'TYPES = ["ml.p3.2xlarge", "ml.m5.large"]\n', language="python", on_disk=False)
        hover = c.request("textDocument/hover", {"textDocument": {"uri": puri},
                                                 "position": {"line": 0, "character": 30}})["result"]
        self.assertTrue(hover["contents"]["value"].startswith("**ml.m5.large** — no accelerator, 2 vCPU, 8 GiB memory"),
                        hover["contents"]["value"])
        self.assertEqual(hover["range"], {"start": {"line": 0, "character": 27}, "end": {"line": 0, "character": 38}})

    def test_config_at_the_scan_root(self):
        c = self.client
        self.write(".sagelint.yaml", "rules:\n  SM103: off\n")
        c.initialize(self.root)
        uri = self.open("notebook.yaml", TEMPLATE)
        self.assertEqual(c.diagnostics(uri, version=1), [])

    def test_terraform_module_siblings(self):
        c = self.client
        # The type comes from a variable in a sibling file that is only on disk.
        self.write("variables.tf", 'variable "nb_type" {\n  default = "ml.p3.2xlarge"\n}\n')
        main = ('resource "aws_sagemaker_notebook_instance" "lab" {\n  name = "lab"\n'
                '  role_arn = "arn:aws:iam::111122223333:role/r"\n  instance_type = var.nb_type\n'
                '  lifecycle_config_name = "stop-idle"\n}\n')
        c.initialize(self.root)
        uri = self.open("main.tf", main, language="terraform")
        diags = c.diagnostics(uri, version=1)
        self.assertEqual(rules_of(diags), ["SM103"])
        self.assertEqual(diags[0]["range"]["start"]["line"], 3)
        # The variable file opened and edited without saving: the module sees the buffer.
        vuri = self.open("variables.tf", 'variable "nb_type" {\n  default = "ml.p3.2xlarge"\n}\n', "terraform")
        c.notify("textDocument/didChange", change(vuri, 2, {"line": 1, "character": 13},
                                                  {"line": 1, "character": 26}, "ml.t3.medium"))
        self.assertEqual(c.diagnostics(uri), [])

    def test_notebook_document_sync(self):
        c = self.client
        c.initialize(self.root)
        nb_uri = "file://" + os.path.join(self.root, "train.ipynb")
        cells = [("md", "# Training\nSome words.\n"), ("setup", CELL_SETUP), ("train", CELL_TRAIN)]
        cell_uri = {name: "vscode-notebook-cell://" + self.root + "/train.ipynb#" + name for name, _ in cells}
        c.notify("notebookDocument/didOpen", {
            "notebookDocument": {"uri": nb_uri, "notebookType": "jupyter-notebook", "version": 1, "metadata": {},
                                 "cells": [{"kind": 1 if name == "md" else 2, "document": cell_uri[name]}
                                           for name, _ in cells]},
            "cellTextDocuments": [{"uri": cell_uri[name], "languageId": "markdown" if name == "md" else "python",
                                   "version": 1, "text": text} for name, text in cells]})
        published = {}
        while len(published) < 3:
            m = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics")
            published[m["params"]["uri"]] = m["params"]["diagnostics"]
        self.assertEqual(published[cell_uri["md"]], [])
        self.assertEqual(published[cell_uri["setup"]], [])
        train = published[cell_uri["train"]]
        self.assertIn("SM101", rules_of(train))
        sm101 = [d for d in train if d["code"] == "SM101"][0]
        # In the cell's own lines: `instance_type="ml.p3.2xlarge"` on its line 2.
        self.assertEqual(sm101["range"]["start"]["line"], 1)
        self.assertEqual(sm101["range"]["start"]["character"], CELL_TRAIN.split("\n")[1].index('"ml.p3'))

        # The code action's edit lands in the cell; applied, the finding goes.
        actions = c.request("textDocument/codeAction", {"textDocument": {"uri": cell_uri["train"]},
                                                        "range": sm101["range"],
                                                        "context": {"diagnostics": [sm101]}})["result"]
        fixes = [a for a in actions if a["title"].startswith("SM101: ")]
        self.assertEqual(len(fixes), 1, [a["title"] for a in actions])
        edits = fixes[0]["edit"]["changes"][cell_uri["train"]]
        new_text = apply_edits(CELL_TRAIN, edits)
        self.assertNotIn("ml.p3.2xlarge", new_text)
        c.notify("notebookDocument/didChange", {
            "notebookDocument": {"uri": nb_uri, "version": 2},
            "change": {"cells": {"textContent": [{"document": {"uri": cell_uri["train"], "version": 2},
                                                  "changes": [{"text": new_text}]}]}}})
        after = c.wait(lambda m: m.get("method") == "textDocument/publishDiagnostics"
                       and m["params"]["uri"] == cell_uri["train"])["params"]["diagnostics"]
        self.assertNotIn("SM101", rules_of(after))

        # A cell removed through a structure change is cleared.
        c.notify("notebookDocument/didChange", {
            "notebookDocument": {"uri": nb_uri, "version": 3},
            "change": {"cells": {"structure": {"array": {"start": 0, "deleteCount": 1, "cells": []},
                                               "didClose": [{"uri": cell_uri["md"]}]}}}})
        self.assertEqual(c.diagnostics(cell_uri["md"]), [])
        c.notify("notebookDocument/didClose", {"notebookDocument": {"uri": nb_uri},
                                               "cellTextDocuments": [{"uri": cell_uri["setup"]},
                                                                     {"uri": cell_uri["train"]}]})
        self.assertEqual(c.shutdown()[1], 0)

    def test_notebook_directory_is_context(self):
        c = self.client
        c.initialize(self.root)
        deploy = ('from sagemaker.model import Model\n\nmodel = Model(image_uri="img:1", '
                  'model_data="s3://ml-data/m.tar.gz", role="r")\n'
                  'model.deploy(initial_instance_count=1, instance_type="ml.g5.xlarge", endpoint_name="churn-demo")\n')
        nb_uri = "file://" + os.path.join(self.root, "03_deploy.ipynb")
        cell = "vscode-notebook-cell://" + self.root + "/03_deploy.ipynb#c0"

        def open_notebook(version):
            c.notify("notebookDocument/didOpen", {
                "notebookDocument": {"uri": nb_uri, "notebookType": "jupyter-notebook", "version": version,
                                     "cells": [{"kind": 2, "document": cell}]},
                "cellTextDocuments": [{"uri": cell, "languageId": "python", "version": version, "text": deploy}]})
            return rules_of(c.diagnostics(cell, version=version))

        self.assertIn("SM213", open_notebook(1))  # the endpoint is never deleted
        c.notify("notebookDocument/didClose", {"notebookDocument": {"uri": nb_uri}, "cellTextDocuments": [{"uri": cell}]})
        c.diagnostics(cell)
        # A clean-up notebook beside it, on disk: the endpoint is deleted in the notebook's workflow.
        self.write("99_cleanup.ipynb", json.dumps({
            "cells": [{"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
                       "source": ["import boto3\n", "\n",
                                  'boto3.client("sagemaker").delete_endpoint(EndpointName="churn-demo")']}],
            "metadata": {}, "nbformat": 4, "nbformat_minor": 4}))
        self.assertNotIn("SM213", open_notebook(2))
        self.assertEqual(c.shutdown()[1], 0)

    def test_bad_input_gets_errors_not_a_crash(self):
        c = self.client
        c.initialize(self.root)
        c.send_raw(b"Content-Length: 9\r\n\r\n{not json")
        self.assertEqual(c.wait(lambda m: "error" in m)["error"]["code"], -32700)
        c.send_raw(b"Content-Type: text/plain\r\n\r\n")
        self.assertEqual(c.wait(lambda m: "error" in m)["error"]["code"], -32700)
        c.send_raw(b"Content-Length: twelve\r\n\r\n")
        self.assertEqual(c.wait(lambda m: "error" in m)["error"]["code"], -32700)
        self.assertEqual(c.request("textDocument/definition", {})["error"]["code"], -32601)
        self.assertEqual(c.request("textDocument/hover", {"textDocument": 3})["error"]["code"], -32602)
        c.send({"jsonrpc": "2.0", "id": 99, "params": {}})
        self.assertEqual(c.wait(lambda m: m.get("id") == 99)["error"]["code"], -32600)
        # Still serving.
        uri = self.open("notebook.yaml", TEMPLATE)
        self.assertEqual(rules_of(c.diagnostics(uri)), ["SM103"])
        self.assertEqual(c.shutdown()[1], 0)

    def test_huge_documents_and_messages(self):
        c = self.client
        c.initialize(self.root)
        # A document over the scan limit (32 MiB): kept, not scanned, said on standard error.
        big = TEMPLATE + "#" * (33 << 20) + "\n"
        uri = self.open("big.yaml", big, on_disk=False)
        self.assertEqual(c.diagnostics(uri, version=1, timeout=120), [])
        deadline = time.monotonic() + 30
        while not any("not scanned, larger than 32 MiB" in line for line in c.stderr) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertTrue(any("not scanned, larger than 32 MiB" in line for line in c.stderr), c.stderr)
        c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
        # A message over the limit of 64 MiB: skipped whole with an error; the next one is read.
        c.send_raw(b"Content-Length: %d\r\n\r\n" % (65 << 20) + b" " * (65 << 20))
        self.assertEqual(c.wait(lambda m: "error" in m, timeout=120)["error"]["code"], -32700)
        uri = self.open("notebook.yaml", TEMPLATE)
        self.assertEqual(rules_of(c.diagnostics(uri)), ["SM103"])
        self.assertLess(c.rss_kib(), 512 * 1024)
        self.assertEqual(c.shutdown()[1], 0)

    def test_requests_before_initialize(self):
        self.assertEqual(self.client.request("textDocument/hover", {})["error"]["code"], -32002)

    def test_client_that_vanishes(self):
        c = self.client
        c.initialize(self.root)
        self.open("notebook.yaml", TEMPLATE)
        c.proc.stdin.close()
        self.assertEqual(c.proc.wait(timeout=30), 1)  # no shutdown was asked for
        self.assertIn("closed the connection", "".join(c.stderr) or self._stderr_after_exit())

    def _stderr_after_exit(self):
        time.sleep(0.5)
        return "".join(self.client.stderr)

    def test_memory_bounded_over_10000_edits(self):
        c = self.client
        c.initialize(self.root)
        uri = self.open("notebook.yaml", TEMPLATE)
        c.diagnostics(uri)
        types = ["ml.t3.medium", "ml.p3.2xlarge"]
        # Each edit swaps the type with one of another length, so the text really changes.
        current = "ml.p3.2xlarge"
        version = 1
        rss = {}
        for i in range(10000):
            new = types[i % 2]
            version += 1
            c.notify("textDocument/didChange", change(uri, version, {"line": 5, "character": 20},
                                                      {"line": 5, "character": 20 + len(current)}, new))
            current = new
            if i % 10 == 9:
                # Let it catch up, so that a scan runs every ten edits (not only at the end).
                c.diagnostics(uri, version=version, timeout=60)
            if i % 500 == 499:
                rss[i + 1] = c.rss_kib()
        growth = rss[10000] - rss[1000]
        print("RSS KiB after edits:", rss, file=sys.stderr)
        self.assertLess(growth, 8 * 1024, rss)  # KiB: no growth with the number of edits
        self.assertEqual(c.shutdown()[1], 0)


if __name__ == "__main__":
    BINARY = os.path.abspath(sys.argv.pop(1))
    unittest.main(verbosity=2)
