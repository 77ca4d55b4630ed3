#!/usr/bin/env bash
# End-to-end tests of the distributed solve's rows (DESIGN.md
# "Sparse graphs and rows"): under `mpirun -np 1/2/3/4`, --sources / --targets
# (ranges, repeats, out of order, @FILE, one of them alone) write the |S| x |T|
# block in bin, npy and csv with the same bytes as one process, without a gather
# (bin / npy in place by every rank, csv and standard output a strip at a time to
# rank 0); --stats (csv, npy, json) gives the same bytes as one process, exactly
# (the figures travel in vertex order: harmonic sums in the same order), and the
# report the same stats object; --stats with --output writes both. n = 150 is not
# a multiple of --panel 32, weights are negative; OpenMP and OpenCL (PoCL) ranks. Bad SPECs and refused
# combinations exit 2 with one error: naming the token and no file; a failing
# write or a negative cycle leaves no file. Fails, never skips, without mpirun.
# Usage: mpi_rows_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json numpy

use_mpi

G=(--n 150 --negative --seed 7)          # 5 x 5 panels of 32, the last one 22 wide
REF=(--algo fw --backend serial --quiet)  # the one-process reference
D=(--backend openmp --panel 32)           # the distributed solve

run built 0 2 "${G[@]}" "${D[@]}" --sources 0
if ! grep -q "^mpi       2 ranks" "$T/out"; then
  echo "FAIL: no distributed solve under mpirun -np 2 (built without MPI?)"
  sed 's/^/  /' "$T/out" "$T/err" | head -20
  exit 1
fi

# --sources x --targets: out of order, ranges, repeats, the last (short) panel.
# In place, targets that alternate between process columns (short runs) are
# assembled per process row; long runs (all targets, one process column) are
# written by each rank.
S=140-149,3,0,77,3,149,31-33
TG=149,0-5,31-33,5,100,64
for fmt in bin npy csv; do
  check "ref-sel-$fmt" 0 "$BIN" "${G[@]}" "${REF[@]}" --sources $S --targets $TG --output "$T/ref.$fmt"
  for np in $(cases 1 2 4); do
    run "sel-$fmt-np$np" 0 $np "${G[@]}" "${D[@]}" --sources $S --targets $TG --output "$T/m.$fmt" &&
      same "sel-$fmt-np$np" "$T/ref.$fmt" "$T/m.$fmt"
    # -np 1 is the distributed solve on a 1 x 1 grid (it takes what -np 2 takes)
    [ $np = 1 ] && expect "sel-$fmt-np1-distributed" grep -q "^mpi       1 ranks, 1 x 1 process grid" "$T/out"
  done
done
expect sel-csv-streamed grep -q "^output    .*(18 x 13, selected rows streamed to rank 0" "$T/out"
run sel-bin-mode 0 4 "${G[@]}" "${D[@]}" --sources $S --targets $TG --output "$T/m.bin" --json
expect sel-bin-in-place "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['output_mode']=='each process row assembled its selected rows, written in place', r
assert (r['rows'], r['cols'])==(18, 13), r
assert r['bytes_output_to_rank0']==0 and r['stats'] is None, r"
expect sel-no-temp sh -c "! ls '$T' | grep -q 'tmp'"
# Other grids (1x4: every column run is one rank's, 4x1, 1x3), standard output.
for g in 1x4 4x1; do
  run "sel-grid$g" 0 4 "${G[@]}" "${D[@]}" --grid $g --sources $S --targets $TG --output "$T/m.npy" &&
    same "sel-grid$g" "$T/ref.npy" "$T/m.npy"
done
run sel-np3-csv 0 3 "${G[@]}" "${D[@]}" --sources $S --targets $TG --output "$T/m.csv" &&
  same sel-np3-csv "$T/ref.csv" "$T/m.csv"
run sel-stdout-npy 0 4 "${G[@]}" "${D[@]}" --sources $S --targets $TG --output - --output-format npy &&
  same sel-stdout-npy "$T/ref.npy" "$T/out"
