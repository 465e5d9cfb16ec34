#!/usr/bin/env bash
# Installs what sagelint needs and builds it into build/ (or $BUILD_DIR).
#
# Usage: scripts/setup.sh [--install-only | --check] [--target NAME] [extra cmake -D options]
#
# Packages come from the system's package manager:
#   apt-get (Debian, Ubuntu)  dnf (Fedora)  brew (macOS)
# Any other system: the script names what to install and stops (exit 1); once
# installed, run it again with SAGELINT_SKIP_INSTALL=1. apt-get and dnf need root:
# without root it uses sudo, and without sudo it prints the command to run as
# root and stops (exit 1). Only missing packages are installed.
#
#   BUILD_DIR, BUILD_TYPE       where and how to build (build/, RelWithDebInfo)
#   --target NAME               build only that target and what it needs (e.g.
#                               `sagelint`, without the tests); default: all
#   SAGELINT_EXTRA_PACKAGES     more packages to install (same names on all three)
#   SAGELINT_SKIP_INSTALL=1     do not look at packages at all, only build
#   -DSAGELINT_TESTS=OFF        also skips Catch2, which only the tests need
#
# --check installs and builds nothing: it names what is missing to build (by the
# package manager's records and the tools on PATH) with the command that would
# install it, and exits 1; 0 if nothing is missing. (The pre-commit hook runs it:
# a hook never installs packages.)
set -euo pipefail
cd "$(dirname "$0")/.."

install_only=0 check_only=0 target=()
if [ "${1:-}" = "--install-only" ]; then
  install_only=1
  shift
elif [ "${1:-}" = "--check" ]; then
  check_only=1
  shift
fi
if [ "${1:-}" = "--target" ]; then
  [ -n "${2:-}" ] || { echo "setup: --target needs a target name (e.g. sagelint)" >&2; exit 2; }
  target=(--target "$2")
  shift 2
fi
tests=1
for arg in "$@"; do
  case "$arg" in -DSAGELINT_TESTS=OFF | -DSAGELINT_TESTS:BOOL=OFF) tests=0 ;; esac
done
read -r -a extra <<< "${SAGELINT_EXTRA_PACKAGES:-}"

# The package manager, and the packages in its names. Every list holds: a C++20
# compiler, CMake, Ninja, pkg-config, yaml-cpp, libyaml, nlohmann_json, RE2 (with abseil
# when it needs it, as a dependency), Catch2 for the tests, and npm (which fetches
# the pinned tree-sitter sources at configure time).
manager=none
if [ "$(uname -s)" = Darwin ]; then
  command -v brew >/dev/null 2>&1 && manager=brew
elif command -v apt-get >/dev/null 2>&1 && command -v dpkg-query >/dev/null 2>&1; then
  manager=apt
elif command -v dnf >/dev/null 2>&1; then
  manager=dnf
fi
case "$manager" in
  apt) packages=(build-essential cmake ninja-build pkg-config libyaml-cpp-dev libyaml-dev nlohmann-json3-dev libre2-dev)
       test_packages=(catch2) ;;
  dnf) packages=(gcc-c++ make cmake ninja-build pkgconf-pkg-config yaml-cpp-devel libyaml-devel json-devel re2-devel)
       test_packages=(catch-devel) ;;
  brew) packages=(cmake ninja pkg-config yaml-cpp libyaml nlohmann-json re2)
        test_packages=(catch2) ;;
  none) packages=("a C++20 compiler (GCC 11+ or Clang 14+)" "CMake 3.22+" "Ninja (optional)" pkg-config
                  "yaml-cpp 0.7 or 0.8" "libyaml 0.2" "nlohmann_json 3.10+" "RE2 (and abseil if your RE2 needs it)")
        test_packages=("Catch2 2.13+ or 3") ;;
esac
((tests)) && packages+=("${test_packages[@]}")
packages+=(${extra[@]+"${extra[@]}"})

installed() {
  case "$manager" in
    apt) dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed' ;;
    dnf) command -v rpm >/dev/null 2>&1 && rpm -q --quiet "$1" 2>/dev/null ;;
    brew) brew list --versions "$1" >/dev/null 2>&1 ;;
  esac
}

# The command that installs $@ with the package manager (as root where it needs root).
install_command() {
  case "$manager" in
    apt) echo "apt-get install -y --no-install-recommends $*" ;;
    dnf) echo "dnf install -y $*" ;;
    brew) echo "brew install $*" ;;
  esac
}

