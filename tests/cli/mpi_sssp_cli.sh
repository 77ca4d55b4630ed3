#!/usr/bin/env bash
# End-to-end tests of the multi-source engine under mpirun (docs/scale.md
# "Clusters (MPI)"): `mpirun -np 1/2/3 ocl_sp --algo sssp` deals the sources to
# the ranks and must give the same bytes as one process: every row (bin, written
# in place by the ranks), --sources / --targets selections (npy in place, csv and
# standard output streamed to rank 0), --stats (csv, json; the figures gathered in
# vertex order; float distances: the columns continued rank to rank in source
# order), with negative edges, on OpenMP and on OpenCL (PoCL) ranks.
# --algo auto under mpirun may choose sssp and says so (text and JSON
# `algorithm`); it runs fw when the options need the distributed fw (--paths).
# Options the engine does not take under mpirun exit 2 with one error; a rank
# that fails (a negative cycle found by the only rank with a source, a bad device
# on rank 1) ends every rank with one error: and no output file, never a hang.
# Fails, never skips, without mpirun.
# Usage: mpi_sssp_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json

use_mpi

G=(--n 300 --degree 5 --negative --seed 11)  # sparse, negative edges (no negative cycle)
REF=(--algo sssp --backend openmp --quiet)   # the one-process reference
D=(--algo sssp --backend openmp)             # the ranks

run built 0 2 "${G[@]}" "${D[@]}" --sources 0
if ! grep -q "^mpi       2 ranks, multi-source engine" "$T/out"; then
  echo "FAIL: no multi-source solve under mpirun -np 2 (built without MPI?)"
  sed 's/^/  /' "$T/out" "$T/err" | head -20
  exit 1
fi
expect built-algorithm-line grep -q "^algorithm sssp$" "$T/out"

# Every row with --stats, the selection, csv: -np 1 (the engine on one rank), 2, 3.
S=299,3,0-9,3,150-160
TG=299,0-5,77,5
check ref-all 0 "$BIN" "${G[@]}" "${REF[@]}" --output "$T/ref.bin" --stats "$T/ref.csv"
check ref-sel 0 "$BIN" "${G[@]}" "${REF[@]}" --sources $S --targets $TG --output "$T/ref_sel.npy"
check ref-sel-csv 0 "$BIN" "${G[@]}" "${REF[@]}" --sources $S --output "$T/ref_sel.csv"
check ref-stats-json 0 "$BIN" "${G[@]}" "${REF[@]}" --stats "$T/ref_stats.json"
for np in $(cases 1 2 3); do
  run "all-np$np" 0 $np "${G[@]}" "${D[@]}" --output "$T/m.bin" --stats "$T/m.csv" &&
    same "all-np$np" "$T/ref.bin" "$T/m.bin" && same "all-np$np-stats" "$T/ref.csv" "$T/m.csv"
  expect "all-np$np-report" grep -q "^mpi       $np ranks, multi-source engine" "$T/out"
  expect "all-np$np-in-place" grep -qF "output    $T/m.bin (each rank wrote its sources' rows in place)" "$T/out"
  run "sel-np$np" 0 $np "${G[@]}" "${D[@]}" --sources $S --targets $TG --output "$T/m_sel.npy" &&
    same "sel-np$np" "$T/ref_sel.npy" "$T/m_sel.npy"
  run "sel-csv-np$np" 0 $np "${G[@]}" "${D[@]}" --sources $S --output "$T/m_sel.csv" &&
    same "sel-csv-np$np" "$T/ref_sel.csv" "$T/m_sel.csv"
  run "stats-json-np$np" 0 $np "${G[@]}" "${D[@]}" --stats "$T/m_stats.json" &&
    same "stats-json-np$np" "$T/ref_stats.json" "$T/m_stats.json"
done
run sel-mode 0 3 "${G[@]}" "${D[@]}" --sources $S --targets $TG --output "$T/m_sel.npy" --json
expect sel-json "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['algorithm']=='sssp' and r['algorithm_choice'] is None and r['mpi_ranks']==3, r
assert r['output_mode']=='each rank wrote its sources\' rows in place' and (r['rows'], r['cols'])==(24, 9), r
assert sum(r['rank_sources'])==24 and all(x > 0 for x in r['rank_sources']), r"
run sel-csv-mode 0 2 "${G[@]}" "${D[@]}" --sources $S --output "$T/m_sel.csv"
expect sel-csv-streamed grep -q "^output    .*(24 x 300, each rank held its sources' rows, streamed to rank 0)" "$T/out"
run sel-stdout 0 3 "${G[@]}" "${D[@]}" --sources $S --targets $TG --output - --output-format npy &&
  same sel-stdout "$T/ref_sel.npy" "$T/out"
