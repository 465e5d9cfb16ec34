#!/usr/bin/env bash
# The `sagelint-build` pre-commit hook from a fresh clone, with the real
# `pre-commit`, in four situations:
#  1. a release served from a directory (SAGELINT_RELEASE_URL=file://…) built
#     from the hook's HEAD: downloaded, verified, used — nothing is built;
#  2. a release built from another commit, and 3. one whose checksum does not
#     match: refused; with no compiler on PATH the hook then names what to
#     install and stops, running neither a package manager nor sudo;
#  4. no release and the compiler present: built from source with at most a
#     couple of lines before the first finding, the build log in a file, no
#     compiler output on screen.
# Usage: pre_commit_build.sh SAGELINT_BINARY SOURCE_DIR
set -euo pipefail
bin="$(realpath "$1")" src="$(realpath "$2")"
command -v pre-commit >/dev/null || { echo "pre-commit is not installed (scripts/test.sh installs it)"; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; [ -n "${out:-}" ] && echo "--- output" && echo "$out"; exit 1; }
export PRE_COMMIT_HOME="$work/pre-commit" HOME="$work/home"
mkdir -p "$HOME"
git() { command git -c user.email=t@t -c user.name=t -c commit.gpgsign=false "$@"; }
version=$(sed -n 's/^project(sagelint VERSION \([0-9.]*\).*/\1/p' "$src/CMakeLists.txt")
case "$(uname -m)" in x86_64 | amd64) asset=sagelint-linux-x86_64 ;; aarch64 | arm64) asset=sagelint-linux-aarch64 ;;
  *) echo "SKIP: no release binary name for $(uname -m)"; exit 77 ;; esac

# The hook repository: this source tree (as it is in the work tree) in a git repository.
hooks="$work/hooks"
git init -q "$hooks"
(cd "$src" && git ls-files -z -co --exclude-standard | tar --null -T - -cf -) | tar -xf - -C "$hooks"
git -C "$hooks" add -A
git -C "$hooks" commit -qm "sagelint"
rev=$(git -C "$hooks" rev-parse HEAD)

