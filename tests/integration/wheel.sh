#!/usr/bin/env bash
# scripts/build-wheel.py: the wheel of the static binary has the platform tag,
# layout and metadata pip needs (binary under sagelint-X.Y.Z.data/scripts/,
# Root-Is-Purelib: false, a RECORD that matches), is reproducible, refuses a
# dynamically linked binary, and — installed offline into a fresh virtual
# environment by scripts/check-wheel.sh — puts a `sagelint` on PATH that scans
# the examples as the binary itself does.
# Usage: wheel.sh STATIC_SAGELINT DYNAMIC_SAGELINT SOURCE_DIR
set -euo pipefail
static="$(realpath "$1")" dynamic="$(realpath "$2")" src="$(realpath "$3")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
arch=$(uname -m)

wheel=$(python3 "$src/scripts/build-wheel.py" "$static" "$work/a")
want="$work/a/sagelint-$version-py3-none-manylinux_2_17_$arch.manylinux2014_$arch.musllinux_1_1_$arch.whl"
[ "$wheel" = "$want" ] || fail "wheel name: $wheel, expected $want"
SOURCE_DATE_EPOCH=315532800 python3 "$src/scripts/build-wheel.py" "$static" "$work/b" > /dev/null
cmp -s "$wheel" "$work/b/$(basename "$wheel")" || fail "two builds of the wheel differ"
echo "ok: $(basename "$wheel") (reproducible)"

python3 "$src/tests/integration/wheel_layout.py" "$wheel" "$static" "$version" \
  "py3-none-manylinux_2_17_$arch,py3-none-manylinux2014_$arch,py3-none-musllinux_1_1_$arch"
echo "ok: tags, data/scripts layout, Root-Is-Purelib: false, RECORD hashes"

rc=0
python3 "$src/scripts/build-wheel.py" "$dynamic" "$work/c" > /dev/null 2> "$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q "is dynamically linked" "$work/err" || fail "a dynamic binary: exit $rc, $(cat "$work/err")"
echo "ok: a dynamically linked binary is refused"

# Offline: no package index, and no network at all where a namespace can cut it.
offline=()
if unshare -rn true 2>/dev/null; then offline=(unshare -rn); fi
"${offline[@]}" "$src/scripts/check-wheel.sh" "$wheel" 2> "$work/check.err" || { cat "$work/check.err"; fail "check-wheel.sh"; }
cat "$work/check.err"

# The scan from the environment prints what the binary prints.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --no-index --no-deps --disable-pip-version-check "$wheel"
cp -R "$src/examples" "$work/examples"
cd "$work"
a=0; PATH="$work/venv/bin:/usr/bin:/bin" sagelint scan --no-color examples/ > venv.txt 2>&1 || a=$?
b=0; "$static" scan --no-color examples/ > direct.txt 2>&1 || b=$?
[ "$a" = "$b" ] && cmp -s venv.txt direct.txt || fail "sagelint from the wheel differs from the binary (exit $a vs $b)"
echo "ok: pip install of the wheel, then sagelint scan examples/ (exit $a, $(wc -l < venv.txt) lines, same as the binary)"