expect sel-stdout-report-on-stderr grep -q "^mpi       4 ranks" "$T/err"
# One of the two alone (the other: every vertex, in order), and @FILE.
printf '# rows\n149\n\n7\n7\n0 # first\n' >"$T/ids.txt"
check ref-src 0 "$BIN" "${G[@]}" "${REF[@]}" --sources @"$T/ids.txt" --output "$T/rs.npy"
run src-np2 0 2 "${G[@]}" "${D[@]}" --sources @"$T/ids.txt" --output "$T/ms.npy" && same src-np2 "$T/rs.npy" "$T/ms.npy"
expect src-np2-runs grep -q "^output    .*(4 x 150, each rank wrote its selected rows and columns)" "$T/out"
check ref-tgt 0 "$BIN" "${G[@]}" "${REF[@]}" --targets 140-149,0 --output "$T/rt.bin"
run tgt-np4 0 4 "${G[@]}" "${D[@]}" --targets 140-149,0 --output "$T/mt.bin" && same tgt-np4 "$T/rt.bin" "$T/mt.bin"
# The full matrix as npy on standard output (streamed): with its npy header.
check ref-full-npy 0 "$BIN" "${G[@]}" "${REF[@]}" --output "$T/rf.npy"
run full-stdout-npy 0 2 "${G[@]}" "${D[@]}" --output - --output-format npy &&
  same full-stdout-npy "$T/rf.npy" "$T/out"

# --stats: the same bytes as one process in every format and on every grid; the
# report's stats object is the single-process one.
for f in csv npy json; do
  check "ref-stats-$f" 0 "$BIN" "${G[@]}" "${REF[@]}" --stats "$T/ref_stats.$f"
done
check ref-stats-report 0 "$BIN" "${G[@]}" --algo fw --backend serial --stats "$T/rs.csv" --json
cp "$T/out" "$T/ref_report.json"
for case in $(cases "1:csv" "2:npy" "4:json" "3:csv" "4:csv"); do
  IFS=: read -r np f <<<"$case"
  run "stats-$f-np$np" 0 $np "${G[@]}" "${D[@]}" --stats "$T/s.$f" --json &&
    same "stats-$f-np$np" "$T/ref_stats.$f" "$T/s.$f"
  expect "stats-$f-np$np-report" "$PY" -c "
import json; a=json.load(open('$T/ref_report.json'))['stats']; b=json.load(open('$T/out'))['stats']
a.pop('file'); b.pop('file'); assert a==b, (a, b)"
done
run stats-grid4x1 0 4 "${G[@]}" "${D[@]}" --grid 4x1 --stats "$T/s.npy" && same stats-grid4x1 "$T/ref_stats.npy" "$T/s.npy"
expect stats-text-line grep -q "^stats     diameter .*, radius .*, reachable pairs [0-9]*, average shortest path .* (per vertex: $T/s.npy" "$T/out"
# Unreachable vertices (reach 1, closeness 0) and float32 distances.
for case in "sparse:--density 0.004" "float32:--type float32"; do
  IFS=: read -r name extra <<<"$case"
  check "ref-stats-$name" 0 "$BIN" "${G[@]}" $extra "${REF[@]}" --stats "$T/r_$name.csv"
  run "stats-$name-np4" 0 4 "${G[@]}" $extra "${D[@]}" --stats "$T/s_$name.csv" &&
    same "stats-$name-np4" "$T/r_$name.csv" "$T/s_$name.csv"
done
expect stats-sparse-unreachable "$PY" -c "
import csv; rows=list(csv.DictReader(open('$T/s_sparse.csv')))
assert any(r['reach']=='1' for r in rows) and any(int(r['reach'])>1 for r in rows), rows[:3]"
# --stats with --output: both, as one process writes them.
check ref-both 0 "$BIN" "${G[@]}" "${REF[@]}" --stats "$T/rb.json" --output "$T/rb.npy"
run both-np2 0 2 "${G[@]}" "${D[@]}" --stats "$T/mb.json" --output "$T/mb.npy" &&
  same both-np2-output "$T/rb.npy" "$T/mb.npy" && same both-np2-stats "$T/rb.json" "$T/mb.json"
# n = 1 (three of four ranks own nothing) and n = 33 (a one-vertex last panel).
for nn in 1 33; do
  check "ref-small-sel-n$nn" 0 "$BIN" --n $nn "${REF[@]}" --sources 0,$((nn - 1)),0 --targets $((nn - 1)),0,0 --output "$T/rn.bin"
  run "small-sel-n$nn-np4" 0 4 --n $nn "${D[@]}" --sources 0,$((nn - 1)),0 --targets $((nn - 1)),0,0 --output "$T/mn.bin" &&
    same "small-sel-n$nn-np4" "$T/rn.bin" "$T/mn.bin"
  check "ref-small-stats-n$nn" 0 "$BIN" --n $nn "${REF[@]}" --stats "$T/rn.csv"
  run "small-stats-n$nn-np4" 0 4 --n $nn "${D[@]}" --stats "$T/mn.csv" && same "small-stats-n$nn-np4" "$T/rn.csv" "$T/mn.csv"
