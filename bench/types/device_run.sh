#!/usr/bin/env bash
# float64 and int64 on a GPU machine, one driver (results: bench/results/<device>/types/,
# docs/performance/dense.md "float64 and int64"):
#   floor  the (min,+) floor loop (bench/floor) in int32, float32, int64, float64
#          with 8 x 8 and 4 x 4 register tiles;
#   sweep  fw at n = 10 000 over register-tile shapes for int64 and float64 (the
#          sweep stores the best per type in the tuning file the bench then uses);
#   bench  fw n = 10 000 in the four types (medians of 5, tuned parameters);
#   sparse sssp float32 against float64 on grid 316 x 316 and random degree 20.
# Run from the repository root with ocl_sp and ocl_sp_floor in build-gpu/ (device
# tool: carry build-gpu); results under $OUT.  Usage: bench/types/device_run.sh STEP...
set -uo pipefail
DEV=${DEVICE:-nvidia}
B=build-gpu/ocl_sp
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache

floor() {
  for t in int32 float32 int64 float64; do
    for tile in 8 4; do
      block=128
      [ "$t" = int64 ] || [ "$t" = float64 ] && block=64  # 2 x 32 x 128 x 8 B > 48 KiB
      timeout 60 build-gpu/ocl_sp_floor --platform NVIDIA --type "$t" --tile "$tile" \
        --block "$block" --root .
    done
  done 2>&1 | tee "$OUT/floor.txt"
}

sweep() {
  for t in int64 float64; do
    timeout 170 "$B" sweep --n 10000 --algos fw --families tiled --device "$DEV" --type "$t" \
      --block 64,128 --param TM=4,8 --param TN=4,8 --param KC=16 --param STAGES=1,2 \
      --reps 2 --warmup 1 --time-limit 30 --quiet --csv "$OUT/sweep_fw_$t.csv" 2>&1 |
      tail -25 | tee "$OUT/sweep_fw_$t.txt"
  done
}

bench() {
  for t in ${TYPES:-int32 float32 int64 float64}; do
    timeout 75 "$B" bench --sizes 10000 --algos fw --devices "$DEV" --type "$t" --reps 5 \
      --quiet --csv "$OUT/fw10k_$t.csv" 2>&1 | tail -4
  done
}

sparse() {
  for t in float32 float64; do
    timeout 100 "$B" bench --generator grid --sizes 100000 --algos sssp --devices "$DEV" --type "$t" \
      --reps 3 --warmup 1 --time-limit 400 --quiet --csv "$OUT/sssp_grid316_$t.csv" 2>&1 | tail -3
    timeout 60 "$B" bench --generator random --degree 20 --sizes 10000 --algos sssp --devices "$DEV" \
      --type "$t" --reps 5 --quiet --csv "$OUT/sssp_random20_10k_$t.csv" 2>&1 | tail -3
  done
}

# Issue 24's row targets: 1 000 source rows of the 1000 x 1000 grid to a file, and
# n = 70 000 (random, degree 20: 19.6 GB of int32 rows) streamed under
# --host-memory 8G, its bytes against fw's.
timed() {  # GNU time's report where the image has it
  if [ -x /usr/bin/time ]; then /usr/bin/time -v "$@"; else "$@"; fi
}
rows() {
  local t0 t1
  t0=$(date +%s.%N)
  timed "$B" --generator grid --n 1000000 --algo sssp --sources 0-999 --device "$DEV" \
    --output /tmp/grid_rows.bin --json >"$OUT/rows_grid.json" 2>"$OUT/rows_grid.time"
  t1=$(date +%s.%N)
  echo "grid 1000x1000, 1000 rows to a file: exit $? wall $(python3 -c "print(round($t1 - $t0, 2))") s," \
    "$(stat -c %s /tmp/grid_rows.bin) bytes; $(grep -E 'Maximum resident' "$OUT/rows_grid.time")"
  rm -f /tmp/grid_rows.bin
  timed timeout 200 "$B" --generator random --degree 20 --n 70000 --algo sssp \
    --device "$DEV" --host-memory 8G --output /tmp/r70k_sssp.bin --json >"$OUT/r70k_sssp.json" \
    2>"$OUT/r70k_sssp.time"
  echo "n=70000 sssp --host-memory 8G: exit $?; $(grep -E 'Maximum resident|Elapsed' "$OUT/r70k_sssp.time" | tr '\n' ' ')"
  timed timeout 200 "$B" --generator random --degree 20 --n 70000 --algo fw \
    --device "$DEV" --output /tmp/r70k_fw.bin --json >"$OUT/r70k_fw.json" 2>"$OUT/r70k_fw.time"
  echo "n=70000 fw: exit $?; $(grep -E 'Maximum resident|Elapsed' "$OUT/r70k_fw.time" | tr '\n' ' ')"
  ls -l /tmp/r70k_*.bin
  cmp /tmp/r70k_sssp.bin /tmp/r70k_fw.bin && echo "n=70000: sssp streamed bytes == fw bytes"
  rm -f /tmp/r70k_*.bin
}

"$B" --n 300 --algo fw --device "$DEV" --quiet >/dev/null  # first compile outside the timings
for step in "$@"; do "$step"; done