expect sel-stdout-report-on-stderr grep -q "^mpi       3 ranks" "$T/err"
# The report's stats object is one process's.
check ref-stats-report 0 "$BIN" "${G[@]}" "${REF[@]}" --stats "$T/r.csv" --json
cp "$T/out" "$T/ref_report.json"
run stats-report 0 3 "${G[@]}" "${D[@]}" --stats "$T/r.csv" --json
expect stats-report-same "$PY" -c "
import json; a=json.load(open('$T/ref_report.json'))['stats']; b=json.load(open('$T/out'))['stats']
assert a==b, (a, b)"
# A symmetric graph, float32 (the columns still the forward rows', continued rank
# to rank: a path summed from either end rounds otherwise), and int32 (one pass:
# the rows are the columns).
check ref-sym 0 "$BIN" --n 400 --generator geometric --degree 4 --type float32 "${REF[@]}" --stats "$T/rsym.csv" --output "$T/rsym.npy"
run sym-np3 0 3 --n 400 --generator geometric --degree 4 --type float32 "${D[@]}" --stats "$T/msym.csv" --output "$T/msym.npy" &&
  same sym-np3 "$T/rsym.csv" "$T/msym.csv" && same sym-np3-rows "$T/rsym.npy" "$T/msym.npy"
expect sym-float-columns grep -q "continued chunk after chunk from rank to rank" "$T/out"
check ref-sym-int 0 "$BIN" --n 400 --generator geometric --degree 4 "${REF[@]}" --stats "$T/rsymi.csv"
run sym-int-np3 0 3 --n 400 --generator geometric --degree 4 "${D[@]}" --stats "$T/msymi.csv" &&
  same sym-int-np3 "$T/rsymi.csv" "$T/msymi.csv"
expect sym-one-pass sh -c "! grep -q 'second pass' '$T/out'"

# OpenCL ranks on PoCL (rows and figures on the device).
check ref-pocl 0 "$BIN" "${G[@]}" --algo sssp --device pocl --quiet --output "$T/rp.bin" --stats "$T/rp.csv"
same pocl-ref-is-openmp "$T/ref.bin" "$T/rp.bin"
run pocl-np2 0 2 "${G[@]}" --algo sssp --device pocl --output "$T/mp.bin" --stats "$T/mp.csv" &&
  same pocl-np2 "$T/ref.bin" "$T/mp.bin" && same pocl-np2-stats "$T/rp.csv" "$T/mp.csv"
expect pocl-np2-opencl grep -q "^backend   opencl" "$T/out"
run pocl-stats-np3 0 3 "${G[@]}" --algo sssp --device pocl --stats "$T/mp.csv" && same pocl-stats-np3 "$T/rp.csv" "$T/mp.csv"
# No negative edge: one process reduces rows and columns on the device in one
# pass (each column's harmonic sum down the sources in order); the ranks' figures
# must have its bits.
check ref-pocl-one-pass 0 "$BIN" --n 300 --degree 5 --seed 11 --algo sssp --device pocl --quiet --stats "$T/rp1.csv"
expect ref-pocl-is-one-pass grep -q "reduced on the device in one pass" "$T/out"
run pocl-one-pass-np2 0 2 --n 300 --degree 5 --seed 11 --algo sssp --device pocl --stats "$T/mp1.csv" &&
  same pocl-one-pass-np2 "$T/rp1.csv" "$T/mp1.csv"
# ... with each rank's rows (both passes, harmonic sums included) reduced on its
# device: no row comes to a host
expect pocl-one-pass-np2-on-device grep -q "stats: rows reduced where they were computed" "$T/out"
# A symmetric graph: each row's harmonic sum on the device is its column's, down
# the sources in order
run pocl-sym-np2 0 2 --n 400 --generator geometric --degree 4 --algo sssp --device pocl --stats "$T/mps.csv" &&
  same pocl-sym-np2 "$T/rsymi.csv" "$T/mps.csv"
