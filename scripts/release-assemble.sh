#!/usr/bin/env bash
# The release's common files (the publish job of .github/workflows/release.yml),
# once every platform's files are in DIST: COMMIT, naming the commit they were
# built from, and SHA256SUMS over everything. Checks first that each binary has
# its wheel and that the tag is the tree's version.
#
# Usage: scripts/release-assemble.sh DIST
#   SAGELINT_RELEASE_TAG        the tag being released: must be v<the tree's version>
#   SAGELINT_RELEASE_COMMIT     the commit the files were built from (else git's HEAD)
#   SAGELINT_RELEASE_PLATFORMS  the binaries the release must have, by platform
#                               (linux-x86_64 linux-aarch64 macos-arm64 macos-x86_64);
#                               unset: whichever are in DIST, at least one
set -euo pipefail
dist="${1:?usage: release-assemble.sh DIST}"
src="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "release-assemble: $*" >&2; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
tag="${SAGELINT_RELEASE_TAG:-v$version}"
[ "$tag" = "v$version" ] || { say "the tag is $tag but the tree is version $version"; exit 1; }
commit="${SAGELINT_RELEASE_COMMIT:-$(git -C "$src" rev-parse HEAD)}"
[[ "$commit" =~ ^[0-9a-f]{40}$ ]] || { say "not a commit: '$commit'"; exit 1; }

cd "$dist"
shopt -s nullglob
bins=(sagelint-linux-* sagelint-macos-*)
((${#bins[@]})) || { say "no sagelint-linux-* or sagelint-macos-* binary in $dist"; exit 1; }
for p in ${SAGELINT_RELEASE_PLATFORMS:-}; do
  [ -f "sagelint-$p" ] || { say "the release has no sagelint-$p (SAGELINT_RELEASE_PLATFORMS names it)"; exit 1; }
done
files=()
for b in "${bins[@]}"; do
  case "$b" in
    sagelint-linux-*) arch="${b#sagelint-linux-}"
      platform="manylinux_2_17_$arch.manylinux2014_$arch.musllinux_1_1_$arch" ;;
    sagelint-macos-arm64) platform=macosx_11_0_arm64 ;;
    sagelint-macos-x86_64) platform=macosx_10_15_x86_64 ;;
    *) say "unexpected binary $b"; exit 1 ;;
  esac
  wheel="sagelint-$version-py3-none-$platform.whl"
  [ -f "$wheel" ] || { say "$b has no wheel $wheel"; exit 1; }
  files+=("$b" "$wheel")
done
others=$(ls | grep -vxF -e COMMIT -e SHA256SUMS $(printf -- '-e %s ' "${files[@]}") || true)
[ -z "$others" ] || { say "unexpected files in $dist: $others"; exit 1; }
echo "$commit" > COMMIT
sha256sum "${files[@]}" COMMIT | LC_ALL=C sort -k2 > SHA256SUMS
say "release $tag of $commit:"
sed 's/^/  /' SHA256SUMS >&2
