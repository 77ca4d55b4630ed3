# ocl_sp bench final figures of the third session (two-level fw on two queues, squaring KC=16), H100; whole process.
# Usage (device tool, repo root): bash bench/results/nvidia-h100/issue14_bench_final.sh $OUT
O=$1; N=build-gpu/ocl_sp
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
for a in fw squaring; do $N --device nvidia --n 2000 --algo $a > /dev/null 2>&1; done
$N bench --devices nvidia --sizes 5000,10000,20000 --algos fw --reps 5 --no-tuned --quiet --csv $O/bench_fw_int32.csv
$N bench --devices nvidia --sizes 10000 --algos fw --type float32 --reps 5 --no-tuned --quiet --csv $O/bench_fw_float32.csv
$N bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 5 --no-tuned --quiet --csv $O/bench_squaring_int32.csv
bash bench/whole_process.sh $N nvidia 10000 5 2>/dev/null
