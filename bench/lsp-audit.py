#!/usr/bin/env python3
"""`sagelint server`'s diagnostics against `sagelint scan FILE --format json` on real files.

    bench/lsp-audit.py SAGELINT TREE [N]

Takes N (default 300) files that mention SageMaker from TREE (a directory of
repositories) at random (seed 42), opens each in the server as a text document
(and each notebook also through notebook sync) and compares the (rule, line)
pairs — for notebook sync, (rule, cell, line in the cell) — with those of a
scan of the file named alone (a notebook with the notebooks of its directory,
as the server reads it). Prints the counts and the first differences.
"""
import collections
import json
import os
import random
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "server"))
from lsp_client import LspClient  # noqa: E402

binary = os.path.abspath(sys.argv[1])
tree = sys.argv[2]
random.seed(42)
files = []
for repo in sorted(os.listdir(tree)):
    for dp, dn, fn in os.walk(os.path.join(tree, repo)):
        dn[:] = [d for d in dn if d not in (".git", "node_modules", ".terraform")]
        for f in fn:
            if f.endswith((".yaml", ".yml", ".json", ".py", ".ipynb")) and not f.endswith(".tf.json"):
                p = os.path.join(dp, f)
                try:
                    if os.path.getsize(p) < 400000 and b"sagemaker" in open(p, "rb").read().lower():
                        files.append(p)
                except OSError:
                    pass
sample = random.sample(files, min(int(sys.argv[3]) if len(sys.argv) > 3 else 300, len(files)))
cli = {}
cells_of = {}
for p in sample:
    extra = []
    if p.endswith(".ipynb"):
        d = os.path.dirname(p)
        extra = sorted(os.path.join(d, f) for f in os.listdir(d) if f.endswith(".ipynb") and os.path.join(d, f) != p)[:64]
    r = subprocess.run([binary, "--format", "json", "--fail-on", "none", "--jobs", "1", p] + extra, capture_output=True, text=True,
                       cwd=os.path.dirname(p))
    found = [f for f in json.loads(r.stdout)["findings"] if os.path.abspath(os.path.join(os.path.dirname(p), f["path"])) == p]
    cli[p] = sorted((f["rule"], f["line"]) for f in found)
    cells_of[p] = sorted((f["rule"], f["cell"], f["cell_line"]) for f in found)
agree = differ = 0
nb_checked = [0]
per_rule = collections.Counter()
diffs = []
# One server per repository's file (cwd = file's directory, as a client would not matter).
c = LspClient(binary, "/tmp")
c.initialize("/tmp")
for i, p in enumerate(sample):
    uri = "file://" + p
    text = open(p, encoding="utf-8", errors="replace").read()
    c.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "x", "version": 1, "text": text}})
    d = c.diagnostics(uri, version=1, timeout=120)
    c.notify("textDocument/didClose", {"textDocument": {"uri": uri}})
    got = sorted((x["code"], x["range"]["start"]["line"] + 1) for x in d)
    want = cli[p]
    for r, _ in want:
        per_rule[r] += 1
    if p.endswith(".ipynb"):
        # The same notebook through notebook sync: findings in the cells' own lines.
        try:
            nb = json.loads(text)
            cells = nb["cells"]
        except Exception:
            cells = None
        if cells is not None:
            nb_uri = "file://" + p
            curis = ["vscode-notebook-cell://%s#%d" % (p, k) for k in range(len(cells))]
            src = lambda cell: "".join(cell["source"]) if isinstance(cell["source"], list) else cell["source"]
            c.notify("notebookDocument/didOpen", {"notebookDocument": {"uri": nb_uri, "notebookType": "jupyter-notebook",
                     "version": 1, "cells": [{"kind": 2 if cell["cell_type"] == "code" else 1, "document": curis[k]} for k, cell in enumerate(cells)]},
                     "cellTextDocuments": [{"uri": curis[k], "languageId": "python", "version": 1, "text": src(cell)} for k, cell in enumerate(cells)]})
            got_cells = []
            for k in range(len(cells)):
                dd = c.diagnostics(curis[k], timeout=120)
                got_cells += [(x["code"], k + 1, x["range"]["start"]["line"] + 1) for x in dd]
            c.notify("notebookDocument/didClose", {"notebookDocument": {"uri": nb_uri}})
            nb_checked[0] += 1
            if sorted(got_cells) != cells_of[p]:
                diffs.append((p + " (notebook sync)", cells_of[p], sorted(got_cells)))
    if got == want:
        agree += 1
    else:
        differ += 1
        diffs.append((p, want, got))
c.shutdown()
print("files %d: agree %d, differ %d (as text); notebooks also through notebook sync: %d, differing %d; findings per rule (CLI): %s" % (len(sample), agree, differ, nb_checked[0], sum(1 for d in diffs if d[0].endswith("(notebook sync)")), dict(per_rule)))
for p, w, g in diffs[:10]:
    print("DIFF", p, "\n  cli   ", w, "\n  server", g)
