#!/usr/bin/env bash
# Builds with AddressSanitizer and UndefinedBehaviorSanitizer and runs the
# hostile-input, parser, CLI and engine tests under them.
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=build-asan BUILD_TYPE=Debug scripts/setup.sh -DSAGELINT_SANITIZE=ON >/dev/null
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1
build-asan/sagelint_tests "[adversarial],[cloudformation],[terraform],[python],[cli],[policy],[rules],[engine]"
