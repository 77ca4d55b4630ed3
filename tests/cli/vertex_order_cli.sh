#!/usr/bin/env bash
# Vertex ids with locality (ORDER, graph/vertex_order.hpp): where the device
# engine runs a source a group, deep searches (a geometric graph) of at least
# sssp_order_min_sources(n) sources (any count with ORDER=2) run on the graph
# renumbered (the order made and the graph renumbered on the device) and each row
# goes back to the input's vertex order on the device. Every row, figure and path must be the bytes of the engine without it
# (ORDER=1) and of the CPU engines, on one device and split in two, in every
# value type, through both near-far kernels (one queue buffer or several), with
# negative weights (Johnson), unreachable vertices, n = 1, and beside the paths
# that take the graph as given (lanes, betweenness).
# Usage: vertex_order_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

GEO=(--generator geometric --n 6000 --algo sssp)
SRC=(--sources 5,0,5999,17-60,3000,100-399)

# Rows: ORDER=2 renumbers these 350 sources (the default waits for more) and
# says so; the default and ORDER=1 do not.
check "geometric: openmp rows" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" --backend openmp --output "$T/ref.bin"
for dev in "--device pocl" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "geometric $dev ORDER=2: renumbered" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" $dev --param ORDER=2 \
    --output "$T/new.bin" &&
    expect "geometric $dev: the placement says so" grep -q "a source a group, vertex ids with locality" "$T/out" &&
    expect "geometric $dev: openmp's bytes" cmp -s "$T/ref.bin" "$T/new.bin"
done
for order in 0 1; do
  check "geometric ORDER=$order: as given" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" --device pocl --param ORDER=$order \
    --output "$T/ids.bin" &&
    expect "ORDER=$order: no renumbering said" bash -c "! grep -q 'vertex ids with locality' '$T/out'" &&
    expect "ORDER=$order: openmp's bytes" cmp -s "$T/ref.bin" "$T/ids.bin"
done
# The threshold (OCL_SP_ORDER_MIN_SOURCES for experiments) lets the default renumber.
check "geometric, 350 sources past a threshold of 300" 0 env OCL_SP_ORDER_MIN_SOURCES=300 "$BIN" "${GEO[@]}" \
  "${SRC[@]}" --device pocl --output "$T/thr.bin" &&
  expect "threshold 300: renumbered" grep -q "vertex ids with locality" "$T/out" &&
  expect "threshold 300: openmp's bytes" cmp -s "$T/ref.bin" "$T/thr.bin"

# Renumbered searches in groups of their own size (ORDER_WG: a program of the
# near-far kernels alone), through one queue buffer and several, on one device
# and split in two, with the part slots' seams (launches of 3-source parts): the
# placement says so, the rows are OpenMP's; without renumbering the groups are
# WG's.
for wg in $(cases 32 128 256); do
  for dev in "--device pocl" "--device pocl --split 2"; do
    # shellcheck disable=SC2086
    check "ORDER_WG=$wg $dev" 0 env OCL_SP_LANE_SLOT_SOURCES=3 "$BIN" "${GEO[@]}" "${SRC[@]}" $dev --param ORDER=2 \
      --param ORDER_WG=$wg --output "$T/owg.bin" &&
      expect "ORDER_WG=$wg $dev: the placement says so" grep -q "vertex ids with locality (.*), groups of $wg work-items" "$T/out" &&
      expect "ORDER_WG=$wg $dev: openmp's bytes" cmp -s "$T/ref.bin" "$T/owg.bin"
  done
done
check "ORDER_WG=128, queues in several buffers" 0 env OCL_SP_SOURCES_PER_BUFFER=7 "$BIN" "${GEO[@]}" "${SRC[@]}" \
  --device pocl --param ORDER=2 --param ORDER_WG=128 --output "$T/owb.bin" &&
  expect "ORDER_WG=128 several buffers: openmp's bytes" cmp -s "$T/ref.bin" "$T/owb.bin"
check "ORDER_WG=128 as given" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" --device pocl --param ORDER=1 --param ORDER_WG=128 \
  --output "$T/owi.bin" &&
  expect "ORDER_WG=128 as given: WG's groups" bash -c "! grep -q 'groups of 128 work-items' '$T/out'" &&
  expect "ORDER_WG=128 as given: openmp's bytes" cmp -s "$T/ref.bin" "$T/owi.bin"

