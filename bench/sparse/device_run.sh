#!/usr/bin/env bash
# The sparse-family experiments on a GPU machine, one driver, several steps
# (results: bench/results/<device>/sparse/ and stats/, docs/performance/sparse.md):
#   check  sssp on the device bit-exact (int32) / verified (float32), paths, and
#          the same bytes as OpenMP on a 150 x 150 grid;
#   tune   T_k of the tunables (WG, VW, DELTA) per family at n = 10 000, then the
#          10^5 graphs with the defaults and WG=1024 / VW=32;
#   final  the target rows with the defaults (bench, medians) and the random
#          degree-20 n = 10^5 graph under BATCH / DELTA variants;
#   stats  --stats with the rows reduced on the device: T_k of 1 024
#          spread sources of the 1000 x 1000 grid per WG / DELTA / VW, the 316 x 316
#          grid's whole --stats against the host reduction, then the 10^6 grid's
#          whole --stats with the fastest variant (STATS_FULL=0 skips it);
#   lanes  --stats in one pass with sources side by side (sssp_lanes): rows ==
#          OpenMP, the 316 x 316 grid per variant against one source a group,
#          then the 10^6 grid with the fastest (when 316 x 316 < FULL_IF_BELOW s);
#   lanes_full  the 1000 x 1000 grid's --stats once per FULL_VARIANTS entry;
#   lanes_final  the defaults: the 316 x 316 and 1000 x 1000 grids' --stats, 3 runs;
#   overlap whole sssp solves (bench medians) of the binary B against B_OLD (the
#          rows read back through the pinned stager and overlapped with the next
#          batch vs one batch after another), grid 100 x 100, random degree 20
#          n = 10^4, grid 316 x 316.
# Run from the repository root with the binary in build-gpu/ (device tool: carry
# build-gpu); results under $OUT.  Usage: bench/sparse/device_run.sh STEP... [DEVICE=nvidia]
set -uo pipefail
DEV=${DEVICE:-nvidia}
B=${B:-build-gpu/ocl_sp}
OUT=${OUT:-/tmp/out}
mkdir -p "$OUT"
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
"$B" --n 200 --algo sssp --device "$DEV" --quiet >/dev/null  # warm the program caches
"$B" --n 200 --algo fw --device "$DEV" --quiet >/dev/null
FAMILIES=("--generator grid" "--generator random --degree 20" "--generator geometric --degree 6")

tk() {  # GRAPH AND PARAM OPTIONS...: "T_k params" of one sssp solve
  # shellcheck disable=SC2068
  "$B" $@ --algo sssp --device "$DEV" --json --quiet |
    python3 -c "import json,sys; r=json.load(sys.stdin); print(r['t_k'], ' '.join(f'{k}={v}' for k,v in r['params'].items()))"
}
bench_100k() {  # FAMILY OPTIONS [BENCH OPTIONS]: one sssp bench row at n = 10^5
  # shellcheck disable=SC2086
  timeout 60 "$B" bench $1 --sizes 100000 --algos sssp --devices "$DEV" --reps 1 --warmup 0 \
    --time-limit 400 ${2:-} 2>&1 | grep "^n=" | sed "s/^/[${2:-defaults}] /"
}

check() {
  for t in int32 float32; do
    "$B" --n 3000 --negative --algo sssp --device "$DEV" --type $t --verify --paths --quiet
    "$B" --generator grid --n 22500 --algo sssp --device "$DEV" --type $t --quiet --output /tmp/g.bin
    "$B" --generator grid --n 22500 --algo sssp --backend openmp --type $t --quiet --output /tmp/g_omp.bin
    cmp /tmp/g.bin /tmp/g_omp.bin && echo "grid 150x150 $t: device == openmp (bytes)"
  done
}

tune() {
  for fam in "${FAMILIES[@]}"; do
    echo "defaults $fam: $(tk $fam --n 10000)"
    for p in VW=1 VW=4 VW=8 VW=16 VW=32 WG=128 WG=512 WG=1024 DELTA=25 DELTA=100 DELTA=400 DELTA=1600; do
      echo "variant $fam $p: $(tk $fam --n 10000 --param $p)"
    done
  done
  for fam in "${FAMILIES[@]}"; do
    for p in "" "--param WG=1024" "--param WG=1024 --param VW=32"; do bench_100k "$fam" "$p"; done
  done
}

final() {
  for p in "--param BATCH=128" "--param BATCH=256" "--param BATCH=512" "--param DELTA=25"; do
    bench_100k "--generator random --degree 20" "$p"
  done
  "$B" bench --generator random --degree 20 --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/random20_10k.csv"
  "$B" bench --generator grid --sizes 10000 --algos fw,sssp,auto --devices "$DEV" --reps 5 --csv "$OUT/grid100.csv"
  "$B" bench --generator grid --sizes 100000 --algos sssp,auto --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/grid316.csv"
  "$B" bench --generator geometric --degree 6 --sizes 100000 --algos sssp,auto --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/geometric6_100k.csv"
}

