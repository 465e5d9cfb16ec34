#!/usr/bin/env bash
# Validates sagelint's SARIF with the official SARIF validator (npm
# @microsoft/sarif-multitool, pinned in package-lock.json): schema and SARIF rules.
# Usage: validate.sh SAGELINT_BINARY SOURCE_DIR WORK_DIR
set -euo pipefail
bin="$1" src="$2" work="$3"
mkdir -p "$work"
if [ ! -x "$work/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool" ]; then
  cp "$src/tests/sarif/package.json" "$src/tests/sarif/package-lock.json" "$work/"
  (cd "$work" && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  chmod +x "$work/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
fi
tool="$work/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool"
cd "$src"
"$bin" scan --fail-on none --format "sarif=$work/fixtures.sarif" fixtures/rules fixtures/fixes examples >/dev/null
rm -f "$work/validation.sarif"
out=$("$tool" validate "$work/fixtures.sarif" -o "$work/validation.sarif" 2>&1) || { echo "$out"; exit 1; }
echo "$out" | grep -E ": (error|warning) " || true
if echo "$out" | grep -q ": error "; then
  echo "SARIF validation failed"
  exit 1
fi
results=$(python3 -c "import json,sys; print(len(json.load(open(sys.argv[1]))['runs'][0]['results']))" "$work/fixtures.sarif")
echo "SARIF valid: $results results"
[ "$results" -gt 0 ]
# The fix fixtures' results carry their fixes (README "Fixes"), validated with the rest.
fixes=$(python3 -c "import json,sys; print(sum(1 for r in json.load(open(sys.argv[1]))['runs'][0]['results'] if r.get('fixes')))" "$work/fixtures.sarif")
echo "SARIF results with fixes: $fixes"
[ "$fixes" -gt 0 ]
# Run from a subdirectory, the locations are still the repository's paths,
# stated against %SRCROOT% (the repository root) in originalUriBaseIds.
(cd "$src/fixtures" && "$bin" scan --fail-on none --format "sarif=$work/subdir.sarif" rules/SM201 fixes/SM103 >/dev/null)
rm -f "$work/validation-subdir.sarif"
out=$("$tool" validate "$work/subdir.sarif" -o "$work/validation-subdir.sarif" 2>&1) || { echo "$out"; exit 1; }
if echo "$out" | grep -q ": error "; then
  echo "$out" | grep -E ": (error|warning) "
  echo "SARIF validation failed (run from a subdirectory)"
  exit 1
fi
python3 - "$work/subdir.sarif" "$src" <<'PY'
import json, os, sys
run = json.load(open(sys.argv[1]))["runs"][0]
root = run["originalUriBaseIds"]["%SRCROOT%"]["uri"]
assert root == "file://" + os.path.realpath(sys.argv[2]) + "/", root
uris = [r["locations"][0]["physicalLocation"]["artifactLocation"] for r in run["results"]]
assert uris and all(u["uri"].startswith("fixtures/") and u["uriBaseId"] == "%SRCROOT%" for u in uris), uris
print(f"SARIF from a subdirectory: {len(uris)} results at repository paths")
PY

