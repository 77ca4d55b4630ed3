#!/bin/bash
# issue 14, device run 2: unroll variants (first compile, T_k), final bench old vs new, whole process.
set -u
B=build-gpu14; O=$OUT; NEW=$B/ocl_sp; BASE=$B/ocl_sp_base
TIMEFORMAT=%R
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt 2>&1
export CUDA_CACHE_PATH=$(mktemp -d)
V=$O/unroll_variants.txt
for v in default old kk4t0auto kk8 kk2; do
  case $v in default) X="";; old) X="-DKK_UNROLL=0 -DCLOSE_T0_UNROLL";; kk4t0auto) X="-DCLOSE_T0_UNROLL";; kk8) X="-DKK_UNROLL=8";; kk2) X="-DKK_UNROLL=2";; esac
  C=$(mktemp -d); N=$(mktemp -d)
  export OCL_SP_EXTRA_BUILD_OPTIONS="$X"
  {
  echo "== variant $v ($X)"
  echo "-- empty caches (ocl_sp + CUDA JIT)"; { time OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N $NEW --device nvidia --n 5000; } 2>&1 | grep -v "^  \(graph\|params\|rate\|placement\|verify\)"
  echo "-- cached"; OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N $NEW --device nvidia --n 5000 2>&1 | grep "T_o"
  echo "-- bench fw n=10000"; OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N timeout 60 $NEW bench --devices nvidia --sizes 10000 --algos fw --reps 5 --no-tuned 2>&1 | grep "^\["
  } >> $V 2>&1
done
unset OCL_SP_EXTRA_BUILD_OPTIONS
export OCL_SP_CACHE_DIR=$(mktemp -d)
for b in BASE NEW; do
  bin=${!b}
  timeout 120 $bin bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned > $O/bench_fw_$b.txt 2>&1
  timeout 60 $bin bench --devices nvidia --sizes 10000 --algos squaring --reps 5 --no-tuned > $O/bench_sq_$b.txt 2>&1
done
W=$O/whole_process.txt
{
echo "== warm-up"; $BASE --device nvidia --n 10000 >/dev/null 2>&1; $NEW --device nvidia --n 10000 > /dev/null 2>&1
for b in BASE NEW; do
  bin=${!b}
  echo "== $b: ocl_sp --device nvidia --n 10000, 5 runs, wall s"
  for r in 1 2 3 4 5; do { time $bin --device nvidia --n 10000 > $O/last_$b.txt 2>&1; } 2>&1; done
done
echo "== NEW OCL_SP_EXIT_KEEP=1 (solver not destroyed), 5 runs"
for r in 1 2 3 4 5; do { time OCL_SP_EXIT_KEEP=1 $NEW --device nvidia --n 10000 > /dev/null 2>&1; } 2>&1; done
echo "== NEW OCL_SP_STAGING=0, 5 runs"
for r in 1 2 3 4 5; do { time OCL_SP_STAGING=0 $NEW --device nvidia --n 10000 > /dev/null 2>&1; } 2>&1; done
echo "== NEW profile x2"; for r in 1 2; do OCL_SP_PROFILE=1 $NEW --device nvidia --n 10000 2>&1; done
echo "== NEW --n 5000, 5 runs"; for r in 1 2 3 4 5; do { time $NEW --device nvidia --n 5000 > /dev/null 2>&1; } 2>&1; done
echo "== BASE --n 5000, 5 runs"; for r in 1 2 3 4 5; do { time $BASE --device nvidia --n 5000 > /dev/null 2>&1; } 2>&1; done
echo "== verify"; for n in 3001 4096; do $NEW --device nvidia --n $n --verify 2>&1 | grep -i "verify\|error"; $NEW --device nvidia --n $n --algo squaring --verify 2>&1 | grep -i "verify\|error"; done
$NEW --device nvidia --n 3001 --type float32 --verify 2>&1 | grep -i "verify\|error"
} >> $W 2>&1
