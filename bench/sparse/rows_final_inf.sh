#!/usr/bin/env bash
# Rows with the output's unreachable value written on the device (no host
# map-back pass) against the build before it, in one call: the 316 x 316 grid's
# rows at the defaults (lanes, rows transposed on the device), T_k, T_h, solve and
# the host pass's seconds, medians of 3 after a warm-up of each binary; then the
# 141 x 141 grid's rows (int32, float32) and a random graph's with unreachable
# vertices (lanes and LANES=1) of both builds compared byte for byte.
# Log on stdout; JSON lines to $OUT/runs.jsonl (driver, flags, commit, device).
# Usage (device tool): C=carry-mapback NEW_COMMIT=... BASE_COMMIT=... bench/sparse/rows_final_inf.sh
# with $C/ocl_sp (the new build) and $C/ocl_sp_base (the one before).
set -uo pipefail
C=${C:-carry-mapback}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
FLAGS="--generator grid --n 100000 --algo sssp --device nvidia --json"
for b in ocl_sp_base ocl_sp; do
  $C/$b --generator grid --n 2000 --algo sssp --device nvidia > /dev/null
  $C/$b $FLAGS > /dev/null  # warm-up
done
for i in 1 2 3; do
  for b in ocl_sp_base ocl_sp; do
    commit=${BASE_COMMIT:-?}; [ $b = ocl_sp ] && commit=${NEW_COMMIT:-?}
    $C/$b $FLAGS | python3 -c "
import json,sys
d=json.load(sys.stdin); l=sys.argv[1]; ks=d.get('kernel_seconds',{})
mb=ks.get('rows: map back / trees (host)',0)
print(l, 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], 'map back', mb, '|', d.get('placement'))
open(sys.argv[2],'a').write(json.dumps({'label':l,'t_k':d['t_k'],'t_h':d['t_h'],'solve':d['solve'],
  'placement':d.get('placement'),'kernel_seconds':ks,'params':d.get('params'),'device':d.get('device'),
  'driver':'bench/sparse/rows_final_inf.sh','flags':sys.argv[4],'commit':sys.argv[3]})+'\n')
" "grid316 $b" "$OUT/runs.jsonl" "$commit" "$FLAGS"
  done
done
same() {  # LABEL OPTIONS...: the rows of both builds, byte for byte
  local l=$1; shift
  $C/ocl_sp "$@" --algo sssp --device nvidia --output /tmp/a.bin > /dev/null
  $C/ocl_sp_base "$@" --algo sssp --device nvidia --output /tmp/b.bin > /dev/null
  cmp /tmp/a.bin /tmp/b.bin && echo "$l rows: new == base (bytes)"
}
for t in int32 float32; do same "grid141 $t" --generator grid --n 20000 --type $t; done
# Unreachable vertices (directed, mean degree 2): lanes and a source a group.
for p in "" "--param LANES=1"; do same "random2_10k int32 $p" --generator random --degree 2 --n 10000 $p; done
rm -f /tmp/a.bin /tmp/b.bin
