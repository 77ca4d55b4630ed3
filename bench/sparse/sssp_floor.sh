#!/usr/bin/env bash
# The multi-source engine (--algo sssp) on the table's four graphs, rows read back
# (no --output: a null sink, the rows still come through the pinned slots), T_k /
# T_h / solve and the per-kernel times from --json, OCL_SP_PROFILE=1's host phases
# kept per run ($R/LABEL-i.err); byte checks of written rows with cmp.
# Binaries: $H/ocl_sp (this build) and, where present, $H/ocl_sp.base (the base build).
# PLAN: which runs (check, table, profile, variant; space separated): the
# default against PULL=100 (bytes and times), the lanes counters and tunables of
# random degree 20 n = 10^5, this build against the base one (variant). REPS: timed
# runs a case. Everything under $OUT/floor (runs.jsonl, log.txt, *.err) packed
# into $OUT/floor.tgz by the caller.
# Usage (device tool): PLAN="check table" bash carry-NAME/sssp_floor.sh
set -uo pipefail
H=${H:-$(cd "$(dirname "$0")" && pwd)}
B=$H/ocl_sp
BASE=$H/ocl_sp.base
R=${R:-$OUT/floor}
REPS=${REPS:-3}
LIMIT_S=${LIMIT_S:-420}
COMMIT=${COMMIT:-$(cat "$H/COMMIT" 2>/dev/null || echo unknown)}
PLAN=${PLAN:-"check table"}
mkdir -p "$R"
export LD_LIBRARY_PATH=$H${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export OCL_SP_CACHE_DIR=/tmp/ocl_sp_cache
START=$(date +%s)
left() { [ $(( $(date +%s) - START )) -lt "$LIMIT_S" ]; }
log() { echo "$@" | tee -a "$R/log.txt"; }
G_R5="--generator random --degree 20 --n 100000"
G_R4="--generator random --degree 20 --n 10000"
G_GEO="--generator geometric --degree 6 --n 100000"
G_GRID="--generator grid --n 100000"

# one BINARY LABEL REPS ARGS...: timed runs, a line each in log.txt and runs.jsonl.
one() {
  local bin=$1 l=$2 r=$3; shift 3
  for i in $(seq "$r"); do
    left || return 0
    OCL_SP_PROFILE=1 timeout 120 "$bin" "$@" --algo sssp --device nvidia --json 2> "$R/${l// /_}-$i.err" |
      python3 -c "
import json,sys
d=json.load(sys.stdin); l=sys.argv[1]
ks=d.get('kernel_seconds',{})
line='%-34s t_k %.4f t_h %.4f solve %.4f | %s | %s' % (l, d['t_k'], d['t_h'], d['solve'], d.get('placement'), {k: round(v, 4) for k, v in ks.items()})
print(line, flush=True)
open(sys.argv[2]+'/log.txt','a').write(line+'\n')
open(sys.argv[2]+'/runs.jsonl','a').write(json.dumps({'label':l,'command':'ocl_sp '+' '.join(sys.argv[4:])+' --algo sssp --device nvidia --json','commit':sys.argv[3],'driver':'bench/sparse/sssp_floor.sh','t_k':d['t_k'],'t_h':d['t_h'],'solve':d['solve'],'placement':d.get('placement'),'kernel_seconds':ks,'params':d.get('params'),'device':d.get('device'),'driver_version':d.get('driver')})+'\n')
" "$l" "$R" "$COMMIT" "$@"
  done
}
# same BINARY_A LABEL_A BINARY_B LABEL_B ARGS_A -- ARGS_B: both rows written, cmp'd.
same() {
  local ba=$1 la=$2 bb=$3 lb=$4; shift 4
  local a=() b=() x
  while [ $# -gt 0 ] && [ "$1" != -- ]; do a+=("$1"); shift; done
  shift
  b=("$@")
  left || return 0
  timeout 120 "$ba" "${a[@]}" --algo sssp --device nvidia --quiet --output /tmp/floor_a.bin > /dev/null 2>> "$R/cmp.err"
  timeout 120 "$bb" "${b[@]}" --algo sssp --device nvidia --quiet --output /tmp/floor_b.bin > /dev/null 2>> "$R/cmp.err"
  if cmp /tmp/floor_a.bin /tmp/floor_b.bin; then x="same bytes"; else x="DIFFER"; fi
  log "cmp: $la [${a[*]}] vs $lb [${b[*]}]: $x ($(stat -c %s /tmp/floor_a.bin) bytes)"
  rm -f /tmp/floor_a.bin /tmp/floor_b.bin
}

log "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null) commit $COMMIT plan $PLAN"
# Warm the program caches (each build option set once).
for b in $B $( [ -x "$BASE" ] && echo "$BASE" ); do
  $b --n 300 --algo sssp --device nvidia --quiet > /dev/null
  $b --n 300 --algo sssp --device nvidia --quiet --param LANES=8 --param PULL=1 > /dev/null
done

for step in $PLAN; do
  case $step in
    check)  # the default's rows against PULL=100's (no pull rounds), and lanes against a source a group
      same $B default $B PULL=100 $G_R5 --sources 0-4223 -- $G_R5 --sources 0-4223 --param PULL=100
      same $B default $B PULL=100 $G_R4 -- $G_R4 --param PULL=100
      same $B "LANES=8 PULL=50" $B LANES=1 $G_R4 --param LANES=8 --param PULL=50 -- $G_R4 --param LANES=1
      same $B "LANES=8 PULL=50 float32" $B "LANES=1 float32" $G_R4 --type float32 --param LANES=8 --param PULL=50 -- $G_R4 --type float32 --param LANES=1
      same $B default $B PULL=100 $G_GEO --sources 0-4223 -- $G_GEO --sources 0-4223 --param PULL=100
      same $B default $B PULL=100 $G_GRID --sources 0-4223 -- $G_GRID --sources 0-4223 --param PULL=100
      ;;
    table)  # the table's graphs, defaults against PULL=100
      one $B "R5 default" "$REPS" $G_R5
      one $B "R5 PULL=100" "$REPS" $G_R5 --param PULL=100
      one $B "R4 default" "$REPS" $G_R4
      one $B "R4 PULL=100" "$REPS" $G_R4 --param PULL=100
      one $B "GEO default" "$REPS" $G_GEO
      one $B "GEO PULL=100" 1 $G_GEO --param PULL=100
      one $B "GRID default" "$REPS" $G_GRID
      one $B "GRID PULL=100" 1 $G_GRID --param PULL=100
      ;;
    profile)  # where random degree 20 n = 10^5's time goes: lanes' counters, 16 lanes, groups, buckets, order
      $B --n 300 --algo sssp --device nvidia --quiet --param LANES=16 --param LANE_WG=256 > /dev/null
      one $B "R5 LANES=16 LANE_WG=256 PULL=50" 1 $G_R5 --param LANES=16 --param LANE_WG=256 --param PULL=50
      one $B "R5 LANES=16 LANE_WG=256 PULL=100" 1 $G_R5 --param LANES=16 --param LANE_WG=256 --param PULL=100
      one $B "R5 LANE_WG=256" 1 $G_R5 --param LANE_WG=256
      one $B "R5 DELTA=50" 1 $G_R5 --param DELTA=50
      OCL_SP_LANE_ORDER=ids one $B "R5 lane order ids" 1 $G_R5
      for p in 0 100; do
        left || break
        OCL_SP_EXTRA_BUILD_OPTIONS=-DLANE_COUNTERS OCL_SP_LANE_COUNTERS=1 timeout 120 $B $G_R5 --algo sssp \
          --device nvidia --stats /tmp/floor_stats.csv --param PULL=$p --json > "$R/R5-stats-counters-PULL$p.json" \
          2> "$R/R5-stats-counters-PULL$p.err"
        log "R5 --stats counters PULL=$p: $(grep -c 'lanes counters' "$R/R5-stats-counters-PULL$p.err") lines"
        grep 'lanes counters' "$R/R5-stats-counters-PULL$p.err" | head -6 | tee -a "$R/log.txt"
      done
      rm -f /tmp/floor_stats.csv
      ;;
    variant)  # this build ($B) against main's ($BASE) on random degree 20 n = 10^5, interleaved
      for o in "--param LANE_WG=256" "--param LANE_WG=512" "--param LANES=16 --param LANE_WG=256"; do
        $B --n 300 --algo sssp --device nvidia --quiet --param PULL=1 $o > /dev/null
      done
      $BASE --n 300 --algo sssp --device nvidia --quiet --param LANE_WG=256 > /dev/null
      same $B "default" $BASE "main PULL=100" $G_R5 --sources 0-4223 -- $G_R5 --sources 0-4223 --param PULL=100
      same $B "LANES=8 PULL=50" $B LANES=1 $G_R4 --param LANES=8 --param PULL=50 -- $G_R4 --param LANES=1
      for i in $(seq "$REPS"); do
        one $BASE "R5 main default" 1 $G_R5
        one $B "R5 default" 1 $G_R5
      done
      one $B "R5 LANE_WG=256" 2 $G_R5 --param LANE_WG=256
      one $BASE "R5 main LANE_WG=256" 1 $G_R5 --param LANE_WG=256
      one $B "R5 PULL=30 LANE_WG=256" 1 $G_R5 --param PULL=30 --param LANE_WG=256
      one $B "R5 LANES=16 LANE_WG=256 PULL=50" 1 $G_R5 --param LANES=16 --param LANE_WG=256 --param PULL=50
      same $B "LANES=8 PULL=50 float32" $B "LANES=1 float32" $G_R4 --type float32 --param LANES=8 --param PULL=50 \
        -- $G_R4 --type float32 --param LANES=1
      same $B "LANES=16 LANE_WG=256 PULL=50" $BASE "main PULL=100" $G_R5 --sources 0-4223 --param LANES=16 \
        --param LANE_WG=256 --param PULL=50 -- $G_R5 --sources 0-4223 --param PULL=100
      one $B "R5 PULL=30" 1 $G_R5 --param PULL=30
      one $B "R5 LANE_WG=512" 1 $G_R5 --param LANE_WG=512
      one $B "R5 LANES=16 LANE_WG=256 PULL=30" 1 $G_R5 --param LANES=16 --param LANE_WG=256 --param PULL=30
      one $B "R5 PULL=20 LANE_WG=256" 1 $G_R5 --param PULL=20 --param LANE_WG=256
      one $B "GRID default" 1 $G_GRID
      one $B "R4 default" 1 $G_R4
      for o in "--param LANES=8 --param PULL=50" "--param LANES=8 --param PULL=30 --param LANE_WG=256" \
        "--param BATCH=512" "--param BATCH=2048" "--param WG=512" "--param DELTA=50" "--param DELTA=100"; do
        $B --n 300 --algo sssp --device nvidia --quiet $o > /dev/null
        one $B "R4 $o" 2 $G_R4 $o
      done
      ;;
  esac
done
log "elapsed $(( $(date +%s) - START )) s"
