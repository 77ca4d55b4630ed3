#!/usr/bin/env bash
# End-to-end tests of the multi-source engine (--algo sssp) and --algo auto:
# the same bytes as fw on every input format and backend (serial, OpenMP, PoCL,
# PoCL split in two), paths and queries, negative cycles (exit 3, no file), what
# auto chooses and says, and hostile inputs to the readers' sparse limits.
# Usage: sssp_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
DATA="$(cd "$(dirname "${BASH_SOURCE[0]}")/../data" && pwd)"

RUNS=("--backend serial" "--backend openmp" "--device pocl" "--device pocl --split 2")

# int32 files: the same bytes as fw; float32 files: the same bytes on every
# sssp backend (each sums a path in path order), and --verify against fw's 1e-5.
for f in small.bin small.gr small.mtx small.edges real.mtx sym_pattern.mtx; do
  type=int32
  case $f in real.mtx | small.edges) type=float32 ;; esac
  if [ $type = int32 ]; then
    check "fw $f" 0 "$BIN" --input "$DATA/$f" --algo fw --backend serial --output "$T/ref.bin" || continue
  else
    check "sssp serial $f verify" 0 "$BIN" --input "$DATA/$f" --algo sssp --backend serial --type $type \
      --verify --output "$T/ref.bin" || continue
  fi
  for r in "${RUNS[@]}"; do
    # shellcheck disable=SC2086
    check "sssp $f $r" 0 "$BIN" --input "$DATA/$f" --algo sssp $r --type $type --output "$T/sssp.bin" &&
      expect "sssp $f $r: same bytes as the reference" cmp -s "$T/ref.bin" "$T/sssp.bin"
  done
done

# A 40 x 40 grid with zero and negative weights (no negative cycle): paths, verify.
awk 'BEGIN { k = 40; for (r = 0; r < k; r++) for (c = 0; c < k; c++) { v = r * k + c;
  if (c + 1 < k) { print v, v + 1, (v * 7) % 5; print v + 1, v, (v * 3) % 4 }
  if (r + 1 < k) { print v, v + k, (v * 11) % 6 - 1; print v + k, v, 2 } } }' >"$T/grid.txt"
for r in "${RUNS[@]}"; do
  # shellcheck disable=SC2086
  check "grid sssp $r --verify --paths" 0 "$BIN" --input "$T/grid.txt" --algo sssp $r --verify --paths \
    --query 0 1599 --json &&
    expect "grid sssp $r: verified, paths checked, a path printed" grep -q \
      '"verify":"ok".*' "$T/out" &&
    expect "grid sssp $r: paths ok" grep -q '"paths_check":"ok"' "$T/out" &&
    expect "grid sssp $r: algorithm sssp" grep -q '"algorithm":"sssp"' "$T/out"
done
# A deep search (a geometric graph past 2 log2 n levels) takes buckets of at
# least 800 % of the mean weight on a device; its rows are OpenMP's.
check "geometric deep: openmp rows" 0 "$BIN" --generator geometric --n 10000 --sources 0-40 --algo sssp \
  --backend openmp --output "$T/geo_ref.bin"
check "geometric deep: pocl rows" 0 "$BIN" --generator geometric --n 10000 --sources 0-40 --algo sssp \
  --device pocl --output "$T/geo.bin" &&
  expect "geometric deep: buckets of 800 %" grep -q "buckets 800% of the mean weight, .*searches deep" "$T/out" &&
  expect "geometric deep: same bytes as openmp" cmp -s "$T/geo_ref.bin" "$T/geo.bin"
check "generated --negative sssp float32 verify" 0 "$BIN" --n 400 --negative --algo sssp --type float32 --backend openmp --verify
expect "generated float32 verified" grep -q "verify    ok" "$T/out"

# auto: the sparse grid goes to sssp, a dense random graph to fw; both say why.
check "auto on the grid" 0 "$BIN" --input "$T/grid.txt" --backend openmp --json
expect "auto chose sssp" grep -q '"algorithm":"sssp","backend":"openmp","algorithm_choice":"auto: sssp' "$T/out"
check "auto on a dense graph" 0 "$BIN" --n 300 --backend openmp
expect "auto chose fw and says so" grep -q "^  algorithm auto: fw: estimated" "$T/out"
check "explicit fw has no choice line" 0 "$BIN" --n 50 --algo fw --backend serial --json
expect "algorithm_choice null" grep -q '"algorithm_choice":null' "$T/out"
check "unknown algorithm" 2 "$BIN" --n 50 --algo dijkstra
expect "unknown algorithm: error names the choices" grep -q "expected auto, fw, squaring, fw-naive or sssp" "$T/err"

