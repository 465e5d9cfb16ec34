#!/usr/bin/env bash
# Builds one self-contained, fully static Linux `sagelint` into build-static/
# (or $BUILD_DIR): glibc, libstdc++, yaml-cpp, libyaml, RE2 and — where RE2 needs it —
# abseil are linked from their static archives, so the binary runs on any
# x86-64 Linux with nothing installed (tests/integration/static_binary.sh runs
# it in an empty root).
#
# Usage: scripts/build-static.sh
# The archives come from the distribution's -dev packages (Debian 12 and 13 ship
# all of them: libyaml-cpp-dev, libyaml-dev, libre2-dev, libabsl-dev, libstdc++-dev, libc6-dev);
# scripts/setup.sh installs those. Where one is missing the script names it and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${BUILD_DIR:-build-static}"

scripts/setup.sh --install-only -DSAGELINT_TESTS=OFF

cxx="${CXX:-c++}"
# Every -l that the static link needs, as pkg-config --static reports it
# (RE2's Requires bring the abseil libraries in), plus the C++ and C runtimes.
libs=$(pkg-config --static --libs-only-l yaml-cpp yaml-0.1 re2 | tr " " "\n" | sort -u)
missing=()
for l in $libs -lstdc++ -lm -lc; do
  name="lib${l#-l}.a"
  found=$("$cxx" -print-file-name="$name")
  if [ "$found" = "$name" ]; then
    # Not in the compiler's search path: maybe in a -L directory pkg-config names.
    found=""
    for d in $(pkg-config --static --libs-only-L yaml-cpp yaml-0.1 re2 | sed 's/-L//g'); do
      [ -f "$d/$name" ] && found="$d/$name"
    done
    [ -n "$found" ] || missing+=("$name")
  fi
done
if ((${#missing[@]})); then
  {
    echo "build-static: these static archives are missing: ${missing[*]}"
    echo "Install the -dev package that ships each (on Debian: apt-file search ${missing[0]}),"
    echo "or build without them: scripts/setup.sh gives the dynamically linked build/sagelint."
  } >&2
  exit 1
fi

generator=()
if command -v ninja >/dev/null 2>&1 && ! [ -f "$build/Makefile" ]; then generator=(-G Ninja); fi
cmake -S . -B "$build" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE=Release \
  -DSAGELINT_STATIC=ON -DSAGELINT_TESTS=OFF -DSAGELINT_HOMEPAGE="${SAGELINT_HOMEPAGE:-}" >/dev/null
cmake --build "$build" --parallel "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" --target sagelint

bin="$build/sagelint"
if command -v readelf >/dev/null 2>&1 && readelf -d "$bin" 2>/dev/null | grep -q NEEDED; then
  echo "build-static: $bin still needs shared libraries:" >&2
  readelf -d "$bin" | grep NEEDED >&2
  exit 1
fi
echo "build-static: $bin ($(du -h "$bin" | cut -f1), no shared libraries)" >&2
