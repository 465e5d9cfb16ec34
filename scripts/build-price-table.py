#!/usr/bin/env python3
"""Writes rules/data/prices.json, the built-in us-east-1 price table, from a
folder of sourced price figures. Run by hand; the build never runs it.

    scripts/build-price-table.py RESEARCH_DIR [--out rules/data/prices.json]

RESEARCH_DIR holds (every figure there was read in a source it names):
  sources.json                              id -> citation
  primary_studio_app_us-east-1.json         AWS's own pricing-page data, Studio notebooks ("prices.studio_app")
  raw_P1_us-east-1_2025-12-05.json          an older copy of that data (rows with "Instance", "price")
  corroborated_secondary_us-east-1.json     "prices" (two or more sources name the kind and agree),
                                            "prices_weaker" (one names the kind, the broad list agrees),
                                            with "provenance" / "provenance_weaker"
  candidates_S4_kind_agnostic_us-east-1.json  the broad list: one figure per type, kind not stated

Which figure a (type, kind) gets — SPEC §6 "Prices", in order:
  1. a figure whose source names that kind ("named");
  2. else the type's figure from AWS's own data for another kind, or from the
     broad list (it equals AWS's data on every type both list), for every kind
     ("same price across kinds") — except ml.t2, whose prices differ by kind;
  3. else none: the type is listed under "unpriced" with the reason.
No figure is interpolated from another size or family.
"""
import argparse
import json
import os
import re
import sys

REGION = "us-east-1"
# offered.json kind -> price component.
KINDS = {
    "notebook_instance": "notebook",
    "studio_app": "studio",
    "training": "training",
    "processing": "processing",
    "transform": "transform",
    "endpoint_variant": "hosting",
}
LABELS = {
    "P1": "AWS pricing-page data (Studio notebook table)",
    "P1-2025-12-05": "AWS pricing-page data (Studio notebook table, 2025-12-05 copy)",
}
DATES = {
    "P1": "2026-07-03",
    "P1-2025-12-05": "2025-12-05",
    "S2": "2026-09-24",
    "S3": "2026-09-25",
    "S4": "2026-09-27",
    "S5": "2026-08",
    "S6": "2026",
    "S7": "2026-08-17",
    "S8": "2026-07-02",
    "S9": "2026-09-04",
}
# Types whose prices differ by kind: never given a figure across kinds.
PER_KIND_FAMILIES = {"t2": "ml.t2 prices differ by kind (notebook and hosting figures are not the same) and no "
                           "source found names a kind for them; the broad list mixes kinds for ml.t2"}
# (type, kind) pairs a kind-naming source says have no on-demand price.
NOT_SOLD = {
    ("ml.p5.4xlarge", "training"): "S9 states that the us-east-1 price list has no on-demand training price for "
                                   "ml.p5.4xlarge",
}
NO_SOURCE = "no AWS data and no public source found gives a us-east-1 figure for this type"
SINGLE_SOURCE = {
    "g7e": "only one public file (S6) quotes figures (training, three sizes), confirmed by no other source",
}


OLD_P1 = ("AWS pricing-page data file meteredUnitMaps/sagemaker/USD/current/sagemaker-instances-studionotebook.json "
          "(the JSON that aws.amazon.com/sagemaker/pricing loads for the Studio Classic notebook table), as committed "
          "by the public repository v0rts/aws-price-watcher, path raw/sagemaker-instances-studionotebook.json, commit "
          "c4a0470f63402104fb3793bb114a39e488eb04ec (manifest hawkFilePublicationDate 2025-12-05T20:54:57Z), the last "
          "copy that lists ml.p3. Region key 'US East (N. Virginia)', Component 'Studio-Notebook'.")


def cite(citation):
    # The secondary files were read through a public-code search index that names some without their repository.
    citation = re.sub(r"stored (doc|file)s? ids? ", "public file, search-index id ", citation)
    citation = citation.replace("only the labelled g6e/g7e rows are used",
                                "only its labelled g6e rows are used (its g7e rows are confirmed by no other source)")
    return citation.replace("; repository not named by the index", "")


def load(folder, name):
    with open(os.path.join(folder, name), encoding="utf-8") as f:
        return json.load(f)


def ids(provenance):
    # "S4(kind-agnostic)=0.922" -> "S4"; the sources that name the kind come first, those that confirm after.
    out = []
    for p in provenance:
        i = p.split("(")[0].split("=")[0]
        if i not in out:
            out.append(i)
    return out


