B=build-gpu/ocl_sp; M1=.devdeps/bin/ocl_sp_mpi; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name --format=csv,noheader
$B --device nvidia --n 3001 --verify 2>&1 | grep -E "verify|error"
$B --device nvidia --n 3001 --algo squaring --verify 2>&1 | grep -E "verify|error"
for t in int32 float32; do $B --device nvidia --n 6000 --type $t --device-memory 40M --verify 2>&1 | grep -E "placement|verify|error"; done
$B --device nvidia --n 6000 --algo squaring --panel 1536 --verify 2>&1 | grep -E "placement|verify|error"
OCL_SP_STAGE_BYTES=3000000 $B --device nvidia --n 6001 --verify 2>&1 | grep -E "verify|error"
echo "== bench"; timeout 200 $B bench --devices nvidia --sizes 10000,20000 --algos fw --reps 5 --no-tuned 2>&1 | grep -E "^\[|error"
timeout 100 $B bench --devices nvidia --sizes 10000 --algos squaring --reps 5 --no-tuned 2>&1 | grep -E "^\[|error"
echo "== out of core n=40000"; for r in 1 2; do $B --device nvidia --n 40000 --device-memory 1600M 2>&1 | grep -E "placement|T_k|T_h|total"; done
echo "== squaring panels n=20000 --panel 5120"; $B --device nvidia --n 20000 --algo squaring --panel 5120 2>&1 | grep -E "placement|T_k|T_h|total"
echo "== MPI"; export LD_LIBRARY_PATH=$PWD/.devdeps/lib; M="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR"
$B --device nvidia --n 4001 --output /tmp/ref.bin > /dev/null 2>&1
for g in "1 1x1" "2 1x2" "2 2x1" "4 2x2"; do set -- $g; timeout 120 $M -np $1 $M1 --device nvidia --n 4001 --grid $2 --panel 1024 --output /tmp/m.bin > /tmp/m.txt 2>&1; rc=$?; cmp -s /tmp/ref.bin /tmp/m.bin && same=identical || same=DIFFERENT; echo "np=$1 grid=$2 rc=$rc $same"; done
$B --device nvidia --n 20000 2>&1 | grep -E "T_k|total"
for r in 1 2; do timeout 200 $M -np 1 $M1 --device nvidia --n 20000 --grid 1x1 2>&1 | grep -E "^time|^rate"; done
