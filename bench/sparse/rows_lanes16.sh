#!/usr/bin/env bash
# Rows of shallow searches in 16 lanes of their own program (ROW_LANES=0's GPU
# default) against the build before it: the base binary (main's) and this one,
# interleaved, ROUNDS (3) rounds of each case, a fresh process a run after one
# untimed run of every case and binary (program caches, graph pages):
#   R5      random degree 20, n = 10^5, all rows (no --output: a null sink, the
#           rows still come back through the pinned slots)
#   R5cmp   its rows of sources 0-4223 written (--output), the two binaries'
#           files compared by cmp in each round (1.7 GB each)
#   GRID    the 316 x 316 grid (--n 99856)
#   R4      random degree 20, n = 10^4
#   GEO     geometric degree 6, n = 10^5
# T_k, T_h and solve from --json. Every run's report is OUT/LABEL-WHICH-ROUND.json
# (WHICH: base or new), its stderr beside it (.err); a line a run in OUT/runs.tsv
# (label, which, round, t_k, t_h, solve, placement, rows: the cmp verdict of
# R5cmp), its record in OUT/runs.jsonl, and the medians in OUT/summary.txt.
# A run starts only while LIMIT_S (540) seconds have not passed.
# Usage (device machine): bench/sparse/rows_lanes16.sh BASE_OCL_SP NEW_OCL_SP OUT
set -uo pipefail
BASE=${1:?usage: rows_lanes16.sh BASE_OCL_SP NEW_OCL_SP OUT}
NEW=${2:?usage: rows_lanes16.sh BASE_OCL_SP NEW_OCL_SP OUT}
OUT=${3:?usage: rows_lanes16.sh BASE_OCL_SP NEW_OCL_SP OUT}
ROUNDS=${ROUNDS:-3}
LIMIT_S=${LIMIT_S:-540}
DEVICE=${DEVICE:-nvidia}
TMP=${TMP_ROWS:-/tmp/rows_lanes16}
mkdir -p "$OUT" "$TMP"
export OCL_SP_CACHE_DIR=${OCL_SP_CACHE_DIR:-/tmp/ocl_sp_cache}
START=$(date +%s)
left() { [ $(( $(date +%s) - START )) -lt "$LIMIT_S" ]; }
log() { echo "$@" | tee -a "$OUT/log.txt"; }
rev() { "$1" --version 2>/dev/null | sed -n 's/^revision: //p'; }
log "device: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | head -1)"
log "base $BASE ($(rev "$BASE")), new $NEW ($(rev "$NEW")), rounds $ROUNDS"
[ -s "$OUT/runs.tsv" ] || printf 'label\twhich\tround\tt_k\tt_h\tsolve\tplacement\trows\n' > "$OUT/runs.tsv"

declare -A G=(
  [R5]="--generator random --degree 20 --n 100000"
  [R5cmp]="--generator random --degree 20 --n 100000 --sources 0-4223"
  [GRID]="--generator grid --n 99856"
  [R4]="--generator random --degree 20 --n 10000"
  [GEO]="--generator geometric --degree 6 --n 100000"
)
# G_LABEL="ARGS" replaces a case's graph (smoke tests on small graphs).
for k in "${!G[@]}"; do v=G_$k; [ -n "${!v:-}" ] && G[$k]=${!v}; done
CASES=${CASES:-R5 R5cmp GRID R4 GEO}

# run LABEL WHICH ROUND: one run of case LABEL with binary WHICH (base, new);
# ROUND 0 is the untimed warm-up (no record). R5cmp writes $TMP/WHICH.bin.
run() {
  local l=$1 which=$2 round=$3 bin out=()
  bin=$BASE
  [ "$which" = new ] && bin=$NEW
  [ "$l" = R5cmp ] && out=(--output "$TMP/$which.bin")
  local f="$OUT/$l-$which-$round"
  # shellcheck disable=SC2086
  timeout 180 "$bin" ${G[$l]} --algo sssp --device "$DEVICE" --json "${out[@]}" > "$f.json" 2> "$f.err"
  local rc=$?
  [ "$round" = 0 ] && { rm -f "$f.json" "$f.err"; return 0; }
  [ $rc = 0 ] || log "$l $which $round: exit $rc ($(tail -1 "$f.err"))"
}

