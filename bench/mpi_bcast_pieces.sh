#!/usr/bin/env bash
# One 4 x H100 call: row figures A/B (the kernel before FIG_SPAN vs now, GPU 0) and
# MPI fw n = 40 000 on 4 ranks: broadcast pieces 16 MiB vs one piece, and the default environment.
# Usage (device tool): copied into a carry folder beside ocl_sp, libmpi_cxx.so.40 and oldk/ (the
# kernels before FIG_SPAN), the folder one level below the repository root; OUT set. Records:
# bench/results/nvidia-h100/{stats/row-figures-span,mpi/fw-bcast-pieces-x4}/.
cd "$(dirname "$0")"
export LD_LIBRARY_PATH=$PWD:${LD_LIBRARY_PATH:-}
B=$PWD/ocl_sp
S=$OUT/summary.txt
W=/tmp/w; mkdir -p $W
$B --version | head -2 > $S
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 >> $S
nproc >> $S
# Row figures A/B, one GPU: 2^22 geometric, 1000 sources; warm both caches first.
for k in old new; do
  kd=$PWD/oldk; [ $k = new ] && kd=$(cd ../kernels && pwd)
  export OCL_SP_KERNEL_DIR=$kd OCL_SP_CACHE_DIR=/tmp/c-$k
  CUDA_VISIBLE_DEVICES=0 $B --device nvidia --generator geometric --n 20000 --stats $W/w.csv --sources 0-99 --quiet > /dev/null 2>&1
done
for rep in 1 2; do for k in old new; do
  kd=$PWD/oldk; [ $k = new ] && kd=$(cd ../kernels && pwd)
  export OCL_SP_KERNEL_DIR=$kd OCL_SP_CACHE_DIR=/tmp/c-$k
  CUDA_VISIBLE_DEVICES=0 $B --device nvidia --generator geometric --n 4194304 --stats $W/s-$k.csv --sources 0-999 --json > $W/fig-$k-$rep.json 2>$W/fig-$k-$rep.err
  echo "fig $k run $rep rc=$? $(grep -o '"t_k":[0-9.]*' $W/fig-$k-$rep.json) $(grep -o '"sssp_row_figures":[0-9.]*' $W/fig-$k-$rep.json) $(grep -o '"solve":[0-9.]*' $W/fig-$k-$rep.json | head -1)" >> $S
done; done
md5sum $W/s-old.csv $W/s-new.csv >> $S
unset OCL_SP_KERNEL_DIR
export OCL_SP_CACHE_DIR=/tmp/c-mpi
$B --device nvidia --n 2000 --quiet > /dev/null 2>&1
M="timeout 60 /usr/bin/mpirun --allow-run-as-root --oversubscribe --bind-to none -np 4 -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OMP_NUM_THREADS -x OCL_SP_MPI_BCAST_BYTES"
export OMP_NUM_THREADS=16
for rep in 1 2; do for bb in 16777216 1000000000; do
  export OCL_SP_MPI_BCAST_BYTES=$bb
  /usr/bin/time -f "%e" -o $W/t.txt $M $B --device gpu --n 40000 --json > $W/mpi-$bb-$rep.json 2>$W/mpi-$bb-$rep.err
  echo "mpi bcast=$bb run $rep rc=$? wall=$(cat $W/t.txt) $(grep -o '"t_setup":[0-9.]*\|"t_solve":[0-9.]*\|"solve_s":[0-9.]*\|"setup_s":[0-9.]*' $W/mpi-$bb-$rep.json | tr '\n' ' ')" >> $S
done; done
unset OMP_NUM_THREADS OCL_SP_MPI_BCAST_BYTES
# The default environment (no OMP_NUM_THREADS, mpirun's default binding), profiled.
/usr/bin/time -f "%e" -o $W/t.txt timeout 60 /usr/bin/mpirun --allow-run-as-root -np 4 -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OCL_SP_PROFILE=1 $B --device gpu --n 40000 --json > $W/mpi-default.json 2>$W/mpi-default.err
echo "mpi default env rc=$? wall=$(cat $W/t.txt) $(grep -o '"host_threads":[0-9]*\|"t_setup":[0-9.]*\|"setup_s":[0-9.]*\|"solve_s":[0-9.]*' $W/mpi-default.json | tr '\n' ' ')" >> $S
tar czf $OUT/runs.tgz -C $W $(cd $W && ls *.json *.err 2>/dev/null)
