#!/usr/bin/env python3
"""Writes the built-in price tables from folders of sourced price figures:
rules/data/prices.json (us-east-1), rules/data/prices-<region>.json (every
other region with sourced figures) and linter/cost/builtin_prices_data.cc (the
same figures compiled in, so a scan reads only its region's table; see
docs/cost-data.md). Run by hand; the build never runs it.

    scripts/build-price-table.py RESEARCH_DIR RESEARCH2_DIR [--data rules/data]

RESEARCH2_DIR holds prices.csv (type, kind, region, usd_per_hour, source_id,
date, primary|secondary): AWS's Studio notebook data for 27 regions and
kind-naming figures (hosting, training, transform) per region.

RESEARCH_DIR holds (every figure there was read in a source it names):
  sources.json                              id -> citation
  primary_studio_app_us-east-1.json         AWS's own pricing-page data, Studio notebooks ("prices.studio_app")
  raw_P1_us-east-1_2025-12-05.json          an older copy of that data (rows with "Instance", "price")
  corroborated_secondary_us-east-1.json     "prices" (two or more sources name the kind and agree),
                                            "prices_weaker" (one names the kind, the broad list agrees),
                                            with "provenance" / "provenance_weaker"
  candidates_S4_kind_agnostic_us-east-1.json  the broad list: one figure per type, kind not stated

Which figure a (type, kind) gets — docs/cost-data.md, in order:
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
NOT_SOLD[("ml.p5.4xlarge", "endpoint_variant")] = (
    "no source lists an on-demand hosting price for ml.p5.4xlarge: the scripted extraction of the us-east-1 "
    "offer file (J1) found hosting rows for ml.p5.48xlarge only")
NO_SOURCE = "no AWS data and no public source found gives a us-east-1 figure for this type"
# prices.csv kinds -> price components (async inference and kind-less rows are not used).
CSV_KINDS = {"hosting": "hosting", "training": "training", "transform": "transform",
             "studio_classic": "studio", "studio_jupyterlab": "studio"}
# The sources of prices.csv that are used, and how a reader opens them (docs/cost-data.md: never an internal id).
CSV_SOURCES = {
    "P1-2026-07-03": ("AWS pricing-page data (Studio notebook table)", None),
    "P1-2025-12-05": ("AWS pricing-page data (Studio notebook table, 2025-12-05 copy)", None),
    "J1": ("AWS Price List figures extracted by public file J1",
           "the public repository johbro/ocp-ai-cost-modeler, path data/sagemaker-prices.json, commit "
           "a2214fc7ace9c9b9eb1ba74f72062e004aabc1f4 (\"source\": \"AWS SageMaker on-demand list prices, "
           "us-east-1\", \"lastUpdated\": \"2026-04-21\"), written by its script "
           "scripts/refresh-sagemaker-prices.mjs at the same commit from "
           "https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/AmazonSageMaker/current/us-east-1/index.json "
           "(training and hosting components)"),
    "W2T": ("AWS Price List figures listed by public file W2T",
            "a public file fine_tuning/pricing.py whose module docstring says: 'Rates are us-west-2 on-demand "
            "USD/hour, taken from the AWS Price List API (aws pricing get-products --service-code "
            "AmazonSageMaker), filtered to the Training and BatchTransform components'; undated"),
    "W2S": ("AWS Price List figures listed by public file W2S",
            "a public file with a Studio JupyterLab rate table (INSTANCE_RATES) commented 'AWS Price List API, "
            "service AmazonSageMaker, region us-west-2, platoinstancetype=Studio-JupyterLab, effective "
            "2026-09-01'; it equals AWS's Studio notebook data for us-west-2 on every type both list"),
    "H1": ("AWS Price List figure quoted by public file H1",
           "a public architecture document (section 5.2) quoting USE1-Host:ml.g6e.2xlarge 2.8026 from the "
           "'Price List API offer file (publicationDate 2026-09-20T02:56:06Z)'"),
    "H2": ("AWS Price List figure quoted by public file H2",
           "a public cost table quoting USE1-Host:ml.m5.2xlarge 0.461 and USE1-Host:ml.m5.xlarge 0.23, 'AWS "
           "Price List API, read 2026-09-28'"),
    "H3": ("AWS Price List figure quoted by public file H3",
           "a public test docstring: 'SageMaker real-time inference Hosting ml.m5.xlarge us-east-1 = $0.23/hr "
           "(usagetype USE1-Host:ml.m5.xlarge, SKU JDZQJFUVUR8SUWHS)', checked live 2026-06-27"),
    "H4": ("AWS Price List figure quoted by public file H4",
           "an article in the public repository xbill9/sagemaker-gemma (docs/articles) quoting `aws pricing "
           "get-products` output: 'USE2-Host:ml.g6.xlarge 1.1267000000 Hrs, $1.1267 per Hosting ml.g6.xlarge "
           "hour in US East (Ohio)', 2026-09-25"),
    "H5": ("AWS Price List figure quoted by public file H5",
           "public price-performance notes: 'Hosting price $72.795/h in us-east-2 (Pricing API, AmazonSageMaker, "
           "instanceName ml.p5en.48xlarge, usagetype USE2-Host:ml.p5en.48xlarge, read 2026-10-03)'"),
    "H6": ("AWS Price List figures quoted by public file H6",
           "a public transcription-cost study (section 4.5) quoting the eu-west-3 'price list AmazonSageMaker du "
           "2026-10-04': Host:ml.g4dn.xlarge 0.8610, Tsform:ml.g4dn.xlarge 0.8610, Host:ml.g6.xlarge 1.4302"),
    "H7": ("AWS Price List figure quoted by public file H7",
           "a public cost model (cost_model.py) quoting APN1-Train:ml.g6.xlarge 1.634 from the SageMaker price "
           "list of 2026-09-22"),
    "H8": ("AWS Price List figure quoted by public file H8",
           "public project notes (CLAUDE.md of the spore.host suite) naming 'a real Hosting rate of $25.25' for "
           "ml.p4d.24xlarge, recorded as $25.2513, verified 2026-07-28"),
    "T1": ("AWS Price List figure quoted by public file T1",
           "a public note: 'verified via aws pricing get-products ... usagetype=USE1-Train:ml.g5.2xlarge, "
           "us-east-1, 2026-08-20': 1.515"),
    "T2": ("AWS Price List figure quoted by public file T2",
           "a public note: 'AWS Price List Query API returned $0.115/hour for SKU JMCWJEAPVJNFJ5P4, usage type "
           "USE1-Train:ml.m5.large, on 2026-08-11'"),
}
# Sources of prices.csv that are read but not used for figures.
CSV_UNUSED = {"FMBench", "S6"}
SINGLE_SOURCE = {
    "g7e": "only one public file (S6) quotes figures (training, three sizes), confirmed by no other source",
}


OLD_P1 = ("AWS pricing-page data file meteredUnitMaps/sagemaker/USD/current/sagemaker-instances-studionotebook.json "
          "(the JSON that aws.amazon.com/sagemaker/pricing loads for the Studio Classic notebook table), as committed "
          "by the public repository v0rts/aws-price-watcher, path raw/sagemaker-instances-studionotebook.json, commit "
          "c4a0470f63402104fb3793bb114a39e488eb04ec (manifest hawkFilePublicationDate 2025-12-05T20:54:57Z), the last "
          "copy that lists ml.p3. Region key 'US East (N. Virginia)', Component 'Studio-Notebook'.")


def cite(citation):
    # A citation names what a reader can open, or describes the file by its title and what it says: never the
    # id of the search index it was found through.
    citation = re.sub(r"(stored|public) (doc|file)s?,? (search-index )?ids? [0-9 ,and]+", "a public file ", citation)
    citation = re.sub(r"\(a public file \)", "(a public file)", citation).replace("a table ( whose", "a table whose")
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


def read_csv(folder):
    import csv
    with open(os.path.join(folder, "prices.csv"), encoding="utf-8") as f:
        return [r for r in csv.DictReader(f)]


def us_east_1(args, offered, rows):
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
    # The second pass's kind-naming figures (hosting and training read from the offer file, quoted figures):
    # one that equals the first pass's confirms it; a hosting figure that differs replaces it (the first pass
    # took g6/g6e hosting from sources assuming training = hosting, true only to ~0.1 %; the offer file's
    # Hosting rows are unrounded), while a training figure that differs yields to the first pass's newer
    # dated quote (ml.p4d.24xlarge 25.251, 2026-09-04, against 25.2512883, 2026-04-21).
    for (t, comp), found in kind_naming(rows, "us-east-1").items():
        old = named.get((t, comp))
        if old and abs(old["usd"] - found["usd"]) < 1e-9:
            old["sources"] += [s for s in found["sources"] if s not in old["sources"]]
        elif old is None or comp == "hosting":
            named[(t, comp)] = found

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
                  {"S6"} | {s for r in NOT_SOLD.values() for s in ["S9"]} | {"J1"})
    sources = {}
    for s in used:
        if s in CSV_SOURCES and s not in LABELS:
            sources[s] = {"label": CSV_SOURCES[s][0], "date": DATES[s], "citation": CSV_SOURCES[s][1]}
            continue
        sources[s] = {
            "label": LABELS.get(s, f"AWS Price List figure quoted by public file {s}" if s != "S4" else
                                "AWS Price List figures listed by public file S4"),
            "date": DATES[s],
            "citation": OLD_P1 if s.startswith("P1-") else cite(citations[s]),
        }
    return table("us-east-1", prices, unpriced, sources, "AWS pricing-page data and AWS Price List figures quoted "
                 "by public sources, per figure")


def kind_naming(rows, region):
    """(type, component) -> figure from prices.csv's hosting/training/transform rows of `region`: the first
    source's figure, confirmed by the others that give the same value."""
    found = {}
    for r in rows:
        if r["region"] != region or r["kind"] not in ("hosting", "training", "transform"):
            continue
        if r["source_id"] in CSV_UNUSED:
            continue
        key = (r["type"], CSV_KINDS[r["kind"]])
        usd = float(r["usd_per_hour"])
        DATES.setdefault(r["source_id"], r["date"])
        f = found.get(key)
        if f is None:
            found[key] = figure(usd, [r["source_id"]], "named")
        elif abs(f["usd"] - usd) < 1e-9 and r["source_id"] not in f["sources"]:
            f["sources"].append(r["source_id"])
    return found