expect pocl-sym-np2-on-device grep -q "stats: rows reduced where they were computed" "$T/out"
# Negative edges (potentials to undo): the rows of both passes reach the hosts
run pocl-negative-np2 0 2 "${G[@]}" --algo sssp --device pocl --stats "$T/mp.csv" && same pocl-negative-np2 "$T/rp.csv" "$T/mp.csv"
expect pocl-negative-np2-host grep -q "stats: 600 rows reduced on the hosts" "$T/out"  # both passes
# Fractional weights (directed, and the same edges both ways): closeness and
# harmonic are the forward rows' distances added in source order, as one process
# (and its device's one pass) adds them: the ranks continue the columns' figures
# chunk after chunk, rank to rank; the same bytes for -np 1, 2 and 3.
write_fractional_edges "$T/real.edges" "$T/real_sym.edges" 350 777 5 331
for graph in real real_sym; do
  for type in float64 float32; do
    R=(--input "$T/$graph.edges" --type "$type" --algo sssp)
    check "$graph-$type-ref" 0 "$BIN" "${R[@]}" --backend serial --quiet --stats "$T/rr.csv" || continue
    for np in $(cases 1 2 3); do
      run "$graph-$type-np$np" 0 $np "${R[@]}" --backend openmp --stats "$T/mr.csv" &&
        same "$graph-$type-np$np" "$T/rr.csv" "$T/mr.csv"
    done
  done
done
expect real-ring-note grep -q "continued chunk after chunk from rank to rank" "$T/out"
run real-pocl-np2 0 2 --input "$T/real.edges" --type float32 --algo sssp --device pocl --stats "$T/mr.csv" &&
  check real-pocl-ref 0 "$BIN" --input "$T/real.edges" --type float32 --algo sssp --device pocl --quiet \
    --stats "$T/rr.csv" && same real-pocl-np2 "$T/rr.csv" "$T/mr.csv"

# --algo auto under mpirun: sssp on a sparse graph (text and JSON say so), fw on
# a dense one, fw when an option only the distributed fw takes is given (--panel).
run auto-sparse 0 2 --n 3000 --degree 3 --backend openmp --quiet --json
expect auto-sparse-sssp "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['algorithm']=='sssp' and r['algorithm_choice'].startswith('auto: sssp: estimated'), r"
run auto-sparse-text 0 2 --n 3000 --degree 3 --backend openmp --quiet
expect auto-sparse-text-line grep -q "^algorithm auto: sssp: estimated" "$T/out"
run auto-dense 0 2 --n 60 --backend openmp --quiet --json
expect auto-dense-fw "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['algorithm']=='fw' and r['algorithm_choice'].startswith('auto: fw: estimated') and r['grid']=='1x2', r"
run auto-panel 0 2 --n 1500 --degree 3 --backend openmp --quiet --panel 512
expect auto-panel-fw grep -q "^algorithm auto: fw: --panel run on the distributed fw" "$T/out"

# --paths: each rank holds its rows of the distances and of via (its sources'
# shortest-path trees): --output and --paths-output (npy in place, csv streamed)
# with one process's bytes, --query walked on rank 0 from the row's owner; -np 1
# is the engine on one rank; PoCL ranks too.
check ref-paths 0 "$BIN" "${G[@]}" "${REF[@]}" --paths --query 0 5 --query 299 7 --output "$T/pd.npy" --paths-output "$T/pv.npy"
grep "^path [0-9]" "$T/out" >"$T/ref_paths.txt"
check ref-paths-csv 0 "$BIN" "${G[@]}" "${REF[@]}" --paths --output "$T/pd.csv" --paths-output "$T/pv.csv"
for np in 1 3; do
  run "paths-np$np" 0 $np "${G[@]}" "${D[@]}" --paths --query 0 5 --query 299 7 --output "$T/md.npy" --paths-output "$T/mv.npy" &&
    same "paths-np$np-distances" "$T/pd.npy" "$T/md.npy" && same "paths-np$np-via" "$T/pv.npy" "$T/mv.npy"
  expect "paths-np$np-engine" grep -q "^mpi       $np ranks, multi-source engine" "$T/out"
  expect "paths-np$np-queries" sh -c "grep '^path [0-9]' '$T/out' | cmp -s - '$T/ref_paths.txt'"
