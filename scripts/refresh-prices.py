#!/usr/bin/env python3
"""Refreshes the built-in price tables from AWS's offer files, as the scheduled
workflow .github/workflows/prices.yml does (docs/cost-data.md).

    scripts/refresh-prices.py --sagelint BIN [--region R ... | --all-regions]
                              [--data rules/data] [--cc linter/cost/builtin_prices_data.cc]
                              [--body FILE]

`sagelint prices update` downloads and imports each region's offer file (the
endpoint's base URL from SAGELINT_PRICE_LIST_URL when set) into a scratch
cache; every figure it holds replaces the table's figure for that type and
kind (`named`, cited by the offer file's URL and publication date), and the
type leaves the table's `unpriced` list for that kind. Figures the offer file
does not hold keep their sources. Then the compiled tables are regenerated and
FILE receives the pull request's body: each changed figure, old -> new and the
change in per cent, and how many figures were added.

Exit status: 0 when every region was read, 1 when one failed (the others are
still written), 2 on bad usage.
"""
import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
OFFER_ID = "AWS-offer"


def load_module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


build = load_module("build_price_table", os.path.join(HERE, "build-price-table.py"))
price_table_cc = load_module("price_table_cc", os.path.join(HERE, "price_table_cc.py"))


def empty_table(region):
    return {"about": build.ABOUT.replace("REGION", region), "source": "AWS Price List offer file", "as_of": "",
            "region": region, "currency": "USD", "sources": {}, "prices": {}, "unpriced": []}


def merge(doc, cached, url):
    """Puts the offer file's figures into `doc`; returns (changed, added): (type, kind, old, new) rows."""
    date = cached.get("as_of", "")
    doc["sources"][OFFER_ID] = {
        "label": "AWS Price List offer file",
        "date": date,
        "citation": f"{url} (the AWS Price List offer file for AmazonSageMaker, publicationDate {date}), read by "
                    "scripts/refresh-prices.py",
    }
    changed, added = [], []
    for t, comps in cached["prices"].items():
        for kind, usd in comps.items():
            old = doc["prices"].get(t, {}).get(kind)
            if old is None:
                added.append((t, kind, None, usd))
            elif abs(old["usd"] - usd) > 1e-9:
                changed.append((t, kind, old["usd"], usd))
            doc["prices"].setdefault(t, {})[kind] = {"usd": usd, "sources": [OFFER_ID], "basis": "named",
                                                      "date": date}
            for group in doc["unpriced"]:
                kinds = group["types"].get(t)
                if kinds and kind in kinds:
                    kinds.remove(kind)
                    if not kinds:
                        del group["types"][t]
    doc["unpriced"] = [g for g in doc["unpriced"] if g["types"]]
    # Components in the table's order, types sorted; sources that no figure names any more are dropped.
    order = price_table_cc.COMPONENTS
    doc["prices"] = {t: {k: doc["prices"][t][k] for k in sorted(doc["prices"][t], key=order.index)}
                     for t in sorted(doc["prices"])}
    used = {s for comps in doc["prices"].values() for f in comps.values() for s in f["sources"]}
    doc["sources"] = {k: v for k, v in sorted(doc["sources"].items()) if k in used}
    dates = sorted(f["date"] for comps in doc["prices"].values() for f in comps.values() if f["date"][:1].isdigit())
    if dates:
        doc["as_of"] = dates[-1][:7]
    return changed, added


def body(results, failures):
    lines = ["Weekly refresh of the built-in SageMaker price tables from AWS's public Price List offer files "
             "(`scripts/refresh-prices.py`).", ""]
    changed = [(r, *c) for r, (ch, _) in sorted(results.items()) for c in ch]
    if changed:
        lines += ["## Changed figures", "", "| region | instance type | kind | old USD/h | new USD/h | change |",
                  "|---|---|---|---:|---:|---:|"]
        for region, t, kind, old, new in changed:
            pct = (new - old) / old * 100 if old else 0.0
            lines.append(f"| {region} | {t} | {kind} | {old:g} | {new:g} | {pct:+.2f} % |")
    else:
        lines.append("No figure changed.")
    lines.append("")
    added = {r: len(a) for r, (_, a) in sorted(results.items()) if a}
    if added:
        lines.append("Newly priced: " + ", ".join(f"{r} {n}" for r, n in added.items()) + " figures.")
        lines.append("")
    for region, error in failures:
        lines.append(f"Not refreshed: {region}: {error}")
    return "\n".join(lines).rstrip() + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sagelint", required=True)
    ap.add_argument("--region", action="append", default=[])
    ap.add_argument("--all-regions", action="store_true")
    ap.add_argument("--data", default=os.path.join(HERE, "..", "rules", "data"))
    ap.add_argument("--cc", default=os.path.join(HERE, "..", "linter", "cost", "builtin_prices_data.cc"))
    ap.add_argument("--body")
    args = ap.parse_args()
    if bool(args.region) == args.all_regions:
        ap.error("name --region R (repeatable) or --all-regions")

    results, failures = {}, []
    with tempfile.TemporaryDirectory() as cache:
        env = dict(os.environ, XDG_CACHE_HOME=cache)
        regions = args.region
        if args.all_regions:
            out = subprocess.run([args.sagelint, "prices", "--format", "json"], env=env, capture_output=True,
                                 text=True, check=True)
            regions = json.loads(out.stdout)["built_in_regions"]
            regions = [r for r in regions if not r.startswith("us-gov-")]
        for region in regions:
            run = subprocess.run([args.sagelint, "prices", "update", "--region", region], env=env,
                                 capture_output=True, text=True)
            path = os.path.join(cache, "sagelint", "prices", region + ".json")
            if run.returncode != 0 or not os.path.isfile(path):
                failures.append((region, run.stderr.strip().replace("sagelint: prices update: ", "")))
                print(f"{region}: {run.stderr.strip()}", file=sys.stderr)
                continue
            with open(path, encoding="utf-8") as f:
                cached = json.load(f)
            table = build.table_path(args.data, region)
            if os.path.isfile(table):
                with open(table, encoding="utf-8") as f:
                    doc = json.load(f)
            else:
                doc = empty_table(region)
            url = (os.environ.get("SAGELINT_PRICE_LIST_URL") or "https://pricing.us-east-1.amazonaws.com").rstrip("/")
            url += f"/offers/v1.0/aws/AmazonSageMaker/current/{region}/index.json"
            results[region] = merge(doc, cached, url)
            with open(table, "w", encoding="utf-8") as f:
                f.write(build.dump(doc))
            ch, ad = results[region]
            print(f"{region}: {len(ch)} changed, {len(ad)} added", file=sys.stderr)
    if results:
        import glob
        price_table_cc.write(args.cc, sorted(glob.glob(os.path.join(args.data, "prices*.json"))))
    if args.body:
        with open(args.body, "w", encoding="utf-8") as f:
            f.write(body(results, failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
