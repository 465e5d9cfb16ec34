#!/usr/bin/env bash
# The release's packaging files, checked without Docker, Homebrew or a Mac:
#  - the container image's Dockerfile is FROM scratch with the static binary as
#    its entrypoint, and scripts/container-context.sh lays out each architecture's
#    binary under Docker's name, refusing a binary of the wrong architecture;
#  - scripts/homebrew-formula.py writes a formula whose URL and SHA-256 for each
#    platform are the release's, and refuses a release missing a platform;
#  - scripts/check-macos-libs.sh accepts a binary that needs only system
#    libraries and refuses one that needs a Homebrew library (a stand-in otool).
# Usage: packaging.sh SOURCE_DIR
set -euo pipefail
src="$(realpath "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

# --- Dockerfile ---------------------------------------------------------------
df="$src/packaging/container/Dockerfile"
instr=$(grep -vE '^\s*(#|$)' "$df")
[ "$(grep -c '^FROM ' <<<"$instr")" = 1 ] && grep -qx 'FROM scratch' <<<"$instr" || fail "the image is not FROM scratch alone"
grep -qx 'COPY ${TARGETARCH}/sagelint /sagelint' <<<"$instr" || fail "the image does not copy the architecture's static binary"
grep -qx 'ENTRYPOINT \["/sagelint"\]' <<<"$instr" || fail "the entrypoint is not the binary"
if grep -qE '^(RUN|ADD) ' <<<"$instr"; then fail "the image runs or downloads something: a FROM scratch image has nothing to run"; fi
echo "ok: Dockerfile FROM scratch, COPY the static binary, ENTRYPOINT /sagelint"

elf() {  # MACHINE_BYTE OUT: a 64-bit ELF header for that e_machine
  python3 -c 'import sys, struct
h = b"\x7fELF\x02\x01\x01" + bytes(9) + struct.pack("<HH", 2, int(sys.argv[1], 16)) + bytes(44)
open(sys.argv[2], "wb").write(h)' "$1" "$2"
}
mkdir -p "$work/dist"
elf 3e "$work/dist/sagelint-linux-x86_64"
elf b7 "$work/dist/sagelint-linux-aarch64"
"$src/scripts/container-context.sh" "$work/dist" "$work/ctx" 2>/dev/null
cmp -s "$work/ctx/amd64/sagelint" "$work/dist/sagelint-linux-x86_64" &&
  cmp -s "$work/ctx/arm64/sagelint" "$work/dist/sagelint-linux-aarch64" &&
  cmp -s "$work/ctx/Dockerfile" "$df" || fail "the container context is not laid out by architecture"
cp "$work/dist/sagelint-linux-x86_64" "$work/dist/sagelint-linux-aarch64"
rc=0; "$src/scripts/container-context.sh" "$work/dist" "$work/ctx2" 2> "$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q "sagelint-linux-aarch64 is not an ELF executable for aarch64" "$work/err" ||
  fail "an x86_64 binary under the aarch64 name: exit $rc, $(cat "$work/err")"
echo "ok: container context: amd64/sagelint and arm64/sagelint, a binary of the wrong architecture refused"

# --- Homebrew formula ---------------------------------------------------------
rel="$work/rel"
mkdir -p "$rel"
i=0
for a in sagelint-linux-x86_64 sagelint-linux-aarch64 sagelint-macos-arm64 sagelint-macos-x86_64; do
  i=$((i + 1))
  printf '%064d  %s\n' "$i" "$a" >> "$rel/SHA256SUMS"
done
repo=https://github.com/example-org/sagelint
python3 "$src/scripts/homebrew-formula.py" "$rel" "$repo" "$work/sagelint.rb"
python3 - "$work/sagelint.rb" "$repo" "$version" <<'PY'
import re, sys
text, repo, version = open(sys.argv[1]).read(), sys.argv[2], sys.argv[3]
assert "@" not in re.sub(r"#.*", "", text), "a template key was left in the formula"
assert 'version "%s"' % version in text and 'homepage "%s"' % repo in text
# Each platform block: its URL and its SHA-256, in the right on_macos/on_linux, on_arm/on_intel block.
want = {("macos", "arm"): ("sagelint-macos-arm64", 3), ("macos", "intel"): ("sagelint-macos-x86_64", 4),
        ("linux", "arm"): ("sagelint-linux-aarch64", 2), ("linux", "intel"): ("sagelint-linux-x86_64", 1)}
for (system, cpu), (asset, n) in want.items():
    block = re.search(r"on_%s do(.*?)\n  end" % system, text, re.S).group(1)
    inner = re.search(r"on_%s do(.*?)end" % cpu, block, re.S).group(1)
    url = re.search(r'url "([^"]+)"', inner).group(1)
    sha = re.search(r'sha256 "([0-9a-f]{64})"', inner).group(1)
    assert url == "%s/releases/download/v%s/%s" % (repo, version, asset), (system, cpu, url)
    assert sha == "%064d" % n, (system, cpu, sha)
assert 'bin.install Dir["sagelint-*"].first => "sagelint"' in text
assert 'shell_output("#{bin}/sagelint --version")' in text
PY
grep -v macos-x86_64 "$rel/SHA256SUMS" > "$rel/S" && mv "$rel/S" "$rel/SHA256SUMS"
rc=0; python3 "$src/scripts/homebrew-formula.py" "$rel" "$repo" > /dev/null 2> "$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q "SHA256SUMS has no sagelint-macos-x86_64" "$work/err" || fail "a release without a macOS x86_64 binary: exit $rc"
command -v ruby >/dev/null 2>&1 && { ruby -c "$work/sagelint.rb" >/dev/null || fail "the formula is not valid Ruby"; }
echo "ok: Homebrew formula: each platform's URL and SHA-256 from the release; a missing platform refused"

# --- otool check --------------------------------------------------------------
mkdir -p "$work/bin"
cat > "$work/bin/otool" <<'SH'
#!/bin/sh
echo "$2:"
printf '\t/usr/lib/libc++.1.dylib (compatibility version 1.0.0, current version 1700.255.0)\n'
printf '\t/usr/lib/libSystem.B.dylib (compatibility version 1.0.0, current version 1345.100.2)\n'
[ -n "$EXTRA_LIB" ] && printf '\t%s (compatibility version 0.8.0, current version 0.8.0)\n' "$EXTRA_LIB"
exit 0
SH
chmod +x "$work/bin/otool"
PATH="$work/bin:$PATH" "$src/scripts/check-macos-libs.sh" "$work/x" 2>/dev/null || fail "system libraries only were refused"
rc=0
EXTRA_LIB=/opt/homebrew/opt/yaml-cpp/lib/libyaml-cpp.0.8.dylib PATH="$work/bin:$PATH" \
  "$src/scripts/check-macos-libs.sh" "$work/x" 2> "$work/err" || rc=$?
[ "$rc" = 1 ] && grep -q "/opt/homebrew/opt/yaml-cpp/lib/libyaml-cpp.0.8.dylib" "$work/err" ||
  fail "a Homebrew library was not refused: exit $rc, $(cat "$work/err")"
echo "ok: otool check: system libraries pass, a Homebrew library fails"
