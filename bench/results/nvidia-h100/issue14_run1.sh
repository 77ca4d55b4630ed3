#!/bin/bash
# issue 14, device run 1: first-run compile per unroll variant, whole process old vs new.
set -u
B=build-gpu14; O=$OUT; NEW=$B/ocl_sp; BASE=$B/ocl_sp_base
TIMEFORMAT=%R
nvidia-smi --query-gpu=name,driver_version --format=csv > $O/device.txt 2>&1
nproc >> $O/device.txt
export CUDA_CACHE_PATH=$(mktemp -d)
V=$O/first_run_variants.txt
for v in full kk8 kk4 sel kk8sel; do
  case $v in full) X="";; kk8) X="-DKK_UNROLL=8";; kk4) X="-DKK_UNROLL=4";; sel) X="-DCLOSE_SELECT";; kk8sel) X="-DKK_UNROLL=8 -DCLOSE_SELECT";; esac
  C=$(mktemp -d); N=$(mktemp -d)
  export OCL_SP_EXTRA_BUILD_OPTIONS="$X"
  {
  echo "== variant $v ($X)"
  echo "-- 1 empty caches (ocl_sp + CUDA JIT)"; { time OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N OCL_SP_PROFILE=1 $NEW --device nvidia --n 5000 --json; } 2>&1
  echo "-- 2 ocl_sp cache warm, CUDA JIT cache empty"; { time OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$(mktemp -d) OCL_SP_PROFILE=1 $NEW --device nvidia --n 5000 --json; } 2>&1
  for r in 3 4 5; do echo "-- $r both warm"; { time OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N $NEW --device nvidia --n 5000 --json; } 2>&1; done
  echo "-- bench n=10000"; OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$N timeout 60 $NEW bench --devices nvidia --sizes 10000 --algos fw --reps 5 --no-tuned --quiet 2>&1
  } >> $V 2>&1
done
unset OCL_SP_EXTRA_BUILD_OPTIONS
W=$O/whole_process.txt
export OCL_SP_CACHE_DIR=$(mktemp -d)
{
echo "== warm-up runs (fill caches)"; $BASE --device nvidia --n 10000 >/dev/null 2>&1; $NEW --device nvidia --n 10000 > /dev/null 2>&1
for b in BASE NEW; do
  bin=${!b}
  echo "== $b: ocl_sp --device nvidia --n 10000, 5 runs, wall s"
  for r in 1 2 3 4 5; do { time $bin --device nvidia --n 10000 > $O/last_$b.txt 2>&1; } 2>&1; done
  cat $O/last_$b.txt
done
echo "== NEW with OCL_SP_STAGING=0, 5 runs"
for r in 1 2 3 4 5; do { time OCL_SP_STAGING=0 $NEW --device nvidia --n 10000 > /dev/null 2>&1; } 2>&1; done
echo "== NEW profile x2"; OCL_SP_PROFILE=1 $NEW --device nvidia --n 10000 2>&1; OCL_SP_PROFILE=1 $NEW --device nvidia --n 10000 --json 2>&1
echo "== NEW profile, staging off"; OCL_SP_STAGING=0 OCL_SP_PROFILE=1 $NEW --device nvidia --n 10000 2>&1 | grep -i "profile\|T_h\|total"
echo "== devices (base) x3"; for r in 1 2 3; do { time $BASE devices > /dev/null 2>&1; } 2>&1; done
echo "== verify n=3000 with staging (n not a multiple of 128)"; $NEW --device nvidia --n 3001 --verify 2>&1 | grep -i "verify\|error"
echo "== verify n=4096"; $NEW --device nvidia --n 4096 --verify 2>&1 | grep -i "verify\|error"
} >> $W 2>&1
