#!/usr/bin/env bash
# Counts the instructions (valgrind --tool=callgrind) of a one-file scan of a
# small template, as the pre-commit hook runs it, and of `sagelint --version`
# (start-up alone) as the reference. Instruction counts do not depend on the
# machine's load, so they show what a change costs where timings cannot.
#
#   bench/instructions.sh [BINARY [TEMPLATE]]
#
# BINARY defaults to build/sagelint, TEMPLATE to examples/infra/endpoint.yaml
# (935 bytes: a model, an endpoint configuration, an endpoint). The template is
# copied into an empty directory (no configuration file, no git) and scanned
# there with --jobs 1. Prints both counts, the scan's count over the goal
# (bench/README.md: at most 15 million), and the functions that take the most of
# the scan (inclusive counts, from callgrind_annotate). Installs valgrind from
# Debian if it is missing. Not part of the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="$(realpath "${1:-build/sagelint}")"
template="$(realpath "${2:-examples/infra/endpoint.yaml}")"
goal=15000000
[ -x "$bin" ] || { echo "instructions: no binary at $bin (scripts/demo.sh builds build/sagelint)" >&2; exit 1; }
if ! command -v valgrind >/dev/null || ! command -v callgrind_annotate >/dev/null; then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq valgrind >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/repo"
cp "$template" "$work/repo/"
name=$(basename "$template")

# count OUT ARGS...: runs sagelint under callgrind; prints the total instruction count.
count() {
  local out="$1"
  shift
  (cd "$work/repo" && valgrind --tool=callgrind --callgrind-out-file="$out" "$bin" "$@" > "$work/stdout" 2> "$work/stderr") ||
    { local rc=$?; [ "$rc" -le 1 ] || { echo "instructions: sagelint $* exited $rc" >&2; cat "$work/stderr" >&2; exit 1; }; }
  sed -n 's/^summary: *\([0-9]*\).*/\1/p' "$out"
}
version=$(count "$work/version.out" --version)
scan=$(count "$work/scan.out" scan "$name" --jobs 1 --format json --fail-on none)
findings=$(grep -c '^ *"rule": "SM' "$work/stdout" || true)
millions() { awk -v n="$1" 'BEGIN { printf "%.1f", n / 1e6 }'; }

echo "binary:   $bin"
echo "template: $template ($(wc -c < "$template") bytes, $findings findings)"
echo "sagelint --version:           $(millions "$version") M instructions"
echo "sagelint scan (one template): $(millions "$scan") M instructions ($(millions $((scan - version))) M beyond start-up)"
if [ "$scan" -le "$goal" ]; then
  echo "PASS: at most $(millions "$goal") M"
else
  echo "FAIL: over $(millions "$goal") M"
fi
echo
echo "The scan's most costly functions below main (inclusive, % of the scan):"
callgrind_annotate --inclusive=yes "$work/scan.out" 2>/dev/null |
  awk -v total="$scan" '$1 ~ /^[0-9,]+$/ && NF > 1 {
      n = $1; gsub(",", "", n)
      $1 = ""; sub(/^ +/, ""); sub(/^\([^)]*\) +/, "")
      if ($0 ~ /PROGRAM TOTALS|below main|libc_start|ld-linux|main\.cc:main|RunCli/) next
      sub(/^[^ ]*\/(linter|parsers|rules)\//, "")  # the source path from the project root
      sub(/ \[[^]]*\]$/, "")                       # the object file
      if (seen[$0]++) next                         # the same function through another path
      if (++shown > 15) exit
      printf "  %5.1f %%  %s\n", 100 * n / total, substr($0, 1, 120)
    }'
