#!/usr/bin/env bash
# The `sagelint-build` hook's entry (scripts/pre-commit-build.sh) picks the release
# asset of the machine it runs on: with a stand-in `uname` on PATH it runs as
# Linux x86_64, Linux aarch64, macOS arm64 and macOS x86_64 against a fake release
# (SAGELINT_RELEASE_URL=file://…) holding one stand-in binary per platform, and
# takes exactly that platform's asset (checksum and commit verified); a release
# whose checksum for that asset does not match is refused; a platform with no
# asset (FreeBSD) gets no download. Without a compiler on PATH the hook then names
# what to install instead of building. Nothing here builds sagelint.
# Usage: pre_commit_platforms.sh SOURCE_DIR
set -euo pipefail
src="$(realpath "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${out:-}" ] && echo "--- output" && echo "$out"; exit 1; }
git() { command git -c user.email=t@t -c user.name=t -c commit.gpgsign=false "$@"; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

# The hook repository: what the hook's entry reads (its scripts and CMakeLists.txt).
hooks="$work/hooks"
mkdir -p "$hooks"
cp -R "$src/scripts" "$hooks/scripts"
cp "$src/CMakeLists.txt" "$hooks/"
git init -q "$hooks"
git -C "$hooks" add -A
git -C "$hooks" commit -qm hooks
rev=$(git -C "$hooks" rev-parse HEAD)

# A PATH without compilers, whose `uname` answers what $FAKE_UNAME_S/-M say.
bin="$work/bin"
mkdir -p "$bin"
for dir in /usr/local/bin /usr/bin /bin; do
  for f in "$dir"/*; do
    b=$(basename "$f")
    case "$b" in uname | cc | c++ | gcc | g++ | clang | clang++ | clang-[0-9]* | clang++-[0-9]* | *-gcc | *-g++ | *-gcc-[0-9]* | *-g++-[0-9]* | gcc-[0-9]* | g++-[0-9]* | c89* | c99*) continue ;; esac
    [ -e "$bin/$b" ] || ln -s "$f" "$bin/$b"
  done
done
cat > "$bin/uname" <<'SH'
#!/bin/sh
case "$1" in -s) echo "$FAKE_UNAME_S" ;; -m) echo "$FAKE_UNAME_M" ;; *) echo "$FAKE_UNAME_S" ;; esac
SH
chmod +x "$bin/uname"

# The release: each asset a stand-in that reports the version and, when
# scanning, its own name.
assets=(sagelint-linux-x86_64 sagelint-linux-aarch64 sagelint-macos-arm64 sagelint-macos-x86_64)
rel="$work/release/v$version"
mkdir -p "$rel"
for a in "${assets[@]}"; do
  printf '#!/bin/sh\nif [ "$1" = --version ]; then echo "sagelint %s"; else echo "%s ran: $*"; fi\n' "$version" "$a" > "$rel/$a"
  chmod +x "$rel/$a"
done
echo "$rev" > "$rel/COMMIT"
(cd "$rel" && sha256sum "${assets[@]}" COMMIT > SHA256SUMS)

run_hook() {  # S M CACHE: runs the hook's entry as pre-commit would; output in $out, status in $rc
  rc=0
  out=$(cd "$work" && FAKE_UNAME_S="$1" FAKE_UNAME_M="$2" SAGELINT_BUILD_CACHE="$3" \
        SAGELINT_RELEASE_URL="file://$work/release" PATH="$bin" "$hooks/scripts/pre-commit-build.sh" -- infra/a.yaml 2>&1) || rc=$?
}

for pair in "Linux x86_64 sagelint-linux-x86_64" "Linux aarch64 sagelint-linux-aarch64" \
            "Darwin arm64 sagelint-macos-arm64" "Darwin x86_64 sagelint-macos-x86_64"; do
  set -- $pair
  run_hook "$1" "$2" "$work/cache-$1-$2"
  [ "$rc" = 0 ] || fail "$1 $2: exit $rc"
  grep -qF "sagelint: using the release binary v$version ($3, SHA-256 verified, built from ${rev:0:12})" <<<"$out" ||
    fail "$1 $2: the release asset $3 was not taken"
  grep -qxF "$3 ran: scan -- infra/a.yaml" <<<"$out" || fail "$1 $2: $3 did not scan the named files"
  cmp -s "$rel/$3" "$work/cache-$1-$2/sagelint" || fail "$1 $2: the cached binary is not $3"
  echo "ok: $1 $2 takes $3"
done

# A checksum that does not match the asset of this platform: refused, nothing kept.
sed -i "s/^[0-9a-f]*  sagelint-macos-arm64\$/$(printf '0%.0s' {1..64})  sagelint-macos-arm64/" "$rel/SHA256SUMS"
run_hook Darwin arm64 "$work/cache-badsum"
[ "$rc" = 1 ] || fail "a wrong checksum: exit $rc"
grep -qF "sagelint: release v$version refused: sagelint-macos-arm64 has SHA-256 $(sha256sum "$rel/sagelint-macos-arm64" | cut -c1-64), SHA256SUMS says 0000" <<<"$out" ||
  fail "a wrong checksum was not refused"
[ ! -e "$work/cache-badsum/sagelint" ] || fail "the refused binary was kept"
grep -qF "sagelint-build: cannot build sagelint from source here:" <<<"$out" || fail "no word on what is missing to build"
echo "ok: a wrong checksum for the platform's asset is refused; without a compiler the hook says what to install"

# The other platforms' assets are untouched by that: Linux still verifies.
run_hook Linux x86_64 "$work/cache-linux-again"
[ "$rc" = 0 ] || fail "Linux after the macOS checksum change: exit $rc"
echo "ok: another platform's checksum does not affect this one's"

# No asset for the platform: no download, straight to building from source.
run_hook FreeBSD amd64 "$work/cache-freebsd"
[ "$rc" = 1 ] || fail "FreeBSD: exit $rc"
grep -qF "sagelint: no release binary for FreeBSD amd64" <<<"$out" || fail "FreeBSD: no word on the missing asset"
[ ! -e "$work/cache-freebsd/sagelint" ] || fail "FreeBSD: a binary was kept"
echo "ok: a platform without an asset is said as such and falls back to a source build"
