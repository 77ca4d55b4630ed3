#!/usr/bin/env bash
# --stats gives the same bytes on every placement (DESIGN.md "Same bits on every
# placement"): the per-vertex CSV (closeness and harmonic sums included) of one
# geometric graph on the serial and OpenMP backends, fw and sssp, one PoCL device,
# PoCL split in 2 (the column sums handed from device to device in source order)
# and other batch sizes, byte for byte. Real-valued weights too (float64 and
# float32, a directed and a symmetric graph): every placement's closeness and
# harmonic are the forward rows' distances (path order from the source) summed
# in source order, never the reversed graph's (other rounding).
# Usage: stats_placement_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

G=(--generator geometric --n 3000 --quiet)
check serial 0 "$BIN" "${G[@]}" --backend serial --algo sssp --stats "$T/serial.csv"
expect serial-file test -s "$T/serial.csv"
same() {  # NAME ARGS...: the run's CSV equals the serial one
  local name=$1; shift
  check "$name" 0 "$BIN" "${G[@]}" "$@" --stats "$T/$name.csv" || return
  expect "$name-same-bytes" cmp -s "$T/$name.csv" "$T/serial.csv"
}
same openmp-sssp --backend openmp --algo sssp
same openmp-fw --backend openmp --algo fw
same pocl --device pocl --algo sssp
same pocl-fw --device pocl --algo fw
same pocl-split2 --device pocl --split 2 --algo sssp
same pocl-split2-batch64 --device pocl --split 2 --algo sssp --param BATCH=64
same pocl-split2-batch1024 --device pocl --split 2 --algo sssp --param BATCH=1024
same pocl-batch256 --device pocl --algo sssp --param BATCH=256
# Many launches a device and one lane set a device: the next search queued before a
# launch's turn (two sets) or after it (one set), the sums in source order.
same pocl-split2-batch16 --device pocl --split 2 --algo sssp --param BATCH=16
check pocl-split2-one-set 0 env OCL_SP_LANE_SETS=1 "$BIN" "${G[@]}" --device pocl --split 2 --algo sssp \
  --param BATCH=64 --stats "$T/one_set.csv" &&
  expect pocl-split2-one-set-same-bytes cmp -s "$T/one_set.csv" "$T/serial.csv"
# One source a group: each row's harmonic sum reduced on the device, added in
# vertex order a chunk of the work-group's reads at a time (sssp_figures.cl group_figures).
same pocl-lanes1 --device pocl --algo sssp --param LANES=1
# A directed graph, int64 and int32: the rows' figures (with the harmonic sums of
# the reversed graph's rows, n not a multiple of the work-group's chunk) and the
# summary's sums in the .json file, equal to the serial backend's on both engines.
for type in int32 int64; do
  D=(--generator random --degree 3 --n 1999 --type "$type" --algo sssp --quiet)
  check "directed $type serial" 0 "$BIN" "${D[@]}" --backend serial --stats "$T/d-$type.json" || continue
  for lanes in 1 8; do
    check "directed $type lanes$lanes" 0 "$BIN" "${D[@]}" --device pocl --param LANES=$lanes --stats "$T/d.json" &&
      expect "directed $type lanes$lanes: same bytes" cmp -s "$T/d.json" "$T/d-$type.json"
  done
done
# Several launches on two devices really ran (the report names both).
check split2-report 0 "$BIN" "${G[@]}" --device pocl --split 2 --algo sssp --param BATCH=64 --stats "$T/r.csv" --json
expect split2-two-devices grep -q "on 2 devices" "$T/out"

# Fractional weights: a directed graph of 500 vertices, a cycle through them and
# 3 more out-edges each, and the same edges both ways.
write_fractional_edges "$T/real.edges" "$T/real_sym.edges" 500 12345 7 997
expect "real weights: fractional" grep -q '\.[0-9]*[1-9]' "$T/real.edges"
for graph in real real_sym; do
  for type in float64 float32; do
    R=(--input "$T/$graph.edges" --type "$type" --algo sssp --quiet)
    ref="$T/$graph-$type-serial.csv"
    check "$graph $type serial" 0 "$BIN" "${R[@]}" --backend serial --stats "$ref" || continue
    expect "$graph $type: a column has a fraction" grep -q '^1,500,[0-9.]*,0\.[0-9]*[1-9]' "$ref"
    real_same() {  # NAME ARGS...: the run's CSV equals the serial one
      local name="$graph $type $1"; shift
      check "$name" 0 "$@" --stats "$T/x.csv" || return
      expect "$name: same bytes" cmp -s "$T/x.csv" "$ref"
    }
    real_same openmp "$BIN" "${R[@]}" --backend openmp
    real_same pocl "$BIN" "${R[@]}" --device pocl
    real_same pocl-split2 "$BIN" "${R[@]}" --device pocl --split 2
    real_same pocl-split2-batch64 "$BIN" "${R[@]}" --device pocl --split 2 --param BATCH=64
    real_same pocl-batch32 "$BIN" "${R[@]}" --device pocl --param BATCH=32
    # One source a group: rows reduced on the device in vertex order, columns
    # gathered from the rows on the host (never the reversed graph's rows).
    real_same pocl-lanes1 "$BIN" "${R[@]}" --device pocl --param LANES=1
    real_same pocl-on-host env OCL_SP_STATS_ON_HOST=1 "$BIN" "${R[@]}" --device pocl
    real_same openmp-on-host env OCL_SP_STATS_ON_HOST=1 "$BIN" "${R[@]}" --backend openmp
  done
done
check "real weights: the CPU's note" 0 "$BIN" --input "$T/real.edges" --type float64 --algo sssp --backend serial \
  --stats "$T/n.csv"
expect "real weights: columns gathered from the forward rows" grep -q "gathered from the rows on the host (one pass)" "$T/out"
expect "real weights: no reversed pass" sh -c "! grep -q 'second pass' '$T/out'"

finish_tests
