#!/usr/bin/env bash
# Rows: the per-source engine (defaults) against sources side by side
# (--param LANES=8), T_k and solve, medians of 3 (random 10^5: 1). Log on stdout.
set -uo pipefail
C=${C:-carry-sparse}; B=$C/ocl_sp
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet > /dev/null
$B --n 200 --algo sssp --device nvidia --param LANES=8 --quiet > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq $r); do
    $B "$@" --algo sssp --device nvidia --json --quiet |
      python3 -c "import json,sys; d=json.load(sys.stdin); print(sys.argv[1], 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], 'wall', d.get('wall'))" $l
  done
}
for p in "" "--param LANES=8"; do
  one "random20_10k${p:+ lanes8}" 3 --generator random --degree 20 --n 10000 $p
  one "grid316${p:+ lanes8}" 3 --generator grid --n 100000 $p
  one "geometric6_100k${p:+ lanes8}" 3 --generator geometric --degree 6 --n 100000 $p
done
one "random20_100k lanes8" 1 --generator random --degree 20 --n 100000 --param LANES=8
$B --generator grid --n 100000 --algo sssp --device nvidia --output /tmp/a.bin --quiet
$B --generator grid --n 100000 --algo sssp --device nvidia --param LANES=8 --output /tmp/b.bin --quiet
cmp /tmp/a.bin /tmp/b.bin && echo "grid316 rows: lanes == per-source (bytes)"