done

# The OpenCL backend on PoCL (panels resident on the device, read back once):
# n = 300 on 3 x 3 panels of 128, selection and stats in one job each.
check ref-pocl-sel 0 "$BIN" --n 300 --negative "${REF[@]}" --sources 299,0-9,128 --targets 5-140,299 --output "$T/rp.npy"
run pocl-sel-np2 0 2 --n 300 --negative --device pocl --panel 128 --sources 299,0-9,128 --targets 5-140,299 \
  --output "$T/mp.npy" && same pocl-sel-np2 "$T/rp.npy" "$T/mp.npy"
expect pocl-sel-opencl grep -q "^backend   opencl" "$T/out"
check ref-pocl-stats 0 "$BIN" --n 300 --negative "${REF[@]}" --stats "$T/rp.csv"
run pocl-stats-np4 0 4 --n 300 --negative --device pocl --panel 128 --stats "$T/mp.csv" &&
  same pocl-stats-np4 "$T/rp.csv" "$T/mp.csv"

# Refusals: exit 2 on every rank, one error naming the token, no file.
for np in 1 2; do
  for spec in "--sources:3,abc:'abc' is not a vertex id" "--targets:9-2:range '9-2' is reversed" \
              "--sources:150:vertex '150' is out of range" "--targets:@$T/none.txt:cannot open"; do
    IFS=: read -r flag bad msg <<<"$spec"
    name="bad$flag-np$np-${bad//[^a-z0-9]/_}"
    run "$name" 2 $np "${G[@]}" "${D[@]}" "$flag" "$bad" --output "$T/bad.bin"
    expect "$name-message" grep -qF -- "error: $flag" "$T/err"
    expect "$name-names-token" grep -qF -- "$msg" "$T/err"
    expect "$name-once" test "$(grep -c '^error:' "$T/err")" = 1
  done
  run "stats-with-targets-np$np" 2 $np "${G[@]}" "${D[@]}" --stats "$T/bad.csv" --sources 1 --targets 2
  expect "stats-with-targets-np$np-message" grep -q "^error: --stats .*--targets" "$T/err"
  run "sources-with-paths-np$np" 2 $np "${G[@]}" "${D[@]}" --sources 1 --paths --output "$T/bad.bin"
  expect "sources-with-paths-np$np-message" grep -q "^error: --sources/--targets select rows" "$T/err"
  run "stats-extension-np$np" 2 $np "${G[@]}" "${D[@]}" --stats "$T/bad.txt"
  expect "stats-extension-np$np-message" grep -q "^error: --stats '$T/bad.txt'" "$T/err"
  run "stats-is-output-np$np" 2 $np "${G[@]}" "${D[@]}" --stats "$T/bad.csv" --output "$T/bad.csv"
  expect "stats-is-output-np$np-message" grep -q "^error: --output and --stats name the same file" "$T/err"
done
expect refusals-no-file sh -c "! ls '$T' | grep -q -e '^bad'"
# Failures after the solve leave nothing: a negative cycle (exit 3), a full device.
printf '0 1 1\n1 2 -5\n2 0 1\n2 3 1\n99 98 1\n' >"$T/cyc.edges"
run neg-cycle-sel 3 2 --input "$T/cyc.edges" "${D[@]}" --sources 0-3 --output "$T/cyc.bin"
run neg-cycle-stats 3 4 --input "$T/cyc.edges" "${D[@]}" --stats "$T/cyc.csv"
expect neg-cycle-no-file sh -c "! ls '$T' | grep -q '^cyc\.[bc]'"
mknod "$T/full" c 1 7 2>/dev/null && {
  run sel-full-np2 1 2 "${G[@]}" "${D[@]}" --sources 1-9 --output "$T/full" --output-format bin
  expect sel-full-np2-message grep -q "No space left" "$T/err"
  expect sel-full-np2-chardev test -c "$T/full"
}
expect failures-no-temp sh -c "! ls '$T' | grep -q 'tmp'"

finish_tests
