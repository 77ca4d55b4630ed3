# Staging units: scalar (default) against 16-byte quads for the column panel
# (QUAD_A), the row panel (QUAD_B) or both; no swizzle, rows padded by 4. H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_quads.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
$N --backend openmp --n 3001 --output /tmp/ref.bin > /dev/null 2>&1
for v in "" "-DQUAD_A" "-DQUAD_B" "-DQUAD_A -DQUAD_B"; do
  export OCL_SP_EXTRA_BUILD_OPTIONS="$v"
  echo "-- variant '$v'"
  for a in fw squaring; do
    $N --device nvidia --n 3001 --algo $a --output /tmp/g.bin > /dev/null 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT; echo "n=3001 $a rc=$rc $r"
  done
  bash bench/gpu_explore.sh $N nvidia 8192 squaring int32 3 "TILED=1"
  bash bench/gpu_explore.sh $N nvidia 10000 squaring int32 3 "TILED=1"
  bash bench/gpu_explore.sh $N nvidia 10000 fw int32 3 "OUTER=8"
done