done
run paths-csv-np2 0 2 "${G[@]}" "${D[@]}" --paths --output "$T/md.csv" --paths-output "$T/mv.csv" &&
  same paths-csv-np2-distances "$T/pd.csv" "$T/md.csv" && same paths-csv-np2-via "$T/pv.csv" "$T/mv.csv"
run paths-pocl-np2 0 2 "${G[@]}" --algo sssp --device pocl --paths --output "$T/md.npy" --paths-output "$T/mv.npy" &&
  same paths-pocl-np2-distances "$T/pd.npy" "$T/md.npy" && same paths-pocl-np2-via "$T/pv.npy" "$T/mv.npy"
run paths-json 0 2 "${G[@]}" "${D[@]}" --query 299 7 --json
expect paths-json-query "$PY" -c "
import json; r=json.load(open('$T/out')); q=r['queries'][0]
assert r['paths'] and r['algorithm']=='sssp' and q['from']==299 and q['to']==7 and q['path'][0]==299 and q['path'][-1]==7, r"
run paths-query-range 2 2 "${G[@]}" "${D[@]}" --query 0 300
expect paths-query-range-message grep -q "^error: --query: vertex 300 out of range" "$T/err"

# Refusals: exit 2, one error naming the option, no file. (Under -np 1 without
# --grid these options make it the single-process solve, which takes them.)
for bad in "--verify" "--grid:1x2"; do
  IFS=: read -r flag val <<<"$bad"
  run "refuse$flag" 2 2 "${G[@]}" "${D[@]}" "$flag" $val --output "$T/bad.bin"
  expect "refuse$flag-message" grep -q "^error: .*$flag.* not supported by --algo sssp under mpirun" "$T/err"
  expect "refuse$flag-once" test "$(grep -c '^error:' "$T/err")" = 1
done
expect refusals-no-file test ! -e "$T/bad.bin"
# The options fw and sssp check alike under mpirun: exit 2, one error, no file.
for algo in fw sssp; do
  for bad in "--backend serial:is single-process" "--backend openmp --device pocl:--device selects an OpenCL" \
             "--backend openmp --query 1:--query expects two vertex ids"; do
    IFS=: read -r flags message <<<"$bad"
    run "refuse-$algo $flags" 2 2 --n 50 --algo "$algo" $flags --output "$T/bad.bin"
    expect "refuse-$algo $flags: message" grep -q "^error: .*$message" "$T/err"
    expect "refuse-$algo $flags: once" test "$(grep -c '^error:' "$T/err")" = 1
  done
done
expect shared-refusals-no-file test ! -e "$T/bad.bin"
# --betweenness runs under mpirun too (mpi_betweenness_cli.sh); these weights are negative.
run refuse-betweenness 2 2 "${G[@]}" "${D[@]}" --stats "$T/bad.csv" --betweenness
expect refuse-betweenness-message grep -q "^error: betweenness needs weights >= 0" "$T/err"
expect refuse-betweenness-once test "$(grep -c '^error:' "$T/err")" = 1
expect refuse-betweenness-no-file test ! -e "$T/bad.csv"
run np1-verify-single-process 0 1 "${G[@]}" "${D[@]}" --verify --sources 0
expect np1-verify-single-process-ok grep -q "verify    ok" "$T/out"

# A failing rank ends the job: a negative cycle found by the only rank with a
# source (inside the in-place write, and before the streamed one), and a device
# only rank 1 gets. One error line, no file, no temporary, no hang.
printf '0 1 1\n1 2 -5\n2 0 1\n2 3 1\n99 98 1\n' >"$T/cyc.edges"
for f in bin csv; do
  run "neg-cycle-$f" 3 3 --input "$T/cyc.edges" "${D[@]}" --sources 0 --output "$T/cyc.$f"
  expect "neg-cycle-$f-one-error" test "$(grep -c '^error: .*negative cycle' "$T/err")" = 1
  expect "neg-cycle-$f-no-file" test ! -e "$T/cyc.$f"
done
bad_rank_job "${G[@]}" --algo sssp --quiet
expect bad-device-once test "$(grep -c '^error:' "$T/err")" = 1
expect failures-no-temp sh -c "! ls '$T' | grep -q 'tmp'"

finish_tests
