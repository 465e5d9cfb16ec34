#!/usr/bin/env bash
# Benchmarks sagelint against `rg -c sagemaker` over the same generated tree
# (the I/O floor), at 1× and 4× size, plus a single-file (pre-commit) scan.
# Prints the ratios, files/s, MB/s, peak RSS and PASS/FAIL per goal.
# Usage: bench/run.sh [SCALE]      (not part of the test suite)
set -euo pipefail
cd "$(dirname "$0")/.."
scale="${1:-1}"
need=()
command -v hyperfine >/dev/null || need+=(hyperfine)
command -v rg >/dev/null || need+=(ripgrep)
[ -x /usr/bin/time ] || need+=(time)
if ((${#need[@]})); then
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get install -y -qq "${need[@]}" >/dev/null
fi
BUILD_DIR=build-bench BUILD_TYPE=Release scripts/setup.sh -DSAGELINT_TESTS=OFF >/dev/null
bin="$PWD/build-bench/sagelint"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
python3 bench/gen_corpus.py "$work/t1" --scale "$scale"
python3 bench/gen_corpus.py "$work/t4" --scale "$((scale * 4))"

measure() {  # tree -> mean seconds of sagelint and rg, via hyperfine
  hyperfine -N --warmup 2 --runs 7 --export-json "$work/h.json" \
    "$bin scan --format json --fail-on none $1" "rg -c sagemaker $1" >/dev/null 2>&1 || true
  python3 -c "import json;r=json.load(open('$work/h.json'))['results'];print(r[0]['mean'],r[1]['mean'])"
}
files1=$(find "$work/t1" -type f | wc -l)
mb1=$(du -sm "$work/t1" | cut -f1)
read -r s1 r1 < <(measure "$work/t1")
read -r s4 r4 < <(measure "$work/t4")
rss=$( { /usr/bin/time -v "$bin" scan --format json --fail-on none "$work/t4" >/dev/null; } 2>&1 | awk '/Maximum resident/ {print $6}')
one="$work/t1/team00/svc0000/tf/main.tf"
hyperfine -N --warmup 3 --runs 20 --export-json "$work/one.json" "$bin scan --fail-on none $one" >/dev/null 2>&1
single=$(python3 -c "import json;print(json.load(open('$work/one.json'))['results'][0]['mean'])")

python3 - "$s1" "$r1" "$s4" "$r4" "$rss" "$single" "$files1" "$mb1" <<'PY'
import sys
s1, r1, s4, r4, rss, single, files, mb = map(float, sys.argv[1:])
ratio = s1 / r1
lin = s4 / s1
def verdict(ok): return "PASS" if ok else "FAIL"
print(f"tree: {int(files)} files, {int(mb)} MB (4x tree for linearity and memory)")
print(f"sagelint {s1*1000:.0f} ms vs rg {r1*1000:.0f} ms: ratio {ratio:.2f} (goal <= 3)  {verdict(ratio <= 3)}")
print(f"throughput: {files/s1:.0f} files/s, {mb/s1:.0f} MB/s")
print(f"4x tree: {s4*1000:.0f} ms, {lin:.2f}x the 1x time (goal <= 4.4)  {verdict(lin <= 4.4)}")
print(f"peak RSS on the 4x tree: {rss/1024:.0f} MB (goal <= 200)  {verdict(rss/1024 <= 200)}")
print(f"single-file scan: {single*1000:.1f} ms (goal <= 20)  {verdict(single*1000 <= 20)}")
PY
