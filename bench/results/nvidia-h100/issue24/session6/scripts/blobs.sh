# Issue 24 sixth session: sssp_lanes time by the shape of a group's sources
# (row segments against 2-D blocks of the grid), 316 x 316 grid, rows of 32 864
# sources (104 grid rows), no output file; then counters (expansions).
B=build-gpu/ocl_sp; export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
K=316; ROWS=104
$B --n 200 --algo sssp --device nvidia --quiet >/dev/null
for s in "1 8" "2 4" "1 16" "4 4" "2 8" "4 8"; do set -- $s; python3 bench/sparse/blob_sources.py $K $ROWS $1 $2 > /tmp/src_$1x$2.txt; done
one() { # LABEL SHAPE LANES [more options]
  local label=$1 shape=$2 lanes=$3; shift 3
  $B --generator grid --n $((K*K)) --algo sssp --device nvidia --sources @/tmp/src_$shape.txt --param LANES=$lanes --param DELTA=400 "$@" --json --quiet > $OUT/$label.json 2>$OUT/$label.err
  echo "[$label] $(python3 -c "import json; r=json.load(open('$OUT/$label.json')); print('lanes', round(r['kernel_seconds']['sssp_lanes'],4), 'total', round(r['total'],3), r['placement'])")"
}
for rep in 1 2; do
  one L8_1x8_$rep 1x8 8
  one L8_2x4_$rep 2x4 8
  one L16_1x16_$rep 1x16 16
  one L16_4x4_$rep 4x4 16
  one L16_2x8_$rep 2x8 16
  one L16_4x4_wg256_$rep 4x4 16 --param LANE_WG=256
  one L32_4x8_$rep 4x8 32 --param LANE_WG=64
done
# groups in flight: L8 1x8 with launches limited by device memory
one L8_1x8_mem3G 1x8 8 --device-memory 3G
one L8_1x8_mem1G 1x8 8 --device-memory 1G
# counters: expansions of the first and middle group
export OCL_SP_EXTRA_BUILD_OPTIONS=-DLANE_COUNTERS OCL_SP_LANE_COUNTERS=1
for s in "1x8 8" "2x4 8" "1x16 16" "4x4 16" "2x8 16" "4x8 32"; do set -- $s
  one cnt_$1_L$2 $1 $2; grep -i -E "group|expan|round" $OUT/cnt_$1_L$2.err | head -4
done
