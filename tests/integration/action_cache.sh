#!/usr/bin/env bash
# The Action's binary cache (action.yml + scripts/action-build.sh): the key is a
# hash of the files the binary is built from (a docs or test change keeps it, a
# source change changes it); a restored cache entry under the same key is used
# without building anything and the scan starts at once; a stale entry is
# rebuilt. Building is observed through a `cmake` on PATH that only records it.
# Usage: action_cache.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$(realpath "$1")" src="$(realpath "$2")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# action.yml wires the steps to the same directory: cached, installed, scanned.
for want in 'scripts/action-build.sh" key >> "$GITHUB_OUTPUT"' \
            'path: ${{ github.action_path }}/bin' \
            'key: ${{ steps.key.outputs.key }}' \
            'uses: actions/cache@' \
            'action-build.sh" install "${{ github.action_path }}/bin"' \
            'action-scan.sh" "${{ github.action_path }}/bin/sagelint"' \
            'action-diff.sh" "${{ github.action_path }}/bin/sagelint"'; do
  grep -qF -- "$want" "$src/action.yml" || { echo "FAIL: action.yml lacks: $want"; exit 1; }
done
echo "ok: action.yml caches, installs, scans and diffs with the same binary"

# A copy of the action as GitHub unpacks it (no git, no build directories).
act="$work/action"
mkdir -p "$act"
(cd "$src" && tar -cf - --exclude=node_modules CMakeLists.txt cmake linter parsers rules \
   third_party scripts README.md action.yml) | tar -xf - -C "$act"
key() { "$act/scripts/action-build.sh" key; }
k1=$(key)
[[ "$k1" =~ ^key=sagelint-[A-Za-z0-9._-]+-[0-9a-f]{20}$ ]] || { echo "FAIL: key format: $k1"; exit 1; }
[ "$k1" = "$("$src/scripts/action-build.sh" key)" ] || { echo "FAIL: the key depends on where the action lives"; exit 1; }
echo "more words" >> "$act/README.md"
touch "$act/rules/registry.cc"
[ "$(key)" = "$k1" ] || { echo "FAIL: a README edit or a new mtime changed the key"; exit 1; }
cp "$act/rules/registry.cc" "$work/registry.cc"
echo "// changed" >> "$act/rules/registry.cc"
[ "$(key)" != "$k1" ] || { echo "FAIL: a source change kept the key"; exit 1; }
cp "$work/registry.cc" "$act/rules/registry.cc"
[ "$(key)" = "$k1" ] || { echo "FAIL: the key is not a function of the contents"; exit 1; }
echo "ok: the key follows the sources, not docs or timestamps"

# Any build shows up here.
mkdir -p "$work/fake"
printf '#!/bin/sh\necho "cmake $*" >> "%s/built"\nexit 1\n' "$work" > "$work/fake/cmake"
chmod +x "$work/fake/cmake"
export PATH="$work/fake:$PATH"

# Cache hit: what actions/cache restored from an earlier run under this key.
cache="$work/bin"
mkdir -p "$cache"
cp "$bin" "$cache/sagelint"
echo "${k1#key=}" > "$cache/.key"
"$act/scripts/action-build.sh" install "$cache" 2> "$work/hit.err"
grep -q "cached binary" "$work/hit.err" || { echo "FAIL: cache hit not reported"; cat "$work/hit.err"; exit 1; }
[ ! -e "$work/built" ] || { echo "FAIL: a cache hit built:"; cat "$work/built"; exit 1; }
cd "$src"
export RUNNER_TEMP="$work" GITHUB_OUTPUT="$work/output" SAGELINT_SARIF="$work/out.sarif" SAGELINT_PATHS="examples/infra" SAGELINT_FAIL_ON=warning
out=$("$act/scripts/action-scan.sh" "$cache/sagelint")
grep -q "^exit-code=1$" "$GITHUB_OUTPUT" || { echo "FAIL: the scan after a cache hit"; cat "$GITHUB_OUTPUT"; exit 1; }
grep -q "^::error file=examples/infra/" <<<"$out" || { echo "FAIL: no annotation after a cache hit"; exit 1; }
echo "ok: a cache hit builds nothing and scans"

# Stale entry (sources changed since it was saved): rebuilt, and not relabelled.
echo "sagelint-old-key" > "$cache/.key"
if "$act/scripts/action-build.sh" install "$cache" > "$work/miss.out" 2>&1; then
  echo "FAIL: a stale entry was accepted"; exit 1
fi
grep -q "building for ${k1#key=}" "$work/miss.out" || { echo "FAIL: no build announced"; cat "$work/miss.out"; exit 1; }
[ -s "$work/built" ] || { echo "FAIL: a stale entry did not build"; cat "$work/miss.out"; exit 1; }
[ "$(cat "$cache/.key")" = "sagelint-old-key" ] || { echo "FAIL: a failed build relabelled the cache"; exit 1; }
echo "ok: a stale entry is rebuilt"
