#!/usr/bin/env bash
# The sparse-family experiment on a GPU machine (issue 23): correctness of sssp on
# the device, the WG x DELTA space at n = 10 000, then bench rows (fw, sssp, auto)
# for the families of the targets. Run from the repository root with the binary
# built in build-gpu/ (device tool: carry build-gpu); results under $OUT.
# Usage: bench/sparse/device_run.sh [DEVICE] [QUICK]
set -uo pipefail
DEV=${1:-nvidia}
B=build-gpu/ocl_sp
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
log="$OUT/device_run.log"
run() { echo "+ $*" | tee -a "$log"; "$@" 2>&1 | tee -a "$log"; }
nvidia-smi -L 2>/dev/null | tee -a "$log"
"$B" --n 200 --algo sssp --device "$DEV" --quiet >/dev/null  # warm the program cache
for t in int32 float32; do
  run "$B" --n 3000 --negative --algo sssp --device "$DEV" --type $t --verify --paths --quiet
  run "$B" --generator grid --n 22500 --algo sssp --device "$DEV" --type $t --quiet --json \
    --output /tmp/g.bin
  run "$B" --generator grid --n 22500 --algo sssp --backend openmp --type $t --quiet \
    --output /tmp/g_omp.bin
  run cmp /tmp/g.bin /tmp/g_omp.bin && echo "grid 150x150 $t: device == openmp (bytes)" | tee -a "$log"
done
# The tunables at n = 10 000 (T_k from the JSON report).
for fam in "--generator grid" "--generator random --degree 20" "--generator geometric --degree 6"; do
  for wg in 64 256; do
    for delta in 50 200 800; do
      # shellcheck disable=SC2086
      tk=$("$B" $fam --n 10000 --algo sssp --device "$DEV" --param WG=$wg --param DELTA=$delta \
             --json --quiet | python3 -c "import json,sys; print(json.load(sys.stdin)['t_k'])" 2>&1)
      echo "tunables $fam WG=$wg DELTA=$delta T_k=$tk" | tee -a "$log"
    done
  done
done
[ "${2:-}" = QUICK ] && exit 0
run "$B" bench --generator random --degree 20 --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/random20_10k.csv"
run "$B" bench --generator grid --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/grid100.csv"
run timeout 150 "$B" bench --generator grid --sizes 100000 --algos sssp,auto --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/grid316.csv"
run timeout 150 "$B" bench --generator geometric --degree 6 --sizes 100000 --algos sssp --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/geo100k.csv"
run timeout 150 "$B" bench --generator random --degree 20 --sizes 100000 --algos sssp --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/random20_100k.csv"
