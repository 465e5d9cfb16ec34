#!/usr/bin/env bash
# The GitHub Action's scan step (scripts/action-scan.sh): annotations on
# stdout, SARIF written, the exit code recorded for the later steps, and a
# usage error failing at once.
# Usage: action_scan.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$1" src="$2"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$src"
mkdir "$work/runner-temp"
export RUNNER_TEMP="$work/runner-temp"
export GITHUB_OUTPUT="$work/output" SAGELINT_SARIF="$work/out.sarif" SAGELINT_PATHS="examples/infra" SAGELINT_FAIL_ON=warning
# Two scans at once (two jobs, two checkouts on one runner): each reads its own report.
mkdir "$work/other"
(GITHUB_OUTPUT="$work/other/output" SAGELINT_SARIF="$work/other/out.sarif" SAGELINT_PATHS="examples/training" \
  scripts/action-scan.sh "$bin" >/dev/null) &
out=$(scripts/action-scan.sh "$bin")
wait $!
grep -qE "^findings=[1-9][0-9]*$" "$work/other/output" || { echo "FAIL: the other scan's outputs"; cat "$work/other/output"; exit 1; }
[ -z "$(ls -A "$RUNNER_TEMP")" ] || { echo "FAIL: the scan step left files in RUNNER_TEMP"; ls -A "$RUNNER_TEMP"; exit 1; }
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: exit code not recorded"; cat "$GITHUB_OUTPUT"; exit 1; }
grep -q "^::error file=examples/infra/endpoint.yaml,line=21,col=25" <<<"$out" || { echo "FAIL: no annotation"; echo "$out"; exit 1; }
python3 -c "import json,sys; d=json.load(open(sys.argv[1])); assert d['version']=='2.1.0' and d['runs'][0]['results']" "$SAGELINT_SARIF"
grep -qE "^findings=[1-9][0-9]*$" "$GITHUB_OUTPUT" && grep -qE "^avoidable-monthly-usd=[0-9]+\.[0-9]{2}$" "$GITHUB_OUTPUT" &&
  grep -q "^new-findings=$" "$GITHUB_OUTPUT" && grep -q "^spend-delta-monthly-usd=$" "$GITHUB_OUTPUT" ||
  { echo "FAIL: the scan step's outputs"; cat "$GITHUB_OUTPUT"; exit 1; }
echo "ok: findings annotated, SARIF written, exit code 1 recorded; outputs findings and avoidable-monthly-usd"

: > "$GITHUB_OUTPUT"
SAGELINT_FAIL_ON=none scripts/action-scan.sh "$bin" >/dev/null
grep -q "^exit-code=0$" "$GITHUB_OUTPUT" || { echo "FAIL: fail-on none"; exit 1; }
echo "ok: fail-on none records 0"

: > "$GITHUB_OUTPUT"
if SAGELINT_ARGS="--no-such-flag" scripts/action-scan.sh "$bin" >/dev/null 2>&1; then
  echo "FAIL: a usage error did not fail the step"; exit 1
fi
grep -q "^exit-code=2$" "$GITHUB_OUTPUT" || { echo "FAIL: usage error code"; exit 1; }
echo "ok: usage errors fail the step"