stats() {
  local grid="--generator grid --n ${GRID_N:-1000000}" best="" best_tk=999999 p tk_p
  python3 -c "print('\n'.join(str(i * (${GRID_N:-1000000} // 1024)) for i in range(1024)))" >/tmp/spread.txt
  try() {  # try VARIANTS...: T_k of the spread sources per variant; keeps the fastest
    for p in "$@"; do
      # shellcheck disable=SC2086
      tk_p=$(tk $grid --sources @/tmp/spread.txt $p)
      echo "grid 1000x1000, 1024 sources, $p: T_k $tk_p"
      if python3 -c "import sys; sys.exit(0 if float('${tk_p%% *}') < $best_tk else 1)"; then
        best_tk=${tk_p%% *} best=$p
      fi
    done
  }
  try "--param WG=1024" "--param WG=512" "--param WG=256" "--param WG=128"
  local wg=$best
  try "$wg --param DELTA=400" "$wg --param DELTA=1600" "$wg --param VW=2" "$wg --param VW=8"
  echo "fastest: $best (T_k $best_tk s for 1024 sources)"
  for mode in device host; do
    local env=""
    [ $mode = host ] && env="OCL_SP_STATS_ON_HOST=1"
    for r in 1 2 3; do
      # shellcheck disable=SC2086
      /usr/bin/time -f "%e s wall, %M KB peak" env $env "$B" --generator grid --n ${SMALL_N:-100000} --algo sssp \
        --device "$DEV" --stats "/tmp/st316_$mode.csv" --json --quiet >"$OUT/stats316_${mode}_$r.json" 2>"/tmp/time.txt"
      echo "grid 316x316 --stats ($mode reduction) run $r: $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/stats316_${mode}_$r.json')); print('total', r['total'], 't_k', r['t_k'], 't_h', r['t_h'], 'stats', r['stats'])")"
    done
  done
  python3 - /tmp/st316_device.csv /tmp/st316_host.csv <<'PY'
import sys, csv
a, b = (list(csv.reader(open(p))) for p in sys.argv[1:3])
worst = max(abs(float(x[4]) - float(y[4])) / max(abs(float(y[4])), 1e-300) for x, y in zip(a[1:], b[1:]))
same = all(x[:4] == y[:4] for x, y in zip(a, b)) and len(a) == len(b)
print(f"316x316 device vs host stats: reach/eccentricity/closeness identical: {same}; harmonic max rel diff {worst:.3g}")
PY
  if [ "${STATS_FULL:-1}" = 1 ]; then
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e s wall, %M KB peak" timeout "${STATS_TIMEOUT:-420}" "$B" $grid --algo sssp --device "$DEV" $best \
      --stats "$OUT/stats_grid1000.npy" --json --quiet >"$OUT/stats_grid1000.json" 2>/tmp/time.txt
    echo "grid 1000x1000 --stats ($best): $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/stats_grid1000.json')); print('total', r['total'], 't_k', r['t_k'], 't_h', r['t_h'], 'stats', r['stats'], 'kernels', r.get('kernel_seconds'), 'notes', r['notes'])" 2>&1)"
  fi
}

summary() {  # JSON: total, T_k, kernels of a --stats report
  python3 -c "import json; r=json.load(open('$1')); print('total', r['total'], 't_k', r['t_k'], 't_h', r['t_h'], 'kernels', {k: round(v, 3) for k, v in r.get('kernel_seconds', {}).items()}, 'params', r['params'], 'stats', r['stats'])"
}

