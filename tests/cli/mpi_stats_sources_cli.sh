#!/usr/bin/env bash
# --stats FILE --sources SPEC under mpirun gives one process's bytes: the
# multi-source engine (ranks deal the sources, each runs its sources' rows of the
# graph and of its reverse; negative edges, float32, a symmetric graph, PoCL
# ranks) and the distributed fw (every row solved, the sources' lines picked);
# the JSON report's stats object counts the sources as one process's does.
# Fails, never skips, without mpirun.
# Usage: mpi_stats_sources_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json
use_mpi

G=(--n 300 --degree 5 --negative --seed 11)
S=299,3,0-9,3,150-160
REF=(--backend openmp --quiet --sources $S)

check ref 0 "$BIN" "${G[@]}" --algo sssp "${REF[@]}" --stats "$T/ref.csv" --json
cp "$T/out" "$T/ref.json"
expect ref-lines test "$(wc -l <"$T/ref.csv")" = 25
for np in 1 3; do
  run "sssp-np$np" 0 $np "${G[@]}" --algo sssp --backend openmp --sources $S --stats "$T/m.csv" --json &&
    same "sssp-np$np" "$T/ref.csv" "$T/m.csv"
done
expect sssp-report-sources "$PY" -c "
import json, sys; a = json.load(open('$T/ref.json'))['stats']; b = json.load(open('$T/out'))['stats']
sys.exit(not (a['sources'] == b['sources'] == 22 and all(a[k] == b[k] for k in ('diameter', 'radius', 'reachable_pairs'))))"
run sssp-output-np2 0 2 "${G[@]}" --algo sssp --backend openmp --sources $S --stats "$T/m.csv" --output "$T/m.npy" &&
  same sssp-output-np2 "$T/ref.csv" "$T/m.csv"
expect sssp-output-text grep -q "22 sources' rows" "$T/out"
check ref-f32 0 "$BIN" "${G[@]}" --type float32 --algo sssp "${REF[@]}" --stats "$T/rf.csv"
run sssp-f32-np2 0 2 "${G[@]}" --type float32 --algo sssp --backend openmp --sources $S --stats "$T/mf.csv" &&
  same sssp-f32-np2 "$T/rf.csv" "$T/mf.csv"
check ref-sym 0 "$BIN" --n 400 --generator geometric --degree 4 --algo sssp "${REF[@]}" --stats "$T/rs.csv"
run sssp-sym-np3 0 3 --n 400 --generator geometric --degree 4 --algo sssp --backend openmp --sources $S \
  --stats "$T/ms.csv" && same sssp-sym-np3 "$T/rs.csv" "$T/ms.csv"
run sssp-pocl-np2 0 2 "${G[@]}" --algo sssp --device pocl --sources $S --stats "$T/mp.csv" &&
  same sssp-pocl-np2 "$T/ref.csv" "$T/mp.csv"
# The distributed fw: the same lines.
run fw-np2 0 2 "${G[@]}" --algo fw --backend openmp --sources $S --stats "$T/mw.csv" && same fw-np2 "$T/ref.csv" "$T/mw.csv"
run fw-targets-np2 2 2 "${G[@]}" --algo fw --backend openmp --sources $S --targets 1 --stats "$T/bad.csv"
expect fw-targets-message grep -q "^error: --stats .*--targets" "$T/err"
expect refusal-no-file test ! -e "$T/bad.csv"
finish_tests
