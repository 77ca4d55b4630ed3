#!/usr/bin/env bash
# The H200 measurement run behind bench/results/nvidia-h200/fw/bench-paper-sizes/ (see bench/README.md):
# fw / squaring target figures, the default bench (H200 against PoCL, OpenMP and
# serial on the host's CPU), the sweep at n = 5000, --verify runs, the OpenCL unit
# tests on the GPU. Usage: h200_run.sh OCL_SP OCL_SP_TESTS OUTDIR
set -uo pipefail
bin=$1 tests=$2 out=$3
here=$(dirname "$0")
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/ocl_sp_cache}
mkdir -p "$OCL_SP_CACHE_DIR" "$out"
{
  # The GPU-speed targets, through ocl_sp bench (median of 5).
  "$bin" bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned --quiet
  "$bin" bench --devices nvidia --sizes 10000 --algos fw,squaring --type float32 --reps 5 --no-tuned --quiet
  "$bin" bench --devices nvidia --sizes 10000 --algos squaring --reps 5 --no-tuned --quiet
  "$bin" bench --devices pocl,openmp --sizes 2000 --algos fw --reps 5 --no-tuned --quiet
  for r in 1 2 3; do /usr/bin/time -f "whole process ocl_sp --device nvidia --n 10000: %e s" \
    "$bin" --device nvidia --n 10000 --no-tuned >/dev/null; done
  # Cost of closing a 256 x 256 pivot block with 128 x 128 tiles (K = 2 fusion).
  "$here/gpu_explore.sh" "$bin" nvidia 256 fw int32 5 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32"
  "$here/gpu_explore.sh" "$bin" nvidia 10000 fw int32 5 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32"
  "$here/gpu_explore.sh" "$bin" nvidia 20000 fw int32 3 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32"
} >"$out/targets.txt" 2>&1
OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS=-cl-nv-verbose "$bin" --device nvidia --n 300 \
  --no-tuned >"$out/ptxas_registers.txt" 2>&1
"$bin" sweep --device nvidia --n 5000 --reps 3 --quiet --json "$out/sweep_n5000.json" \
  --csv "$out/sweep_n5000.csv" >"$out/sweep_n5000.txt" 2>&1
"$bin" bench --devices nvidia,pocl,openmp,serial --reps 3 --time-limit 20 --no-tuned \
  --json "$out/bench.json" --csv "$out/bench.csv" >"$out/bench.txt" 2>"$out/bench_progress.txt"
{
  for a in fw squaring fw-naive; do for t in int32 float32; do for n in 1000 5000; do
    echo "== $a $t n=$n --negative --verify: $("$bin" --device nvidia --n $n --negative --algo "$a" \
      --type "$t" --verify --no-tuned 2>&1 | grep -E "verify")"
  done; done; done
  OCL_SP_TEST_DEVICE=nvidia timeout 250 "$tests" -ts=opencl_solvers 2>&1 | tail -3
} >"$out/verify.txt" 2>&1
cp "$OCL_SP_CACHE_DIR/tuning.txt" "$out/tuning.txt" 2>/dev/null
