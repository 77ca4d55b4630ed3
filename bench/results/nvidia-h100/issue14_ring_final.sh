#!/usr/bin/env bash
# Issue 14, fourth session: the cp.async ring as NVIDIA's default (STAGES=2, KC=16):
# correctness on the GPU against the CPU, the product's epilogue A/B, final bench
# figures, first-run compile, whole process, out of core. Device tool, repo root:
#   bash bench/results/nvidia-h100/issue14_ring_final.sh $OUT
set -u
O=$1; B=build-gpu/ocl_sp
echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
export OCL_SP_CACHE_DIR=$(mktemp -d)
echo "== defaults and --verify on the GPU (reference: OpenMP fw for n > 3000, serial below)"
for args in "--n 3001 --negative" "--n 5003" "--n 3001 --type float32" "--n 3001 --algo squaring --negative" \
            "--n 5003 --algo squaring --type float32" "--n 6000 --device-memory 60M" \
            "--n 3001 --panel 1024 --negative" "--n 3001 --param STAGES=1 --param KC=32" \
            "--n 3001 --param STAGES=3 --param KC=8" "--n 3001 --param OUTER=1" "--n 1" "--n 129 --density 0.01"; do
  out=$($B --device nvidia $args --verify 2>&1); rc=$?
  echo "[$args] rc=$rc $(echo "$out" | grep -E "params|verify|placement" | tr -s ' ' | tr '\n' ' ')"
done
echo "== product epilogue A/B (squaring n = 8192, median of 3, interleaved)"
for x in "" "-DPRODUCT_OLD_EPILOGUE"; do
  OCL_SP_SHOW_BUILD_LOG=1 OCL_SP_EXTRA_BUILD_OPTIONS="$x -cl-nv-verbose" $B --device nvidia --n 600 --algo squaring 2>&1 | grep -o "Used [0-9]* registers" | sort | uniq -c | tr '\n' ' '; echo " <- [$x]"
done
for rep in 1 2; do for x in "" "-DPRODUCT_OLD_EPILOGUE"; do
  OCL_SP_EXTRA_BUILD_OPTIONS="$x" bash bench/gpu_explore.sh $B nvidia 8192 squaring int32 3 "TILED=1" | sed "s/^/[$x] /"
done; done
echo "== the one-buffer staging in the same call (STAGES=1 KC=32 as before), fw n = 10 000"
bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "STAGES=1 KC=32" "TILED=1"
echo "== ocl_sp bench (median of 5)"
for a in fw squaring; do $B --device nvidia --n 2000 --algo $a > /dev/null 2>&1; done
$B bench --devices nvidia --sizes 5000,10000,20000 --algos fw --reps 5 --no-tuned --quiet --csv $O/bench_fw_int32.csv
$B bench --devices nvidia --sizes 10000 --algos fw --type float32 --reps 5 --no-tuned --quiet --csv $O/bench_fw_float32.csv
$B bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 5 --no-tuned --quiet --csv $O/bench_squaring_int32.csv
echo "== first run (empty ocl_sp and CUDA caches) x3, then cached, fw n = 5000"
for r in 1 2 3; do
  C=$(mktemp -d); J=$(mktemp -d)
  OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$J $B --device nvidia --n 5000 2>&1 | grep -E "T_o|note" | tr -s ' ' | tr '\n' ' '; echo
  OCL_SP_CACHE_DIR=$C CUDA_CACHE_PATH=$J $B --device nvidia --n 5000 2>&1 | grep -E "T_o" | tr -s ' '
done
echo "== whole process"
bash bench/whole_process.sh $B nvidia 10000 5 2>/dev/null
echo "== out of core n = 40 000 (--device-memory 1600M)"
$B --device nvidia --n 40000 --device-memory 1600M 2>&1 | grep -E "params|T_k|total|placement"
