#!/usr/bin/env bash
# Takes the release binary for this source tree, or refuses it.
#
# Usage: scripts/release-fetch.sh BASE_URL COMMIT DEST [OWNER/REPO]
#
# The release is vX.Y.Z, X.Y.Z being the version this tree's CMakeLists.txt
# names; its files are at BASE_URL/vX.Y.Z/ (GitHub:
# https://github.com/OWNER/REPO/releases/download; file:// works too) as the
# release workflow (.github/workflows/release.yml) publishes them: COMMIT (the
# commit they were built from), SHA256SUMS and one binary per platform:
# sagelint-linux-x86_64, sagelint-linux-aarch64, sagelint-macos-arm64 and
# sagelint-macos-x86_64 (the one for this machine's `uname -s` and `uname -m` is
# taken). The binary is used only if the release was built from
# COMMIT (the caller's HEAD), its SHA-256 matches SHA256SUMS, it runs and
# reports the tree's version — and, with OWNER/REPO and the GitHub CLI present,
# `gh attestation verify` confirms the repository's release workflow built it.
# Then it is moved to DEST/sagelint.
#
# Exit status: 0 installed; 3 no release binary for this machine or version
# (none published, no download tool, another OS or architecture); 4 the release
# was built from another commit; 5 checksum mismatch; 6 attestation refused;
# 7 the binary does not run or reports another version. One line on standard
# error says which.
set -euo pipefail
base="${1:?usage: release-fetch.sh BASE_URL COMMIT DEST [OWNER/REPO]}"
commit="${2:?usage: release-fetch.sh BASE_URL COMMIT DEST [OWNER/REPO]}"
dest="${3:?usage: release-fetch.sh BASE_URL COMMIT DEST [OWNER/REPO]}"
attest_repo="${4:-}"
src="$(cd "$(dirname "$0")/.." && pwd)"
say() { echo "sagelint: $*" >&2; }

version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
[ -n "$version" ] || { say "no project version in $src/CMakeLists.txt"; exit 3; }
tag="v$version"
system=$(uname -s) machine=$(uname -m)
case "$system/$machine" in
  Linux/x86_64 | Linux/amd64) asset=sagelint-linux-x86_64 ;;
  Linux/aarch64 | Linux/arm64) asset=sagelint-linux-aarch64 ;;
  Darwin/arm64 | Darwin/aarch64) asset=sagelint-macos-arm64 ;;
  Darwin/x86_64) asset=sagelint-macos-x86_64 ;;
  *) say "no release binary for $system $machine (the release has Linux x86_64 and aarch64, macOS arm64 and x86_64)"
     exit 3 ;;
esac
url="${base%/}/$tag"

# fetch URL FILE: curl, else python3 (both read file:// URLs), else wget.
fetch() {
  if command -v curl >/dev/null 2>&1; then
    curl -fsSL --retry 2 --connect-timeout 20 -o "$2" "$1" 2>/dev/null
  elif command -v python3 >/dev/null 2>&1; then
    python3 -c 'import sys, urllib.request, shutil
with urllib.request.urlopen(sys.argv[1], timeout=60) as r, open(sys.argv[2], "wb") as f: shutil.copyfileobj(r, f)' "$1" "$2" 2>/dev/null
  elif command -v wget >/dev/null 2>&1; then
    wget -q -O "$2" "$1"
  else
    return 2
  fi
}
sha256() {
  if command -v sha256sum >/dev/null 2>&1; then sha256sum "$1" | cut -d' ' -f1
  elif command -v shasum >/dev/null 2>&1; then shasum -a 256 "$1" | cut -d' ' -f1
  else python3 -c 'import hashlib, sys; print(hashlib.sha256(open(sys.argv[1], "rb").read()).hexdigest())' "$1"
  fi
}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if ! fetch "$url/COMMIT" "$tmp/COMMIT"; then
  say "no release $tag at $url"
  exit 3
fi
built_from=$(tr -d ' \r\n' < "$tmp/COMMIT" | tr 'A-F' 'a-f')
want=$(echo "$commit" | tr 'A-F' 'a-f')
if [ "$built_from" != "$want" ]; then
  say "release $tag refused: it was built from commit ${built_from:0:12}, this is ${want:0:12}"
  exit 4
fi
if ! fetch "$url/SHA256SUMS" "$tmp/SHA256SUMS" || ! fetch "$url/$asset" "$tmp/$asset"; then
  say "release $tag at $url has no $asset or SHA256SUMS"
  exit 3
fi
expected=$(awk -v f="$asset" '$2 == f || $2 == "*" f { print $1 }' "$tmp/SHA256SUMS" | tr 'A-F' 'a-f')
actual=$(sha256 "$tmp/$asset")
if [ -z "$expected" ] || [ "$expected" != "$actual" ]; then
  say "release $tag refused: $asset has SHA-256 $actual, SHA256SUMS says ${expected:-nothing}"
  exit 5
fi
if [ -n "$attest_repo" ]; then
  if command -v gh >/dev/null 2>&1; then
    if ! gh attestation verify "$tmp/$asset" --repo "$attest_repo" >"$tmp/attest.log" 2>&1; then
      say "release $tag refused: gh attestation verify --repo $attest_repo failed: $(tail -n 1 "$tmp/attest.log")"
      exit 6
    fi
  else
    say "gh is not installed: the attestation of $asset is not checked (its checksum is)"
  fi
fi
chmod +x "$tmp/$asset"
got=$("$tmp/$asset" --version 2>/dev/null) || got=""
if [ "${got% (commit *)}" != "sagelint $version" ]; then
  say "release $tag refused: $asset does not run here or is not sagelint $version (${got:-no output})"
  exit 7
fi
mkdir -p "$dest"
mv "$tmp/$asset" "$dest/sagelint.new"
mv "$dest/sagelint.new" "$dest/sagelint"
say "using the release binary $tag ($asset, SHA-256 verified, built from ${want:0:12})"
