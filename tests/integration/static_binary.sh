#!/usr/bin/env bash
# The static build (scripts/build-static.sh) is self-contained: the binary runs
# with an empty environment (env -i) inside a root that holds nothing but the
# binary and the bundled examples — no libc, no loader, no /proc — and gives the
# same output and exit status as the dynamically linked build on the examples.
# Usage: static_binary.sh DYNAMIC_SAGELINT SOURCE_DIR STATIC_BUILD_DIR
# Exit 77 (skipped) where neither root nor a user namespace allows a chroot.
set -euo pipefail
dyn="$(realpath "$1")" src="$(realpath "$2")" static_build="$3"

if [ "$(id -u)" -eq 0 ]; then
  jail=("$(command -v chroot)")
elif unshare -r true 2>/dev/null; then
  jail=("$(command -v unshare)" -r "$(command -v chroot)")
else
  echo "SKIP: chroot needs root or unprivileged user namespaces"
  exit 77
fi

BUILD_DIR="$static_build" "$src/scripts/build-static.sh"
bin="$static_build/sagelint"
if readelf -l "$bin" | grep -q "program interpreter"; then
  echo "FAIL: $bin asks for a dynamic loader"; readelf -l "$bin" | grep interpreter; exit 1
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The minimal root: the binary and a copy of the examples, nothing else.
root="$work/root"
mkdir -p "$root"
cp "$bin" "$root/sagelint"
cp -R "$src/examples" "$root/examples"
others=$(cd "$root" && find . -path ./examples -prune -o -type f ! -name sagelint -print)
[ -z "$others" ] || { echo "FAIL: the root holds more than the binary: $others"; exit 1; }
# The same examples, outside any git work tree, for the dynamic build.
mkdir -p "$work/dyn"
cp -R "$src/examples" "$work/dyn/examples"

# Runs one sagelint command both ways; output and exit status must agree.
compare() {
  local name="$1" s d
  shift
  s=0; env -i "${jail[@]}" "$root" /sagelint "$@" > "$work/$name.static" 2>&1 || s=$?
  d=0; (cd "$work/dyn" && env -i "$dyn" "$@") > "$work/$name.dynamic" 2>&1 || d=$?
  if [ "$s" != "$d" ] || ! cmp -s "$work/$name.static" "$work/$name.dynamic"; then
    echo "FAIL: sagelint $* differs (static exit $s, dynamic exit $d)"
    diff "$work/$name.dynamic" "$work/$name.static" | head -20
    exit 1
  fi
  [ -s "$work/$name.static" ] || { echo "FAIL: sagelint $* printed nothing"; exit 1; }
  echo "ok: sagelint $* (exit $s, $(wc -l < "$work/$name.static") lines)"
}
compare text scan --no-color examples/
compare json scan --format json examples/
compare inventory inventory --format json examples/
compare explain explain SM401
compare version --version
grep -q "SM" "$work/text.static" || { echo "FAIL: the scan found nothing"; exit 1; }
echo "static binary: $(du -h "$bin" | cut -f1), no shared libraries, same results as the dynamic build"
