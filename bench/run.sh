#!/usr/bin/env bash
# Benchmarks sagelint against the I/O floor (`rg -c sagemaker` over the same
# files), in one run, on the same machine.
#
#   bench/run.sh [SCALE]     a generated tree (gen_corpus.py) at 1x and 4x
#                            SCALE, plus a single-file (pre-commit) scan
#   bench/run.sh --tree DIR  a real tree (see bench/README.md for assembling
#                            one): whole tree, per front end, peak RSS,
#                            1x/2x/4x scaling, 50 SageMaker templates, one file
#
# Prints the ratios, files/s, MB/s, peak RSS and PASS/FAIL per goal. Not part
# of the test suite: timings depend on the machine and its load.
set -euo pipefail
cd "$(dirname "$0")/.."
tree=""
scale=1
while (($#)); do
  case "$1" in
    --tree) tree="$2"; shift 2 ;;
    *) scale="$1"; shift ;;
  esac
done
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

# A copy of SRC at DST made of hard links (no extra disk), or a plain copy
# where links cannot be made (another file system).
link_or_copy() {
  if [ -d "$1" ]; then cp -al "$1" "$2" 2>/dev/null || cp -r "$1" "$2"; else ln "$1" "$2" 2>/dev/null || cp "$1" "$2"; fi
}

# Mean seconds of sagelint and of rg over the same target, via hyperfine.
# Usage: measure TARGET RUNS RG_FLAGS
measure() {
  hyperfine -N --warmup 1 --runs "$2" --export-json "$work/h.json" \
    "$bin scan --format json --fail-on none $1" "rg -c $3 sagemaker $1" >/dev/null 2>&1 || true
  python3 -c "import json;r=json.load(open('$work/h.json'))['results'];print(r[0]['mean'],r[1]['mean'])"
}
# Mean seconds of a one-file scan, as pre-commit runs it.
one_file_seconds() {
  hyperfine -N --warmup 3 --runs 20 --export-json "$work/one.json" "$bin scan --fail-on none $1" >/dev/null 2>&1 || true
  python3 -c "import json;print(json.load(open('$work/one.json'))['results'][0]['mean'])"
}
# The median of three runs: with two workers the peak depends on which large
# files happen to be parsed at the same moment, which moves it by a few MB.
peak_rss_kb() {
  for _ in 1 2 3; do
    { /usr/bin/time -v "$bin" scan --format json --fail-on none "$1" >/dev/null; } 2>&1 |
      awk '/Maximum resident/ {print $6}'
  done | sort -n | sed -n 2p
}

if [ -n "$tree" ]; then
  tree=$(cd "$tree" && pwd)
  files=$(find "$tree" -type f | wc -l)
  mb=$(du -sm "$tree" | cut -f1)
  echo "tree: $tree ($files files, $mb MB)"
  read -r s1 r1 < <(measure "$tree" 5 -i)
  echo "per front end (one run, --timing):"
  "$bin" scan --format json --fail-on none --timing "$tree" 2>&1 >/dev/null | sed 's/^/  /'
  rss1=$(peak_rss_kb "$tree")
  # 2x and 4x: copies of the tree side by side.
  for n in 2 4; do
    mkdir -p "$work/x$n"
    for ((i = 0; i < n; i++)); do link_or_copy "$tree" "$work/x$n/copy$i"; done
  done
  read -r s2 _ < <(measure "$work/x2" 3 -i)
  read -r s4 _ < <(measure "$work/x4" 3 -i)
  rss2=$(peak_rss_kb "$work/x2")
  rss4=$(peak_rss_kb "$work/x4")
  # 50 CloudFormation templates that declare SageMaker resources, and one of them alone.
  mkdir -p "$work/cfn50"
  i=0
  while IFS= read -r f; do
    link_or_copy "$f" "$work/cfn50/t$i.${f##*.}"
    i=$((i + 1))
  done < <(rg -l --sort path -g '*.yaml' -g '*.yml' -g '*.json' -g '*.template' 'AWS::SageMaker::' "$tree" | head -50)
  read -r sc rc < <(measure "$work/cfn50" 10 -i)
  one="$work/cfn50/t0.yaml"
  [ -f "$one" ] || one=$(ls "$work/cfn50"/t0.* | head -1)
  single=$(one_file_seconds "$one")
  python3 - "$s1" "$r1" "$s2" "$s4" "$rss1" "$rss2" "$rss4" "$sc" "$rc" "$i" "$single" "$files" "$mb" <<'PY'
import sys
s1, r1, s2, s4, rss1, rss2, rss4, sc, rc, ntpl, single, files, mb = map(float, sys.argv[1:])
def verdict(ok): return "PASS" if ok else "FAIL"
print(f"whole tree: sagelint {s1:.2f} s vs rg -c -i {r1:.2f} s: ratio {s1/r1:.1f} (goal <= 5)  {verdict(s1/r1 <= 5)}")
print(f"throughput: {files/s1:.0f} files/s, {mb/s1:.0f} MB/s")
print(f"{int(ntpl)} SageMaker templates: {sc*1000:.1f} ms vs rg {rc*1000:.1f} ms: ratio {sc/rc:.1f} (goal <= 5)  {verdict(sc/rc <= 5)}")
print(f"one template: {single*1000:.1f} ms (goal <= 10)  {verdict(single*1000 <= 10)}")
print(f"scaling: 1x {s1:.2f} s, 2x {s2:.2f} s, 4x {s4:.2f} s: 4x/1x = {s4/s1:.2f} (goal <= 4.2)  {verdict(s4/s1 <= 4.2)}")
print(f"peak RSS: 1x {rss1/1024:.0f} MB, 2x {rss2/1024:.0f} MB, 4x {rss4/1024:.0f} MB: 4x/1x = {rss4/rss1:.2f} "
      f"(goal <= 1.25 and <= 150 MB)  {verdict(rss4/rss1 <= 1.25 and rss4/1024 <= 150)}")
PY
  exit 0
fi

python3 bench/gen_corpus.py "$work/t1" --scale "$scale"
python3 bench/gen_corpus.py "$work/t4" --scale "$((scale * 4))"
files1=$(find "$work/t1" -type f | wc -l)
mb1=$(du -sm "$work/t1" | cut -f1)
read -r s1 r1 < <(measure "$work/t1" 7 "")
read -r s4 r4 < <(measure "$work/t4" 7 "")
rss=$(peak_rss_kb "$work/t4")
one="$work/t1/team00/svc0000/tf/main.tf"
single=$(one_file_seconds "$one")

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
