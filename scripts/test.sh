#!/usr/bin/env bash
# Install, build, and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
# pre-commit and git for the hook test; python3 for the SARIF check;
# clang-format for the layout check; zsh and fish for the completion test;
# python3-venv for the wheel test; python3-yaml for the release workflow test.
SAGELINT_EXTRA_PACKAGES="pre-commit git python3 clang-format zsh fish python3-venv python3-yaml ${SAGELINT_EXTRA_PACKAGES:-}" scripts/setup.sh
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)"
