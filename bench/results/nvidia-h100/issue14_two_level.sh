# Two-level fw (OUTER) on the H100: bit-exactness against OpenMP, then T_k per OUTER.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_two_level.sh $OUT
O=$1; B=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$B --device nvidia --n 2000 --json > /dev/null 2>&1   # first compile (cached afterwards)
echo "== bit-exact vs OpenMP (int32 / float32, n = 3001, 5003)"
for n in 3001 5003; do
  $B --backend openmp --n $n --output /tmp/ref$n.bin > /dev/null 2>&1
  $B --backend openmp --n $n --type float32 --output /tmp/reff$n.bin > /dev/null 2>&1
  for o in 1 2 4 8 16; do
    $B --device nvidia --n $n --param OUTER=$o --output /tmp/g.bin > /dev/null 2>&1; r1=$?
    $B --device nvidia --n $n --type float32 --param OUTER=$o --output /tmp/gf.bin > /dev/null 2>&1; r2=$?
    cmp -s /tmp/ref$n.bin /tmp/g.bin && a=identical || a=DIFFERENT
    cmp -s /tmp/reff$n.bin /tmp/gf.bin && b=identical || b=DIFFERENT
    echo "n=$n OUTER=$o int32 rc=$r1 $a, float32 rc=$r2 $b"
  done
done
echo "== T_k per OUTER"
bash bench/gpu_explore.sh $B nvidia 10000 fw int32 5 "OUTER=1" "OUTER=2" "OUTER=4" "OUTER=8" "OUTER=16"
bash bench/gpu_explore.sh $B nvidia 20000 fw int32 3 "OUTER=1" "OUTER=4" "OUTER=8" "OUTER=16"
bash bench/gpu_explore.sh $B nvidia 10000 fw float32 3 "OUTER=1" "OUTER=4" "OUTER=8"
