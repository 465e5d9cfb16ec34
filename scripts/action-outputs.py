#!/usr/bin/env python3
"""The Action's outputs from sagelint's JSON report (scan or diff), as
`name=value` lines for $GITHUB_OUTPUT:

  findings                 findings reported (after suppressions and the baseline)
  new-findings             diff: findings the change adds (empty for a scan)
  spend-delta-monthly-usd  diff: the change's always-on spend delta, $/month (empty for a scan)
  avoidable-monthly-usd    scan: the avoidable spend, $/month (empty for a diff)

A report that cannot be read gives empty values and a warning: the exit code
still decides the job. Usage: action-outputs.py REPORT.json
"""
import json
import sys


def number(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return ""
    return ("%.2f" % value) if isinstance(value, float) else str(value)


def main(argv):
    if len(argv) != 2:
        sys.exit("usage: action-outputs.py REPORT.json")
    try:
        with open(argv[1], encoding="utf-8") as f:
            report = json.load(f)
        if not isinstance(report, dict):
            raise ValueError("not a JSON object")
    except (OSError, ValueError) as e:
        print("::warning::sagelint: no outputs: cannot read the report (%s)" % str(e).replace("\n", " "),
              file=sys.stderr)
        report = {}
    summary = report.get("summary") if isinstance(report.get("summary"), dict) else {}
    delta = report.get("spend_delta") if isinstance(report.get("spend_delta"), dict) else {}
    diff = "new" in report
    print("findings=" + number(summary.get("findings")))
    print("new-findings=" + (number(summary.get("new")) if diff else ""))
    print("spend-delta-monthly-usd=" + (number(delta.get("total_monthly_usd")) if diff else ""))
    print("avoidable-monthly-usd=" + ("" if diff else number(summary.get("avoidable_monthly_usd"))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
