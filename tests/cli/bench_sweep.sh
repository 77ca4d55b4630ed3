#!/usr/bin/env bash
# End-to-end tests of `ocl_sp bench` and `ocl_sp sweep` on tiny sizes: exit codes,
# status lines, the JSON/CSV files (parsed with python3), time-limit skips, the
# gnuplot chart and its up-front checks, the tuning file a sweep stores (in a
# temporary OCL_SP_CACHE_DIR) and its use by a later solve.
# Usage: bench_sweep.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

# Is PoCL there? Without it the OpenCL column is left out (and said so).
HAVE_POCL=0
if "$BIN" devices --json 2>/dev/null | "$PY" -c "
import json,sys; d=json.load(sys.stdin)['devices']
sys.exit(0 if any(x['vendor_key']=='pocl' for x in d) else 1)"; then HAVE_POCL=1; fi
if [ $HAVE_POCL = 1 ]; then DEVICES=pocl,openmp,serial; NCOL=3; else
  echo "note: no PoCL device: OpenCL parts skipped"; DEVICES=openmp,serial; NCOL=2; fi
NROWS=$((NCOL * 2 * 2))  # columns x {fw, squaring} x {10, 33}

# --- bench: tiny sizes, every file format --------------------------------------
PLOT_ARGS=()
if command -v gnuplot >/dev/null; then PLOT_ARGS=(--plot "$T/b.svg"); fi
check bench 0 "$BIN" bench --sizes 10,33 --reps 2 --devices "$DEVICES" \
  --json "$T/b.json" --csv "$T/b.csv" "${PLOT_ARGS[@]}"
expect bench-table2 grep -q "^Table 2" "$T/out"
expect bench-table3 grep -q "^Table 3" "$T/out"
expect bench-status-lines test "$(grep -c '^\[.*\] n=' "$T/out")" -eq $NROWS
expect bench-json "$PY" -c "
import json
d = json.load(open('$T/b.json'))
assert d['schema_version'] == 1 and d['command'] == 'bench', d.keys()
rows = d['results']
assert len(rows) == $NROWS, len(rows)
for r in rows:
    assert r['status'] == 'ok', r
    assert r['verify'] == 'ok', r
    for k in ('device', 'vendor', 'driver', 'algorithm', 'type', 'n', 'params', 't_o', 't_h',
              't_k', 'total', 'median', 'min', 'max', 'relaxations_per_s', 'reason'):
        assert k in r, k
    assert r['min'] <= r['median'] <= r['max'] and len(r['times']) == 2, r
