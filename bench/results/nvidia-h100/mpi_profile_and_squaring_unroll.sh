B=build-gpu/ocl_sp; M1=.devdeps/bin/ocl_sp_mpi; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=$PWD/.devdeps/lib; M="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OCL_SP_PROFILE"
$B --device nvidia --n 20000 > /dev/null 2>&1
echo "== single process, profile"; OCL_SP_PROFILE=1 $B --device nvidia --n 20000 2>&1 | grep -E "profile|T_|total"
for r in 1 2; do echo "== one rank, profile"; OCL_SP_PROFILE=1 timeout 200 $M -np 1 $M1 --device nvidia --n 20000 --grid 1x1 2>&1 | grep -E "profile|^time|^rounds|^rate"; done
echo "== squaring unroll variants (bench, median of 3)"
for X in "" "-DKK_UNROLL=4" "-DKK_UNROLL=8" "-DKK_UNROLL=16"; do
  echo "-- extra '$X'"; OCL_SP_EXTRA_BUILD_OPTIONS="$X" timeout 150 $B bench --devices nvidia --sizes 8192,10000 --algos squaring --reps 3 --no-tuned 2>&1 | grep -E "^\[|error"
done
