#!/usr/bin/env bash
# Issue 14, fourth session: cp.async staging ring (STAGES, NV_CP_ASYNC) against the
# register prefetch. Run on the device tool from the repository root; logs in $OUT.
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T=$(mktemp -d)
declare -A V=(
  [base]=""
  [cp2]="-DSTAGES=2 -DNV_CP_ASYNC"
  [cp2q]="-DSTAGES=2 -DNV_CP_ASYNC -DB_QUADS"
  [cp3q8]="-DSTAGES=3 -DNV_CP_ASYNC -DB_QUADS"
  [cp4q8]="-DSTAGES=4 -DNV_CP_ASYNC -DB_QUADS"
)
kc() { case $1 in *q8) echo 8 ;; base) echo "" ;; *) echo 16 ;; esac; }
echo "== compile, registers, outputs against the default build (n = 3001, 2000 out of core)"
for v in base cp2 cp2q cp3q8 cp4q8; do
  k=$(kc $v); p=(); [ -n "$k" ] && p=(--param KC=$k)
  for a in squaring fw; do
    OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]} -cl-nv-verbose" \
      $B --device nvidia --n 3001 --algo $a --no-tuned "${p[@]}" --output $T/$v.$a.bin > $T/log 2>&1
    echo "$v $a rc=$? $(grep -o 'Used [0-9]* registers[^\"]*' $T/log | sort | uniq -c | tr '\n' ';' | head -c 400)"
    grep -i "error" $T/log | head -5
    [ $v != base ] && { cmp -s $T/base.$a.bin $T/$v.$a.bin && echo "  $a output identical" || echo "  $a OUTPUT DIFFERS"; }
  done
  OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]}" $B --device nvidia --n 6000 --device-memory 60M --no-tuned "${p[@]}" --output $T/$v.ooc.bin > $T/log 2>&1
  echo "$v ooc rc=$? $(grep -E 'placement|T_k' $T/log | tr '\n' ' ')"
  [ $v != base ] && { cmp -s $T/base.ooc.bin $T/$v.ooc.bin && echo "  ooc output identical" || echo "  ooc OUTPUT DIFFERS"; }
done
echo "== timings (median of runs; variants interleaved per size)"
for rep in 1 2; do
for v in base cp2 cp2q cp3q8 cp4q8; do
  k=$(kc $v); c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]}" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1 $c" | sed "s/^/$v /"
  fc="$c"; [ $v = base ] && fc="TILED=1"
  OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]}" bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1 ${c:-}" | sed "s/^/$v /"
done
done
echo "== base fw KC=16, float32"
bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1 KC=16" | sed "s/^/base /"
for v in base cp2 cp2q; do
  k=$(kc $v); c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]}" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1 $c" | sed "s/^/$v /"
  OCL_SP_EXTRA_BUILD_OPTIONS="${V[$v]}" bash bench/gpu_explore.sh $B nvidia 10000 squaring int32 3 "TILED=1 $c" | sed "s/^/$v /"
done
