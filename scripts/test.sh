#!/usr/bin/env bash
# Install, build, and run the test suite.
#
# Usage: scripts/test.sh [--all] [extra cmake -D options]
#
# Without --all it runs every test but those labelled `integration`: the ones
# that build sagelint again (the static binary and what needs it, the pre-commit
# hook's build from source) or need clang or a browser. --all runs them too, as
# CI does (.ci/run); their builds go through ccache (installed here), so a
# second build of the same sources is taken from the cache.
set -euo pipefail
cd "$(dirname "$0")/.."
all=0
if [ "${1:-}" = "--all" ]; then
  all=1
  shift
fi
# pre-commit and git for the hook test; python3 for the SARIF check;
# clang-format for the layout check; zsh and fish for the completion test;
# python3-venv for the wheel test; python3-yaml for the release workflow test;
# ccache for the integration tests' builds.
SAGELINT_EXTRA_PACKAGES="pre-commit git python3 clang-format zsh fish python3-venv python3-yaml ccache ${SAGELINT_EXTRA_PACKAGES:-}" \
  scripts/setup.sh "$@"
labels=(-LE integration)
((all)) && labels=()
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --parallel "$(nproc)" ${labels[@]+"${labels[@]}"}
