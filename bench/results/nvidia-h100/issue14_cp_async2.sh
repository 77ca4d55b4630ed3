#!/usr/bin/env bash
# Issue 14, fourth session, second call: the cp.async ring with 16-byte copies
# (B_QUADS: row panel; A_ROWS: column panel untransposed). Logs in $OUT.
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T=$(mktemp -d)
# name|build options|KC ("" = default)
VARS=(
  "base||"
  "cp2|-DSTAGES=2 -DNV_CP_ASYNC|16"
  "cp2q|-DSTAGES=2 -DNV_CP_ASYNC -DB_QUADS|16"
  "cp2aq|-DSTAGES=2 -DNV_CP_ASYNC -DB_QUADS -DA_ROWS|16"
  "cp3aq16|-DSTAGES=3 -DNV_CP_ASYNC -DB_QUADS -DA_ROWS|16"
  "cp3aq8|-DSTAGES=3 -DNV_CP_ASYNC -DB_QUADS -DA_ROWS|8"
  "cp4aq8|-DSTAGES=4 -DNV_CP_ASYNC -DB_QUADS -DA_ROWS|8"
)
echo "== compile, registers, outputs against the default build (n = 3001; n = 6000 out of core)"
for row in "${VARS[@]}"; do
  IFS='|' read -r v o k <<<"$row"
  p=(); [ -n "$k" ] && p=(--param KC=$k)
  for a in squaring fw; do
    OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$o -cl-nv-verbose" \
      $B --device nvidia --n 3001 --algo $a --no-tuned "${p[@]}" --output $T/$v.$a.bin > $T/log 2>&1
    echo "$v $a rc=$? $(grep -o 'Used [0-9]* registers[^\"]*' $T/log | sort | uniq -c | tr '\n' ';' | head -c 400)"
    grep -i "error" $T/log | head -3
    [ $v != base ] && { cmp -s $T/base.$a.bin $T/$v.$a.bin && echo "  $a output identical" || echo "  $a OUTPUT DIFFERS"; }
  done
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" $B --device nvidia --n 6000 --device-memory 60M --no-tuned "${p[@]}" --output $T/$v.ooc.bin > $T/log 2>&1
  echo "$v ooc rc=$? $(grep -E 'T_k' $T/log | tr '\n' ' ')"
  grep -i "error" $T/log | head -3
  [ $v != base ] && { cmp -s $T/base.ooc.bin $T/$v.ooc.bin && echo "  ooc output identical" || echo "  ooc OUTPUT DIFFERS"; }
done
echo "== timings: squaring n = 8192 (median of 3), fw n = 10 000 (median of 5), interleaved, twice"
for rep in 1 2; do
for row in "${VARS[@]}"; do
  IFS='|' read -r v o k <<<"$row"
  c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1 $c" | sed "s/^/$v /"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1 $c" | sed "s/^/$v /"
done
done
echo "== fw float32 n = 10 000, squaring n = 10 000"
for row in "${VARS[@]}"; do
  IFS='|' read -r v o k <<<"$row"
  c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1 $c" | sed "s/^/$v /"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 10000 squaring int32 3 "TILED=1 $c" | sed "s/^/$v /"
done
