#!/usr/bin/env bash
# The MPI family (docs/performance/mpi.md): grids 1x1, 1x2, 2x2 on the one GPU
# byte-identical to the single-process solve, then one rank against the single
# process at n = 20 000 (solve and whole process). Replaces the per-call scripts
# archived in bench/results/<device>/mpi/runs.jsonl.
# Usage (device tool, repo root): bash bench/mpi_ranks.sh OCL_SP OUT [MPI_OCL_SP]
#   MPI_OCL_SP: a binary built with MPI where OCL_SP was not (default OCL_SP).
set -u
B=$1 O=$2 M1=${3:-$1}
export OCL_SP_CACHE_DIR=$(mktemp -d)
nvidia-smi --query-gpu=name --format=csv,noheader | tee "$O/device.txt"
M="mpirun --allow-run-as-root --oversubscribe --bind-to none -x LD_LIBRARY_PATH -x OCL_SP_CACHE_DIR"
"$B" --device nvidia --n 4001 --output "$O/ref.bin" >/dev/null 2>&1
for g in "1 1x1" "2 1x2" "4 2x2"; do
  set -- $g
  timeout 120 $M -np $1 "$M1" --device nvidia --n 4001 --grid $2 --panel 1024 --output "$O/m.bin" >"$O/m.txt" 2>&1
  rc=$?
  cmp -s "$O/ref.bin" "$O/m.bin" && same=identical || same=DIFFERENT
  echo "np=$1 grid=$2 rc=$rc $same"
done
rm -f "$O/ref.bin" "$O/m.bin"
echo "== n = 20 000: single process, then one rank"
for r in 1 2; do "$B" --device nvidia --n 20000 2>&1 | grep -E "total"; done
for r in 1 2 3; do timeout 200 $M -np 1 "$M1" --device nvidia --n 20000 --grid 1x1 2>&1 | grep -E "^time|^rate|^memory"; done
