#!/usr/bin/env bash
# Checks that a macOS binary needs only the system's libraries (those under
# /usr/lib and /System/Library, present on every Mac), so it runs on a clean
# Mac with nothing installed: yaml-cpp, libyaml, RE2 and abseil must be linked
# from their static archives (scripts/build-macos.sh). The release workflow runs
# it on every Mac binary; it fails, naming each other library.
#
# Usage: scripts/check-macos-libs.sh BINARY   (needs `otool`, from Xcode's command line tools)
set -euo pipefail
bin="${1:?usage: check-macos-libs.sh BINARY}"
command -v otool >/dev/null 2>&1 || { echo "check-macos-libs: otool is not installed (xcode-select --install)" >&2; exit 2; }
listing=$(otool -L "$bin") || { echo "check-macos-libs: otool -L $bin failed" >&2; exit 2; }
# The first line names the file; each further line is one library and its versions.
libs=$(printf '%s\n' "$listing" | sed '1d' | sed -E 's/^[[:space:]]+//; s/ \(compatibility version.*$//' | sed '/^$/d')
[ -n "$libs" ] || { echo "check-macos-libs: otool -L listed no library for $bin (not a Mach-O executable?)" >&2; exit 2; }
others=$(printf '%s\n' "$libs" | grep -vE '^(/usr/lib/|/System/Library/)' || true)
if [ -n "$others" ]; then
  echo "check-macos-libs: $bin needs libraries a clean Mac does not have:" >&2
  printf '%s\n' "$others" | sed 's/^/  /' >&2
  exit 1
fi
echo "check-macos-libs: $bin needs only system libraries: $(printf '%s\n' "$libs" | tr '\n' ' ')" >&2
