#!/usr/bin/env bash
# scripts/setup.sh on machines without apt, simulated with a PATH that holds
# only basic tools plus stand-ins that record how they are called: no package
# manager at all (names the packages, stops), Fedora's dnf as root, without root
# and without sudo (prints the command to run as root, installs nothing), with
# sudo, macOS's brew (never sudo), and SAGELINT_SKIP_INSTALL=1 going straight to
# the build. The apt path itself is exercised by every scripts/test.sh run (and in
# Debian 13 by scripts/check-debian13.sh).
# Usage: setup_without_apt.sh SOURCE_DIR
set -euo pipefail
src="$(realpath "$1")"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
log="$work/log"

# Runs setup.sh with PATH=$work/<case> (basic tools + the stand-ins put there).
# Output in $work/out, exit status in $rc.
base=(bash dirname uname id getconf env cat grep)
newcase() {
  dir="$work/$1"
  mkdir -p "$dir"
  for t in "${base[@]}"; do ln -sf "$(command -v "$t")" "$dir/$t"; done
  : > "$log"
}
stub() {  # stub NAME [EXIT_STATUS [OUTPUT]]: records its arguments
  rm -f "$dir/$1"
  printf '#!/bin/sh\necho "%s $*" >> "%s"\n%s\nexit %s\n' "$1" "$log" "${3:+echo $3}" "${2:-0}" > "$dir/$1"
  chmod +x "$dir/$1"
}
run() {
  rc=0
  env -i PATH="$dir" HOME="$work" BUILD_DIR="$work/build" /bin/bash "$src/scripts/setup.sh" "$@" > "$work/out" 2>&1 || rc=$?
}
fail() { echo "FAIL: $*"; echo "--- output"; cat "$work/out"; echo "--- calls"; cat "$log"; exit 1; }
expect_out() { grep -qF -- "$1" "$work/out" || fail "output lacks: $1"; }
expect_call() { grep -qxF -- "$1" "$log" || fail "no call: $1"; }

# 1. No package manager: the packages are named, nothing else happens.
newcase none
stub cmake
run
[ "$rc" = 1 ] || fail "exit $rc without a package manager"
expect_out "no supported package manager found (apt-get on Debian/Ubuntu, dnf on Fedora, brew on macOS)"
for p in "yaml-cpp 0.7 or 0.8" "nlohmann_json 3.10+" "RE2 (and abseil" "Catch2 2.13+ or 3" "CMake 3.22+" "- npm" \
         "SAGELINT_SKIP_INSTALL=1 scripts/setup.sh"; do expect_out "$p"; done
[ ! -s "$log" ] || fail "something was run without a package manager"
run -DSAGELINT_TESTS=OFF
grep -q Catch2 "$work/out" && fail "Catch2 asked for although the tests are off"
echo "ok: no package manager: names the packages and stops"

# 2. Fedora as root: dnf installs what rpm does not report installed.
newcase dnf-root
stub dnf
stub rpm 1
stub id 0 0
run --install-only
[ "$rc" = 0 ] || fail "exit $rc with dnf as root"
expect_call "dnf install -y gcc-c++ make cmake ninja-build pkgconf-pkg-config yaml-cpp-devel libyaml-devel json-devel re2-devel catch-devel npm"
echo "ok: dnf as root installs the Fedora packages"

# 3. Fedora without root and without sudo: the command to run as root, nothing installed.
newcase dnf-user
stub dnf
stub rpm 1
stub id 0 1000
run --install-only -DSAGELINT_TESTS=OFF
[ "$rc" = 1 ] || fail "exit $rc without root and sudo"
expect_out "installing needs root and sudo is not available"
expect_out "  dnf install -y gcc-c++ make cmake ninja-build pkgconf-pkg-config yaml-cpp-devel libyaml-devel json-devel re2-devel npm"
expect_out "then run scripts/setup.sh again."
grep -qE "^(dnf|sudo) " "$log" && fail "dnf or sudo was run without root"
echo "ok: no root, no sudo: says what to run as root"

# 4. Fedora without root, with sudo.
newcase dnf-sudo
stub dnf
stub rpm 1
stub id 0 1000
stub sudo
run --install-only
[ "$rc" = 0 ] || fail "exit $rc with sudo"
expect_call "sudo dnf install -y gcc-c++ make cmake ninja-build pkgconf-pkg-config yaml-cpp-devel libyaml-devel json-devel re2-devel catch-devel npm"
echo "ok: without root it installs through sudo"

# 5. macOS: brew, as the user, only what brew does not list; node for npm.
newcase brew
stub uname 0 Darwin
stub brew
stub id 0 501
run --install-only
[ "$rc" = 0 ] || fail "exit $rc with brew"
grep -q "^brew list" "$log" || fail "brew was not asked what is installed"
: > "$log"
cat > "$dir/brew" <<STUB
#!/bin/sh
echo "brew \$*" >> "$log"
case "\$1 \$3" in "list cmake"|"list re2") exit 0 ;; "list "*) exit 1 ;; esac
STUB
run --install-only
expect_call "brew install ninja pkg-config yaml-cpp libyaml nlohmann-json catch2 node"
grep -q sudo "$log" && fail "sudo used with brew"
echo "ok: brew installs the missing formulae without sudo"

# 6. SAGELINT_SKIP_INSTALL=1: straight to CMake, whatever the system.
newcase skip
stub cmake
rc=0
env -i PATH="$dir" HOME="$work" BUILD_DIR="$work/build" SAGELINT_SKIP_INSTALL=1 /bin/bash "$src/scripts/setup.sh" -DX=1 \
  > "$work/out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "exit $rc with SAGELINT_SKIP_INSTALL=1"
expect_call "cmake -S . -B $work/build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DX=1"
expect_call "cmake --build $work/build --parallel $(getconf _NPROCESSORS_ONLN)"
echo "ok: SAGELINT_SKIP_INSTALL=1 only builds"

# 7. --target NAME: only that target is built (scripts/demo.sh builds just `sagelint`).
newcase target
stub cmake
rc=0
env -i PATH="$dir" HOME="$work" BUILD_DIR="$work/build" SAGELINT_SKIP_INSTALL=1 /bin/bash "$src/scripts/setup.sh" \
  --target sagelint -DX=1 > "$work/out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "exit $rc with --target sagelint"
expect_call "cmake -S . -B $work/build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DX=1"
expect_call "cmake --build $work/build --parallel $(getconf _NPROCESSORS_ONLN) --target sagelint"
rc=0
env -i PATH="$dir" HOME="$work" BUILD_DIR="$work/build" SAGELINT_SKIP_INSTALL=1 /bin/bash "$src/scripts/setup.sh" \
  --target > "$work/out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "--target without a name: exit $rc, not 2"
expect_out "setup: --target needs a target name (e.g. sagelint)"
echo "ok: --target sagelint builds only that target"
