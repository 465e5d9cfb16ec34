#!/usr/bin/env python3
"""Writes rules/data/accelerators.json: per accelerated instance type SageMaker
offers, its accelerator, their count, the memory of each (GiB, one basis for
every row), vCPUs and host memory, and the source of the row.

Run by hand from a research file of the shape below; the build never runs it.

    scripts/build-accelerator-table.py RESEARCH.json [--out rules/data/accelerators.json]

RESEARCH.json: {"source_notes": {"sources": {id: citation}, "compiled": …},
"types": {"ml.x.y": {"accelerator", "count", "memory_per_accelerator_gib",
"memory_basis", "vcpus", "memory_gib", "source", "aws_stated_memory"?,
"note"?}}}. Every row keeps its citation; nothing is computed here except the
short name of the memory basis.
"""
import argparse
import json
import os
import re
import sys


def basis_name(text):
    t = text.lower()
    if t.startswith("describeinstancetypes"):
        return "EC2 DescribeInstanceTypes"
    if t.startswith("aws neuron docs"):
        return "AWS Neuron documentation"
    if t.startswith("ec2 docs"):
        return "EC2 documentation, quoted by a secondary source"
    sys.exit(f"unknown memory basis: {text}")


def clean(citation):
    # Citations name public documents, not the search tools they were found with.
    return re.sub(r"found by find_string \(index id \d+, ('[^']*')\)", r"titled \1", citation)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("research")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "rules", "data", "accelerators.json"))
    args = ap.parse_args()
    with open(args.research, encoding="utf-8") as f:
        doc = json.load(f)
    rows = {}
    for name, r in sorted(doc["types"].items()):
        row = {
            "accelerator": r["accelerator"],
            "count": r["count"],
            "memory_per_accelerator_gib": r["memory_per_accelerator_gib"],
            "vcpu": r["vcpus"],
            "memory_gib": r["memory_gib"],
            "memory_basis": basis_name(r["memory_basis"]),
            "source": r["source"],
        }
        if r.get("aws_stated_memory"):
            row["stated_memory"] = r["aws_stated_memory"]
        if r.get("note"):
            row["note"] = r["note"]
        rows[name] = row
    out = {
        "about": (
            "Accelerators of every accelerated instance type the SageMaker API offers (rules/data/offered.json): "
            "the accelerator, how many, the memory of each in GiB, vCPUs and host memory (GiB). Memory is on one "
            "basis for every row: GiB as EC2 DescribeInstanceTypes reports it (MiB / 1024), or AWS's Neuron "
            "documentation where the API gives no figure (Inferentia) or a wrong one (Trainium2: the API says 512 "
            "GiB per chip, the Neuron docs 96). Marketing figures differ for some GPUs (A10G and L4 '24 GB' are "
            "22.35 GiB here, L40S '48 GB' is 44.7 GiB): compare totals only within this table. `source` names the "
            "references of `sources`; `stated_memory` quotes what AWS pages print where it differs or confirms. "
            "Written by scripts/build-accelerator-table.py from a research file checked against those sources."
        ),
        "offered": "rules/data/offered.json of botocore 1.43.67 (2026-08-07)",
        "sources": {k: clean(v) for k, v in doc["source_notes"]["sources"].items()},
        "types": rows,
    }
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"wrote {len(rows)} types to {args.out}")


if __name__ == "__main__":
    main()
