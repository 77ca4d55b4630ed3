# Sourced by the MPI bench drivers (mpi_gpus.sh, mpi_fw_overlap.sh) after they set
# O (the output folder) and R (ranks): a fresh program cache, OMP_NUM_THREADS (16
# unless set), the device's name in O/device.txt, M (mpirun of R ranks, one GPU a
# rank, the environment passed on; MPI_EXTRA_X adds -x NAME pairs) and timed.
export OCL_SP_CACHE_DIR=$(mktemp -d) OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/device.txt"
M="timeout 300 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $R -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OMP_NUM_THREADS ${MPI_EXTRA_X:-}"
timed() {  # timed NAME CMD...: stdout to OUT/NAME.json, the wall time to OUT/wall.txt
  local name=$1 t0 t1 rc
  shift
  local k=1 base=$name
  while [ -e "$O/$name.json" ]; do k=$((k + 1)) name=${base}_$k; done  # a job listed again keeps every run
  t0=$(date +%s.%N)
  "$@" >"$O/$name.json" 2>"$O/$name.err"
  rc=$?
  t1=$(date +%s.%N)
  echo "$name rc=$rc wall=$(awk "BEGIN{print $t1 - $t0}")" | tee -a "$O/wall.txt"
}
