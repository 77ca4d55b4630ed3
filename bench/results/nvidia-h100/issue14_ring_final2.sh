#!/usr/bin/env bash
# Issue 14, fourth session, sixth call: the ring's A_VEC loop never unrolled
# further (product 125 registers), checked on the GPU; the inline-asm spelling and
# A_VEC for float32; final bench figures; out of core. Device tool, repo root:
#   bash bench/issue14_ring_final2.sh $OUT
set -u
O=$1; B=build-gpu/ocl_sp
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
export OCL_SP_KERNEL_DIR=$PWD/kernels OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== --verify on the GPU"
for args in "--n 3001 --negative" "--n 5003 --type float32" "--n 3001 --algo squaring --negative" \
            "--n 5003 --algo squaring" "--n 6000 --device-memory 60M --negative" "--n 6000 --device-memory 60M --type float32" \
            "--n 3001 --panel 1024" "--n 3001 --algo squaring --panel 1024" "--n 1" "--n 129 --density 0.01"; do
  out=$($B --device nvidia $args --verify 2>&1); rc=$?
  echo "[$args] rc=$rc $(echo "$out" | grep -E "params|verify|placement" | tr -s ' ' | tr '\n' ' ')"
done
for a in fw squaring; do
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="-cl-nv-verbose" $B --device nvidia --n 600 --algo $a 2>&1 | grep -o "Used [0-9]* registers" | sort | uniq -c | tr '\n' ' '; echo " <- $a"
done
echo "== float32 fw: asm spelling, A_VEC (median of 5, twice)"
for rep in 1 2; do for x in "" "-DCP_ASM_PLAIN" "-DA_VEC=4"; do
  OCL_SP_EXTRA_BUILD_OPTIONS="$x" bash bench/gpu_explore.sh $B nvidia 10000 fw float32 5 "TILED=1" | sed "s/^/[$x] /"
done; done
echo "== ocl_sp bench (median of 5)"
for a in fw squaring; do $B --device nvidia --n 2000 --algo $a > /dev/null 2>&1; done
$B bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned --quiet --csv $O/bench_fw_int32.csv | grep "^\["
$B bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 5 --no-tuned --quiet --csv $O/bench_squaring_int32.csv | grep "^\["
echo "== out of core n = 40 000 (--device-memory 1600M), twice"
for r in 1 2; do $B --device nvidia --n 40000 --device-memory 1600M --json > $O/ooc_$r.json 2>/dev/null; python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print("T_k %.3f s" % r["t_k"], " ".join("%s=%.2fs" % kv for kv in r.get("kernel_seconds", {}).items()))' $O/ooc_$r.json; done
