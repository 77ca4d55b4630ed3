# fw phase 3 split over two queues (part 1 + next phase 2 beside part 2) against
# one queue (OCL_SP_FW_ONE_QUEUE=1), H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_two_queues.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$N --device nvidia --n 2000 > /dev/null 2>&1
echo "== bit-exact vs OpenMP"
for n in 3001 5003; do for ty in int32 float32; do
  $N --backend openmp --n $n --type $ty --output /tmp/ref.bin > /dev/null 2>&1
  for cfg in "" "--param OUTER=1" "--param OUTER=4" "--device-memory 60M"; do
    $N --device nvidia --n $n --type $ty $cfg --output /tmp/g.bin > /tmp/g.txt 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT
    echo "n=$n $ty fw $cfg rc=$rc $r"
  done; done; done
echo "== T_k: one queue, two queues"
for q in 1 0; do echo "-- OCL_SP_FW_ONE_QUEUE=$q"
  OCL_SP_FW_ONE_QUEUE=$q bash bench/gpu_explore.sh $N nvidia 10000 fw int32 5 "OUTER=8" "OUTER=4" "OUTER=16" "OUTER=1"
  OCL_SP_FW_ONE_QUEUE=$q bash bench/gpu_explore.sh $N nvidia 20000 fw int32 3 "OUTER=8" "OUTER=16"
  OCL_SP_FW_ONE_QUEUE=$q bash bench/gpu_explore.sh $N nvidia 10000 fw float32 3 "OUTER=8"
done
