#!/usr/bin/env bash
# Builds sagelint on Debian 13 "trixie" with Debian 13's own packages (yaml-cpp 0.8,
# Catch2 3, an RE2 that needs abseil, CMake 3.31, GCC 14) and runs the whole test
# suite there. A trixie root is made with debootstrap from the Debian mirror (kept
# and reused), this source tree is copied into it, and scripts/test.sh runs inside
# it with chroot — so the apt path of scripts/setup.sh is exercised on Debian 13 too.
#
# Usage: scripts/check-debian13.sh [WORK_DIR]     (default /var/tmp/sagelint-debian13)
#   DEBIAN_MIRROR=URL          mirror for debootstrap (default http://deb.debian.org/debian)
#   SAGELINT_DEBIAN13_FRESH=1  make a new root even if one exists
# Needs root (debootstrap, mount, chroot) and access to the mirror. About 2 minutes
# for the root, then the package installs and a full build (~15 minutes on 2 cores).
set -euo pipefail
src="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-/var/tmp/sagelint-debian13}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
root="$work/root"

if [ "$(id -u)" -ne 0 ]; then
  echo "check-debian13: debootstrap, mount and chroot need root; run: sudo $0 $*" >&2
  exit 1
fi
if ! command -v debootstrap >/dev/null 2>&1; then
  if command -v apt-get >/dev/null 2>&1; then
    echo "check-debian13: installing debootstrap" >&2
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends debootstrap >/dev/null
  else
    echo "check-debian13: needs debootstrap (https://wiki.debian.org/Debootstrap); install it and run again" >&2
    exit 1
  fi
fi

mkdir -p "$work"
if [ "${SAGELINT_DEBIAN13_FRESH:-0}" = 1 ] || ! grep -q '^13\.' "$root/etc/debian_version" 2>/dev/null; then
  echo "check-debian13: debootstrap trixie from $mirror into $root" >&2
  rm -rf "$root" "$work/root.partial"
  debootstrap --variant=minbase --include=ca-certificates trixie "$work/root.partial" "$mirror" \
    > "$work/debootstrap.log" 2>&1 || { tail -20 "$work/debootstrap.log" >&2; exit 1; }
  mv "$work/root.partial" "$root"
fi
echo "check-debian13: Debian $(cat "$root/etc/debian_version") root at $root" >&2

# The source tree as it is now (committed or not, without build output) becomes a
# fresh git repository inside the root: the pre-commit test clones it.
rm -rf "$root/src"
mkdir -p "$root/src"
(cd "$src" && git ls-files -z --cached --others --exclude-standard) \
  | (cd "$src" && xargs -0 tar -cf - --no-recursion --ignore-failed-read) | tar -xf - -C "$root/src"
git -C "$root/src" init -q
git -C "$root/src" add -A
git -C "$root/src" -c user.email=check@debian13 -c user.name=check commit -qm "source snapshot"

cp /etc/resolv.conf "$root/etc/resolv.conf"
# The root trusts what the host trusts: local CA certificates (a network that
# inspects TLS has one) are added to its store, which npm is pointed at below.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  mkdir -p "$root/usr/local/share/ca-certificates"
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null 2>&1
fi
mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null || true; done
}
trap cleanup EXIT
for m in proc dev dev/pts sys; do
  mountpoint -q "$root/$m" && continue
  case "$m" in
    proc) mount -t proc proc "$root/proc" ;;
    *) mount --bind "/$m" "$root/$m" ;;
  esac
  mounted+=("$root/$m")
done

# The build directory (/build inside the root) is kept between runs.
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb CI=true \
  NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin BUILD_DIR=/build \
  bash -c 'cd /src && scripts/test.sh'