assert sorted({r['n'] for r in rows}) == [10, 33]
"
expect bench-csv "$PY" -c "
import csv
rows = list(csv.reader(open('$T/b.csv')))
assert rows[0][0] == 'schema_version' and 'status' in rows[0], rows[0]
assert len(rows) == 1 + $NROWS, len(rows)
st = rows[0].index('status')
assert all(len(r) == len(rows[0]) and r[st] == 'ok' for r in rows[1:])
"
if [ ${#PLOT_ARGS[@]} -gt 0 ]; then
  expect bench-plot grep -q "<svg" "$T/b.svg"
  expect bench-plot-no-temp test -z "$(ls "$T" | grep '\.tmp\.' || true)"
fi

# --- time limit: skipped with an estimate and a reason, never silently dropped ---
check bench-skip 0 "$BIN" bench --sizes 10,1500 --devices serial --algos squaring --reps 1 \
  --time-limit 0.01 --json "$T/skip.json"
expect bench-skip-json "$PY" -c "
import json
rows = {r['n']: r for r in json.load(open('$T/skip.json'))['results']}
assert rows[10]['status'] == 'ok', rows[10]
s = rows[1500]
assert s['status'] == 'skipped' and 'time-limit' in s['reason'] and s['estimate_s'] > 0.01, s
assert s['total'] is None
"
expect bench-skip-line grep -q "skipped: estimated" "$T/out"

# --- errors are found before anything runs --------------------------------------
check plot-no-gnuplot 2 env PATH=/nonexistent "$BIN" bench --sizes 10 --devices serial --plot "$T/x.png"
expect plot-no-gnuplot-msg grep -q "install" "$T/err"
expect plot-no-gnuplot-nothing-ran test ! -s "$T/out"
check plot-bad-ext 2 "$BIN" bench --sizes 10 --devices serial --plot "$T/x.pdf"
check csv-missing-dir 2 "$BIN" bench --sizes 10 --devices serial --csv "$T/no/dir/x.csv"
check bad-algo 2 "$BIN" bench --sizes 10 --devices serial --algos dijkstra
check bad-device 1 "$BIN" bench --sizes 10 --devices no-such-device-xyz
expect bad-device-msg grep -q "^error:" "$T/err"

# --- sweep on PoCL: a row per WG value, a tuning file, used by the next solve ---
if [ $HAVE_POCL = 1 ]; then
  check sweep 0 "$BIN" sweep --n 64 --device pocl --algos squaring --families paper --wg 4,8,16,32,128 \
    --reps 2 --json "$T/s.json" --csv "$T/s.csv"
  for wg in 4 8 16 32; do
    expect "sweep-row-WG=$wg" grep -Eq "squaring +(TILED=0 )?WG=$wg +ok" "$T/out"
  done
  expect sweep-constraint-skip grep -q "WG=128 .*skipped: WG\*WG <= max work-group size" "$T/out"
  expect sweep-tuning-file grep -Pq "^squaring\tint32\t(TILED=0 )?(WG=(4|8|16|32)|BLOCK=.*TILED=1.*)\t64\t.*Portable Computing Language" \
    "$OCL_SP_CACHE_DIR/tuning.txt"
  expect sweep-json "$PY" -c "
import json
d = json.load(open('$T/s.json'))
assert d['schema_version'] == 1 and d['command'] == 'sweep'
rows = d['results']
assert [r['params'].get('WG') for r in rows] == [4, 8, 16, 32, 128], rows
assert [r['status'] for r in rows] == ['ok'] * 4 + ['skipped']
assert sum(r['best'] for r in rows) == 1 and d['best'][0]['algorithm'] == 'squaring'
assert d['tuning_file'].endswith('tuning.txt')
"
  expect sweep-csv test "$(wc -l <"$T/s.csv")" -eq 6
  # A later solve picks the stored value up (command line > tuned > built-in).
  check solve-uses-tuned 0 "$BIN" --n 20 --device pocl --algo squaring --json
  expect solve-uses-tuned-source "$PY" -c "
import json; r = json.load(open('$T/out')); assert r['params_source'].startswith('tuned'), r"

  # One fw configuration (BLOCK x WPT space narrowed on the command line).
  check sweep-fw 0 "$BIN" sweep --n 40 --device pocl --algos fw --families paper --block 16 --param WPT=2 --reps 1
  expect sweep-fw-row grep -Eq "fw +BLOCK=16 (TILED=0 )?WPT=2 +ok" "$T/out"
  expect sweep-fw-stored grep -Pq "^fw\tint32\tBLOCK=16 (TILED=0 )?WPT=2\t40\t" "$OCL_SP_CACHE_DIR/tuning.txt"

  # --no-store leaves the tuning file alone.
  cp "$OCL_SP_CACHE_DIR/tuning.txt" "$T/before.txt"
  # The register-tiled family is swept too, its rows verified and timed.
  # fw's tiled space includes OUTER (one level, or outer blocks of 8 tiles) and
  # STAGES (one staging buffer, or the ring of two).
  check sweep-tiled 0 "$BIN" sweep --n 70 --device pocl --algos fw --families tiled --block 64 \
    --param TM=4 --param TN=4,8 --param KC=16 --reps 1 --no-store
  expect sweep-tiled-rows test "$(grep -Ec "fw +BLOCK=64 KC=16 (OUTER=8 )?STAGES=(1|2) TILED=1 TM=4 TN=(4|8) +ok" "$T/out")" = 8
  expect sweep-tiled-ring grep -Eq "fw +BLOCK=64 KC=16 (OUTER=8 )?STAGES=2 TILED=1 TM=4 TN=8 +ok" "$T/out"

  check sweep-no-store 0 "$BIN" sweep --n 32 --device pocl --algos squaring --families paper --wg 8 --reps 1 --no-store
  expect sweep-no-store-unchanged cmp -s "$T/before.txt" "$OCL_SP_CACHE_DIR/tuning.txt"

  # --wg alone sweeps what WG applies to (the paper's squaring kernel of
  # the default algorithms), not every fw family; --families widens it again; WG
  # with only fw named is a usage error instead of a silent full fw sweep.
  check sweep-wg-only 0 "$BIN" sweep --n 24 --device pocl --wg 8,16 --reps 1 --warmup 0 \
    --no-store --json "$T/wg.json"
  expect sweep-wg-only-rows "$PY" -c "
import json
rows = json.load(open('$T/wg.json'))['results']
assert [(r['algorithm'], r['params'].get('WG'), r['params'].get('TILED', 0)) for r in rows] == \
    [('squaring', 8, 0), ('squaring', 16, 0)], rows
"
  check sweep-wg-fw-naive 0 "$BIN" sweep --n 24 --device pocl --algos fw-naive,fw --wg 8 --block 16 \
    --param WPT=2 --families paper --reps 1 --warmup 0 --no-store --json "$T/wg2.json"
  expect sweep-wg-families-given "$PY" -c "
import json
rows = json.load(open('$T/wg2.json'))['results']
assert sorted((r['algorithm'], r['params'].get('WG'), r['params'].get('BLOCK')) for r in rows) == \
    [('fw', None, 16), ('fw-naive', 8, None)], rows
"
  check sweep-wg-fw-only 2 "$BIN" sweep --n 24 --device pocl --algos fw --wg 8 --no-store
  expect sweep-wg-fw-only-msg grep -q "^error: no kernel family of fw takes --wg" "$T/err"

  # A corrupt tuning file: warned about and ignored, then rewritten by a sweep.
  printf 'garbage\x01\n{{{\n' >"$OCL_SP_CACHE_DIR/tuning.txt"
  check corrupt-solve 0 "$BIN" --n 20 --device pocl --algo squaring --json
  expect corrupt-warns grep -q "^warning: tuning file" "$T/err"
  check corrupt-sweep 0 "$BIN" sweep --n 32 --device pocl --algos squaring --families paper --wg 8 --reps 1
  expect corrupt-rewritten grep -q "^ocl_sp-tuning 1" "$OCL_SP_CACHE_DIR/tuning.txt"

  # --time-limit: a configuration estimated over it is a skipped row with its
  # estimate and a reason (table, CSV, JSON), never run and never stored; with
  # every configuration skipped the algorithm has none that ran: exit 1.
  cp "$OCL_SP_CACHE_DIR/tuning.txt" "$T/before.txt"
  check sweep-time-limit 1 "$BIN" sweep --device cpu --n 41 --algos squaring --families paper \
    --wg 8,16 --reps 1 --time-limit 0.000001 --json "$T/tl.json" --csv "$T/tl.csv"
  expect sweep-time-limit-rows test "$(grep -Ec "squaring +(TILED=0 )?WG=(8|16) +skipped: estimated .* exceeds --time-limit 1e-06 s" "$T/out")" = 2
  expect sweep-time-limit-table grep -Eq "^(TILED=0 )?WG=8 +skip\(~[0-9.e+-]+\) .*skipped" "$T/out"
  expect sweep-time-limit-msg grep -q "^error: an algorithm had no configuration that ran" "$T/err"
  expect sweep-time-limit-not-stored cmp -s "$T/before.txt" "$OCL_SP_CACHE_DIR/tuning.txt"
  expect sweep-time-limit-json "$PY" -c "
import json
d = json.load(open('$T/tl.json'))
assert d['settings']['time_limit_s'] == 1e-06, d['settings']
rows = d['results']
assert [r['status'] for r in rows] == ['skipped'] * 2, rows
for r in rows:
    assert r['estimate_s'] > 1e-06 and r['estimate_basis'] and 'time-limit' in r['reason'], r
    assert r['total'] is None and not r['best'], r
assert d['best'] == [] and d['tuning_file'] is None, d
"
  expect sweep-time-limit-csv "$PY" -c "
import csv
rows = list(csv.DictReader(open('$T/tl.csv')))
assert len(rows) == 2 and all(r['status'] == 'skipped' and float(r['estimate_s']) > 1e-06 for r in rows), rows
"
fi

finish_tests