def regional(region, offered, rows):
    """A region's table: AWS's Studio notebook data (named for Studio, the type's one price across the other
    kinds), a Studio JupyterLab list that agrees with it where AWS's data has no row, and kind-naming figures."""
    named, studio = {}, {}
    for r in rows:
        if r["region"] != region or r["kind"] not in ("studio_classic", "studio_jupyterlab"):
            continue
        src = r["source_id"]
        DATES.setdefault(src, r["date"])
        if src.startswith("P1-"):
            studio[r["type"]] = figure(float(r["usd_per_hour"]), [src], "named")
    for r in rows:
        if r["region"] == region and r["kind"] == "studio_jupyterlab" and r["type"] not in studio:
            named[(r["type"], "studio")] = figure(float(r["usd_per_hour"]), [r["source_id"]], "named")
    for t, f in studio.items():
        named[(t, "studio")] = f
    named.update(kind_naming(rows, region))
    prices, unpriced = {}, {}
    no_source = f"no AWS data and no public source found gives a {region} figure for this type"
    for kind, comp in KINDS.items():
        for t in offered[kind]:
            f = named.get((t, comp))
            if f is None and t in studio and t.split(".")[1] not in PER_KIND_FAMILIES:
                f = dict(studio[t], basis="same price across kinds")
            if f is None:
                unpriced.setdefault(no_source, {}).setdefault(t, []).append(comp)
                continue
            prices.setdefault(t, {})[comp] = f
    if not prices:
        return None
    used = sorted({s for comps in prices.values() for f in comps.values() for s in f["sources"]})
    sources = {}
    for s in used:
        label, citation = CSV_SOURCES[s]
        if s.startswith("P1-"):
            citation = (OLD_P1 if s == "P1-2025-12-05" else P1_2026) + f" Region {region}."
        sources[s] = {"label": label, "date": DATES[s], "citation": citation}
    return table(region, prices, unpriced, sources, "AWS pricing-page data and AWS Price List figures quoted by "
                 "public sources, per figure")


