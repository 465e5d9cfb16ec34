#!/usr/bin/env bash
# Builds the libFuzzer harnesses with clang (ASan + UBSan) and runs each for
# FUZZ_SECONDS (default 20) from the committed seed corpus. A crash fails.
# The harnesses are those tests/fuzz/harnesses.txt lists.
# This build compiles every source file on its own (no unity batches), so CI
# also sees a file that compiles only beside the others of its batch.
set -euo pipefail
cd "$(dirname "$0")/.."
SAGELINT_EXTRA_PACKAGES="clang libclang-rt-14-dev ${SAGELINT_EXTRA_PACKAGES:-}" \
  CC=clang CXX=clang++ BUILD_DIR=build-fuzz BUILD_TYPE=RelWithDebInfo \
  scripts/setup.sh -DSAGELINT_FUZZ=ON -DSAGELINT_TESTS=OFF -DSAGELINT_UNITY_BUILD=OFF >/dev/null
seconds="${FUZZ_SECONDS:-20}"
# The harnesses and their seeds: tests/fuzz/harnesses.txt (a row's name with '_' for '-').
mapfile -t harnesses < <(awk '$1 == "front-end" || $1 == "reader" { print $2 }' tests/fuzz/harnesses.txt)
for name in "${harnesses[@]}"; do
  target=${name//-/_}
  work=$(mktemp -d)
  cp tests/fuzz/corpus/$target/* "$work/"
  echo "fuzz_$target: ${seconds}s"
  build-fuzz/tests/fuzz/fuzz_$target "$work" -max_total_time="$seconds" -max_len=65536 -timeout=10 \
    -rss_limit_mb=2048 -print_final_stats=1 2>&1 | grep -E "DONE|SUMMARY|==[0-9]+==ERROR" || true
  # libFuzzer exits non-zero on a crash; re-check through the artifact it writes.
  # (compgen: true when any one kind of artifact exists; `ls` of the four needs all four.)
  if compgen -G "crash-*" >/dev/null || compgen -G "leak-*" >/dev/null || compgen -G "timeout-*" >/dev/null ||
    compgen -G "oom-*" >/dev/null; then
    echo "fuzz_$target found a failing input: $(ls crash-* leak-* timeout-* oom-* 2>/dev/null)"
    exit 1
  fi
  rm -rf "$work"
done
echo "fuzzers ran ${seconds}s each without a crash"
