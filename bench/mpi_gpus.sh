#!/usr/bin/env bash
# Ranks x GPUs on one host (docs/performance/mpi.md): R ranks, one
# GPU each (`mpirun -np R ocl_sp --device gpu`), against one process over the same
# GPUs (`--device gpu:all`): the multi-source engine (--algo sssp, random degree 20,
# n = SSSP_N, every row computed, none written) and fw (n = FW_N). First the bytes:
# selected rows and --stats of both ways compared (cmp). Then REPS runs of each,
# every JSON report and the job's wall time (date) kept in OUT; medians are taken
# from those files.
# Usage (device tool, repo root): bash bench/mpi_gpus.sh OCL_SP OUT [R] [SSSP_N] [FW_N] [REPS]
#   SKIP_FW_BYTES=1: no fw byte comparison (only its program cache warmed)
set -u
B=$1 O=$2 R=${3:-4} SN=${4:-100000} FN=${5:-40000} REPS=${6:-3}
. "$(dirname "$0")/mpi_common.sh"
# Program caches warm, and the bytes of both ways.
G=(--n 20000 --degree 20 --algo sssp --quiet)
"$B" "${G[@]}" --device gpu:all --sources 0-999,19999 --output "$O/one.npy" >/dev/null
"$B" "${G[@]}" --device gpu:all --stats "$O/one.csv" >/dev/null
$M "$B" "${G[@]}" --device gpu --sources 0-999,19999 --output "$O/ranks.npy" >/dev/null
$M "$B" "${G[@]}" --device gpu --stats "$O/ranks.csv" >/dev/null
cmp "$O/one.npy" "$O/ranks.npy" && echo "sssp rows: identical" | tee -a "$O/wall.txt"
cmp "$O/one.csv" "$O/ranks.csv" && echo "sssp stats: identical" | tee -a "$O/wall.txt"
if [ "${SKIP_FW_BYTES:-0}" != 1 ]; then
  "$B" --n 8192 --algo fw --device gpu:all --quiet --output "$O/fw_one.bin" >/dev/null
  $M "$B" --n 8192 --algo fw --device gpu --quiet --output "$O/fw_ranks.bin" >/dev/null
  cmp "$O/fw_one.bin" "$O/fw_ranks.bin" && echo "fw n = 8192: identical" | tee -a "$O/wall.txt"
else  # the fw kernels' program cache warm
  "$B" --n 4096 --algo fw --device gpu:all --quiet >/dev/null
  $M "$B" --n 4096 --algo fw --device gpu --quiet >/dev/null
fi
rm -f "$O"/*.npy "$O"/*.bin "$O"/ranks.csv
for k in $(seq "$REPS"); do
  timed "sssp_one_$k" "$B" --n "$SN" --degree 20 --algo sssp --device gpu:all --quiet --json
  timed "sssp_ranks_$k" $M "$B" --n "$SN" --degree 20 --algo sssp --device gpu --json
done
for k in $(seq "$REPS"); do
  timed "fw_one_$k" "$B" --n "$FN" --algo fw --device gpu:all --quiet --json
  timed "fw_ranks_$k" $M "$B" --n "$FN" --algo fw --device gpu --json
done
