#!/usr/bin/env bash
# Pull rounds of sssp_lanes (PULL, kernels/sssp_pull.cl) against push only:
# rows of random degree 20 (n = 10^5: 8 lanes by default; n = 10^4 with LANES=8)
# and the 316 x 316 grid (lanes by default), T_k / T_h / solve from --json, rows
# read back (no --output: a null sink, the rows still come through the slots).
# BASE (optional): the build before pull rounds, run first on the same graphs.
# Each of PULLS runs REPS times; VARIANT_OPTS: extra build options for one more
# variant of the kernel (OCL_SP_EXTRA_BUILD_OPTIONS), run at VARIANT_PULL.
# CHECK=1: the rows of random degree 20 n = 20 000 (sources 0-1023) with
# PULL=1 equal LANES=1's bytes on the device (int32, float32).
# OTHERS=0 leaves the grid and n = 10^4 out. Log on stdout; JSON lines to $OUT/runs.jsonl.
# Usage (device tool, binaries in $C): C=carry-pull bench/sparse/pull_rounds.sh
set -uo pipefail
C=${C:-carry-pull}; B=$C/ocl_sp; BASE=${BASE:-}
OUT=${OUT:-/tmp/out}; REPS=${REPS:-2}; LIMIT_S=${LIMIT_S:-300}
PULLS=${PULLS:-0 10 20 30}
COMMIT=${COMMIT:-$(cat "$C/COMMIT" 2>/dev/null || echo unknown)}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
START=$(date +%s)
left() { [ $(( $(date +%s) - START )) -lt "$LIMIT_S" ]; }
one() {  # BINARY LABEL REPS OPTIONS...
  local bin=$1 l=$2 r=$3; shift 3
  for i in $(seq "$r"); do
    timeout 90 $bin "$@" --algo sssp --device nvidia --json |
      python3 -c "
import json,sys
d=json.load(sys.stdin); l=sys.argv[1]
ks=d.get('kernel_seconds',{})
print(l, 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], '|', d.get('placement'), '|', {k: round(v, 4) for k, v in ks.items()}, flush=True)
open(sys.argv[2],'a').write(json.dumps({'label':l,'command':'ocl_sp '+' '.join(sys.argv[4:])+' --algo sssp --device nvidia --json','commit':sys.argv[3],'driver':'bench/sparse/pull_rounds.sh','t_k':d['t_k'],'t_h':d['t_h'],'solve':d['solve'],'placement':d.get('placement'),'kernel_seconds':ks,'params':d.get('params'),'device':d.get('device')})+'\n')
" "$l" "$OUT/runs.jsonl" "$COMMIT" "$@"
  done
}
G_R5="--generator random --degree 20 --n 100000"
G_R4="--generator random --degree 20 --n 10000"
G_GRID="--generator grid --n 100000"
# Warm the program caches.
for b in $B $BASE; do $b --n 300 --algo sssp --device nvidia --param LANES=8 > /dev/null; done
for p in $PULLS; do $B --n 300 --algo sssp --device nvidia --param LANES=8 --param PULL=$p > /dev/null; done
if [ "${CHECK:-1}" = 1 ]; then
  for t in int32 float32; do
    S=(--generator random --degree 20 --n 20000 --sources 0-1023 --type $t --algo sssp --device nvidia --quiet)
    $B "${S[@]}" --param LANES=1 --output /tmp/a.bin > /dev/null
    $B "${S[@]}" --param LANES=8 --param PULL=1 --output /tmp/b.bin > /dev/null
    cmp /tmp/a.bin /tmp/b.bin && echo "check random20 n=20000 sources 0-1023 $t: LANES=8 PULL=1 == LANES=1 (bytes)"
    rm -f /tmp/a.bin /tmp/b.bin
  done
fi
[ -n "$BASE" ] && left && one $BASE "R5 base" "$REPS" $G_R5
for p in $PULLS; do left && one $B "R5 PULL=$p" "$REPS" $G_R5 --param PULL=$p; done
if [ -n "${VARIANT_OPTS:-}" ]; then
  OCL_SP_EXTRA_BUILD_OPTIONS="$VARIANT_OPTS" $B --n 300 --algo sssp --device nvidia --param LANES=8 --param PULL=1 > /dev/null
  left && OCL_SP_EXTRA_BUILD_OPTIONS="$VARIANT_OPTS" one $B "R5 PULL=${VARIANT_PULL:-20} $VARIANT_OPTS" 1 $G_R5 --param PULL=${VARIANT_PULL:-20}
fi
if [ "${OTHERS:-1}" = 1 ]; then
  [ -n "$BASE" ] && left && one $BASE "grid base" 1 $G_GRID
  for p in ${GRID_PULLS:-0 20}; do left && one $B "grid PULL=$p" 1 $G_GRID --param PULL=$p; done
  [ -n "$BASE" ] && left && one $BASE "R4 base LANES=8" 1 $G_R4 --param LANES=8
  for p in ${R4_PULLS:-0 10 20 30}; do left && one $B "R4 LANES=8 PULL=$p" 1 $G_R4 --param LANES=8 --param PULL=$p; done
fi
echo "elapsed $(( $(date +%s) - START )) s"
