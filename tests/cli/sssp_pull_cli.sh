#!/usr/bin/env bash
# Pull rounds of the lanes engine (PULL, kernels/sssp_pull.cl) change no byte:
# with PULL=1 every near round of these small graphs whose queue holds more than
# 1 % of n (2 vertices or more) runs over the in-edges, with PULL=10 the wide
# ones, the rest push; PULL=100 never pulls. The streamed rows of a dense random
# graph (degree 20), a sparse one, a grid, a geometric graph (n not a multiple of
# 8 or the batch), a disconnected one and one with negative weights (Johnson) on
# PoCL in 8 lanes (batches of 16, --split 2, the tags instead of the __local
# set), 4 and 16 lanes equal the serial engine's byte for byte (int32, int64,
# float32, float64); --stats and --stats --betweenness files equal the serial
# engine's, and --stats with the default (pull rounds past half the vertices). A pull round that drops or misplaces a lane's candidate, or queues a
# head wrongly, changes these files (a kernel with one lane's relaxation left out
# fails the dense graph's rows).
# Usage: sssp_pull_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

graphs=(
  "dense|--generator random --degree 20 --n 203"
  "sparse|--generator random --degree 6 --n 203"
  "grid|--generator grid --n 170"
  "geometric|--generator geometric --degree 6 --n 197"
  "disconnected|--generator random --degree 1 --n 150"
  "negative|--generator random --degree 4 --n 131 --negative"
)
for entry in "${graphs[@]}"; do
  name=${entry%%|*}
  read -r -a G <<<"${entry#*|}"
  types="int32"
  case $name in dense) types="int32 int64 float32 float64" ;; grid | negative) types="int32 float32" ;; esac
  for type in $types; do
    A=("${G[@]}" --type "$type" --algo sssp)
    ref="$T/$name-$type.bin"
    rows_to "$name $type serial" "$ref" "${A[@]}" --backend serial || continue
    same_rows "$name $type PULL=1 BATCH=16" "$ref" "${A[@]}" --device pocl --param LANES=8 --param PULL=1 --param BATCH=16
    same_rows "$name $type PULL=10" "$ref" "${A[@]}" --device pocl --param LANES=8 --param PULL=10
    same_rows "$name $type PULL=1 split 2" "$ref" "${A[@]}" --device pocl --param LANES=8 --param PULL=1 --split 2
    if [ "$type" = int32 ]; then
      OCL_SP_LANE_SET=0 same_rows "$name $type PULL=1 tags" "$ref" "${A[@]}" --device pocl --param LANES=8 --param PULL=1
      same_rows "$name $type PULL=1 LANES=4" "$ref" "${A[@]}" --device pocl --param LANES=4 --param PULL=1
      same_rows "$name $type PULL=1 LANES=16" "$ref" "${A[@]}" --device pocl --param LANES=16 --param PULL=1
    fi
  done
done
# --stats (every vertex a source, rows and columns reduced on the device) the
# same bytes as the serial engine's.
for type in int32 float32; do
  S=(--generator random --degree 20 --n 203 --type "$type" --algo sssp)
  check "stats $type serial" 0 "$BIN" "${S[@]}" --backend serial --stats "$T/stats-$type.csv" || continue
  check "stats $type PULL=1" 0 "$BIN" "${S[@]}" --device pocl --param PULL=1 --stats "$T/s.csv" &&
    expect "stats $type PULL=1: same bytes" cmp -s "$T/s.csv" "$T/stats-$type.csv"
done
# The default (PULL=0) pulls past half the vertices on shallow searches of a mean
# degree above 5: --stats of a random graph of degree 20 (its depth measured,
# every vertex a source in lanes) the serial engine's bytes.
D=(--generator random --degree 20 --n 1000 --type int32 --algo sssp)
if check "default stats serial" 0 "$BIN" "${D[@]}" --backend serial --stats "$T/d.csv"; then
  check "default stats pocl" 0 "$BIN" "${D[@]}" --device pocl --stats "$T/dp.csv" &&
    expect "default stats: same bytes" cmp -s "$T/dp.csv" "$T/d.csv"
fi
# --stats --betweenness (Brandes' passes over rows in lanes) the same bytes.
B=(--generator random --degree 20 --n 203 --algo sssp)
if check "betweenness serial" 0 "$BIN" "${B[@]}" --backend serial --stats "$T/bc.csv" --betweenness; then
  check "betweenness PULL=1" 0 "$BIN" "${B[@]}" --device pocl --param LANES=8 --param PULL=1 --stats "$T/b.csv" \
    --betweenness && expect "betweenness PULL=1: same bytes" cmp -s "$T/b.csv" "$T/bc.csv"
fi
# The placement line says where lanes pull; PULL=100 never does (same bytes).
check "placement" 0 "$BIN" --generator random --degree 20 --n 203 --algo sssp --device pocl --param LANES=8 \
  --param PULL=20 --json --output "$T/p.bin"
expect "placement: pull rounds" grep -q "rows transposed on the device, pull rounds past 20% of the vertices" "$T/out"
check "PULL=100" 0 "$BIN" --generator random --degree 20 --n 203 --type int32 --algo sssp --device pocl \
  --param LANES=8 --param PULL=100 --json --output "$T/p.bin"
expect "PULL=100: same bytes" cmp -s "$T/p.bin" "$T/dense-int32.bin"
expect "PULL=100: no pull rounds" grep -q "rows transposed on the device: LANES=8" "$T/out"
# A value outside the tunable's set is refused.
check "PULL=7 refused" 2 "$BIN" --generator random --degree 20 --n 50 --algo sssp --device pocl --param PULL=7
finish_tests
