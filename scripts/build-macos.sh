#!/usr/bin/env bash
# The macOS release files (the build-macos job of .github/workflows/release.yml,
# on a macOS runner of that architecture): DIST/sagelint-macos-ARCH and its wheel.
# The binary must run on a clean Mac with nothing installed, so yaml-cpp, libyaml
# and RE2 (with abseil) are linked from static archives (-DSAGELINT_STATIC_DEPS=ON)
# and only the system's libraries stay dynamic — scripts/check-macos-libs.sh
# checks that with `otool -L` and fails otherwise. Then the binary must report the
# tree's version and scan the examples, and its wheel must install into a fresh
# virtual environment and do the same (scripts/check-wheel.sh).
#
# Homebrew supplies the tools, nlohmann_json (headers only) and libyaml (whose
# bottle has its archive); yaml-cpp, abseil and RE2 are built here as static
# libraries from their release tags (Homebrew ships them as shared libraries
# only) into build-macos-deps/.
#
# Usage: scripts/build-macos.sh DIST
#   SAGELINT_RELEASE_TAG    the tag being released: must be v<the tree's version>
#   SAGELINT_RELEASE_ARCH   the architecture this job is for (arm64, x86_64): must be this machine's
set -euo pipefail
dist="${1:?usage: build-macos.sh DIST}"
cd "$(dirname "$0")/.."
say() { echo "build-macos: $*" >&2; }
[ "$(uname -s)" = Darwin ] || { say "this builds the macOS release on a Mac; on Linux use scripts/build-static.sh"; exit 1; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' CMakeLists.txt)
tag="${SAGELINT_RELEASE_TAG:-v$version}"
[ "$tag" = "v$version" ] || { say "the tag is $tag but the tree is version $version (CMakeLists.txt)"; exit 1; }
case "$(uname -m)" in
  arm64) arch=arm64 target=11.0 ;;     # the first macOS on Apple silicon
  x86_64) arch=x86_64 target=10.15 ;;
  *) say "no macOS release build for $(uname -m)"; exit 1 ;;
esac
if [ -n "${SAGELINT_RELEASE_ARCH:-}" ] && [ "$SAGELINT_RELEASE_ARCH" != "$arch" ]; then
  say "this job builds $SAGELINT_RELEASE_ARCH but runs on $arch"
  exit 1
fi
export MACOSX_DEPLOYMENT_TARGET="$target"

brew install --quiet cmake ninja pkg-config nlohmann-json libyaml node

deps="$PWD/build-macos-deps"
# name, repository, tag, extra CMake options
build_dep() {
  local name="$1" repo="$2" ref="$3"
  shift 3
  [ -f "$deps/.$name-$ref" ] && return 0
  rm -rf "$deps/src/$name"
  git clone --quiet --depth 1 --branch "$ref" "$repo" "$deps/src/$name"
  cmake -S "$deps/src/$name" -B "$deps/build/$name" -G Ninja -DCMAKE_BUILD_TYPE=Release \
    -DBUILD_SHARED_LIBS=OFF -DCMAKE_POSITION_INDEPENDENT_CODE=ON -DCMAKE_CXX_STANDARD=20 \
    -DCMAKE_OSX_DEPLOYMENT_TARGET="$target" -DCMAKE_INSTALL_PREFIX="$deps" -DCMAKE_PREFIX_PATH="$deps" "$@" >/dev/null
  cmake --build "$deps/build/$name" --parallel >/dev/null
  cmake --install "$deps/build/$name" >/dev/null
  touch "$deps/.$name-$ref"
  say "$name $ref: static, in $deps"
}
build_dep yaml-cpp https://github.com/jbeder/yaml-cpp.git 0.8.0 -DYAML_CPP_BUILD_TESTS=OFF -DYAML_CPP_BUILD_TOOLS=OFF
build_dep abseil https://github.com/abseil/abseil-cpp.git 20240722.0 -DABSL_PROPAGATE_CXX_STD=ON -DABSL_BUILD_TESTING=OFF -DABSL_ENABLE_INSTALL=ON
build_dep re2 https://github.com/google/re2.git 2024-07-02 -DRE2_BUILD_TESTING=OFF

build=build-macos
PKG_CONFIG_PATH="$deps/lib/pkgconfig:$(brew --prefix)/lib/pkgconfig" \
  cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DSAGELINT_TESTS=OFF -DSAGELINT_STATIC_DEPS=ON \
  -DCMAKE_PREFIX_PATH="$deps" -DCMAKE_OSX_DEPLOYMENT_TARGET="$target" ${SAGELINT_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" --parallel --target sagelint
mkdir -p "$dist"
bin="$dist/sagelint-macos-$arch"
cp "$build/sagelint" "$bin"
strip "$bin"
chmod 755 "$bin"

scripts/check-macos-libs.sh "$bin"
scripts/check-release-binary.sh "$bin" "system libraries only"

wheel=$(python3 scripts/build-wheel.py "$bin" "$dist")
scripts/check-wheel.sh "$wheel"
say "done: $(cd "$dist" && ls | tr '\n' ' ')"