P1_2026 = ("AWS pricing-page data file meteredUnitMaps/sagemaker/USD/current/sagemaker-instances-studionotebook.json "
           "(the JSON that aws.amazon.com/sagemaker/pricing loads for the Studio Classic notebook table), as "
           "committed by the public repository iann0036/aws-price-watcher, path "
           "raw/sagemaker-instances-studionotebook.json, commit 0133fcb3182c7cacff03246541769342b9520973 (manifest "
           "hawkFilePublicationDate 2026-07-03T01:59:35Z), Component 'Studio-Notebook'.")


def table(region, prices, unpriced, sources, source):
    dates = sorted({f["date"] for comps in prices.values() for f in comps.values() if f["date"][:1].isdigit()})
    return {
        "about": ABOUT.replace("REGION", region),
        "source": source,
        "as_of": dates[-1][:7],
        "region": region,
        "currency": "USD",
        "sources": sources,
        "prices": {t: prices[t] for t in sorted(prices)},
        "unpriced": [
            {"reason": reason, "types": {t: kinds for t, kinds in sorted(types.items())}}
            for reason, types in sorted(unpriced.items())
        ],
    }


ABOUT = (
    "SageMaker on-demand list prices, USD per instance-hour, REGION, per instance type and component. "
    "Every figure records where it was read (`sources`, ids of the `sources` table), the date of that "
    "source, and its kind basis: `named` (the source gives the price of this component) or `same price "
    "across kinds` (AWS's own data, or the broad list that equals it on every type both list, gives one "
    "figure for the type; SageMaker lists one price per type across components for current families, the "
    "kind-specific sources differing by at most half a cent). ml.t2 is never priced across kinds: its "
    "prices differ by component. No figure is interpolated from another size, family or region; a type with "
    "no sourced figure is listed under `unpriced` with the reason, and findings on it say so. For exact and "
    "complete figures run `sagelint prices update`. Written by scripts/build-price-table.py or "
    "scripts/refresh-prices.py."
)


def table_path(data, region):
    return os.path.join(data, "prices.json" if region == "us-east-1" else f"prices-{region}.json")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("research")
    ap.add_argument("research2")
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--data", default=os.path.join(here, "..", "rules", "data"))
    ap.add_argument("--cc", default=os.path.join(here, "..", "linter", "cost", "builtin_prices_data.cc"))
    args = ap.parse_args()

    offered = {k: v["types"] for k, v in
               json.load(open(os.path.join(args.data, "offered.json"), encoding="utf-8"))["kinds"].items()}
    rows = read_csv(args.research2)
    tables = {"us-east-1": us_east_1(args, offered, rows)}
    for region in sorted({r["region"] for r in rows} - {"us-east-1", "unstated"}):
        t = regional(region, offered, rows)
        if t:
            tables[region] = t
    for region, doc in tables.items():
        with open(table_path(args.data, region), "w", encoding="utf-8") as f:
            f.write(dump(doc))
        figures = sum(len(v) for v in doc["prices"].values())
        print(f"{region}: {figures} figures for {len(doc['prices'])} types", file=sys.stderr)
    write_cc(args.cc, [table_path(args.data, r) for r in tables])


def write_cc(out, paths):
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import price_table_cc
    price_table_cc.write(out, paths)


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
