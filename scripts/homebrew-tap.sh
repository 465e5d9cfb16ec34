#!/usr/bin/env bash
# Commits a release's Homebrew formula to a tap checked out in TAP (the
# homebrew-tap job of .github/workflows/release.yml) as Formula/sagelint.rb and
# pushes it; nothing is committed when the formula is unchanged.
# Usage: scripts/homebrew-tap.sh FORMULA TAP TAG
set -euo pipefail
formula="${1:?usage: homebrew-tap.sh FORMULA TAP TAG}" tap="${2:?usage: homebrew-tap.sh FORMULA TAP TAG}"
tag="${3:?usage: homebrew-tap.sh FORMULA TAP TAG}"
mkdir -p "$tap/Formula"
cp "$formula" "$tap/Formula/sagelint.rb"
cd "$tap"
git config user.name "github-actions[bot]"
git config user.email "41898282+github-actions[bot]@users.noreply.github.com"
git add Formula/sagelint.rb
if git diff --cached --quiet; then
  echo "homebrew-tap: Formula/sagelint.rb is already the one of $tag" >&2
  exit 0
fi
git commit -qm "sagelint $tag"
git push -q
echo "homebrew-tap: Formula/sagelint.rb of $tag pushed" >&2
