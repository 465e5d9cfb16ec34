#!/usr/bin/env bash
# Warm scans against cold ones (README "Large repositories"): scans a tree three
# ways — cold (an empty cache directory, filled by the run), warm (the same
# cache, nothing changed) and without the cache (--no-cache) — each RUNS times,
# and reads the same tree with `rg -c sagemaker` (or `grep -rc sagemaker` where
# ripgrep is missing) as the floor any scan that reads every file has. Prints
# the median wall-clock and CPU (user + system) time of each (and the best),
# the ratios to the reader's medians, and
# whether the three scans' JSON reports are byte for byte the same (they must
# be: the cache never changes a result; exit 1 otherwise). With --warm-only
# the cache is filled once (one cold scan, not timed) and only the warm scan
# and the reader run RUNS times: a quick measure of the warm scan alone.
#
#   bench/cache.sh [--runs N] [--warm-only] [BINARY [TREE]]
#
# BINARY defaults to build/sagelint, TREE to bench/corpus (the real corpus, as
# `bench/assemble-corpus.sh bench/corpus` makes it). The cache lives in a temporary XDG_CACHE_HOME, removed at the end.
# Not part of the test suite: timings depend on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."
runs=3
warm_only=0
while true; do
  case "${1:-}" in
    --runs)
      runs="${2:?--runs needs a number}"
      shift 2
      ;;
    --warm-only)
      warm_only=1
      shift
      ;;
    *) break ;;
  esac
done
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
(cd "$tree" && "${reader[@]}" > /dev/null 2>&1 < /dev/null || true)  # the tree into the page cache, for every contender alike

names=(nocache cold warm reader)
if [ "$warm_only" = 1 ]; then
  names=(warm reader)
  (cd "$tree" && "${scan[@]}" > /dev/null 2>&1 || true)
  cp "$work/out.json" "$work/cold.json"
  cp "$work/out.json" "$work/nocache.json"
fi
for _ in $(seq "$runs"); do
  if [ "$warm_only" = 0 ]; then
    rm -rf "$XDG_CACHE_HOME"
    measure cold "${scan[@]}"
    cp "$work/out.json" "$work/cold.json"
  fi
  measure warm "${scan[@]}"
  cp "$work/out.json" "$work/warm.json"
  if [ "$warm_only" = 0 ]; then
    measure nocache "${scan[@]}" --no-cache
    cp "$work/out.json" "$work/nocache.json"
  fi
  measure reader "${reader[@]}"
done

# The median (and the least) of a column of NAME's times: 1 wall, 2 CPU.
median() { sort -n -k"$2","$2" "$work/$1" | awk -v k="$2" '{ v[NR] = $k } END { print v[int((NR + 1) / 2)] }'; }
least() { sort -n -k"$2","$2" "$work/$1" | awk -v k="$2" 'NR == 1 { print $k }'; }
reader_wall=$(median reader 1)
reader_cpu=$(median reader 2)
echo "tree: $tree ($(find "$tree" -type f | wc -l) files), median (and best) of $runs runs, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg)"
printf '%-22s %9s %9s %12s %12s %9s %9s\n' "" "wall s" "cpu s" "wall / read" "cpu / read" "best wall" "best cpu"
for name in "${names[@]}"; do
  label=$name
  [ "$name" = reader ] && label="$reader_name"
  [ "$name" = nocache ] && label="scan --no-cache"
  [ "$name" = cold ] && label="scan, cold cache"
  [ "$name" = warm ] && label="scan, warm cache"
  awk -v l="$label" -v w="$(median "$name" 1)" -v c="$(median "$name" 2)" -v rw="$reader_wall" -v rc="$reader_cpu" \
    -v bw="$(least "$name" 1)" -v bc="$(least "$name" 2)" \
    'BEGIN { printf "%-22s %9.2f %9.2f %11.1fx %11.1fx %9.2f %9.2f\n", l, w, c, w / rw, (rc > 0 ? c / rc : 0), bw, bc }'
done
echo "cache directory: $(du -sh "$XDG_CACHE_HOME/sagelint/scan" | cut -f1), $(find "$XDG_CACHE_HOME/sagelint/scan" -type f | wc -l) entries"
if cmp -s "$work/cold.json" "$work/warm.json" && cmp -s "$work/cold.json" "$work/nocache.json"; then
  if [ "$warm_only" = 1 ]; then
    echo "reports: cold and warm identical ($(wc -c < "$work/cold.json") bytes)"
  else
    echo "reports: cold, warm and --no-cache identical ($(wc -c < "$work/cold.json") bytes)"
  fi
else
  echo "reports: DIFFER between cold, warm and --no-cache" >&2
  exit 1
fi