# The order's searches breadth first on the device (sssp_order_hops) and on the
# host (hop_distances, the graph renumbered there): the same order (its
# fingerprint in the profile), the same rows.
for where in device host; do
  check "geometric, the order's searches on the $where" 0 env OCL_SP_ORDER_SEARCHES=$where OCL_SP_PROFILE=1 \
    "$BIN" "${GEO[@]}" "${SRC[@]}" --device pocl --param ORDER=2 --output "$T/$where.bin" &&
    expect "$where searches: renumbered" grep -q "vertex ids with locality" "$T/out" &&
    expect "$where searches: openmp's bytes" cmp -s "$T/ref.bin" "$T/$where.bin" &&
    grep -o 'vertex order (fingerprint [0-9a-f]*)' "$T/err" > "$T/$where.order"
done
expect "the order's searches: a fingerprint in the profile" test -s "$T/device.order"
expect "the order's searches: one order on the device and on the host" cmp -s "$T/device.order" "$T/host.order"

# Every value type: the renumbered rows are the bytes of the rows as given.
for type in $(cases int64 float32 float64); do
  check "geometric $type ORDER=1" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" --device pocl --type $type --param ORDER=1 \
    --output "$T/a.bin" &&
    check "geometric $type renumbered" 0 "$BIN" "${GEO[@]}" "${SRC[@]}" --device pocl --type $type \
      --param ORDER=2 --output "$T/b.bin" &&
    expect "geometric $type: same bytes" cmp -s "$T/a.bin" "$T/b.bin"
done

# The launch's queues in several buffers (sssp_near_far_bufs): 7 sources a buffer.
check "geometric, queues in several buffers" 0 env OCL_SP_SOURCES_PER_BUFFER=7 "$BIN" "${GEO[@]}" "${SRC[@]}" \
  --device pocl --param ORDER=2 --output "$T/bufs.bin" &&
  expect "several buffers: openmp's bytes" cmp -s "$T/ref.bin" "$T/bufs.bin"

# --stats: integers of a symmetric deep graph in one pass a source a group; its
# 6000 sources are below the default's threshold at n = 6000 (4096 (10^5 /
# n)^0.9, about 52 000), and past a threshold of 5000 renumbered; float32 in
# lanes (the graph as given).
check "geometric --stats openmp" 0 "$BIN" "${GEO[@]}" --backend openmp --stats "$T/s_ref.csv"
check "geometric --stats, 6000 sources at n = 6000" 0 "$BIN" "${GEO[@]}" --device pocl --stats "$T/s0.csv" &&
  expect "--stats at n = 6000: below the threshold, as given" bash -c "! grep -q 'vertex ids with locality' '$T/out'" &&
  expect "--stats as given: openmp's bytes" cmp -s "$T/s_ref.csv" "$T/s0.csv"
check "geometric --stats renumbered" 0 env OCL_SP_ORDER_MIN_SOURCES=5000 "$BIN" "${GEO[@]}" --device pocl \
  --stats "$T/s.csv" &&
  expect "--stats: renumbered past the threshold" grep -q "vertex ids with locality" "$T/out" &&
  expect "--stats: openmp's bytes" cmp -s "$T/s_ref.csv" "$T/s.csv"
# Row figures of a renumbered search (its rows back in the input's order first:
# harmonic and floating sums in vertex order): every type in a source a group.
for type in $(cases int32 int64 float32 float64); do
  check "geometric $type --stats LANES=1 ORDER=1" 0 "$BIN" "${GEO[@]}" --device pocl --type $type --param LANES=1 \
    --param ORDER=1 --stats "$T/fa.csv" "${SRC[@]}"
  for dev in "--device pocl" "--device pocl --split 2"; do
    # shellcheck disable=SC2086
    check "geometric $type --stats LANES=1 ORDER=2 $dev" 0 "$BIN" "${GEO[@]}" $dev --type $type --param LANES=1 \
      --param ORDER=2 --stats "$T/fb.csv" "${SRC[@]}" &&
      expect "$type --stats $dev: renumbered" grep -q "vertex ids with locality" "$T/out" &&
      expect "$type --stats $dev: the bytes as given" cmp -s "$T/fa.csv" "$T/fb.csv"
  done
done
check "geometric float32 --stats ORDER=1" 0 "$BIN" "${GEO[@]}" --device pocl --type float32 --param ORDER=1 \
  --stats "$T/f1.csv"
check "geometric float32 --stats" 0 "$BIN" "${GEO[@]}" --device pocl --type float32 --stats "$T/f2.csv" &&
  expect "float32 --stats: same bytes" cmp -s "$T/f1.csv" "$T/f2.csv"
