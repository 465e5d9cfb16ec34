#!/usr/bin/env python3
"""Diagnostics latency of `sagelint server` after a change (README.md, "Editors").

    bench/lsp-latency.py [SAGELINT] [--changes N]

Opens a generated 1,000-line CloudFormation template and a generated 200-cell
notebook (through notebook sync), then changes one instance type at a time and
measures the time from sending the change to receiving the diagnostics of that
version: median and p95 per document, against the goal of 50 ms. Not part of
the test suite: timings depend on the machine and its load.
"""

import argparse
import os
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "server"))
from lsp_client import LspClient  # noqa: E402

GOAL_MS = 50.0


def template(lines):
    """A CloudFormation template of about `lines` lines: notebooks, endpoint configs, training roles."""
    out = ['AWSTemplateFormatVersion: "2010-09-09"', "Description: generated for the LSP latency benchmark",
           "Resources:"]
    i = 0
    while len(out) < lines:
        out += [
            "  Notebook%d:" % i,
            "    Type: AWS::SageMaker::NotebookInstance",
            "    Properties:",
            "      InstanceType: ml.t3.medium",
            "      RoleArn: arn:aws:iam::111122223333:role/sagemaker-execution",
            "      LifecycleConfigName: auto-stop-idle",
            "      VolumeSizeInGB: 20",
            "  EndpointConfig%d:" % i,
            "    Type: AWS::SageMaker::EndpointConfig",
            "    Properties:",
            "      ProductionVariants:",
            "        - VariantName: AllTraffic",
            "          ModelName: model-%d" % i,
            "          InstanceType: ml.g5.xlarge",
            "          InitialInstanceCount: 1",
            "          InitialVariantWeight: 1.0",
        ]
        i += 1
    return "\n".join(out[:lines]) + "\n"


def cells(n):
    """A notebook of `n` cells: markdown, set-up, and estimators on alternating instance types."""
    out = []
    for i in range(n):
        if i == 0:
            out.append((2, "import sagemaker\nfrom sagemaker.sklearn import SKLearn\n"
                           "from sagemaker.pytorch import PyTorch\n\nrole = sagemaker.get_execution_role()\n"))
        elif i % 4 == 1:
            out.append((1, "## Step %d\n\nWhat this step trains and why.\n" % i))
        elif i % 4 == 2:
            out.append((2, 'est%d = PyTorch(entry_point="train.py", role=role, framework_version="2.1",\n'
                           '    py_version="py310", instance_type="ml.g5.xlarge", instance_count=1,\n'
                           '    use_spot_instances=True, max_run=3600, max_wait=7200)\n'
                           'est%d.fit({"train": "s3://bucket/train/"})\n' % (i, i)))
        else:
            out.append((2, "x%d = [v * 2 for v in range(10)]\nprint(sum(x%d))\n" % (i, i)))
    return out


def cpu_ms(pid):
    """The CPU time (user + system) the process has used so far, in ms."""
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def summary(name, samples, cpu=None):
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(round(0.95 * (len(samples) - 1))))]
    median = statistics.median(samples)
    verdict = "PASS" if p95 <= GOAL_MS else "FAIL"
    print("%-32s n=%-4d median %6.1f ms   p95 %6.1f ms   max %6.1f ms   goal p95 <= %.0f ms: %s"
          % (name, len(samples), median, p95, samples[-1], GOAL_MS, verdict))
    if cpu is not None:
        print("%-32s server CPU per change %.1f ms (the load of other processes does not count here)"
              % ("", cpu / len(samples)))


def measure(client, changes, types, send, wait):
    """Latencies (ms) of `changes` changes alternating between two instance types, and the server's CPU."""
    current, samples = types[0], []
    cpu = cpu_ms(client.proc.pid)
    for v in range(2, changes + 2):
        new = types[1] if current == types[0] else types[0]
        start = time.perf_counter()
        send(v, current, new)
        wait(v)
        samples.append((time.perf_counter() - start) * 1000)
        current = new
    return samples, cpu_ms(client.proc.pid) - cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("binary", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "build", "sagelint"))
    ap.add_argument("--changes", type=int, default=100)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        root = os.path.realpath(tmp)
        client = LspClient(os.path.abspath(args.binary), root)
        try:
            client.initialize(root)

            # The template: change the first notebook's type, GPU and back.
            text = template(1000)
            path = os.path.join(root, "stack.yaml")
            with open(path, "w") as f:
                f.write(text)
            uri = "file://" + path
            client.notify("textDocument/didOpen",
                          {"textDocument": {"uri": uri, "languageId": "yaml", "version": 1, "text": text}})
            client.diagnostics(uri, version=1, timeout=120)
            line = text.split("\n").index("      InstanceType: ml.t3.medium")
            def send_template(v, current, new):
                client.notify("textDocument/didChange", {
                    "textDocument": {"uri": uri, "version": v},
                    "contentChanges": [{"range": {"start": {"line": line, "character": 20},
                                                  "end": {"line": line, "character": 20 + len(current)}},
                                        "text": new}]})

            samples, cpu = measure(client, args.changes, ("ml.t3.medium", "ml.p3.2xlarge"), send_template,
                                   lambda v: client.diagnostics(uri, version=v, timeout=120))
            summary("template, %d lines" % len(text.splitlines()), samples, cpu)

            # The notebook: change one estimator cell's type.
            nb = cells(200)
            nb_uri = "file://" + os.path.join(root, "train.ipynb")
            cell_uri = ["vscode-notebook-cell://%s/train.ipynb#c%d" % (root, i) for i in range(len(nb))]
            client.notify("notebookDocument/didOpen", {
                "notebookDocument": {"uri": nb_uri, "notebookType": "jupyter-notebook", "version": 1,
                                     "cells": [{"kind": k, "document": cell_uri[i]} for i, (k, _) in enumerate(nb)]},
                "cellTextDocuments": [{"uri": cell_uri[i], "languageId": "python" if k == 2 else "markdown",
                                       "version": 1, "text": t} for i, (k, t) in enumerate(nb)]})
            target = 100 if nb[100][0] == 2 and "PyTorch" in nb[100][1] else 102
            client.diagnostics(cell_uri[target], version=1, timeout=120)
            def send_cell(v, current, new):
                client.notify("notebookDocument/didChange", {
                    "notebookDocument": {"uri": nb_uri, "version": v},
                    "change": {"cells": {"textContent": [{
                        "document": {"uri": cell_uri[target], "version": v},
                        "changes": [{"range": {"start": {"line": 1, "character": 39},
                                               "end": {"line": 1, "character": 39 + len(current)}},
                                     "text": new}]}]}}})

            samples, cpu = measure(client, args.changes, ("ml.g5.xlarge", "ml.p3.2xlarge"), send_cell,
                                   lambda v: client.diagnostics(cell_uri[target], version=v, timeout=120))
            summary("notebook, %d cells" % len(nb), samples, cpu)
            client.shutdown()
        finally:
            client.kill()


if __name__ == "__main__":
    main()
