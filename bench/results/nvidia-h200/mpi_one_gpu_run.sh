B=.devdeps/bin/ocl_sp_mpi; O=$1
export OCL_SP_CACHE_DIR=$(mktemp -d)
which mpirun || { echo "no mpirun on this image"; exit 0; }
export LD_LIBRARY_PATH=$PWD/.devdeps/lib; ldd $B | grep "not found"
ompi_info 2>/dev/null | grep -m1 "Open MPI:"
nvidia-smi --query-gpu=name --format=csv,noheader
M="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR"
$B --device nvidia --n 4001 --output /tmp/ref.bin > /dev/null 2>&1; echo "reference rc=$?"
for g in "1 1x1" "2 1x2" "2 2x1" "4 2x2"; do set -- $g
  timeout 120 $M -np $1 $B --device nvidia --n 4001 --grid $2 --panel 1024 --output /tmp/m.bin > /tmp/m.txt 2>&1; rc=$?
  cmp -s /tmp/ref.bin /tmp/m.bin && same=identical || same=DIFFERENT
  echo "np=$1 grid=$2 rc=$rc output $same; $(grep -m1 -E 'placement|ranks' /tmp/m.txt)"
done
echo "== n=20000 timings (one H100 shared by the ranks)"
$B --device nvidia --n 20000 2>&1 | grep -E "T_k|total|placement"
for g in "1 1x1" "2 1x2"; do set -- $g
  echo "-- np=$1 grid=$2"; timeout 200 $M -np $1 $B --device nvidia --n 20000 --grid $2 2>&1 | grep -E "T_k|total|solve|grid|efficiency|round|rate" | head -12
done
