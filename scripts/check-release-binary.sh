#!/usr/bin/env bash
# Checks a release binary as it will be shipped: run with an empty
# environment, it reports the tree's version and scans the bundled examples
# (exit 1: they hold findings). scripts/release-build.sh and
# scripts/build-macos.sh run it on what they built.
# Usage: scripts/check-release-binary.sh BINARY WHAT   (WHAT: "static", "system libraries only", …)
set -euo pipefail
bin="$1"
what="$2"
src="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "check-release-binary: $*" >&2; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
abs_bin=$(cd "$(dirname "$bin")" && pwd)/$(basename "$bin")
got=$(env -i "$abs_bin" --version)
[ "${got% (commit *)}" = "sagelint $version" ] || { say "$bin --version printed '$got'"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -R "$src/examples" "$work/examples"
rc=0
(cd "$work" && env -i "$abs_bin" scan --no-color examples/) > "$work/scan.txt" 2>&1 || rc=$?
if [ "$rc" != 1 ] || ! grep -q "SM[0-9]" "$work/scan.txt"; then
  say "$bin scan examples/ exited $rc:"; head -20 "$work/scan.txt" >&2; exit 1
fi
say "$bin: $what, sagelint $version, scans examples/ ($(grep -c "SM[0-9]" "$work/scan.txt") finding lines)"
