#!/usr/bin/env bash
# The H200 measurement run behind bench/results/nvidia-h200/ (see bench/README.md):
# kernel variants, fw sweep, the default bench, the cost of --paths, --verify runs
# and the OpenCL unit tests on the GPU. Usage: h200_run.sh OCL_SP OCL_SP_TESTS OUTDIR
set -uo pipefail
bin=$1 tests=$2 out=$3
here=$(dirname "$0")
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/ocl_sp_cache}
mkdir -p "$OCL_SP_CACHE_DIR" "$out"
{
  "$here/gpu_explore.sh" "$bin" nvidia 10000 fw int32 3 "TILED=1 BLOCK=64 TM=8 TN=8 KC=32" \
    "TILED=1 BLOCK=64 TM=4 TN=8 KC=16" "TILED=1 BLOCK=128 TM=8 TN=8 KC=32"
  "$here/gpu_explore.sh" "$bin" nvidia 10000 fw float32 3 "TILED=1 BLOCK=64 TM=8 TN=8 KC=32"
  "$here/gpu_explore.sh" "$bin" nvidia 20000 fw int32 2 "TILED=1 BLOCK=128 TM=8 TN=8 KC=32" \
    "TILED=1 BLOCK=64 TM=8 TN=8 KC=32"
} >"$out/explore5.txt" 2>&1
"$bin" sweep --device nvidia --n 5000 --algos fw --reps 3 --quiet --json "$out/sweep_fw.json" \
  >"$out/sweep_fw.txt" 2>&1
"$bin" bench --devices nvidia,pocl,openmp,serial --reps 3 --time-limit 20 \
  --json "$out/bench.json" --csv "$out/bench.csv" >"$out/bench.txt" 2>&1
{
  "$bin" bench --devices nvidia --sizes 1000,5000,10000 --algos fw,squaring --reps 3 --paths
  for a in fw squaring fw-naive; do for t in int32 float32; do
    echo "== $a $t n=1000 --paths --verify"
    "$bin" --device nvidia --n 1000 --negative --algo "$a" --type "$t" --paths --verify \
      --query 0 999 | grep -E "params|T_k|verify|path"
  done; done
  OCL_SP_TEST_DEVICE=nvidia timeout 200 "$tests" -ts=opencl_solvers,paths 2>&1 | tail -3
} >"$out/paths_and_tests.txt" 2>&1
cp "$OCL_SP_CACHE_DIR/tuning.txt" "$out/tuning.txt" 2>/dev/null
