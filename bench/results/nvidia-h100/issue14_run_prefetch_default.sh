B=build-gpu/ocl_sp; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
$B --device nvidia --n 3001 --algo squaring --verify 2>&1 | grep -E "verify|error"
$B --device nvidia --n 6000 --device-memory 40M --verify 2>&1 | grep -E "placement|verify|error"
$B --device nvidia --n 6000 --type float32 --device-memory 40M --verify 2>&1 | grep -E "placement|verify|error"
echo "== bench default"; timeout 250 $B bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 5 --no-tuned 2>&1 | grep -E "^\[|error"
timeout 100 $B bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned 2>&1 | grep -E "^\[|error"
echo "== bench NO_STAGE_PREFETCH"; OCL_SP_EXTRA_BUILD_OPTIONS=-DNO_STAGE_PREFETCH timeout 250 $B bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 5 --no-tuned 2>&1 | grep -E "^\[|error"
echo "== panels n=40000"
for r in 1 2; do for X in "" "-DNO_STAGE_PREFETCH"; do
  echo "-- extra '$X' --device-memory 1600M"; OCL_SP_EXTRA_BUILD_OPTIONS="$X" $B --device nvidia --n 40000 --device-memory 1600M 2>&1 | grep -E "placement|T_k|T_h|total|rate"
done; done
echo "-- single buffer"; $B --device nvidia --n 40000 2>&1 | grep -E "placement|T_k|total"
