# Staging in 16-byte quads with a swizzled column panel (new, build-gpu) against
# the previous staging (build-gpu-old, commit "fw: two-level order ..."), H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_swizzle_ab.sh $OUT
O=$1; N=build-gpu/ocl_sp; OLD=build-gpu-old/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== first compile, empty caches (T_o, s)"
for b in $OLD $N; do for a in fw squaring; do
  t=$(CUDA_CACHE_DISABLE=1 OCL_SP_CACHE_DIR=$(mktemp -d) $b --device nvidia --n 5000 --algo $a --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])')
  echo "$b $a first T_o $t"
done; done
for b in $OLD $N; do for a in fw squaring; do $b --device nvidia --n 2000 --algo $a --json > /dev/null 2>&1; done; done
for a in fw squaring; do
  t=$($N --device nvidia --n 5000 --algo $a --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])'); echo "new $a cached T_o $t"; done
echo "== bit-exact (new) vs OpenMP"
for n in 3001 5003; do for ty in int32 float32; do
  $N --backend openmp --n $n --type $ty --output /tmp/ref.bin > /dev/null 2>&1
  for cfg in "--algo squaring" "--algo fw" "--algo fw --param OUTER=4" "--algo fw --device-memory 60M"; do
    $N --device nvidia --n $n --type $ty $cfg --output /tmp/g.bin > /tmp/g.txt 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT
    echo "n=$n $ty $cfg rc=$rc $r $(grep -m1 placement /tmp/g.txt)"
  done; done; done
echo "== A/B timings (median; old then new)"
for b in $OLD $N; do echo "-- $b"
  bash bench/gpu_explore.sh $b nvidia 8192 squaring int32 5 "TILED=1"
  bash bench/gpu_explore.sh $b nvidia 10000 squaring int32 5 "TILED=1"
  bash bench/gpu_explore.sh $b nvidia 10000 fw int32 5 "OUTER=8"
done
for b in $OLD $N; do echo "-- $b"
  bash bench/gpu_explore.sh $b nvidia 20000 fw int32 3 "OUTER=8"
  bash bench/gpu_explore.sh $b nvidia 10000 fw float32 3 "OUTER=8"
done
