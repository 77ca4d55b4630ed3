# Two-level fw without a phase-1 kernel (round 0's close by the outer kernel):
# first compile, bit-exactness, KC and unroll variants. H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_two_level_2.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== first compile: empty ocl_sp and CUDA caches (T_o, s)"
for i in 1 2; do for a in fw squaring; do
  t=$(CUDA_CACHE_PATH=$(mktemp -d) OCL_SP_CACHE_DIR=$(mktemp -d) $N --device nvidia --n 5000 --algo $a --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])')
  echo "$a first T_o $t"
done; done
t=$(CUDA_CACHE_PATH=$(mktemp -d) OCL_SP_CACHE_DIR=$(mktemp -d) OCL_SP_EXTRA_BUILD_OPTIONS=-DKK_UNROLL=0 $N --device nvidia --n 5000 --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])')
echo "fw KK_UNROLL=0 first T_o $t"
$N --device nvidia --n 2000 --json > /dev/null 2>&1
t=$($N --device nvidia --n 5000 --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])'); echo "fw cached T_o $t"
echo "== bit-exact vs OpenMP"
for n in 3001 5003; do for ty in int32 float32; do
  $N --backend openmp --n $n --type $ty --output /tmp/ref.bin > /dev/null 2>&1
  for cfg in "" "--param OUTER=4" "--param OUTER=1" "--device-memory 60M" "--param OUTER=8 --param KC=16"; do
    $N --device nvidia --n $n --type $ty $cfg --output /tmp/g.bin > /tmp/g.txt 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT
    echo "n=$n $ty fw $cfg rc=$rc $r"
  done; done; done
echo "== T_k"
bash bench/gpu_explore.sh $N nvidia 10000 fw int32 5 "OUTER=8" "OUTER=8 KC=16" "OUTER=16 KC=16" "OUTER=1"
OCL_SP_EXTRA_BUILD_OPTIONS=-DKK_UNROLL=0 bash bench/gpu_explore.sh $N nvidia 10000 fw int32 5 "OUTER=8"
bash bench/gpu_explore.sh $N nvidia 20000 fw int32 3 "OUTER=8" "OUTER=16" "OUTER=8 KC=16"
