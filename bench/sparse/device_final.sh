#!/usr/bin/env bash
# The issue-23 target rows with the defaults (bench, medians), and the random
# degree-20 n = 10^5 graph under fewer resident sources (BATCH) and DELTA.
# Usage (repository root, binary in build-gpu/): bench/sparse/device_final.sh [DEVICE]
set -uo pipefail
DEV=${1:-nvidia}
B=build-gpu/ocl_sp
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
log="$OUT/device_final.log"
"$B" --n 200 --algo sssp --device "$DEV" --quiet >/dev/null
"$B" --n 200 --algo fw --device "$DEV" --quiet >/dev/null
for p in "--param BATCH=128" "--param BATCH=256" "--param BATCH=512" "--param DELTA=25" "--param BATCH=256 --param DELTA=25"; do
  # shellcheck disable=SC2086
  timeout 45 "$B" bench --generator random --degree 20 --sizes 100000 --algos sssp --devices "$DEV" \
    --reps 1 --warmup 0 --time-limit 400 $p 2>&1 | grep "^n=" | sed "s/^/[$p] /" | tee -a "$log"
done
"$B" bench --generator random --degree 20 --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/random20_10k.csv" | tee -a "$log"
"$B" bench --generator grid --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/grid100.csv" | tee -a "$log"
"$B" bench --generator grid --sizes 100000 --algos sssp,auto --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/grid316.csv" | tee -a "$log"
"$B" bench --generator geometric --degree 6 --sizes 100000 --algos sssp,auto --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/geometric6_100k.csv" | tee -a "$log"
