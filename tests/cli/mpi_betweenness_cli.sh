#!/usr/bin/env bash
# --stats FILE --betweenness under mpirun gives one process's bytes: ranks deal
# the sources, each runs their Brandes passes (OpenMP or PoCL), rank 0 adds the
# exact 64.64 sums; every vertex a source, and a sample (--sources: networkx's k,
# the figures still every vertex's); int32 with ties, float32, a grid of unit
# weights (path counts past 2^53). Refusals end every rank with one message and
# no file: negative weights, --algo fw, no --stats. Fails, never skips, without
# mpirun.
# Usage: mpi_betweenness_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_mpi

k=0
for g in "--n 300 --weights 1:3 --seed 5" "--n 300 --weights 1:3 --seed 5 --sources 7,0-40,299" \
         "--generator grid --n 900 --type float32" "--generator grid --n 1600 --weights 1:1"; do
  k=$((k + 1))
  # shellcheck disable=SC2086
  check "ref$k" 0 "$BIN" $g --backend serial --stats "$T/ref$k.csv" --betweenness --quiet || continue
  expect "ref$k-column" grep -q "^vertex,.*,betweenness$" "$T/ref$k.csv"
  # shellcheck disable=SC2086
  run "np2-$k" 0 2 $g --backend openmp --stats "$T/a$k.csv" --betweenness && same "np2-$k" "$T/ref$k.csv" "$T/a$k.csv"
  # shellcheck disable=SC2086
  run "np3-pocl-$k" 0 3 $g --device pocl --algo sssp --stats "$T/b$k.csv" --betweenness &&
    same "np3-pocl-$k" "$T/ref$k.csv" "$T/b$k.csv"
done
# More ranks than sources: the ranks without any add nothing.
check ref-few 0 "$BIN" --n 200 --sources 3,9 --backend serial --stats "$T/rf.csv" --betweenness --quiet
run np4-few 0 4 --n 200 --sources 3,9 --backend openmp --stats "$T/mf.csv" --betweenness && same np4-few "$T/rf.csv" "$T/mf.csv"
expect np4-few-note grep -q "betweenness: estimated from 2 sources" "$T/out"

# Refusals, once, no file.
run negative 2 3 --n 200 --negative --backend openmp --stats "$T/neg.csv" --betweenness
expect negative-once test "$(grep -c '^error:' "$T/err")" = 1
expect negative-no-file test ! -e "$T/neg.csv"
run fw 2 2 --n 200 --algo fw --backend openmp --stats "$T/fw.csv" --betweenness
expect fw-message grep -q "^error: --betweenness runs on the multi-source engine" "$T/err"
expect fw-once test "$(grep -c '^error:' "$T/err")" = 1
expect fw-no-file test ! -e "$T/fw.csv"
run no-stats 2 2 --n 200 --backend openmp --betweenness
expect no-stats-once test "$(grep -c '^error: --betweenness adds a column' "$T/err")" = 1
finish_tests
