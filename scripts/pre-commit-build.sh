#!/usr/bin/env bash
# pre-commit entry of the `sagelint-build` hook: gets sagelint for the hook's
# revision once, caches it beside the hook repository, and scans the files
# pre-commit passes. Its arguments go to `sagelint scan` as they are: the
# hook's entry ends with `--`, so file names that look like options stay paths.
#
# On first use (or after the hook's `rev` changed) it takes, in this order:
#  1. the release binary for this revision (scripts/release-fetch.sh): release
#     vX.Y.Z, the version this tree names (pre-commit's shallow clone has no tag
#     name), used only if the release was built from this HEAD and its SHA-256
#     matches. Releases are looked for under SAGELINT_RELEASE_URL (file:// works;
#     empty: never), else, for a hook repository cloned from GitHub, under its
#     releases/download.
#  2. a build from source, quietly: one line, the build log in a file, nothing
#     of the compiler on screen unless the build fails. Never a package manager
#     and never sudo from inside `git commit`: what is missing is named
#     (scripts/setup.sh --check) and the hook stops.
#
#   SAGELINT_BUILD_CACHE   where the binary is kept (default: .build-pre-commit in the hook repository)
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
cache="${SAGELINT_BUILD_CACHE:-$repo/.build-pre-commit}"
stamp="$cache/.source-stamp"
say() { echo "sagelint-build: $*" >&2; }

head=$(git -C "$repo" rev-parse --verify -q HEAD 2>/dev/null || true)
want="${head:-unversioned}"
if [ -x "$cache/sagelint" ] && [ "$(cat "$stamp" 2>/dev/null)" = "$want" ]; then
  exec "$cache/sagelint" scan "$@"
fi
mkdir -p "$cache"
rm -f "$stamp"

# 1. The release binary.
if [ -n "${SAGELINT_RELEASE_URL+set}" ]; then
  base="$SAGELINT_RELEASE_URL"
else
  base=""
  origin=$(git -C "$repo" remote get-url origin 2>/dev/null || true)
  case "$origin" in
    https://github.com/*/* | git@github.com:*/* | ssh://git@github.com/*/*)
      path="${origin#https://github.com/}"
      path="${path#git@github.com:}"
      path="${path#ssh://git@github.com/}"
      path="${path%.git}"
      base="https://github.com/${path%/}/releases/download"
      ;;
  esac
fi
if [ -n "$base" ] && [ -n "$head" ]; then
  if "$repo/scripts/release-fetch.sh" "$base" "$head" "$cache"; then
    echo "$want" > "$stamp"
    exec "$cache/sagelint" scan "$@"
  fi
fi

# 2. A build from source.
if ! "$repo/scripts/setup.sh" --check -DSAGELINT_TESTS=OFF 2> "$cache/missing.txt"; then
  say "cannot build sagelint from source here:"
  sed 's/^setup: //; s/^/  /' "$cache/missing.txt" >&2
  say "then commit again. (This hook installs nothing itself. Or put a sagelint binary on PATH and use the hook id 'sagelint'.)"
  exit 1
fi
version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' "$repo/CMakeLists.txt")
log="$cache/build.log"
say "building sagelint $version from source, once for this revision (a few minutes; log: $log)"
if ! SAGELINT_SKIP_INSTALL=1 BUILD_DIR="$cache/build" BUILD_TYPE=Release \
     "$repo/scripts/setup.sh" -DSAGELINT_TESTS=OFF > "$log" 2>&1; then
  say "the build failed; the end of $log:"
  tail -n 25 "$log" >&2
  exit 1
fi
cp "$cache/build/sagelint" "$cache/sagelint.new"
mv "$cache/sagelint.new" "$cache/sagelint"
echo "$want" > "$stamp"
exec "$cache/sagelint" scan "$@"