# record LABEL WHICH ROUND ROWS: the run's line in runs.tsv, runs.jsonl and the log.
record() {
  python3 - "$OUT" "$1" "$2" "$3" "$4" "$(rev "$([ "$2" = new ] && echo "$NEW" || echo "$BASE")")" \
    "ocl_sp ${G[$1]} --algo sssp --device $DEVICE --json$([ "$1" = R5cmp ] && echo " --output FILE")" <<'PY'
import json, sys
out, label, which, rnd, rows, commit, command = sys.argv[1:8]
try:
    d = json.load(open('%s/%s-%s-%s.json' % (out, label, which, rnd)))
except Exception as e:
    print('%s %s %s: no report (%s)' % (label, which, rnd, e)); sys.exit(0)
pl = d.get('placement', '')
ks = d.get('kernel_seconds', {})
open(out + '/runs.tsv', 'a').write('\t'.join(map(str, (label, which, rnd, d['t_k'], d['t_h'], d['solve'], pl, rows))) + '\n')
open(out + '/runs.jsonl', 'a').write(json.dumps({
    'label': label, 'which': which, 'round': int(rnd), 'command': command, 'commit': commit,
    'driver': 'bench/sparse/rows_lanes16.sh', 't_k': d['t_k'], 't_h': d['t_h'], 'solve': d['solve'],
    'placement': pl, 'kernel_seconds': ks, 'params': d.get('params'), 'device': d.get('device'),
    'driver_version': d.get('driver'), 'rows': rows}) + '\n')
line = '%-6s %-4s %s t_k %.4f t_h %.4f solve %.4f | %s | %s%s' % (
    label, which, rnd, d['t_k'], d['t_h'], d['solve'], pl, {k: round(v, 4) for k, v in ks.items()},
    ' | rows ' + rows if rows != '-' else '')
print(line, flush=True)
open(out + '/log.txt', 'a').write(line + '\n')
PY
}

# Warm-up: every case once with each binary (untimed).
for l in $CASES; do
  for which in base new; do left && run "$l" "$which" 0; done
done
rm -f "$TMP"/*.bin
log "warm-ups done at $(( $(date +%s) - START )) s"
for r in $(seq "$ROUNDS"); do
  for l in $CASES; do
    # Interleaved: base first in odd rounds, new first in even ones.
    order="base new"
    [ $((r % 2)) = 0 ] && order="new base"
    for which in $order; do
      left || break
      run "$l" "$which" "$r"
    done
    rows=-
    if [ "$l" = R5cmp ]; then
      if [ -s "$TMP/base.bin" ] && [ -s "$TMP/new.bin" ]; then
        if cmp -s "$TMP/base.bin" "$TMP/new.bin"; then rows="same bytes ($(stat -c %s "$TMP/new.bin"))"
        else rows=DIFFER; fi
      else
        rows="missing"
      fi
      rm -f "$TMP"/*.bin
    fi
    for which in base new; do [ -s "$OUT/$l-$which-$r.json" ] && record "$l" "$which" "$r" "$rows"; done
  done
done
python3 - "$OUT" <<'PY' | tee "$OUT/summary.txt"
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1] + '/runs.tsv'), delimiter='\t'))
for label in dict.fromkeys(r['label'] for r in rows):
    for which in ('base', 'new'):
        rs = [r for r in rows if r['label'] == label and r['which'] == which]
        if not rs:
            continue
        med = lambda k: statistics.median(float(r[k]) for r in rs)
        cmp = sorted({r['rows'] for r in rs if r['rows'] != '-'})
        print('%-6s %-4s runs %d  T_k %.4f  T_h %.4f  solve %.4f  (medians)%s  %s' % (
            label, which, len(rs), med('t_k'), med('t_h'), med('solve'), '  rows: ' + ', '.join(cmp) if cmp else '',
            rs[-1]['placement']))
PY
log "elapsed $(( $(date +%s) - START )) s"
