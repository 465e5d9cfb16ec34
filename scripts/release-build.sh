#!/usr/bin/env bash
# One platform's release files (the build job of .github/workflows/release.yml,
# on a runner of that platform): the static binary as DIST/sagelint-linux-ARCH and
# its wheel, each checked here — the binary runs with an empty environment,
# reports the tree's version and scans the examples; the wheel installs offline
# into a fresh virtual environment and scans them too (scripts/check-wheel.sh).
#
# Usage: scripts/release-build.sh DIST
#   SAGELINT_RELEASE_TAG    the tag being released: must be v<the tree's version>
#   SAGELINT_RELEASE_ARCH   the architecture this job is for: must be this machine's
#   BUILD_DIR               the static build's directory (build-static/)
set -euo pipefail
dist="${1:?usage: release-build.sh DIST}"
cd "$(dirname "$0")/.."
say() { echo "release-build: $*" >&2; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
tag="${SAGELINT_RELEASE_TAG:-v$version}"
if [ "$tag" != "v$version" ]; then
  say "the tag is $tag but the tree is version $version (CMakeLists.txt): tag v$version, or change the version first"
  exit 1
fi
case "$(uname -m)" in x86_64 | amd64) arch=x86_64 ;; aarch64 | arm64) arch=aarch64 ;;
  *) say "no release build for $(uname -m)"; exit 1 ;; esac
if [ -n "${SAGELINT_RELEASE_ARCH:-}" ] && [ "$SAGELINT_RELEASE_ARCH" != "$arch" ]; then
  say "this job builds $SAGELINT_RELEASE_ARCH but runs on $arch"
  exit 1
fi

# python3 and venv check the wheel; ca-certificates let npm fetch the pinned tree-sitter sources.
build="${BUILD_DIR:-build-static}"
SAGELINT_EXTRA_PACKAGES="python3 python3-venv ca-certificates ${SAGELINT_EXTRA_PACKAGES:-}" \
  BUILD_DIR="$build" scripts/build-static.sh
mkdir -p "$dist"
bin="$dist/sagelint-linux-$arch"
cp "$build/sagelint" "$bin"
chmod 755 "$bin"

scripts/check-release-binary.sh "$bin" "static"

wheel=$(python3 scripts/build-wheel.py "$bin" "$dist")
scripts/check-wheel.sh "$wheel"
say "done: $(cd "$dist" && ls | tr '\n' ' ')"
