#!/usr/bin/env bash
# Publishes DIST (made by release-build.sh and release-assemble.sh) as the
# GitHub release of SAGELINT_RELEASE_TAG with the GitHub CLI (the publish job of
# .github/workflows/release.yml; gh reads GH_TOKEN and GH_REPO). A release that
# already exists for the tag gets the files replaced.
#
# Usage: scripts/release-publish.sh DIST
#   SAGELINT_RELEASE_TAG   the tag (vX.Y.Z)
#   SAGELINT_RELEASE_URL   where the release's files will be (…/releases/download), for the notes
set -euo pipefail
dist="${1:?usage: release-publish.sh DIST}"
tag="${SAGELINT_RELEASE_TAG:?SAGELINT_RELEASE_TAG names the tag}"
base="${SAGELINT_RELEASE_URL:?SAGELINT_RELEASE_URL names where the files will be}"
version="${tag#v}"
(cd "$dist" && sha256sum -c --quiet SHA256SUMS) || { echo "release-publish: SHA256SUMS does not match $dist" >&2; exit 1; }
files=()
while read -r _ name; do files+=("$dist/$name"); done < "$dist/SHA256SUMS"
files+=("$dist/SHA256SUMS")
# The Homebrew formula (scripts/homebrew-formula.py), written from SHA256SUMS.
[ -f "$dist/sagelint.rb" ] && files+=("$dist/sagelint.rb")

notes=$(cat <<NOTES
Static Linux binaries (x86_64, aarch64), macOS binaries (arm64, x86_64; they need only
system libraries), a wheel per platform carrying the binary, SHA256SUMS, COMMIT (the
commit they were built from), with build-provenance attestations, and the Homebrew
formula sagelint.rb.

\`\`\`sh
# pip (in a virtual environment, or with pipx): puts sagelint on PATH
arch=\$(uname -m)
pip install "$base/$tag/sagelint-$version-py3-none-manylinux_2_17_\$arch.manylinux2014_\$arch.musllinux_1_1_\$arch.whl"
# on a Mac: sagelint-$version-py3-none-macosx_11_0_arm64.whl (Apple silicon), …-macosx_10_15_x86_64.whl (Intel)

# the binary
curl -fsSLO "$base/$tag/sagelint-linux-\$arch"
curl -fsSL "$base/$tag/SHA256SUMS" | grep " sagelint-linux-\$arch\$" | sha256sum -c -
install -m 755 "sagelint-linux-\$arch" ~/.local/bin/sagelint
\`\`\`
NOTES
)
if gh release view "$tag" >/dev/null 2>&1; then
  gh release upload "$tag" --clobber "${files[@]}"
else
  gh release create "$tag" --verify-tag --title "sagelint $version" --notes "$notes" "${files[@]}"
fi
echo "release-publish: $tag published with $(( ${#files[@]} )) files" >&2
