#!/usr/bin/env bash
# Issue 14, fourth session, tenth call: first-run compile (empty ocl_sp and CUDA
# caches) of the fw program with the ring's copies in one unrolled loop
# (COPY_LOOPS=1) or two strided loops (COPY_LOOPS=2), int32 and float32,
# interleaved, 3 each; then T_k of each (median of 5).
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for r in 1 2 3; do for ty in int32 float32; do for f in 1 2; do
  C=$(mktemp -d); J=$(mktemp -d)
  echo "[COPY_LOOPS=$f $ty run $r] $(OCL_SP_EXTRA_BUILD_OPTIONS="-DCOPY_LOOPS=$f" OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$J $B --device nvidia --n 5000 --type $ty 2>&1 | grep -E "T_o" | tr -s ' ')"
done; done; done
export OCL_SP_CACHE_DIR=$(mktemp -d)
for f in 1 2; do for ty in int32 float32; do
  OCL_SP_EXTRA_BUILD_OPTIONS="-DCOPY_LOOPS=$f" bash bench/gpu_explore.sh $B nvidia 10000 fw $ty 5 "TILED=1" | sed "s/^/[COPY_LOOPS=$f] /"
done; done
