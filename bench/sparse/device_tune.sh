#!/usr/bin/env bash
# The multi-source kernel's tunables on a GPU (issue 23, second round): the
# virtual warp VW, DELTA and WG per family at n = 10 000 (T_k of the solve
# report), then the 10^5 graphs with the defaults and the best variants.
# Usage (repository root, binary in build-gpu/): bench/sparse/device_tune.sh [DEVICE]
set -uo pipefail
DEV=${1:-nvidia}
B=build-gpu/ocl_sp
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
log="$OUT/device_tune.log"
"$B" --n 200 --algo sssp --device "$DEV" --quiet >/dev/null
tk() {  # FAMILY... -- PARAMS...: prints T_k of one solve at n = 10 000
  # shellcheck disable=SC2068
  "$B" $@ --algo sssp --device "$DEV" --json --quiet |
    python3 -c "import json,sys; r=json.load(sys.stdin); print(r['t_k'], ' '.join(f'{k}={v}' for k,v in r['params'].items()))"
}
for fam in "--generator grid" "--generator random --degree 20" "--generator geometric --degree 6"; do
  echo "defaults $fam: $(tk $fam --n 10000)" | tee -a "$log"
  for p in "VW=1" "VW=4" "VW=8" "VW=16" "VW=32" "WG=512" "WG=1024" "WG=128" "DELTA=25" "DELTA=100" "DELTA=400" "DELTA=1600"; do
    echo "variant $fam $p: $(tk $fam --n 10000 --param $p)" | tee -a "$log"
  done
done
for fam in "--generator grid" "--generator geometric --degree 6" "--generator random --degree 20"; do
  # shellcheck disable=SC2086
  for p in "" "--param WG=1024" "--param WG=1024 --param VW=32"; do
    # shellcheck disable=SC2086
    timeout 60 "$B" bench $fam --sizes 100000 --algos sssp --devices "$DEV" --reps 1 --warmup 0 \
      --time-limit 400 $p 2>&1 | grep "^n=" | sed "s/^/[$p] /" | tee -a "$log"
  done
done
