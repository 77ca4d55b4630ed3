#!/usr/bin/env bash
# The distributed fw's overlap (docs/performance/scale.md "MPI ranks: communication
# behind the GEMMs"): R ranks, one GPU each (`mpirun -np R ocl_sp --device gpu`),
# for two binaries side by side (BASE: before, NEW: after), against one process on
# one GPU (--device gpu) and over all (--device gpu:all) with BASE (the single-
# process solve is the same code in both). NEW also with pageable broadcast
# buffers (OCL_SP_MPI_PINNED=0). A warm-up of each, then REPS runs; every JSON
# report and the job's wall time kept in OUT; then BIG_N (if > 0) once each for
# NEW's ranks, BASE's ranks and gpu:all, as long as LIMIT seconds allow.
# Usage (device tool, repo root): bash bench/mpi_fw_overlap.sh BASE NEW OUT [R] [N] [REPS] [BIG_N] [LIMIT]
set -u
BASE=$1 NEW=$2 O=$3 R=${4:-4} N=${5:-40000} REPS=${6:-3} BIG=${7:-0} LIMIT=${8:-540}
export OCL_SP_CACHE_DIR=$(mktemp -d) OMP_NUM_THREADS=${OMP_NUM_THREADS:-16}
START=$(date +%s)
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee "$O/device.txt"
M="timeout 300 mpirun --allow-run-as-root --oversubscribe --bind-to none -np $R -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR -x OMP_NUM_THREADS -x OCL_SP_MPI_PINNED"
export OCL_SP_MPI_PINNED=1
timed() {  # timed NAME CMD...: stdout to OUT/NAME.json, the wall time to OUT/wall.txt
  local name=$1 t0 t1 rc
  shift
  t0=$(date +%s.%N)
  "$@" >"$O/$name.json" 2>"$O/$name.err"
  rc=$?
  t1=$(date +%s.%N)
  echo "$name rc=$rc wall=$(awk "BEGIN{print $t1 - $t0}")" | tee -a "$O/wall.txt"
}
left() { echo $((LIMIT - ($(date +%s) - START))); }
# Bytes: both binaries' ranks against one process (n = 5000, P = 640: q = 8).
"$BASE" --n 5000 --algo fw --device gpu --quiet --output "$O/one.bin" >/dev/null
$M "$NEW" --n 5000 --algo fw --device gpu --panel 640 --quiet --output "$O/new.bin" >/dev/null
$M "$BASE" --n 5000 --algo fw --device gpu --panel 640 --quiet --output "$O/base.bin" >/dev/null
cmp "$O/one.bin" "$O/new.bin" && echo "fw n = 5000: new ranks identical to one process" | tee -a "$O/wall.txt"
cmp "$O/one.bin" "$O/base.bin" && echo "fw n = 5000: base ranks identical to one process" | tee -a "$O/wall.txt"
rm -f "$O"/*.bin
F=(--n "$N" --algo fw --json)
for k in $(seq 0 "$REPS"); do  # run 0: warm-up
  timed "one_gpu_$k" "$BASE" "${F[@]}" --device gpu --quiet
  timed "gpu_all_$k" "$BASE" "${F[@]}" --device gpu:all --quiet
  timed "ranks_base_$k" $M "$BASE" "${F[@]}" --device gpu
  timed "ranks_new_$k" $M "$NEW" "${F[@]}" --device gpu
  OCL_SP_MPI_PINNED=0 timed "ranks_new_pageable_$k" $M "$NEW" "${F[@]}" --device gpu
done
[ "$BIG" -gt 0 ] || exit 0
B=(--n "$BIG" --algo fw --json)
[ "$(left)" -gt 120 ] && timed big_ranks_new $M "$NEW" "${B[@]}" --device gpu
[ "$(left)" -gt 110 ] && timed big_ranks_base $M "$BASE" "${B[@]}" --device gpu
[ "$(left)" -gt 90 ] && timed big_gpu_all timeout "$(($(left) - 10))" "$BASE" "${B[@]}" --device gpu:all --quiet
echo "done after $(($(date +%s) - START)) s" | tee -a "$O/wall.txt"
