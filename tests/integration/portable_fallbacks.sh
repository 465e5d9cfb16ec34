#!/usr/bin/env bash
# The portable fallbacks of linter/base/portable.h, built and tested on Linux:
# a build with -DSAGELINT_POSIX_FALLBACKS=ON (every fallback in use) and
# -DSAGELINT_STATIC_DEPS=ON (yaml-cpp, libyaml and RE2 from their archives, as
# the macOS release links them) runs the whole default test suite, and its
# binary needs only the system's libraries.
# Usage: portable_fallbacks.sh SOURCE_DIR BUILD_DIR
set -euo pipefail
src="$(realpath "$1")" build="$2"
launcher=()
command -v ccache >/dev/null 2>&1 && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache -DCMAKE_C_COMPILER_LAUNCHER=ccache)
export CCACHE_BASEDIR="$src" CCACHE_NOHASHDIR=1  # the build directory differs from the normal build's
cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DSAGELINT_POSIX_FALLBACKS=ON \
  -DSAGELINT_STATIC_DEPS=ON ${launcher[@]+"${launcher[@]}"} > "$build.configure.log" 2>&1 ||
  { cat "$build.configure.log"; exit 1; }
grep -q "(archives)" "$build.configure.log" || { echo "FAIL: the dependencies were not taken from their archives"; exit 1; }
cmake --build "$build" --parallel "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" > "$build.build.log" 2>&1 ||
  { tail -40 "$build.build.log"; exit 1; }
python3 - "$build/compile_commands.json" <<'PY' || { echo "FAIL: the fallbacks are not compiled into portable.cc"; exit 1; }
import json, sys
e = [x for x in json.load(open(sys.argv[1])) if x["file"].endswith("linter/base/portable.cc")]
assert e and "SAGELINT_POSIX_FALLBACKS" in (e[0].get("command") or " ".join(e[0]["arguments"]))
PY
others=$(ldd "$build/sagelint" | grep -vE 'lib(c|m|stdc\+\+|gcc_s|pthread|dl|rt)\.so|ld-linux|linux-vdso' || true)
[ -z "$others" ] || { echo "FAIL: the binary needs libraries beyond the system's: $others"; exit 1; }
echo "ok: built with every portable fallback; the dependencies linked from their archives (ldd: system libraries only)"
# One test is left out: "peak memory does not grow with --jobs" measures glibc's
# per-thread arenas, which only malloc_trim (the glibc path the fallbacks turn
# off) hands back; the allocators the fallbacks are for (macOS's) do not keep them.
ctest --test-dir "$build" -LE 'slow|integration' -E 'peak memory does not grow with --jobs' \
  --parallel "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" \
  > "$build.ctest.log" 2>&1 || { grep -E "Failed|\*\*\*" "$build.ctest.log" | head -40; tail -5 "$build.ctest.log"; exit 1; }
tail -n 3 "$build.ctest.log"
echo "ok: the default suite passes with the fallbacks"
