#!/usr/bin/env bash
# Issue 14, fourth session, eighth call (forms 3, 4: the strided loops without a pragma, with unroll 1): float32 fw 100 ms now against 94 ms in
# the third call's variant: the form of the ring's copy loop (ISSUE_FORM 0 =
# unrolled QPT loop, 1 = not unrolled, 2 = the third call's two strided loops).
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for f in 2 3 4; do for ty in int32 float32; do
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="-DISSUE_FORM=$f -cl-nv-verbose" $B --device nvidia --n 600 --type $ty 2>&1 | grep -o "Function properties for [a-z_0-9]*\|Used [0-9]* registers" | tr '\n' ' ' | sed 's/Function properties for //g'; echo " <- fw $ty form $f"
done; done
for rep in 1 2; do for f in 1 2 3 4; do
  OCL_SP_EXTRA_BUILD_OPTIONS="-DISSUE_FORM=$f" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1" | sed "s/^/[form $f] /"
  OCL_SP_EXTRA_BUILD_OPTIONS="-DISSUE_FORM=$f" bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1" | sed "s/^/[form $f] /"
  OCL_SP_EXTRA_BUILD_OPTIONS="-DISSUE_FORM=$f" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1" | sed "s/^/[form $f] /"
done; done
