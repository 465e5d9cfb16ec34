#!/usr/bin/env bash
# Install, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
SAGELINT_EXTRA_PACKAGES="${SAGELINT_EXTRA_PACKAGES:-}" scripts/setup.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)"
