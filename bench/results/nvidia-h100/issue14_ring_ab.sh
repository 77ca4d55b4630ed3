#!/usr/bin/env bash
# Issue 14, fourth session, fifth call: issue order of the ring's copies (A and B
# interleaved / ISSUE_SPLIT) and its unrolling (RING_UNROLL), fw int32/float32 and
# squaring; medians, interleaved twice. Device tool, repo root; logs in $OUT.
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for x in "" "-DISSUE_SPLIT" "-DRING_UNROLL=2" "-DRING_UNROLL=2 -DISSUE_SPLIT"; do
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$x -cl-nv-verbose" $B --device nvidia --n 600 2>&1 | grep -o "Used [0-9]* registers" | sort | uniq -c | tr '\n' ' '; echo " <- fw [$x]"
done
for x in "" "-DRING_UNROLL=1" "-DRING_UNROLL=2" "-DRING_UNROLL=4" "-DISSUE_SPLIT"; do
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$x -cl-nv-verbose" $B --device nvidia --n 600 --algo squaring 2>&1 | grep -o "Used [0-9]* registers" | sort | uniq -c | tr '\n' ' '; echo " <- squaring [$x]"
done
for rep in 1 2; do
  for x in "" "-DISSUE_SPLIT" "-DRING_UNROLL=2" "-DRING_UNROLL=2 -DISSUE_SPLIT"; do
    OCL_SP_EXTRA_BUILD_OPTIONS="$x" bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1" | sed "s/^/[$x] /"
    OCL_SP_EXTRA_BUILD_OPTIONS="$x" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1" | sed "s/^/[$x] /"
  done
  for x in "" "-DRING_UNROLL=1" "-DRING_UNROLL=2" "-DRING_UNROLL=4" "-DISSUE_SPLIT"; do
    OCL_SP_EXTRA_BUILD_OPTIONS="$x" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1" | sed "s/^/[$x] /"
  done
done