def figure(usd, sources, basis):
    # The figure is the first source's; the others confirm it. Its date is that source's.
    return {"usd": usd, "sources": sources, "basis": basis, "date": DATES[sources[0]]}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("research")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--out", default=os.path.join(here, "..", "rules", "data", "prices.json"))
    ap.add_argument("--offered", default=os.path.join(here, "..", "rules", "data", "offered.json"))
    args = ap.parse_args()

    offered = {k: v["types"] for k, v in json.load(open(args.offered, encoding="utf-8"))["kinds"].items()}
    citations = load(args.research, "sources.json")
    p1 = load(args.research, "primary_studio_app_us-east-1.json")["prices"]["studio_app"]
    raw_old = load(args.research, "raw_P1_us-east-1_2025-12-05.json")
    p1_old = {r["Instance"]: float(r["price"]) for r in raw_old["rows"].values()}
    secondary = load(args.research, "corroborated_secondary_us-east-1.json")
    s4 = load(args.research, "candidates_S4_kind_agnostic_us-east-1.json")["prices_any_kind"]

    named = {}  # (type, component) -> figure
    for kind, comp in KINDS.items():
        for t, usd in secondary["prices"].get(kind, {}).items():
            named[(t, comp)] = figure(usd, ids(secondary["provenance"][kind][t]), "named")
        for t, usd in secondary["prices_weaker"].get(kind, {}).items():
            named.setdefault((t, comp), figure(usd, ids(secondary["provenance_weaker"][kind][t]), "named"))
    for t, usd in p1.items():
        named[(t, "studio")] = figure(usd, ["P1"], "named")
    for t, usd in p1_old.items():
        if t not in p1:
            named[(t, "studio")] = figure(usd, ["P1-2025-12-05"], "named")

    def across(t):
        if t.split(".")[1] in PER_KIND_FAMILIES:
            return None
        if t in p1:
            return figure(p1[t], ["P1"], "same price across kinds")
        if t in p1_old:
            return figure(p1_old[t], ["P1-2025-12-05"], "same price across kinds")
        if t in s4:
            return figure(s4[t], ["S4"], "same price across kinds")
        return None

    prices, unpriced = {}, {}
    for kind, comp in KINDS.items():
        for t in offered[kind]:
            if (t, kind) in NOT_SOLD:
                unpriced.setdefault(NOT_SOLD[(t, kind)], {}).setdefault(t, []).append(comp)
                continue
            if t.split(".")[1] in PER_KIND_FAMILIES and (t, comp) not in named:
                unpriced.setdefault(PER_KIND_FAMILIES[t.split(".")[1]], {}).setdefault(t, []).append(comp)
                continue
            f = named.get((t, comp)) or across(t)
            if f is None:
                reason = SINGLE_SOURCE.get(t.split(".")[1], NO_SOURCE)
                unpriced.setdefault(reason, {}).setdefault(t, []).append(comp)
                continue
            prices.setdefault(t, {})[comp] = f

    used = sorted({s for comps in prices.values() for f in comps.values() for s in f["sources"]} |
                  {"S6"} | {s for r in NOT_SOLD.values() for s in ["S9"]})
    sources = {}
    for s in used:
        sources[s] = {
            "label": LABELS.get(s, f"AWS Price List figure quoted by public file {s}" if s != "S4" else
                                "AWS Price List figures listed by public file S4"),
            "date": DATES[s],
            "citation": OLD_P1 if s.startswith("P1-") else cite(citations[s]),
        }
    figures = sum(len(v) for v in prices.values())
    dates = sorted({f["date"] for comps in prices.values() for f in comps.values()})
    out = {
        "about": (
            "SageMaker on-demand list prices, USD per instance-hour, us-east-1, per instance type and component. "
            "Every figure records where it was read (`sources`, ids of the `sources` table), the date of that "
            "source, and its kind basis: `named` (the source gives the price of this component) or `same price "
            "across kinds` (AWS's own data, or the broad list that equals it on every type both list, gives one "
            "figure for the type; SageMaker lists one price per type across components for current families, the "
            "kind-specific sources differing by at most half a cent). ml.t2 is never priced across kinds: its "
            "prices differ by component. Nothing was fetched from AWS when the table was written: AWS's own data "
            "covers only the Studio notebook table; the other figures are AWS Price List figures quoted, with "
            "dates, by public files that agree with each other and with AWS's data wherever they overlap. No "
            "figure is interpolated from another size or family; a type with no sourced figure is listed under "
            "`unpriced` with the reason, and findings on it say so. For exact and complete figures, or another "
            "region, import the AWS Price List offer file: `sagelint prices import`. Written by "
            "scripts/build-price-table.py."
        ),
        "source": "AWS pricing-page data and AWS Price List figures quoted by public sources, per figure",
        "as_of": dates[-1][:7],
        "region": REGION,
        "currency": "USD",
        "sources": sources,
        "prices": {t: prices[t] for t in sorted(prices)},
        "unpriced": [
            {"reason": reason, "types": {t: kinds for t, kinds in sorted(types.items())}}
            for reason, types in sorted(unpriced.items())
        ],
    }
    with open(args.out, "w", encoding="utf-8") as f:
        f.write(dump(out))
    total = sum(len(v) for v in offered.values())
    print(f"{figures} figures for {len(prices)} types; {total - figures} offered (type, kind) pairs unpriced; "
          f"dates {dates[0]}..{dates[-1]}", file=sys.stderr)


def dump(doc):
    # One line per figure and per unpriced type: readable diffs, a small file.
    lines = ["{"]
    keys = list(doc)
    for i, k in enumerate(keys):
        comma = "," if i + 1 < len(keys) else ""
        v = doc[k]
        if k == "prices":
            lines.append(f' "prices": {{')
            types = list(v)
            for j, t in enumerate(types):
                lines.append(f'  {json.dumps(t)}: {{')
                comps = list(v[t])
                for n, c in enumerate(comps):
                    lines.append(f'   {json.dumps(c)}: {json.dumps(v[t][c], ensure_ascii=False)}'
                                 + ("," if n + 1 < len(comps) else ""))
                lines.append("  }" + ("," if j + 1 < len(types) else ""))
            lines.append(" }" + comma)
        elif k == "unpriced":
            lines.append(' "unpriced": [')
            for j, group in enumerate(v):
                lines.append(f'  {{"reason": {json.dumps(group["reason"], ensure_ascii=False)}, "types": {{')
                types = list(group["types"])
                for n, t in enumerate(types):
                    lines.append(f'   {json.dumps(t)}: {json.dumps(group["types"][t])}'
                                 + ("," if n + 1 < len(types) else ""))
                lines.append("  }}" + ("," if j + 1 < len(v) else ""))
            lines.append(" ]" + comma)
        else:
            body = json.dumps(v, indent=1, ensure_ascii=False).replace("\n", "\n ")
            lines.append(f" {json.dumps(k)}: {body}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
