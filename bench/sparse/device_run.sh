#!/usr/bin/env bash
# The sparse-family experiments on a GPU machine (issue 23), one driver, three
# steps (results: bench/results/sparse-h100/, bench/NOTES.md "sssp"):
#   check  sssp on the device bit-exact (int32) / verified (float32), paths, and
#          the same bytes as OpenMP on a 150 x 150 grid;
#   tune   T_k of the tunables (WG, VW, DELTA) per family at n = 10 000, then the
#          10^5 graphs with the defaults and WG=1024 / VW=32;
#   final  the target rows with the defaults (bench, medians) and the random
#          degree-20 n = 10^5 graph under BATCH / DELTA variants.
# Run from the repository root with the binary in build-gpu/ (device tool: carry
# build-gpu); results under $OUT.  Usage: bench/sparse/device_run.sh STEP... [DEVICE=nvidia]
set -uo pipefail
DEV=${DEVICE:-nvidia}
B=build-gpu/ocl_sp
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

for step in "$@"; do
  case $step in
    check | tune | final) $step 2>&1 | tee -a "$OUT/device_$step.log" ;;
    *) echo "unknown step '$step' (check, tune, final)" >&2; exit 2 ;;
  esac
done