# Negative cycle: exit 3, the cycle named, no file written, an older file kept.
printf '0 1 2\n1 2 -5\n2 0 1\n2 3 1\n' >"$T/cycle.txt"
echo keep >"$T/old.bin"
for r in "${RUNS[@]}"; do
  # shellcheck disable=SC2086
  check "negative cycle sssp $r" 3 "$BIN" --input "$T/cycle.txt" --algo sssp $r --output "$T/old.bin" &&
    expect "cycle named ($r)" grep -qF "error: negative cycle detected: 0 -> 1 -> 2 -> 0 (length -2)" "$T/err" &&
    expect "older file untouched ($r)" grep -qx keep "$T/old.bin"
done

# Hostile inputs: the sparse readers take any n memory allows, never allocate a
# header's word for it, and say what is wrong.
printf 'p sp 1000000000 1\na 1 2 3\n' >"$T/huge.gr"
check "huge n, sssp: refused by the memory plan" 1 "$BIN" --input "$T/huge.gr" --algo sssp --backend serial
expect "huge n: error message" err_starts
expect "huge n: names the memory" grep -q "n = 1000000000" "$T/err"
check "huge n, fw: refused by the reader" 2 "$BIN" --input "$T/huge.gr" --algo fw --backend serial
printf 'p sp 300000 2\na 1 2 3\na 299999 300000 1\n' >"$T/big.gr"
check "n = 300000 sparse, sources beyond the dense cap read" 1 "$BIN" --input "$T/big.gr" --algo sssp --backend serial --host-memory 1G --verify
expect "n = 300000: the n x n result is what does not fit" grep -q "error: .*n = 300000" "$T/err"
printf 'p sp 5 3\na 1 2 3\na 2 9 1\na 3 4 1\n' >"$T/range.gr"
check "vertex id out of range" 2 "$BIN" --input "$T/range.gr" --algo sssp --backend serial
expect "out of range: file and line" grep -q "range.gr: line 3" "$T/err"
printf 'p sp 5 3\na 1 2 3\n' >"$T/trunc.gr"
check "truncated gr" 2 "$BIN" --input "$T/trunc.gr" --algo sssp --backend serial
expect "truncated: error" err_starts
printf '%s' "" >"$T/empty.txt"
check "empty edge list" 2 "$BIN" --input "$T/empty.txt" --algo sssp --backend serial

# A source a group's row in __local memory (LOCAL_ROW=2 on any device; GPUs by
# default): the bytes of the row in global memory (LOCAL_ROW=1) and of OpenMP, in
# every value type, on one device and split in two, with negative weights and
# paths, and --stats a source a group.
LR=(--generator random --degree 9 --n 1100 --algo sssp --sources 0-99,1099,512)
check "local row: openmp" 0 "$BIN" "${LR[@]}" --backend openmp --output "$T/lr_ref.bin"
for dev in "--device pocl" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "local row $dev" 0 "$BIN" "${LR[@]}" $dev --param LANES=1 --param LOCAL_ROW=2 --output "$T/lr.bin" &&
    expect "local row $dev: the placement says so" grep -q "a source a group, its row in __local memory" "$T/out" &&
    expect "local row $dev: openmp's bytes" cmp -s "$T/lr_ref.bin" "$T/lr.bin"
done
for type in $(cases int64 float32 float64); do
  check "global row $type" 0 "$BIN" "${LR[@]}" --device pocl --type $type --param LANES=1 --param LOCAL_ROW=1 \
    --output "$T/lr_g.bin" &&
    expect "global row $type: not in __local memory" bash -c "! grep -q '__local memory' '$T/out'" &&
    check "local row $type" 0 "$BIN" "${LR[@]}" --device pocl --type $type --param LANES=1 --param LOCAL_ROW=2 \
      --output "$T/lr_l.bin" &&
    expect "local row $type: the global row's bytes" cmp -s "$T/lr_g.bin" "$T/lr_l.bin"
done
awk 'function h(x) { return (x * 13) % 17 }
  BEGIN { for (v = 0; v < 300; v++) { a = (v * 7 + 1) % 300; b = (v + 1) % 300;
    print v, a, (v * 5) % 9 + h(v) - h(a); print v, b, 3 + h(v) - h(b) } }' >"$T/neg_lr.txt"
