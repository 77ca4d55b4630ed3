#!/usr/bin/env bash
# Rows a source a group (LANES=1) against sources side by side (LANES=4, 8, 16)
# and the defaults on the four table graphs: random degree 20 (n = 10^4, 10^5),
# grid 316 x 316, geometric degree 6 (n = 10^5). Rows read back (no --output: a
# null sink, the rows still come through the pinned slots). T_k, T_h, solve;
# REPS (3) runs of each of MAIN (LANES=1, LANES=8 and the defaults), one of each
# of EXTRA (LANES=4, 16), over GRAPHS (R4 GRID GEO R5); then
# bucket-width and group-size variants of lanes on random graphs while the call's
# time (LIMIT_S, 240) lasts; NEAR=1 graphs near the dense-degree threshold,
# BYTES=1 the rows' bytes of both layouts. Log on stdout; JSON lines to $OUT/runs.jsonl.
# Usage (device tool, binary in $C): C=carry-rowlanes bench/sparse/rows_lanes_choice.sh
set -uo pipefail
C=${C:-carry-rowlanes}; B=$C/ocl_sp
OUT=${OUT:-/tmp/out}; REPS=${REPS:-3}; LIMIT_S=${LIMIT_S:-240}
COMMIT=${COMMIT:-$(cat "$C/COMMIT" 2>/dev/null || echo unknown)}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
START=$(date +%s)
for l in 0 1 4 8 16 32; do $B --n 300 --algo sssp --device nvidia --param LANES=$l > /dev/null; done
$B --generator grid --n 2000 --algo sssp --device nvidia > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq "$r"); do
    timeout 60 $B "$@" --algo sssp --device nvidia --json |
      python3 -c "
import json,sys
d=json.load(sys.stdin); l=sys.argv[1]
ks=d.get('kernel_seconds',{})
print(l, 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], '|', d.get('placement'), '|', {k: round(v, 4) for k, v in ks.items()})
open(sys.argv[2],'a').write(json.dumps({'label':l,'command':'ocl_sp '+' '.join(sys.argv[4:])+' --algo sssp --device nvidia --json','commit':sys.argv[3],'driver':'bench/sparse/rows_lanes_choice.sh','t_k':d['t_k'],'t_h':d['t_h'],'solve':d['solve'],'placement':d.get('placement'),'kernel_seconds':ks,'params':d.get('params'),'device':d.get('device')})+'\n')
" "$l" "$OUT/runs.jsonl" "$COMMIT" "$@"
  done
}
left() { [ $(( $(date +%s) - START )) -lt "$LIMIT_S" ]; }
G_R4="--generator random --degree 20 --n 10000"
G_GRID="--generator grid --n 100000"
G_GEO="--generator geometric --degree 6 --n 100000"
G_R5="--generator random --degree 20 --n 100000"
for g in ${GRAPHS:-R4 GRID GEO R5}; do
  v=G_$g
  for p in ${MAIN:-LANES=1 LANES=8 LANES=0}; do
    left && one "$g $p" "$REPS" ${!v} --param $p
  done
  for p in ${EXTRA:-LANES=4 LANES=16}; do
    left && one "$g $p" 1 ${!v} --param $p
  done
done
# Variants of lanes on random graphs (VARIANTS=1): bucket widths and group sizes.
[ "${VARIANTS:-1}" = 1 ] && [ "${R4_VARIANTS:-1}" = 1 ] && for p in "LANES=8 DELTA=50" "LANES=8 DELTA=100" "LANES=8 LANE_WG=256" "LANES=16 LANE_WG=256"; do
  # shellcheck disable=SC2046
  left && one "R4 $p" 1 $G_R4 $(printf -- '--param %s ' $p)
done
# R5_VARIANTS: '|'-separated parameter sets for random n = 10^5 (one run each).
IFS='|' read -r -a r5 <<<"${R5_VARIANTS:-LANES=8 DELTA=50|LANES=16 DELTA=50}"
[ "${VARIANTS:-1}" = 1 ] && for p in "${r5[@]}"; do
  # shellcheck disable=SC2046
  left && one "R5 $p" 1 $G_R5 $(printf -- '--param %s ' $p)
done
# Near the dense-degree threshold (NEAR=1): one run of each layout.
if [ "${NEAR:-0}" = 1 ]; then
  for g in "--degree 20 --n 30000" "--degree 12 --n 100000" "--degree 8 --n 100000"; do
    for p in LANES=1 LANES=8; do
      # shellcheck disable=SC2086
      left && one "random $g $p" 1 --generator random $g --param $p
    done
  done
fi
# The rows' bytes on the device (BYTES=1): random degree 20 n = 20 000, int32 and
# float32, 8 lanes against a source a group.
if [ "${BYTES:-0}" = 1 ]; then
  for t in int32 float32; do
    $B --generator random --degree 20 --n 20000 --type $t --algo sssp --device nvidia --param LANES=8 \
      --output /tmp/a.bin --quiet > /dev/null
    $B --generator random --degree 20 --n 20000 --type $t --algo sssp --device nvidia --param LANES=1 \
      --output /tmp/b.bin --quiet > /dev/null
    cmp /tmp/a.bin /tmp/b.bin && echo "random20 n=20000 $t rows: LANES=8 == LANES=1 (bytes)"
  done
  rm -f /tmp/a.bin /tmp/b.bin
fi
echo "elapsed $(( $(date +%s) - START )) s"
