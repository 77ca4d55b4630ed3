#!/usr/bin/env bash
# Issue 14, fourth session, third call: registers of the cp.async ring (A_VEC,
# -cl-nv-maxrregcount, unrolling), n = 20 000 and out of core. Logs in $OUT.
set -u
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
B=build-gpu/ocl_sp
export OCL_SP_KERNEL_DIR=$PWD/kernels
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
T=$(mktemp -d)
AQ="-DSTAGES=2 -DNV_CP_ASYNC -DB_QUADS -DA_ROWS"
VARS=(
  "base||"
  "aq|$AQ|16"
  "aq-r128|$AQ -cl-nv-maxrregcount=128|16"
  "aq2|$AQ -DA_VEC=2|16"
  "aq2-r128|$AQ -DA_VEC=2 -cl-nv-maxrregcount=128|16"
  "aq-kk4|$AQ -DKK_UNROLL=4|16"
  "aq-kk0|$AQ -DKK_UNROLL=0|16"
)
echo "== compile, registers, outputs against the default build (n = 3001)"
for row in "${VARS[@]}"; do
  IFS='|' read -r v o k <<<"$row"
  p=(); [ -n "$k" ] && p=(--param KC=$k)
  for a in squaring fw; do
    OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$o -cl-nv-verbose" \
      $B --device nvidia --n 3001 --algo $a --no-tuned "${p[@]}" --output $T/$v.$a.bin > $T/log 2>&1
    echo "$v $a rc=$? $(grep -E 'T_o' $T/log | tr -s ' ') $(grep -o 'Function properties for [a-z_0-9]*\|Used [0-9]* registers' $T/log | tr '\n' ' ' | sed 's/Function properties for //g' | head -c 600)"
    grep -i "error" $T/log | head -3
    [ $v != base ] && { cmp -s $T/base.$a.bin $T/$v.$a.bin && echo "  $a output identical" || echo "  $a OUTPUT DIFFERS"; }
  done
done
echo "== timings: fw n = 10 000 int32 (median of 5), squaring n = 8192 (3), fw float32 (3)"
for rep in 1 2; do
for row in "${VARS[@]}"; do
  IFS='|' read -r v o k <<<"$row"
  c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "TILED=1 $c" | sed "s/^/$v /"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1 $c" | sed "s/^/$v /"
  [ $rep = 1 ] && OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 3 "TILED=1 $c" | sed "s/^/$v /"
done
done
echo "== fw n = 20 000 (median of 3), out of core n = 40 000 (--device-memory 1600M)"
for row in "${VARS[@]:0:2}"; do
  IFS='|' read -r v o k <<<"$row"
  c=""; [ -n "$k" ] && c="KC=$k"
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" bash bench/gpu_explore.sh $B nvidia 20000 fw int32 3 "TILED=1 $c" | sed "s/^/$v /"
done
for row in "${VARS[@]:0:2}"; do
  IFS='|' read -r v o k <<<"$row"
  p=(); [ -n "$k" ] && p=(--param KC=$k)
  OCL_SP_EXTRA_BUILD_OPTIONS="$o" OCL_SP_PROFILE=0 $B --device nvidia --n 40000 --device-memory 1600M --no-tuned "${p[@]}" --json > $T/ooc.json 2>$T/err
  echo "$v ooc n=40000 rc=$? $(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("T_k %.3f s  solve %.3f s  %s" % (r["t_k"], r.get("solve", r.get("wall", 0)), " ".join("%s=%.2fs" % (k, v) for k, v in r.get("kernel_seconds", {}).items())))' $T/ooc.json) $(tail -1 $T/err)"
done
