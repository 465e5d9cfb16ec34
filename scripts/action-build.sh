#!/usr/bin/env bash
# The build steps of action.yml.
#
#   action-build.sh key
#       prints `key=sagelint-<os>-<arch>-<hash>` for $GITHUB_OUTPUT: the hash covers
#       every file the binary is built from, so the cache entry changes exactly when
#       the sources (or the build scripts) do.
#   action-build.sh install DIR
#       leaves a working DIR/sagelint for these sources, taking the first of:
#       1. the release binary for the action's ref (scripts/release-fetch.sh):
#          release vX.Y.Z of the version this tree names, used only if it was
#          built from the commit the ref names, its SHA-256 matches SHA256SUMS
#          and, where the GitHub CLI is installed, `gh attestation verify` accepts
#          it. The action's repository and ref come from SAGELINT_ACTION_REPOSITORY
#          and SAGELINT_ACTION_REF, else from where the runner unpacked the action
#          (.../_actions/OWNER/REPO/REF); the release from SAGELINT_RELEASE_URL,
#          else $GITHUB_SERVER_URL/OWNER/REPO/releases/download.
#       2. the binary in the container image published for that commit of main
#          (.github/workflows/main-image.yml: ghcr.io/OWNER/NAME:sha-COMMIT),
#          where docker can pull it (a ref without a release);
#       3. DIR as actions/cache restored it: a binary recorded under the same key
#          (DIR/.key) that runs.
#       4. a build: the static binary (scripts/build-static.sh), or the
#          dynamically linked one where static archives are missing.
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

# The commit a ref of the action's repository names (a full SHA names itself).
ref_commit() {
  local repo="$1" ref="$2" lines
  if [[ "$ref" =~ ^[0-9a-fA-F]{40}$ ]]; then
    echo "$ref"
    return
  fi
  lines=$(git ls-remote "${GITHUB_SERVER_URL:-https://github.com}/$repo" "refs/tags/$ref^{}" "refs/tags/$ref" \
            "refs/heads/$ref" 2>/dev/null) || return 1
  # An annotated tag's commit is on its ^{} line.
  { echo "$lines" | grep '\^{}$' || echo "$lines"; } | head -n 1 | cut -f1
}

# The action's repository and the commit its ref names, into `repo` and `commit`;
# false (with a line saying why) when the action is not used from a repository ref.
action_commit() {
  local rest ref="${SAGELINT_ACTION_REF:-}"
  repo="${SAGELINT_ACTION_REPOSITORY:-}" commit=""
  if [ -z "$repo" ] || [ -z "$ref" ]; then
    # github.action_repository and github.action_ref are not set inside composite
    # actions; the runner unpacks an action into _actions/OWNER/REPO/REF.
    case "$src" in
      */_actions/*/*/*)
        rest="${src##*/_actions/}"
        repo="${rest%/*}" ref="${rest##*/}"
        ;;
    esac
  fi
  if [ -z "$repo" ] || [ -z "$ref" ] || [[ "$repo" == */*/* ]]; then
    echo "sagelint: the action is not used from a repository ref: no release binary or image" >&2
    return 1
  fi
  commit=$(ref_commit "$repo" "$ref") || commit=""
  if [ -z "$commit" ]; then
    echo "sagelint: cannot tell which commit $repo@$ref is: no release binary or image" >&2
    return 1
  fi
}

# Whether DIR/sagelint could be made the release binary for the action's ref.
from_release() {
  "$src/scripts/release-fetch.sh" "${SAGELINT_RELEASE_URL:-${GITHUB_SERVER_URL:-https://github.com}/$repo/releases/download}" \
    "$commit" "$1" "$repo"
}

# Whether DIR/sagelint could be taken from the container image that
# .github/workflows/main-image.yml publishes for each commit of main
# (ghcr.io/OWNER/NAME:sha-COMMIT, or SAGELINT_IMAGE_REGISTRY/OWNER/NAME): a ref
# without a release then needs no build. Needs docker; the binary must run and
# report this tree's version.
from_image() {
  local dir="$1" platform image cid version got
  command -v docker >/dev/null 2>&1 || return 1
  case "$(uname -m)" in x86_64 | amd64) platform=linux/amd64 ;; aarch64 | arm64) platform=linux/arm64 ;; *) return 1 ;; esac
  image="${SAGELINT_IMAGE_REGISTRY:-ghcr.io}/$(echo "$repo" | tr 'A-Z' 'a-z'):sha-$commit"
  if ! docker pull --quiet --platform "$platform" "$image" >/dev/null 2>&1; then
    echo "sagelint: no container image $image" >&2
    return 1
  fi
  cid=$(docker create --platform "$platform" "$image" 2>/dev/null) || return 1
  mkdir -p "$dir"
  docker cp "$cid:/sagelint" "$dir/sagelint.new" >/dev/null 2>&1 || { docker rm "$cid" >/dev/null 2>&1; return 1; }
  docker rm "$cid" >/dev/null 2>&1 || true
  version=$(sed -n 's/^project(sagelint VERSION \([0-9][0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
  got=$("$dir/sagelint.new" --version 2>/dev/null) || got=""
  if [ "${got% (commit *)}" != "sagelint $version" ]; then
    echo "sagelint: the binary in $image is not sagelint $version (${got:-it does not run})" >&2
    rm -f "$dir/sagelint.new"
    return 1
  fi
  mv "$dir/sagelint.new" "$dir/sagelint"
  echo "sagelint: using the binary of the container image $image" >&2
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
    if action_commit && { from_release "$dir" || from_image "$dir"; }; then
      echo "$want" > "$dir/.key"
      exit 0
    fi
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
