#!/usr/bin/env bash
# Rows in lanes after the blocked deal: grid 316 x 316 per source and LANES=8
# (3 each), geometric and random n = 10^4 in lanes once, bytes against per source.
set -uo pipefail
C=${C:-carry-sparse}; B=$C/ocl_sp
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
$B --n 200 --algo sssp --device nvidia --quiet > /dev/null
$B --n 200 --algo sssp --device nvidia --param LANES=8 --quiet > /dev/null
one() {  # LABEL REPS OPTIONS...
  local l=$1 r=$2; shift 2
  for i in $(seq $r); do
    $B "$@" --algo sssp --device nvidia --json --quiet |
      python3 -c "import json,sys; d=json.load(sys.stdin); print(sys.argv[1], 't_k', d['t_k'], 't_h', d['t_h'], 'solve', d['solve'], 'wall', d.get('wall'))" "$l"
  done
}
one "grid316" 3 --generator grid --n 100000
one "grid316 lanes8" 3 --generator grid --n 100000 --param LANES=8
one "random20_10k lanes8" 3 --generator random --degree 20 --n 10000 --param LANES=8
one "geometric6_100k lanes8" 1 --generator geometric --degree 6 --n 100000 --param LANES=8
$B --generator grid --n 100000 --algo sssp --device nvidia --output /tmp/a.bin --quiet
$B --generator grid --n 100000 --algo sssp --device nvidia --param LANES=8 --output /tmp/b.bin --quiet
cmp /tmp/a.bin /tmp/b.bin && echo "grid316 rows: lanes == per-source (bytes)"
