# Last check of the session's final tree (one element mapping for staging and
# prefetch; PoCL sub-devices kept), H100: bit-exactness, bench, out of core.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_final_check.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for ty in int32 float32; do
  $N --backend openmp --n 3001 --type $ty --output /tmp/ref.bin > /dev/null 2>&1
  for a in fw squaring; do
    $N --device nvidia --n 3001 --type $ty --algo $a --output /tmp/g.bin > /dev/null 2>&1; rc=$?
    cmp -s /tmp/ref.bin /tmp/g.bin && r=identical || r=DIFFERENT; echo "n=3001 $ty $a rc=$rc $r"
  done
done
$N bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned --quiet --csv $O/final_check_fw.csv
$N bench --devices nvidia --sizes 8192 --algos squaring --reps 5 --no-tuned --quiet --csv $O/final_check_squaring.csv
$N --device nvidia --n 40000 --device-memory 1600M 2>&1 | grep -E "T_k|T_h|total|placement|rate"