if ((check_only)); then
  missing=()
  add() { case " ${missing[*]} " in *" $1 "*) ;; *) missing+=("$1") ;; esac; }
  if [ "$manager" != none ]; then
    for p in "${packages[@]}"; do installed "$p" || add "$p"; done
  fi
  # The tools themselves: a package can be recorded while its tool is not on PATH.
  have_compiler=0
  for c in ${CXX:-} c++ g++ clang++; do command -v "$c" >/dev/null 2>&1 && have_compiler=1 && break; done
  if ((!have_compiler)); then
    case "$manager" in apt) add build-essential ;; dnf) add gcc-c++ ;; brew) add "Xcode command line tools (xcode-select --install)" ;;
                       none) add "a C++20 compiler (GCC 11+ or Clang 14+)" ;; esac
  fi
  command -v cmake >/dev/null 2>&1 || case "$manager" in none) add "CMake 3.22+" ;; *) add cmake ;; esac
  command -v pkg-config >/dev/null 2>&1 || case "$manager" in dnf) add pkgconf-pkg-config ;; *) add pkg-config ;; esac
  command -v npm >/dev/null 2>&1 || case "$manager" in brew) add node ;; *) add npm ;; esac
  if [ "$manager" = none ] && command -v pkg-config >/dev/null 2>&1; then
    pkg-config --exists yaml-cpp || add "yaml-cpp 0.7 or 0.8"
    pkg-config --exists yaml-0.1 || add "libyaml 0.2"
    pkg-config --exists re2 || add "RE2 (and abseil if your RE2 needs it)"
  fi
  ((${#missing[@]})) || exit 0
  names=() described=()  # package names, and things no package name gives
  for m in "${missing[@]}"; do case "$m" in *" "*) described+=("$m") ;; *) names+=("$m") ;; esac; done
  {
    echo "setup: missing to build sagelint: $(IFS=,; echo "${missing[*]}" | sed 's/,/, /g')"
    if [ "$manager" = none ]; then
      echo "Install them with your system's package manager (names vary)."
    elif ((${#names[@]})); then
      if [ "$manager" = brew ] || [ "$(id -u)" -eq 0 ]; then
        echo "Install them with: $(install_command "${names[@]}")"
      else
        echo "Install them as root: sudo $(install_command "${names[@]}")"
      fi
    fi
    for d in ${described[@]+"${described[@]}"}; do [ "$manager" = none ] || echo "and: $d"; done
  } >&2
  exit 1
fi

if [ "${SAGELINT_SKIP_INSTALL:-0}" != 1 ]; then
  if [ "$manager" = none ]; then
    {
      echo "setup: no supported package manager found (apt-get on Debian/Ubuntu, dnf on Fedora, brew on macOS)."
      echo "Install these with your system's package manager (names vary):"
      for p in "${packages[@]}" npm; do echo "  - $p"; done
      echo "then build with: SAGELINT_SKIP_INSTALL=1 scripts/setup.sh"
    } >&2
    exit 1
  fi
  missing=()
  for p in "${packages[@]}"; do installed "$p" || missing+=("$p"); done
  # Any npm on PATH will do.
  if ! command -v npm >/dev/null 2>&1; then
    case "$manager" in brew) missing+=(node) ;; *) missing+=(npm) ;; esac
  fi
  if ((${#missing[@]})); then
    case "$manager" in
      apt) cmds=("apt-get update" "DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends ${missing[*]}") ;;
      dnf) cmds=("dnf install -y ${missing[*]}") ;;
      brew) cmds=("brew install ${missing[*]}") ;;
    esac
    prefix=""
    if [ "$manager" != brew ] && [ "$(id -u)" -ne 0 ]; then
      if command -v sudo >/dev/null 2>&1; then
        prefix="sudo "
      else
        {
          echo "setup: missing ${missing[*]}; installing needs root and sudo is not available."
          echo "As root, run:"
          for c in "${cmds[@]}"; do echo "  $c"; done
          echo "then run scripts/setup.sh again."
        } >&2
        exit 1
      fi
    fi
    echo "setup: installing ${missing[*]} with $manager" >&2
    case "$manager" in
      apt) ${prefix}apt-get update -qq
           ${prefix}env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ;;
      dnf) ${prefix}dnf install -y "${missing[@]}" ;;
      brew) brew install "${missing[@]}" ;;
    esac
  fi
fi
((install_only)) && exit 0

build="${BUILD_DIR:-build}"
generator=()
if command -v ninja >/dev/null 2>&1 && ! [ -f "$build/Makefile" ]; then generator=(-G Ninja); fi
cmake -S . -B "$build" ${generator[@]+"${generator[@]}"} -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-RelWithDebInfo}" "$@" >/dev/null
cmake --build "$build" --parallel "$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 2)" ${target[@]+"${target[@]}"}
