#!/usr/bin/env bash
# Warm scans against cold ones (README "Large repositories"): scans a tree three
# ways — cold (an empty cache directory, filled by the run), warm (the same
# cache, nothing changed) and without the cache (--no-cache) — each RUNS times,
# and reads the same tree with `rg -c sagemaker` (or `grep -rc sagemaker` where
# ripgrep is missing) as the floor any scan that reads every file has. Prints
# the best wall-clock and CPU (user + system) time of each, the ratios, and
# whether the three scans' JSON reports are byte for byte the same (they must
# be: the cache never changes a result; exit 1 otherwise).
#
#   bench/cache.sh [--runs N] [BINARY [TREE]]
#
# BINARY defaults to build/sagelint, TREE to bench/corpus (the real corpus, as
# `bench/assemble-corpus.sh bench/corpus` makes it). The cache lives in a temporary XDG_CACHE_HOME, removed at the end.
# Not part of the test suite: timings depend on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
if [ "${1:-}" = "--runs" ]; then
  runs="${2:?--runs needs a number}"
  shift 2
fi
bin="$(realpath "${1:-build/sagelint}")"
tree="$(realpath -m "${2:-bench/corpus}")"
[ -x "$bin" ] || { echo "cache.sh: no binary at $bin" >&2; exit 1; }
[ -d "$tree" ] || { echo "cache.sh: no tree at $tree" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export XDG_CACHE_HOME="$work/xdg"
TIMEFORMAT='%R %U %S'

# measure NAME COMMAND...: runs COMMAND in TREE, appends "wall cpu" to $work/NAME.
measure() {
  local name="$1"
  shift
  local t
  t=$( { time (cd "$tree" && "$@" > /dev/null 2>&1 || [ $? -le 1 ]) ; } 2>&1 | tail -n 1)
  awk -v t="$t" 'BEGIN { split(t, a, " "); printf "%.3f %.3f\n", a[1], a[2] + a[3] }' >> "$work/$name"
}

scan=("$bin" scan --fail-on none --report-name bench --format "json=$work/out.json" .)
if command -v rg > /dev/null; then
  reader=(rg -c sagemaker .)
  reader_name="rg -c sagemaker"
else
  reader=(grep -rc sagemaker .)
  reader_name="grep -rc sagemaker"
fi
"${reader[@]}" > /dev/null 2>&1 < /dev/null || true  # the tree into the page cache, for every contender alike

for _ in $(seq "$runs"); do
  rm -rf "$XDG_CACHE_HOME"
  measure cold "${scan[@]}"
  cp "$work/out.json" "$work/cold.json"
  measure warm "${scan[@]}"
  cp "$work/out.json" "$work/warm.json"
  measure nocache "${scan[@]}" --no-cache
  cp "$work/out.json" "$work/nocache.json"
  measure reader "${reader[@]}"
done

best() { sort -n -k1,1 "$work/$1" | head -n 1; }
read -r reader_wall reader_cpu <<< "$(best reader)"
echo "tree: $tree ($(find "$tree" -type f | wc -l) files), best of $runs runs, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-22s %9s %9s %12s %12s\n' "" "wall s" "cpu s" "wall / read" "cpu / read"
for name in nocache cold warm reader; do
  read -r wall cpu <<< "$(best "$name")"
  label=$name
  [ "$name" = reader ] && label="$reader_name"
  [ "$name" = nocache ] && label="scan --no-cache"
  [ "$name" = cold ] && label="scan, cold cache"
  [ "$name" = warm ] && label="scan, warm cache"
  awk -v l="$label" -v w="$wall" -v c="$cpu" -v rw="$reader_wall" -v rc="$reader_cpu" \
    'BEGIN { printf "%-22s %9.2f %9.2f %11.1fx %11.1fx\n", l, w, c, w / rw, (rc > 0 ? c / rc : 0) }'
done
echo "cache directory: $(du -sh "$XDG_CACHE_HOME/sagelint/scan" | cut -f1), $(find "$XDG_CACHE_HOME/sagelint/scan" -type f | wc -l) entries"
if cmp -s "$work/cold.json" "$work/warm.json" && cmp -s "$work/cold.json" "$work/nocache.json"; then
  echo "reports: cold, warm and --no-cache identical ($(wc -c < "$work/cold.json") bytes)"
else
  echo "reports: DIFFER between cold, warm and --no-cache" >&2
  exit 1
fi
