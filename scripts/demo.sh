#!/usr/bin/env bash
# Quick start: install, build sagelint (only the binary; scripts/test.sh builds
# the tests in the same build/), and scan the bundled example repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --target sagelint
echo
echo "\$ sagelint scan examples/"
build/sagelint scan examples/ && rc=0 || rc=$?
echo
echo "(exit status $rc: findings at or above --fail-on make it 1)"