# A PATH without any C or C++ compiler, with stand-ins for sudo and the package
# managers that record a call.
nocc="$work/nocc"
mkdir -p "$nocc"
for dir in /usr/local/bin /usr/bin /bin; do
  for f in "$dir"/*; do
    b=$(basename "$f")
    case "$b" in cc | c++ | gcc | g++ | clang | clang++ | clang-[0-9]* | clang++-[0-9]* | *-gcc | *-g++ | *-gcc-[0-9]* | *-g++-[0-9]* | gcc-[0-9]* | g++-[0-9]* | c89* | c99*) continue ;; esac
    [ -e "$nocc/$b" ] || ln -s "$f" "$nocc/$b"
  done
done
for t in sudo apt-get apt dnf brew; do
  rm -f "$nocc/$t"
  printf '#!/bin/sh\necho "%s $*" >> "%s/calls"\nexit 1\n' "$t" "$work" > "$nocc/$t"
  chmod +x "$nocc/$t"
done

# The repository using the hook.
repo="$work/repo"
mkdir -p "$repo/infra"
cd "$repo"
git init -q .
cat > .pre-commit-config.yaml <<YAML
repos:
  - repo: $hooks
    rev: $rev
    hooks:
      - id: sagelint-build
YAML
git add .pre-commit-config.yaml
git commit -qm config --no-verify
pre-commit install >/dev/null
cat > infra/notebook.yaml <<'YAML'
AWSTemplateFormatVersion: "2010-09-09"
Resources:
  Explore:
    Type: AWS::SageMaker::NotebookInstance
    Properties:
      InstanceType: ml.t3.xlarge
      RoleArn: arn:aws:iam::111122223333:role/sagemaker
YAML
git add infra/notebook.yaml

# A release directory: vX.Y.Z/{COMMIT, SHA256SUMS, the binary}.
release() {  # release DIR COMMIT [BAD_SUM]
  mkdir -p "$1/v$version"
  cp "$bin" "$1/v$version/$asset"
  echo "$2" > "$1/v$version/COMMIT"
  (cd "$1/v$version" && sha256sum "$asset" COMMIT > SHA256SUMS)
  if [ -n "${3:-}" ]; then sed -i "s/^[0-9a-f]*  $asset/$(printf '0%.0s' {1..64})  $asset/" "$1/v$version/SHA256SUMS"; fi
}
commit_blocked() {  # runs `git commit`; it must be blocked; the output is in $out
  if out=$(git commit -qm "costly notebook" 2>&1); then fail "the commit was not blocked"; fi
}

# 1. The release of this revision: used as it is.
release "$work/rel-good" "$rev"
export SAGELINT_RELEASE_URL="file://$work/rel-good" SAGELINT_BUILD_CACHE="$work/cache-good"
PATH="$nocc" commit_blocked
grep -qF "sagelint: using the release binary v$version ($asset, SHA-256 verified, built from ${rev:0:12})" <<<"$out" ||
  fail "the release binary was not taken"
grep -q "warning\[SM201\] notebook instance 'Explore'" <<<"$out" || fail "no finding after taking the release"
cmp -s "$bin" "$SAGELINT_BUILD_CACHE/sagelint" || fail "the cached binary is not the release's"
[ ! -e "$SAGELINT_BUILD_CACHE/build" ] || fail "something was built although the release was taken"
PATH="$nocc" commit_blocked
if grep -q "release binary" <<<"$out"; then fail "the second run fetched again instead of using the cache"; fi
echo "ok: a release built from the hook's HEAD is downloaded, verified and used; the next run uses the cache"

# 2, 3: refused; no compiler: names what to install, installs nothing.
release "$work/rel-other" "0123456789abcdef0123456789abcdef01234567"
release "$work/rel-badsum" "$rev" bad
for case in other badsum; do
  export SAGELINT_RELEASE_URL="file://$work/rel-$case" SAGELINT_BUILD_CACHE="$work/cache-$case"
  PATH="$nocc" commit_blocked
  if [ "$case" = other ]; then
    grep -qF "sagelint: release v$version refused: it was built from commit 0123456789ab, this is ${rev:0:12}" <<<"$out" ||
      fail "a release of another commit was not refused"
  else
    grep -qF "sagelint: release v$version refused: $asset has SHA-256 $(sha256sum "$bin" | cut -c1-64), SHA256SUMS says 0000" <<<"$out" ||
      fail "a release with a wrong checksum was not refused"
  fi
  [ ! -e "$SAGELINT_BUILD_CACHE/sagelint" ] || fail "the refused binary was kept"
  grep -qF "sagelint-build: cannot build sagelint from source here:" <<<"$out" || fail "no word on the missing compiler"
  grep -qF "missing to build sagelint: build-essential" <<<"$out" || fail "the compiler's package is not named"
  grep -qF "apt-get install -y --no-install-recommends build-essential" <<<"$out" || fail "no install command given"
  [ ! -e "$work/calls" ] || fail "a package manager or sudo was run: $(cat "$work/calls")"
done
echo "ok: a release of another commit or with a wrong checksum is refused; without a compiler the hook names what to install and runs no package manager"

# 4. No release, the compiler present: a quiet build from source, in the hook's
# default cache inside pre-commit's clone of the hook repository. That build
# lies two levels under its sources as static_build's does under the source tree,
# so where ccache is on (CTest's environment), it finds the same relative paths
# under CCACHE_BASEDIR and hits.
clone=$(cd "$(dirname "$(find "$PRE_COMMIT_HOME" -path '*/scripts/pre-commit-build.sh' | head -n 1)")/.." && pwd)
export SAGELINT_RELEASE_URL="file://$work/no-release" SAGELINT_BUILD_CACHE="$clone/.build-pre-commit"
export CCACHE_BASEDIR="$clone"
start=$(date +%s)
commit_blocked
seconds=$(($(date +%s) - start))
# What the hook printed: pre-commit's header lines, then the hook's output.
hook_out=$(echo "$out" | sed -n '/^- exit code:/,$p' | sed '1d;/^$/d')
before=$(echo "$hook_out" | sed '/warning\[SM201\]/,$d')
grep -q "warning\[SM201\] notebook instance 'Explore'" <<<"$hook_out" || fail "no finding after the build"
[ "$(echo "$before" | wc -l)" -le 2 ] || fail "more than two lines before the first finding: $before"
grep -qF "sagelint: no release v$version at file://$work/no-release/v$version" <<<"$before" || fail "the missing release is not said"
grep -qF "sagelint-build: building sagelint $version from source, once for this revision (a few minutes; log: $SAGELINT_BUILD_CACHE/build.log)" <<<"$before" ||
  fail "no progress line"
grep -q "Linking CXX executable sagelint" "$SAGELINT_BUILD_CACHE/build.log" || fail "the build log is not in the file"
if grep -qE "warning: |\[[0-9]+/[0-9]+\]|Building CXX" <<<"$out"; then fail "compiler or build output on screen"; fi
echo "ok: no release: built from source in ${seconds}s, $(echo "$before" | wc -l) lines before the first finding, the log in a file"
