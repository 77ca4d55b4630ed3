B=build-gpu/ocl_sp; M1=.devdeps/bin/ocl_sp_mpi; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name --format=csv,noheader
export LD_LIBRARY_PATH=$PWD/.devdeps/lib; M="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OCL_SP_PROFILE"
$B --device nvidia --n 4001 --output /tmp/ref.bin > /dev/null 2>&1
for g in "1 1x1" "2 1x2" "4 2x2"; do set -- $g; timeout 120 $M -np $1 $M1 --device nvidia --n 4001 --grid $2 --panel 1024 --output /tmp/m.bin > /tmp/m.txt 2>&1; rc=$?; cmp -s /tmp/ref.bin /tmp/m.bin && same=identical || same=DIFFERENT; echo "np=$1 grid=$2 rc=$rc $same"; done
for r in 1 2; do $B --device nvidia --n 20000 2>&1 | grep -E "total"; done
for r in 1 2 3; do echo "== one rank"; OCL_SP_PROFILE=1 timeout 200 $M -np 1 $M1 --device nvidia --n 20000 --grid 1x1 2>&1 | grep -E "rank load|rank store|^time"; done
