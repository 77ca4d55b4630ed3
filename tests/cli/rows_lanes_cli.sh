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
# Rows in 16 lanes of their own program (ROW_LANES=16, the GPUs' default for
# shallow searches) against OpenMP, fw and the 8-lane program (at the end).
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
# Rows in a program of their own (ROW_LANES=16: 16 sources a group, --stats and
# betweenness keep LANES' 8), as GPUs take them by default for shallow searches
# of a mean degree past 5: random degree 20, n = 1003 (not a multiple of 16).
# int32 rows equal the OpenMP engine's and fw's byte for byte, alone, beside
# LANES=8, in batches of 32 with one group a buffer and launches read back in
# parts of 5 sources (seams), split in two; float32, float64 and int64 rows the
# bits of the 8-lane program; source lists of 17 and 33 (one past whole groups of
# 16, repeats, out of order); --stats the same bytes, also fed by these rows.
R=(--generator random --degree 20 --n 1003)
if rows_to "r20 int32 openmp" "$T/r20.bin" "${R[@]}" --algo sssp --backend openmp; then
  same_rows "r20 int32 fw" "$T/r20.bin" "${R[@]}" --algo fw --backend openmp
  same_rows "r20 int32 ROW_LANES=16" "$T/r20.bin" "${R[@]}" --algo sssp --device pocl --param ROW_LANES=16
  same_rows "r20 int32 ROW_LANES=16 LANES=8" "$T/r20.bin" "${R[@]}" --algo sssp --device pocl --param LANES=8 \
    --param ROW_LANES=16
  OCL_SP_LANE_GROUPS_PER_BUFFER=1 OCL_SP_LANE_SLOT_SOURCES=5 same_rows "r20 int32 ROW_LANES=16 seams" "$T/r20.bin" \
    "${R[@]}" --algo sssp --device pocl --param ROW_LANES=16 --param BATCH=32
  same_rows "r20 int32 ROW_LANES=16 split 2" "$T/r20.bin" "${R[@]}" --algo sssp --device pocl --param ROW_LANES=16 \
    --split 2
fi
# Two devices deal launches of whole parts (5 sources here) in turn: the busiest
# takes less than one launch more than the other (990 sources in 33 launches of
# 30 gave 510 and 480; launches of 15, 495 each).
R990=(--generator random --degree 20 --n 990)
if rows_to "r20 n=990 openmp" "$T/r990.bin" "${R990[@]}" --algo sssp --backend openmp; then
  OCL_SP_PROFILE=1 OCL_SP_LANE_SLOT_SOURCES=5 same_rows "r20 n=990 ROW_LANES=16 split 2" "$T/r990.bin" "${R990[@]}" \
    --algo sssp --device pocl --param ROW_LANES=16 --split 2 &&
    expect "r20 n=990 split 2: launches dealt evenly" awk '
      /profile: sssp: rows in lanes, launches of/ {
        per = $8 + 0; a = substr($13, 2) + 0; b = $14 + 0; seen = 1
        d = a > b ? a - b : b - a
        if (d >= per) bad = 1
      }
      END { exit !(seen && !bad) }' "$T/err"
fi
for type in float32 float64 int64; do
  rows_to "r20 $type LANES=8" "$T/r20-$type.bin" "${R[@]}" --type "$type" --algo sssp --device pocl --param LANES=8 ||
    continue
  same_rows "r20 $type ROW_LANES=16" "$T/r20-$type.bin" "${R[@]}" --type "$type" --algo sssp --device pocl \
    --param ROW_LANES=16
done
for list in "5,1002,5,16-28,999" "0-31,1002"; do
  S=("${R[@]}" --algo sssp --sources "$list")
  rows_to "r20 sources $list openmp" "$T/r20-s.bin" "${S[@]}" --backend openmp || continue
  same_rows "r20 sources $list ROW_LANES=16" "$T/r20-s.bin" "${S[@]}" --device pocl --param ROW_LANES=16
  same_rows "r20 sources $list ROW_LANES=16 split 2" "$T/r20-s.bin" "${S[@]}" --device pocl --param ROW_LANES=16 \
    --split 2
done
expect "r20 sources: 33 rows" test "$(stat -c %s "$T/r20-s.bin")" = $((33 * 1003 * 4))
if check "r20 stats" 0 "$BIN" "${R[@]}" --algo sssp --device pocl --stats "$T/s8.csv"; then
  check "r20 stats ROW_LANES=16" 0 "$BIN" "${R[@]}" --algo sssp --device pocl --param ROW_LANES=16 --stats "$T/s16.csv" &&
    expect "r20 stats ROW_LANES=16: same bytes" cmp -s "$T/s8.csv" "$T/s16.csv"
  expect "r20 stats: figures in 8 lanes" grep -q "sources side by side, 8 a group" "$T/out"
fi
S=("${R[@]}" --algo sssp --sources 0-32 --stats)
if check "r20 stats sources" 0 "$BIN" "${S[@]}" "$T/ss.csv" --backend openmp --output "$T/ss.bin"; then
  check "r20 stats sources ROW_LANES=16" 0 "$BIN" "${S[@]}" "$T/ss16.csv" --device pocl --param ROW_LANES=16 \
    --output "$T/ss16.bin" &&
    expect "r20 stats sources ROW_LANES=16: same bytes" cmp -s "$T/ss.csv" "$T/ss16.csv" &&
    expect "r20 stats sources ROW_LANES=16: same rows" cmp -s "$T/ss.bin" "$T/ss16.bin"
fi
# The placement line names the rows' own program.
check "r20 placement" 0 "$BIN" "${R[@]}" --algo sssp --device pocl --param ROW_LANES=16 --output "$T/p.bin"
expect "r20 placement: 16 lanes, the rows' own program" grep -q "16 sources a group, rows transposed on the \
device (the rows' own program, groups of 64 work-items; 8 for figures): ROW_LANES=16" "$T/out"
finish_tests
