#!/usr/bin/env bash
# Issue 14, fourth session, last call: the row-operand loads as one helper
# (load_row) in both staging paths: registers and T_k unchanged? Device tool.
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in "fw int32" "fw float32" "squaring int32"; do set -- $a
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="-cl-nv-verbose" $B --device nvidia --n 600 --algo $1 --type $2 2>&1 | grep -o "Function properties for [a-z_0-9]*\|Used [0-9]* registers" | tr '\n' ' ' | sed 's/Function properties for //g'; echo " <- $a"
done
bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1" "STAGES=1 KC=32"
bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1"
bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1" "STAGES=1"
