#!/usr/bin/env bash
# scripts/build-wheel.py for macOS: a stand-in Mach-O binary of each architecture
# becomes a wheel tagged macosx_11_0_arm64 / macosx_10_15_x86_64 with the binary
# under sagelint-X.Y.Z.data/scripts/ (the entry pip puts on PATH), WHEEL and
# METADATA for macOS, and a RECORD whose hashes match; a universal binary and an
# unknown CPU type are refused. (The real Mac binaries are built and checked with
# `otool -L` by the release workflow on macOS runners.)
# Usage: wheel_macos.sh SOURCE_DIR
set -euo pipefail
src="$(realpath "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")

# A 64-bit little-endian Mach-O header (MH_MAGIC_64, cputype, cpusubtype,
# MH_EXECUTE) and some bytes of "code".
macho() {  # CPUTYPE_HEX OUT
  python3 - "$1" "$2" <<'PY'
import struct, sys
cpu, out = int(sys.argv[1], 16), sys.argv[2]
with open(out, "wb") as f:
    f.write(struct.pack("<IiiIIII", 0xFEEDFACF, cpu, 3, 2, 0, 0, 0) + bytes(range(256)) * 64)
PY
  chmod +x "$2"
}

for pair in "0100000C macosx_11_0_arm64" "01000007 macosx_10_15_x86_64"; do
  set -- $pair
  cpu=$1 tag=$2
  macho "$cpu" "$work/sagelint-$tag"
  wheel=$(python3 "$src/scripts/build-wheel.py" "$work/sagelint-$tag" "$work/out-$tag")
  want="$work/out-$tag/sagelint-$version-py3-none-$tag.whl"
  [ "$wheel" = "$want" ] || fail "wheel name: $wheel, expected $want"
  python3 "$src/tests/integration/wheel_layout.py" "$wheel" "$work/sagelint-$tag" "$version" "py3-none-$tag" \
    "Classifier: Operating System :: MacOS"
  echo "ok: $(basename "$wheel"): tag, entry under data/scripts, RECORD hashes"
done

refuse() {  # WHAT FILE EXPECTED_MESSAGE
  local rc=0
  python3 "$src/scripts/build-wheel.py" "$2" "$work/refused" > /dev/null 2> "$work/err" || rc=$?
  [ "$rc" = 1 ] && grep -q "$3" "$work/err" || fail "$1: exit $rc, $(cat "$work/err")"
  echo "ok: $1 refused ($(cat "$work/err"))"
}
printf '\xca\xfe\xba\xbe\x00\x00\x00\x02' > "$work/fat"
refuse "a universal binary" "$work/fat" "universal binary"
macho 00000012 "$work/ppc"
refuse "an unknown Mach-O CPU type" "$work/ppc" "unsupported Mach-O CPU type"
printf '#!/bin/sh\necho hi\n' > "$work/script"
refuse "a shell script" "$work/script" "neither a 64-bit"
