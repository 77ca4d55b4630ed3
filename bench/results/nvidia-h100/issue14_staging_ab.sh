# Staging in quads, 16 rows x 2 quads per warp, padded column panel (new: build-gpu)
# against the two-level commit's staging (build-gpu-old); first-compile T_o of the
# base before the two-level order (build-gpu-base, 85f59b5), old and new. H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_staging_ab.sh $OUT
O=$1; N=build-gpu/ocl_sp; OLD=build-gpu-old/ocl_sp; BASE=build-gpu-base/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
echo "== first compile: empty ocl_sp and CUDA caches (T_o, s), twice each"
for i in 1 2; do for b in $BASE $OLD $N; do for a in fw squaring; do
  t=$(CUDA_CACHE_PATH=$(mktemp -d) OCL_SP_CACHE_DIR=$(mktemp -d) $b --device nvidia --n 5000 --algo $a --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["t_o"])')
  echo "$b $a first T_o $t"
done; done; done
for b in $OLD $N; do for a in fw squaring; do $b --device nvidia --n 2000 --algo $a --json > /dev/null 2>&1; done; done
echo "== bit-exact (new) vs OpenMP"
for n in 3001 5003; do for ty in int32 float32; do
  $N --backend openmp --n $n --type $ty --output /tmp/ref.bin > /dev/null 2>&1
  for cfg in "--algo squaring" "--algo fw" "--algo fw --param OUTER=4" "--algo fw --device-memory 60M"; do
    $N --device nvidia --n $n --type $ty $cfg --output /tmp/g.bin > /tmp/g.txt 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT
    echo "n=$n $ty $cfg rc=$rc $r"
  done; done; done
echo "== A/B timings (median; old, new, old, new)"
for b in $OLD $N $OLD $N; do echo "-- $b"
  bash bench/gpu_explore.sh $b nvidia 8192 squaring int32 3 "TILED=1"
  bash bench/gpu_explore.sh $b nvidia 10000 fw int32 3 "OUTER=8"
done
for b in $OLD $N; do echo "-- $b"
  bash bench/gpu_explore.sh $b nvidia 10000 squaring int32 3 "TILED=1"
  bash bench/gpu_explore.sh $b nvidia 20000 fw int32 3 "OUTER=8"
done
