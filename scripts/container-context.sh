#!/usr/bin/env bash
# The build context of the container image (packaging/container/Dockerfile): the
# Dockerfile, and the release's static Linux binaries under Docker's names for
# their architectures (amd64/sagelint, arm64/sagelint), each checked to be a
# static ELF file of that architecture.
#
# Usage: scripts/container-context.sh DIST OUT
set -euo pipefail
dist="${1:?usage: container-context.sh DIST OUT}" out="${2:?usage: container-context.sh DIST OUT}"
src="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "container-context: $*" >&2; }
mkdir -p "$out"
cp "$src/packaging/container/Dockerfile" "$out/Dockerfile"
for pair in "x86_64 amd64 3e" "aarch64 arm64 b7"; do
  set -- $pair
  bin="$dist/sagelint-linux-$1"
  [ -f "$bin" ] || { say "no $bin"; exit 1; }
  # e_machine, the two bytes at offset 18 of the ELF header (little-endian).
  machine=$(od -An -tx1 -j18 -N1 "$bin" | tr -d ' \n')
  [ "$(head -c4 "$bin" | od -An -c | tr -d ' \n')" = '177ELF' ] && [ "$machine" = "$3" ] ||
    { say "$bin is not an ELF executable for $1"; exit 1; }
  mkdir -p "$out/$2"
  cp "$bin" "$out/$2/sagelint"
  chmod 755 "$out/$2/sagelint"
done
say "context in $out: Dockerfile, amd64/sagelint, arm64/sagelint"