# Rows and --stats from one engine (the Python module's session: rows renumbered,
# then lanes for float figures) are covered by the unit tests; betweenness takes
# the graph as given.
check "geometric betweenness openmp" 0 "$BIN" --generator geometric --n 3000 --algo sssp --backend openmp \
  --stats "$T/b_ref.csv" --betweenness
check "geometric betweenness pocl" 0 "$BIN" --generator geometric --n 3000 --algo sssp --device pocl \
  --stats "$T/b.csv" --betweenness &&
  expect "betweenness: openmp's bytes" cmp -s "$T/b_ref.csv" "$T/b.csv"

# ORDER=2: renumbered wherever rows run a source a group (LANES=1), any graph.
# Negative weights (Johnson) with paths checked; unreachable vertices (a graph
# in two parts and isolated ids); n = 1.
awk 'BEGIN { k = 23; for (r = 0; r < k; r++) for (c = 0; c < k; c++) { v = r * k + c;
  if (c + 1 < k) { print v, v + 1, (v * 7) % 5 - 1; print v + 1, v, (v * 3) % 4 + 1 }
  if (r + 1 < k) { print v, v + k, (v * 11) % 6; print v + k, v, 2 } } }' >"$T/neg.txt"
check "negative weights: fw" 0 "$BIN" --input "$T/neg.txt" --algo fw --backend serial --output "$T/neg_ref.bin"
for dev in "--device pocl" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "negative weights ORDER=2 $dev" 0 "$BIN" --input "$T/neg.txt" --algo sssp $dev --param ORDER=2 \
    --param LANES=1 --paths --verify --output "$T/neg.bin" &&
    expect "negative weights $dev: renumbered" grep -q "vertex ids with locality" "$T/out" &&
    expect "negative weights $dev: fw's bytes" cmp -s "$T/neg_ref.bin" "$T/neg.bin"
done
{
  echo "# two parts and unreached ids"
  for i in $(seq 0 40); do echo "$i $(((i + 1) % 41)) $((i % 7 + 1))"; done
  for i in $(seq 50 90); do echo "$i $((i + 1)) 3"; echo "$((i + 1)) $i 4"; done
  echo "99 98 1"
} >"$T/parts.txt"
check "parts: fw" 0 "$BIN" --input "$T/parts.txt" --algo fw --backend serial --output "$T/parts_ref.bin"
check "parts ORDER=2" 0 "$BIN" --input "$T/parts.txt" --algo sssp --device pocl --param ORDER=2 --param LANES=1 \
  --output "$T/parts.bin" &&
  expect "parts: renumbered" grep -q "vertex ids with locality" "$T/out" &&
  expect "parts: fw's bytes" cmp -s "$T/parts_ref.bin" "$T/parts.bin"
# A chain of 400 vertices in scrambled ids: searches of 399 levels (the device's
# runs of 64 launches end past the last level many times over), the order the
# host's.
awk 'BEGIN { for (i = 0; i < 399; i++) { a = (i * 151) % 400; b = ((i + 1) * 151) % 400;
  print a, b, i % 9 + 1; print b, a, i % 5 + 1 } }' >"$T/chain.txt"
check "chain: openmp" 0 "$BIN" --input "$T/chain.txt" --algo sssp --backend openmp --output "$T/chain_ref.bin"
for where in device host; do
  check "chain ORDER=2, searches on the $where" 0 env OCL_SP_ORDER_SEARCHES=$where OCL_SP_PROFILE=1 "$BIN" \
    --input "$T/chain.txt" --algo sssp --device pocl --param ORDER=2 --param LANES=1 --output "$T/chain.bin" &&
    expect "chain $where: openmp's bytes" cmp -s "$T/chain_ref.bin" "$T/chain.bin" &&
    grep -o 'vertex order (fingerprint [0-9a-f]*)' "$T/err" > "$T/chain_$where.order"
done
expect "chain: one order on the device and on the host" cmp -s "$T/chain_device.order" "$T/chain_host.order"
echo "0 0 5" >"$T/one.txt"
check "n = 1: fw" 0 "$BIN" --input "$T/one.txt" --algo fw --backend serial --output "$T/one_ref.bin"
check "n = 1 ORDER=2" 0 "$BIN" --input "$T/one.txt" --algo sssp --device pocl --param ORDER=2 --param LANES=1 \
  --output "$T/one.bin" &&
  expect "n = 1: fw's bytes" cmp -s "$T/one_ref.bin" "$T/one.bin"

finish_tests
