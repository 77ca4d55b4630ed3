#!/usr/bin/env bash
# Rows with the transposed lanes (sssp_lanes_rows, read back through the pinned
# slots) at the defaults (lanes where the mean degree is <= 5) against LANES=1
# (one source a group): T_k, T_h, solve, medians of 3 after a warm-up; the bytes of
# a 141 x 141 grid's rows (int32, float32) against LANES=1; then one --stats
# --betweenness of the 316 x 316 grid. Log on stdout; JSON lines to $OUT/runs.jsonl.
# Usage (device tool, binary in $C): C=carry-lanes bench/sparse/lanes_rows_transposed.sh
set -uo pipefail
C=${C:-carry-lanes}; B=$C/ocl_sp
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia > /dev/null
$B --generator grid --n 2000 --algo sssp --device nvidia > /dev/null
$B --n 200 --algo sssp --device nvidia --param LANES=1 > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq "$r"); do
    $B "$@" --algo sssp --device nvidia --json |
      python3 -c "
import json,sys
d=json.load(sys.stdin); l=sys.argv[1]
print(l, 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], '|', d.get('placement'))
ks=d.get('kernel_seconds',{})
open(sys.argv[2],'a').write(json.dumps({'label':l,'t_k':d['t_k'],'t_h':d['t_h'],'solve':d['solve'],'placement':d.get('placement'),'kernel_seconds':ks,'params':d.get('params'),'device':d.get('device')})+'\n')
" "$l" "$OUT/runs.jsonl"
  done
}
for p in "" "--param LANES=1"; do
  one "grid316${p:+ lanes1}" 3 --generator grid --n 100000 $p
  one "random20_10k${p:+ lanes1}" 3 --generator random --degree 20 --n 10000 $p
  one "geometric6_100k${p:+ lanes1}" 3 --generator geometric --degree 6 --n 100000 $p
done
for t in int32 float32; do
  $B --generator grid --n 20000 --type $t --algo sssp --device nvidia --output /tmp/a.bin > /dev/null
  $B --generator grid --n 20000 --type $t --algo sssp --device nvidia --param LANES=1 --output /tmp/b.bin > /dev/null
  cmp /tmp/a.bin /tmp/b.bin && echo "grid141 $t rows: lanes (default) == LANES=1 (bytes)"
done
rm -f /tmp/a.bin /tmp/b.bin
if [ "${BETWEENNESS:-1}" = 1 ]; then
  /usr/bin/time -f "betweenness wall %e s" timeout "${BC_LIMIT:-90}" $B --generator grid --n 100000 --algo sssp \
    --device nvidia --stats /tmp/s.csv --betweenness 2>&1 | grep -E "T_k|total|placement|wall|error"
fi
