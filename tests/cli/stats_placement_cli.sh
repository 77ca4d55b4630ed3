#!/usr/bin/env bash
# --stats gives the same bytes on every placement (DESIGN.md "Same bits on every
# placement"): the per-vertex CSV (closeness and harmonic sums included) of one
# geometric graph on the serial and OpenMP backends, fw and sssp, one PoCL device,
# PoCL split in 2 (the column sums handed from device to device in source order)
# and other batch sizes, byte for byte.
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
# Several launches on two devices really ran (the report names both).
check split2-report 0 "$BIN" "${G[@]}" --device pocl --split 2 --algo sssp --param BATCH=64 --stats "$T/r.csv" --json
expect split2-two-devices grep -q "on 2 devices" "$T/out"

finish_tests
