#!/usr/bin/env bash
# `apt install ./ocl-sp_*.deb` on a fresh Debian 12: a minimal bookworm
# root made by debootstrap, the package installed there with apt (which resolves
# its Depends from the archive) plus PoCL, then ocl_sp run inside it:
#   sudo bash tests/install/fresh_debian.sh ocl-sp_0.1.0_amd64.deb [ROOT]
# Needs root (chroot, mount), debootstrap (apt-get install debootstrap) and the
# Debian archive (network). Not in the default CI run: it downloads ~250 MB and
# takes about 3-5 minutes (docs/library.md). ROOT (default: a temporary folder,
# removed at the end) may be a root made earlier: then debootstrap is skipped and
# the root is kept. A fresh root each time is the real test.
set -uo pipefail
DEB=$(realpath "${1:?usage: fresh_debian.sh PACKAGE.deb [ROOT]}")
[ -f "$DEB" ] || { echo "FAIL: no package $DEB"; exit 1; }
[ "$(id -u)" = 0 ] || { echo "FAIL: needs root (debootstrap, chroot)"; exit 1; }
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keep=0
if [ -n "${2:-}" ]; then
  R=$(realpath -m "$2")
  keep=1
else
  R=$(mktemp -d /tmp/ocl_sp_deb12.XXXXXX)
fi
fails=0
ok() { echo "ok   $1"; }
fail() { echo "FAIL $1"; fails=$((fails + 1)); }
cleanup() {
  umount "$R/proc" "$R/sys" 2>/dev/null
  [ "$keep" = 1 ] || rm -rf "$R"
}
trap cleanup EXIT

if [ ! -x "$R/usr/bin/apt-get" ]; then
  command -v debootstrap >/dev/null || { echo "FAIL: debootstrap missing (apt-get install debootstrap)"; exit 1; }
  echo "== debootstrap bookworm (minbase) into $R"
  debootstrap --variant=minbase bookworm "$R" "$MIRROR" >"$R.debootstrap.log" 2>&1 ||
    { tail -20 "$R.debootstrap.log"; echo "FAIL: debootstrap"; exit 1; }
  rm -f "$R.debootstrap.log"
fi
# A stock Debian 12's sources: main, updates and security.
cat >"$R/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
EOF
cp /etc/resolv.conf "$R/etc/resolv.conf" 2>/dev/null
# /proc and /sys as on a booted system (PoCL reads the CPU topology through hwloc).
mountpoint -q "$R/proc" || mount -t proc proc "$R/proc"
mountpoint -q "$R/sys" || mount -t sysfs sysfs "$R/sys" || mount --rbind /sys "$R/sys"
cp "$DEB" "$R/tmp/"
pkg=/tmp/$(basename "$DEB")
in_root() { chroot "$R" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
              DEBIAN_FRONTEND=noninteractive "$@"; }

# What a user types: apt with its defaults (Recommends on), so PoCL should come
# with the package (Recommends: pocl-opencl-icd | opencl-icd).
echo "== apt install $pkg"
if in_root apt-get update -q >"$R/tmp/apt.log" 2>&1 &&
   in_root apt-get install -y -q "$pkg" >>"$R/tmp/apt.log" 2>&1; then
  ok "apt install ./$(basename "$DEB")"
else
  tail -30 "$R/tmp/apt.log"
  fail "apt install ./$(basename "$DEB")"
fi
echo "   $(grep -c '^Setting up' "$R/tmp/apt.log") packages set up; Depends: $(dpkg-deb -f "$DEB" Depends)"
if in_root dpkg -s pocl-opencl-icd >/dev/null 2>&1; then
  ok "pocl-opencl-icd came with it (Recommends)"
else
  fail "pocl-opencl-icd came with it (Recommends)"
  in_root apt-get install -y -q pocl-opencl-icd >>"$R/tmp/apt.log" 2>&1
fi

check() {  # check NAME PATTERN COMMAND...
  local name=$1 pattern=$2 out
  shift 2
  if out=$(in_root "$@" 2>&1) && grep -Eq "$pattern" <<<"$out"; then
    ok "$name"
  else
    fail "$name"
    echo "$out" | tail -20
  fi
}
check "ocl_sp on the PATH: /usr/bin/ocl_sp" "^/usr/bin/ocl_sp$" sh -c 'command -v ocl_sp'
check "ocl_sp --version" "^ocl_sp [0-9]+\.[0-9]+\.[0-9]+" ocl_sp --version
check "ocl_sp devices lists PoCL" "[Pp]o[Cc][Ll]|Portable Computing" ocl_sp devices
check "ocl_sp --n 50 --device pocl --verify" "verify +ok" ocl_sp --n 50 --device pocl --verify
check "ocl_sp --n 50 --device pocl --type float32 --paths --verify" "paths +ok" \
  ocl_sp --n 50 --device pocl --type float32 --paths --verify
check "libocl_sp.so.0 known to the dynamic linker" "libocl_sp\.so\.0 .*=> /(usr/)?lib" \
  sh -c 'ldconfig -p | grep -F libocl_sp.so.0 | sed "s/^[[:space:]]*//"'
check "man page and completion installed" "^present$" \
  sh -c 'ls /usr/share/man/man1/ocl_sp.1* >/dev/null && test -f /usr/share/bash-completion/completions/ocl_sp && echo present'

echo "$((9 - fails)) passed, $fails failed"
[ "$fails" = 0 ]
