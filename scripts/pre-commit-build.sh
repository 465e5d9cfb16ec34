#!/usr/bin/env bash
# pre-commit entry of the `sagelint-build` hook: builds sagelint from the hook
# repository on first use (cached beside it, rebuilt when the sources change) and
# scans the files pre-commit passes. Its arguments go to `sagelint scan` as they
# are: the hook's entry ends with `--`, so file names that look like options stay paths.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
build="${SAGELINT_BUILD_CACHE:-$repo/.build-pre-commit}"
stamp="$build/.source-stamp"
want="$(cd "$repo" && { git rev-parse HEAD 2>/dev/null || date +%s; })"
if [ ! -x "$build/sagelint" ] || [ "$(cat "$stamp" 2>/dev/null)" != "$want" ]; then
  echo "sagelint: building from $repo (first use; cached in $build)" >&2
  BUILD_DIR="$build" BUILD_TYPE=Release "$repo/scripts/setup.sh" -DSAGELINT_TESTS=OFF >&2
  echo "$want" > "$stamp"
fi
exec "$build/sagelint" scan "$@"