check "local row, negative weights: fw" 0 "$BIN" --input "$T/neg_lr.txt" --algo fw --backend serial --output "$T/nlr_ref.bin"
check "local row, negative weights and paths" 0 "$BIN" --input "$T/neg_lr.txt" --algo sssp --device pocl --param LANES=1 \
  --param LOCAL_ROW=2 --paths --verify --output "$T/nlr.bin" &&
  expect "local row, negative weights: fw's bytes" cmp -s "$T/nlr_ref.bin" "$T/nlr.bin"
check "local row --stats: openmp" 0 "$BIN" "${LR[@]}" --backend openmp --stats "$T/lr_s_ref.csv"
check "local row --stats" 0 "$BIN" "${LR[@]}" --device pocl --param LANES=1 --param LOCAL_ROW=2 --stats "$T/lr_s.csv" &&
  expect "local row --stats: openmp's bytes" cmp -s "$T/lr_s_ref.csv" "$T/lr_s.csv"

# A source a group's launches read back in parts (one device, two distance
# buffers): OCL_SP_LANE_SLOT_SOURCES=K parts of K sources, launches of whole
# parts (BATCH=16: 15 sources in parts of 3 or 5, 14 in parts of 7), the list's
# last launch short; ids as given, renumbered and rows in __local memory; every
# part the bytes of OpenMP, and one kernel launch a launch, not a part.
PT=(--generator random --degree 9 --n 1100 --algo sssp --sources 0-99,1099,512 --param LANES=1 --param BATCH=16)
for k in $(cases 3 5 7); do
  launches=$(( (102 + 16 / k * k - 1) / (16 / k * k) ))
  for extra in "" "--param LOCAL_ROW=2" "--param ORDER=2"; do
    # shellcheck disable=SC2086
    check "parts of $k $extra" 0 env OCL_SP_LANE_SLOT_SOURCES=$k "$BIN" "${PT[@]}" --device pocl $extra \
      --output "$T/pt.bin" --json &&
      expect "parts of $k $extra: openmp's bytes" cmp -s "$T/lr_ref.bin" "$T/pt.bin"
    [ -z "$extra" ] && expect "parts of $k: $launches launches" grep -q "\"kernel_launches\":$launches," "$T/out"
  done
done
for type in $(cases int64 float32); do
  check "parts $type: whole launches" 0 "$BIN" "${PT[@]}" --device pocl --type $type --output "$T/pt_w.bin" &&
    check "parts $type" 0 env OCL_SP_LANE_SLOT_SOURCES=3 "$BIN" "${PT[@]}" --device pocl --type $type \
      --output "$T/pt_p.bin" &&
    expect "parts $type: the whole launches' bytes" cmp -s "$T/pt_w.bin" "$T/pt_p.bin"
done
check "parts, negative weights and paths" 0 env OCL_SP_LANE_SLOT_SOURCES=3 "$BIN" --input "$T/neg_lr.txt" --algo sssp \
  --device pocl --param LANES=1 --param BATCH=16 --paths --verify --output "$T/npt.bin" &&
  expect "parts, negative weights: fw's bytes" cmp -s "$T/nlr_ref.bin" "$T/npt.bin"

# bench --generator: fw, sssp and auto, sampled rows checked; CSV rows written.
check "bench --generator grid" 0 "$BIN" bench --generator grid --sizes 100,144 --algos fw,sssp,auto \
  --devices serial,pocl --reps 1 --warmup 0 --csv "$T/b.csv"
expect "bench: 12 rows, all ok" test "$(grep -c ',ok,' "$T/b.csv")" = 12
expect "bench: auto says what it chose" grep -q "\[auto: " "$T/out"
check "bench --generator random --degree 5 float32" 0 "$BIN" bench --generator random --degree 5 \
  --sizes 300 --algos sssp --devices openmp,pocl --type float32 --reps 1 --param VW=4
expect "bench float32: sampled rows verified" grep -q "2 ok, 0 skipped, 0 wrong" "$T/out"
check "bench --param junk" 2 "$BIN" bench --generator grid --sizes 100 --algos sssp --param VW
# sweep on a grid stores the best sssp configuration; the next solve uses it.
check "sweep sssp on a grid" 0 "$BIN" sweep --algos sssp --device pocl --n 100 --generator grid --reps 1 --warmup 0
check "solve with the tuned sssp" 0 "$BIN" --generator grid --n 100 --algo sssp --device pocl
expect "solve: tuned parameters" grep -q "^  params .*(tuned" "$T/out"

finish_tests
