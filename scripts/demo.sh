#!/usr/bin/env bash
# Quick start: install, build, and scan the bundled example repository.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
echo
echo "\$ sagelint scan examples/"
build/sagelint scan examples/ && rc=0 || rc=$?
echo
echo "(exit status $rc: findings at or above --fail-on make it 1)"
