#!/usr/bin/env bash
# Rows through the lanes engine (sources side by side, transposed on the device,
# streamed through the pinned slots) are the bytes of every other engine: the
# streamed .bin files of a grid (169 vertices), a random and a geometric graph (n
# not a multiple of 4, 8, 16 or the batch), a disconnected one and one with
# negative weights (Johnson) on PoCL with LANES=4, 8 (batches of 16 and 32), 16,
# one source a group (LANES=1) and --split 2, equal the serial engine's byte for
# byte, the OpenMP engine's and (int32) fw's; float32 and float64 rows the same
# bits; --sources with repeats and --targets select the same slice. Every row of
# the grid differs from every other (a dropped or swapped lane changes the file).
# Usage: rows_lanes_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy

graphs=(
  "grid|--generator grid --n 170"
  "random|--generator random --degree 6 --n 203"
  "geometric|--generator geometric --degree 6 --n 197"
  "disconnected|--generator random --degree 1 --n 150"
  "negative|--generator random --degree 4 --n 131 --negative"
)
for entry in "${graphs[@]}"; do
  name=${entry%%|*}
  read -r -a G <<<"${entry#*|}"
  types="int32"
  case $name in grid | random | negative) types="int32 float32 float64" ;; esac
  for type in $types; do
    A=("${G[@]}" --type "$type")
    ref="$T/$name-$type.bin"
    rows_to "$name $type serial" "$ref" "${A[@]}" --algo sssp --backend serial || continue
    same_rows "$name $type openmp" "$ref" "${A[@]}" --algo sssp --backend openmp
    [ "$type" = int32 ] && same_rows "$name $type fw" "$ref" "${A[@]}" --algo fw --backend serial
    same_rows "$name $type pocl LANES=1" "$ref" "${A[@]}" --algo sssp --device pocl --param LANES=1
    same_rows "$name $type pocl LANES=8 BATCH=16" "$ref" "${A[@]}" --algo sssp --device pocl --param LANES=8 \
      --param BATCH=16
    same_rows "$name $type pocl LANES=8 split 2" "$ref" "${A[@]}" --algo sssp --device pocl --param LANES=8 --split 2
    if [ "$type" = int32 ]; then
      same_rows "$name $type pocl LANES=4 BATCH=32" "$ref" "${A[@]}" --algo sssp --device pocl --param LANES=4 \
        --param BATCH=32
      same_rows "$name $type pocl LANES=16" "$ref" "${A[@]}" --algo sssp --device pocl --param LANES=16
    fi
  done
done
# The grid's rows are pairwise different (the check above has teeth: a lane
# dropped or swapped by the transpose changes the file) and have zeros on the diagonal.
expect "grid rows pairwise different" "$PY" -c "
import numpy as np, sys
r = np.fromfile('$T/grid-int32.bin', dtype='<i4').reshape(169, 169)
sys.exit(0 if len({x.tobytes() for x in r}) == 169 and (np.diag(r) == 0).all() else 1)"
# A selection: sources with repeats, out of order, across a group's seam; targets
# with a repeat. Lanes (8, batches of 16) and split equal the serial selection.
for type in int32 float64; do
  S=(--generator grid --n 170 --type "$type" --algo sssp --sources "9,3,3,160-168,0,77" --targets "17,0,17,168")
  rows_to "select $type serial" "$T/sel-$type.bin" "${S[@]}" --backend serial || continue
  same_rows "select $type pocl LANES=8" "$T/sel-$type.bin" "${S[@]}" --device pocl --param LANES=8 --param BATCH=16
  same_rows "select $type pocl split 2" "$T/sel-$type.bin" "${S[@]}" --device pocl --split 2 --param LANES=8
  same_rows "select $type pocl LANES=1" "$T/sel-$type.bin" "${S[@]}" --device pocl --param LANES=1
done
expect "select: 14 x 4 values" test "$(stat -c %s "$T/sel-int32.bin")" = $((14 * 4 * 4))
# The placement line says rows went through lanes.
check "placement" 0 "$BIN" --generator grid --n 170 --algo sssp --device pocl --param LANES=8 --json \
  --output "$T/p.bin"
expect "placement: rows transposed on the device" grep -q "8 sources a group, rows transposed on the device" "$T/out"
# The default's reasons: geometric searches are deep, random ones shallow (their
# rows stay in the cache here: a source a group either way on a CPU device).
check "geometric default" 0 "$BIN" --generator geometric --degree 6 --n 20000 --sources 0-3 --algo sssp --device pocl --json
expect "geometric: searches deep" grep -q "a source a group: mean degree 7.[0-9]* > 5, searches deep" "$T/out"
check "random default" 0 "$BIN" --generator random --degree 8 --n 3000 --algo sssp --device pocl --json
expect "random: searches shallow" grep -q "a source a group: mean degree 8.[0-9]* > 5, searches shallow" "$T/out"
finish_tests
