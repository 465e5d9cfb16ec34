#!/usr/bin/env bash
# Installs a wheel made by scripts/build-wheel.py into a fresh virtual
# environment, offline (no package index), and checks that `sagelint` is on the
# environment's PATH, reports the tree's version and scans the bundled examples
# (exit 1: they hold findings); then uninstalls it and checks nothing is left.
# The release workflow runs it on each platform's wheel; tests/integration/wheel.sh too.
# Usage: scripts/check-wheel.sh WHEEL   (needs python3 with venv: Debian's python3-venv)
set -euo pipefail
wheel="$(realpath "$1")"
src="$(cd "$(dirname "$0")/.." && pwd)"
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 -m venv "$work/venv" || {
  echo "check-wheel: python3 -m venv failed (on Debian and Ubuntu: apt-get install python3-venv)" >&2
  exit 1
}
export PIP_DISABLE_PIP_VERSION_CHECK=1 PIP_NO_INPUT=1
"$work/venv/bin/pip" install --quiet --no-index --no-deps "$wheel"
[ -x "$work/venv/bin/sagelint" ] || { echo "check-wheel: pip did not put sagelint in the environment's bin/" >&2; exit 1; }
got=$(PATH="$work/venv/bin:/usr/bin:/bin" sagelint --version)
[ "${got% (commit *)}" = "sagelint $version" ] || { echo "check-wheel: sagelint --version printed '$got', expected 'sagelint $version'" >&2; exit 1; }
cp -R "$src/examples" "$work/examples"
rc=0
(cd "$work" && PATH="$work/venv/bin:/usr/bin:/bin" sagelint scan --no-color examples/) > "$work/scan.txt" 2>&1 || rc=$?
if [ "$rc" != 1 ] || ! grep -q "SM[0-9]" "$work/scan.txt"; then
  echo "check-wheel: sagelint scan examples/ from the environment exited $rc:" >&2
  head -20 "$work/scan.txt" >&2
  exit 1
fi
"$work/venv/bin/pip" uninstall --quiet --yes sagelint
[ ! -e "$work/venv/bin/sagelint" ] || { echo "check-wheel: pip uninstall left bin/sagelint behind" >&2; exit 1; }
echo "check-wheel: $(basename "$wheel"): installs offline, sagelint $version scans examples/ ($(grep -c "SM[0-9]" "$work/scan.txt") finding lines), uninstalls cleanly" >&2
