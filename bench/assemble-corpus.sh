#!/usr/bin/env bash
# Clones the repositories of bench/real-corpus.txt at their commits into DIR
# (one folder per line, owner+name@commit), for `bench/run.sh --tree DIR`.
# Needs network access to GitHub. Usage: bench/assemble-corpus.sh DIR
set -euo pipefail
list="$(cd "$(dirname "$0")" && pwd)/real-corpus.txt"
out="${1:?usage: assemble-corpus.sh DIR}"
mkdir -p "$out"
grep -v '^#' "$list" | while read -r repo commit; do
  [ -n "$repo" ] || continue
  dir="$out/${repo/\//+}@${commit:0:12}"
  [ -d "$dir" ] && continue
  git init -q "$dir"
  git -C "$dir" fetch -q --depth 1 "https://github.com/$repo.git" "$commit"
  git -C "$dir" checkout -q FETCH_HEAD
  rm -rf "$dir/.git"  # a plain tree, as a user's checkout would be scanned without history
  echo "$dir"
done
