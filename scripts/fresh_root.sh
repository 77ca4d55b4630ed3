#!/usr/bin/env bash
# Runs commands in a fresh Debian 12 root holding only apt, git, ca-certificates
# and python3 (made with mmdebstrap), over a clone of this repository's committed
# tree: what a newcomer's fresh machine has, so the README's promise ("two
# commands on a fresh machine") is checked as a newcomer meets it.
#
# Usage (as root):  bash scripts/fresh_root.sh [--readme] [COMMAND...]
#   --readme   run the README's two commands (the lines of README.md that start
#              with `bash scripts/setup.sh && `; there must be exactly two), each
#              from the clone's root, before COMMAND
#   COMMAND    further commands (one shell string each), run in the clone's root
# Environment: FRESH_ROOT (the root's folder, default /tmp/ocl_sp-fresh-root;
# made anew each run), FRESH_MIRROR (default http://deb.debian.org/debian),
# FRESH_SUITE (default bookworm).
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FRESH=${FRESH_ROOT:-/tmp/ocl_sp-fresh-root}
MIRROR=${FRESH_MIRROR:-http://deb.debian.org/debian}
SUITE=${FRESH_SUITE:-bookworm}

if [ "$(id -u)" -ne 0 ]; then
  echo "error: fresh_root.sh needs root (mmdebstrap, chroot and mounts)" >&2
  exit 2
fi
readme=0
if [ "${1:-}" = "--readme" ]; then
  readme=1
  shift
fi

commands=()
if ((readme)); then
  mapfile -t commands < <(grep -E '^bash scripts/setup\.sh && ' "$ROOT_DIR/README.md")
  if [ "${#commands[@]}" -ne 2 ]; then
    echo "error: README.md has ${#commands[@]} lines starting 'bash scripts/setup.sh && ', expected 2" >&2
    exit 1
  fi
fi
commands+=("$@")

if ! command -v mmdebstrap >/dev/null; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends mmdebstrap >/dev/null
fi

mounted=()
cleanup() {
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -R -l "${mounted[$i]}" 2>/dev/null || true; done
}
trap cleanup EXIT

# A root left by a run that was killed may still have its mounts (/dev, /sys):
# unmount them, and never delete through one (--one-file-system as well).
for m in proc sys dev; do umount -R -l "$FRESH/$m" 2>/dev/null || true; done
if grep -q " $FRESH/" /proc/mounts; then
  echo "error: something is still mounted under $FRESH; unmount it first" >&2
  exit 1
fi
rm -rf --one-file-system "$FRESH"
start=$(date +%s)
mmdebstrap --quiet --variant=apt --include=git,ca-certificates,python3 "$SUITE" "$FRESH" "$MIRROR"
echo "fresh root: $SUITE made in $(($(date +%s) - start)) s at $FRESH"
cp /etc/resolv.conf "$FRESH/etc/resolv.conf"
# /etc/hosts and /etc/hostname as Debian's installer writes them (mmdebstrap
# writes neither): without them every lookup of the machine's own name goes to
# DNS, and each mpirun waited 5 s for it (the MPI tests: ~8 min instead of ~2).
h=$(hostname)
printf '%s\n' "$h" >"$FRESH/etc/hostname"
printf '127.0.0.1\tlocalhost\n127.0.1.1\t%s\n\n::1\tlocalhost ip6-localhost ip6-loopback\nff02::1\tip6-allnodes\nff02::2\tip6-allrouters\n' "$h" >"$FRESH/etc/hosts"
# The committed tree, as a clean clone of main has it (nothing untracked travels).
git clone --quiet --no-hardlinks "$ROOT_DIR" "$FRESH/src"
for m in proc sys dev; do
  if [ "$m" = proc ]; then mount -t proc proc "$FRESH/proc"; else mount --rbind "/$m" "$FRESH/$m"; fi
  mounted+=("$FRESH/$m")
done

for c in "${commands[@]}"; do
  echo "fresh root: $c"
  t0=$(date +%s)
  # A login-like environment: PATH and HOME as a fresh machine's root has them.
  env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    TERM=dumb LANG=C.UTF-8 chroot "$FRESH" /bin/bash -c "cd /src && $c"
  echo "fresh root: passed in $(($(date +%s) - t0)) s: $c"
done
