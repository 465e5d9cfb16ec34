#!/usr/bin/env bash
# The build steps of action.yml.
#
#   action-build.sh key
#       prints `key=sagelint-<os>-<arch>-<hash>` for $GITHUB_OUTPUT: the hash covers
#       every file the binary is built from, so the cache entry changes exactly when
#       the sources (or the build scripts) do.
#   action-build.sh install DIR
#       leaves a working DIR/sagelint for these sources. DIR is what actions/cache
#       restores: when it holds a binary recorded under the same key (DIR/.key) that
#       runs, nothing is built. Otherwise the static binary is built
#       (scripts/build-static.sh), or the dynamically linked one where static
#       archives are missing, and copied to DIR with the key.
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"

# The inputs of the binary, relative to the source tree. Tests, docs and
# examples are left out: changing them does not change the binary.
inputs=(CMakeLists.txt cmake linter parsers rules third_party scripts/setup.sh scripts/build-static.sh)

key() {
  local hash os arch f
  for f in "${inputs[@]}"; do
    [ -e "$src/$f" ] || { echo "action-build: $src/$f is missing" >&2; exit 1; }
  done
  hash=$(cd "$src" && find "${inputs[@]}" -type f ! -path '*/node_modules/*' -print0 \
           | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-20)
  os=$(. /etc/os-release 2>/dev/null && echo "${ID:-linux}${VERSION_ID:-}") || os=$(uname -s)
  arch=$(uname -m)
  echo "sagelint-$os-$arch-$hash"
}

# Whether DIR/sagelint is the binary for key $2 and runs here.
usable() {
  [ -x "$1/sagelint" ] && [ "$(cat "$1/.key" 2>/dev/null)" = "$2" ] && "$1/sagelint" --version >/dev/null 2>&1
}

case "${1:-}" in
  key)
    k=$(key)
    echo "key=$k"
    ;;
  install)
    dir="${2:?usage: action-build.sh install DIR}"
    want=$(key)
    [ -n "$want" ] || exit 1
    if usable "$dir" "$want"; then
      echo "sagelint: cached binary for $want" >&2
      exit 0
    fi
    if [ -x "$dir/sagelint" ] && [ "$(cat "$dir/.key" 2>/dev/null)" = "$want" ]; then
      # A dynamically linked binary from the cache: its libraries are not installed yet.
      echo "sagelint: installing the libraries the cached binary needs" >&2
      "$src/scripts/setup.sh" --install-only -DSAGELINT_TESTS=OFF
      if usable "$dir" "$want"; then exit 0; fi
    fi
    echo "sagelint: building for $want" >&2
    if BUILD_DIR="$src/build-static" "$src/scripts/build-static.sh"; then
      built="$src/build-static/sagelint"
    else
      echo "sagelint: no static build here; building the dynamically linked binary" >&2
      BUILD_DIR="$src/build-action" BUILD_TYPE=Release "$src/scripts/setup.sh" -DSAGELINT_TESTS=OFF
      built="$src/build-action/sagelint"
    fi
    mkdir -p "$dir"
    cp "$built" "$dir/sagelint.new"
    mv "$dir/sagelint.new" "$dir/sagelint"
    echo "$want" > "$dir/.key"
    ;;
  *)
    echo "usage: action-build.sh key | install DIR" >&2
    exit 2
    ;;
esac