lanes() {  # --stats in one pass with sources side by side (sssp_lanes)
  local g316="--generator grid --n ${SMALL_N:-100000}" p best="" best_t=999999 t
  "$B" --generator grid --n 22500 --algo sssp --device "$DEV" --param LANES=32 --quiet --output /tmp/gl.bin
  "$B" --generator grid --n 22500 --algo sssp --backend openmp --quiet --output /tmp/go.bin
  cmp /tmp/gl.bin /tmp/go.bin && echo "grid 150x150: lanes rows == openmp (bytes)"
  # shellcheck disable=SC2086
  "$B" $g316 --algo sssp --device "$DEV" --param LANES=1 --stats /tmp/p316.csv --json --quiet >"$OUT/lanes316_per_source.json"
  echo "grid 316x316 --stats, one source a group (two passes): $(summary "$OUT/lanes316_per_source.json")"
  try_lanes() {  # VARIANTS...: the 316 x 316 grid's --stats per variant; keeps the fastest
    for p in "$@"; do
      # shellcheck disable=SC2086
      "$B" $g316 --algo sssp --device "$DEV" $p --stats /tmp/l316.csv --json --quiet >/tmp/l.json
      t=$(python3 -c "import json; print(json.load(open('/tmp/l.json'))['t_k'])")
      echo "grid 316x316 --stats lanes [${p:-defaults}]: $(summary /tmp/l.json)"
      python3 - /tmp/l316.csv /tmp/p316.csv <<'PY'
import sys, csv
a, b = (list(csv.reader(open(p))) for p in sys.argv[1:3])
worst = max(abs(float(x[4]) - float(y[4])) / max(abs(float(y[4])), 1e-300) for x, y in zip(a[1:], b[1:]))
same = all(x[:4] == y[:4] for x, y in zip(a, b)) and len(a) == len(b)
print(f"  against one source a group: reach/eccentricity/closeness identical: {same}; harmonic max rel diff {worst:.3g}")
PY
      if python3 -c "import sys; sys.exit(0 if $t < $best_t else 1)"; then best_t=$t best=$p; fi
    done
  }
  # LANE_VARIANTS: the variants tried, ';'-separated (the last list by default)
  local variants
  IFS=';' read -r -a variants <<<"${LANE_VARIANTS:-;--param LANES=16;--param LANES=16 --param LANE_WG=64;--param LANES=32;--param LANE_WG=64}"
  try_lanes "${variants[@]}"
  echo "fastest at 316x316: [${best:-defaults}] T_k $best_t s"
  if python3 -c "import sys; sys.exit(0 if $best_t < ${FULL_IF_BELOW:-3} else 1)"; then
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e s wall, %M KB peak" timeout "${STATS_TIMEOUT:-400}" "$B" --generator grid --n 1000000 --algo sssp \
      --device "$DEV" $best --stats "$OUT/stats_grid1000.csv" --json --quiet >"$OUT/lanes_grid1000.json" 2>/tmp/time.txt
    echo "grid 1000x1000 --stats [${best:-defaults}]: $(tail -1 /tmp/time.txt); $(summary "$OUT/lanes_grid1000.json" 2>&1)"
  fi
}

lanes_full() {  # the 1000 x 1000 grid's --stats once per FULL_VARIANTS entry (';'-separated)
  local p variants json
  IFS=';' read -r -a variants <<<"${FULL_VARIANTS:-}"
  for p in "${variants[@]}"; do
    json="$OUT/full_${p//[ =-]/_}.json"
    # shellcheck disable=SC2086
    /usr/bin/time -f "%e s wall, %M KB peak" timeout "${STATS_TIMEOUT:-400}" "$B" --generator grid --n 1000000 \
      --algo sssp --device "$DEV" $p --stats "/tmp/full.csv" --json --quiet >"$json" 2>/tmp/time.txt
    echo "grid 1000x1000 --stats [${p:-defaults}]: $(tail -1 /tmp/time.txt); $(summary "$json" 2>&1)"
    md5sum /tmp/full.csv
  done
}

lanes_final() {  # the defaults: grid 316 x 316 and 1000 x 1000 --stats, 3 runs each
  local r n
  for n in ${SMALL_N:-100000} 1000000; do
    for r in 1 2 3; do
      /usr/bin/time -f "%e s wall, %M KB peak" timeout "${STATS_TIMEOUT:-400}" "$B" --generator grid --n $n --algo sssp \
        --device "$DEV" --stats "/tmp/final_$n.csv" --json --quiet >"$OUT/lanes_final_${n}_$r.json" 2>/tmp/time.txt
      echo "grid n = $n --stats run $r: $(tail -1 /tmp/time.txt); $(python3 -c "import json; r=json.load(open('$OUT/lanes_final_${n}_$r.json')); print('total', r['total'], 't_k', r['t_k'], 'kernels', {k: round(v, 3) for k, v in r.get('kernel_seconds', {}).items()}, 'placement', r.get('placement'), 'params', r['params'])" 2>&1)"
    done
  done
  head -3 /tmp/final_1000000.csv
}

overlap() {
  local b label
  for b in "$B_OLD" "$B"; do
    label=$(basename "$(dirname "$b")")/$(basename "$b")
    "$b" --n 200 --algo sssp --device "$DEV" --quiet >/dev/null
    "$b" bench --generator grid --sizes 10000 --algos sssp --devices "$DEV" --reps 7 --csv "$OUT/overlap_grid100_${label//\//_}.csv" 2>&1 | grep "^n=" | sed "s|^|[$label grid 100x100] |"
    "$b" bench --generator random --degree 20 --sizes 10000 --algos sssp --devices "$DEV" --reps 7 --csv "$OUT/overlap_random20_${label//\//_}.csv" 2>&1 | grep "^n=" | sed "s|^|[$label random 20] |"
    "$b" bench --generator grid --sizes 100000 --algos sssp --devices "$DEV" --reps 3 --warmup 0 --time-limit 400 --csv "$OUT/overlap_grid316_${label//\//_}.csv" 2>&1 | grep "^n=" | sed "s|^|[$label grid 316x316] |"
  done
}

for step in "$@"; do
  case $step in
    check | tune | final | stats | overlap | lanes | lanes_full | lanes_final) $step 2>&1 | tee -a "$OUT/device_$step.log" ;;
    *) echo "unknown step '$step' (check, tune, final, stats, overlap, lanes, lanes_full, lanes_final)" >&2; exit 2 ;;
  esac
done
