# The (min,+) product with the register prefetch: other register-tile shapes than
# the default 128 / 8 x 8 / KC 32 (chosen by the H200 sweep before the prefetch). H100.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_product_shapes.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
bash bench/gpu_explore.sh $N nvidia 8192 squaring int32 3 "TILED=1" \
  "BLOCK=128 TM=8 TN=8 KC=16" "BLOCK=128 TM=8 TN=4 KC=32" "BLOCK=128 TM=4 TN=8 KC=32" \
  "BLOCK=128 TM=8 TN=4 KC=16" "BLOCK=64 TM=8 TN=8 KC=32" "BLOCK=64 TM=8 TN=4 KC=32" \
  "BLOCK=128 TM=8 TN=8 KC=64"
