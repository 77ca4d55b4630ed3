#!/usr/bin/env bash
# End-to-end tests of --stats FILE --sources SPEC (DESIGN.md "Sparse graphs and
# rows"): a line per listed source, in the SPEC's order (repeats kept), whose
# figures are the lines full --stats writes for those vertices, byte for byte
# with integer weights on serial, OpenMP, PoCL (and PoCL split in 2) and fw; a
# grid (both directions, a weight each way: the reversed graph's rows from the
# same sources), a geometric graph (symmetric: one pass), a directed graph with
# negative edges, a disconnected graph, n = 1. The summary
# covers the distinct sources' rows (checked against the --output rows of the
# same run) and says so (the JSON stats object's "sources", the text report).
# Float weights: within rounding of full --stats (the reversed graph adds each
# path's weights in the other order). npy and json files; refusals (exit 2, no
# file).
# Usage: stats_sources_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy

"$PY" - "$T" <<'PY'
import sys, random
t = sys.argv[1]
rnd = random.Random(7)
n = 120
p = lambda x: (7 * x) % 11  # potentials: negative edges, no negative cycle
with open(f"{t}/negative.txt", "w") as f:
    f.write(f"# {n} vertices\n")
    for u in range(n):
        for v in rnd.sample(range(n), 3):
            if v != u:
                f.write(f"{u} {v} {rnd.randint(1, 9) + p(u) - p(v)}\n")
# Two paths and isolated vertices at the end (pinned by a self-loop of weight 0).
with open(f"{t}/disconnected.txt", "w") as f:
    f.write("# 30 vertices\n")
    for u in range(11):
        f.write(f"{u} {u + 1} {1 + u % 3}\n{u + 1} {u} {1 + u % 3}\n")
    for u in range(12, 20):
        f.write(f"{u} {u + 1} 2\n")  # directed
    f.write("29 29 0\n")
with open(f"{t}/one.txt", "w") as f:
    f.write("# 1 vertices\n0 0 0\n")
with open(f"{t}/floats.txt", "w") as f:
    f.write(f"# {n} vertices\n")
    for u in range(n):
        for v in rnd.sample(range(n), 3):
            if v != u:
                f.write(f"{u} {v} {rnd.randint(1, 40) / 7}\n")
PY
printf '5\n# a comment\n0\n5\n' > "$T/spec.txt"

pick() {  # pick FULL.csv SPEC OUT.csv: the header and FULL's lines of SPEC's vertices, in order
  "$PY" - "$1" "$2" "$3" <<'PY'
import sys
full, spec, out = sys.argv[1:]
lines = open(full).read().splitlines()
ids = []
if spec.startswith("@"):
    ids = [int(l) for l in open(spec[1:]) if l.strip() and not l.startswith("#")]
else:
    for tok in spec.split(","):
        a, _, b = tok.partition("-")
        ids += list(range(int(a), int(b or a) + 1))
open(out, "w").write("\n".join([lines[0]] + [lines[1 + v] for v in ids]) + "\n")
PY
}

summary() {  # summary SOURCES.csv ROWS.npy REPORT.json: the report's stats object against the lines and rows
  "$PY" - "$@" <<'PY'
import sys, json, math, numpy as np
csv, rows, report = sys.argv[1:]
a = np.atleast_1d(np.genfromtxt(csv, delimiter=",", names=True))
d = np.load(rows)
s = json.load(open(report))["stats"]
seen, ecc, pairs, total = set(), [], 0, 0.0
for r, v in enumerate(a["vertex"].astype(int)):
    if v in seen: continue
    seen.add(v)
    row = d[r].astype(float)
    fin = [x for j, x in enumerate(row) if j != v and x != 1073741823 and np.isfinite(x)]
    ecc.append(a["eccentricity"][r]); pairs += len(fin); total += sum(fin)
want = dict(diameter=max(ecc), radius=min(ecc), reachable_pairs=pairs, sources=len(seen),
            average_shortest_path_length=total / pairs if pairs else 0.0)
bad = [(k, s.get(k), w) for k, w in want.items() if not math.isclose(s.get(k, -1), w, rel_tol=1e-8)]
for b in bad: print("mismatch", b)
sys.exit(1 if bad else 0)
PY
}

# graph | input options | SPEC (repeats, the last vertex, out of order)
cases=(
  "grid|--generator grid --n 900|0-9,500,899,7,7"
  "negative|--input $T/negative.txt|119,3,0-4,3,60"
  "disconnected|--input $T/disconnected.txt|29,12,20,0-2,11,19,12"
  "one|--input $T/one.txt|0,0"
  "file|--generator grid --n 900|@$T/spec.txt"
  "geometric|--generator geometric --n 500 --degree 4|499,0-5,250,0"
)
for c in "${cases[@]}"; do
  IFS='|' read -r g input spec <<<"$c"
  # shellcheck disable=SC2086
  check "$g: full --stats (serial)" 0 "$BIN" $input --algo sssp --backend serial --stats "$T/$g.full.csv" ||
    continue
  pick "$T/$g.full.csv" "$spec" "$T/$g.want.csv"
  runs=("sssp --backend serial" "sssp --backend openmp" "sssp --device pocl" "fw --backend openmp")
  [ "$g" = negative ] && runs+=("sssp --device pocl --split 2")
  for run in "${runs[@]}"; do
    tag=$(printf '%s' "$run" | tr -c 'a-z0-9' '_')
    # shellcheck disable=SC2086
    check "$g $run: --stats --sources" 0 "$BIN" $input --algo $run --stats "$T/$g.$tag.csv" \
      --sources "$spec" --json &&
      expect "$g $run: full --stats' lines, byte for byte" cmp "$T/$g.want.csv" "$T/$g.$tag.csv"
  done
done
# Only the sources' rows ran (grid: 14 listed, 12 distinct; 14 rows of the graph
# and 14 of its reverse, 3480 edges each).
check "grid: rows with the stats" 0 "$BIN" --generator grid --n 900 --algo sssp --backend openmp \
  --stats "$T/g.csv" --sources 0-9,500,899,7,7 --output "$T/g.npy" --json
cp "$T/out" "$T/g.json"
expect "grid: the stats with an output" cmp "$T/grid.want.csv" "$T/g.csv"
expect "grid: the output holds the 14 rows" "$PY" -c "import numpy as np,sys; sys.exit(np.load('$T/g.npy').shape != (14, 900))"
expect "grid: the summary covers the 12 distinct sources" summary "$T/g.csv" "$T/g.npy" "$T/g.json"
expect "grid: 2 x 14 rows solved, not 900" grep -q '"relaxations":97440,' "$T/g.json"
# The figures' launches on a device are the figures' own batch, whatever the
# rows' slot parts (OCL_SP_LANE_SLOT_SOURCES=4 makes them 4 sources): with the
# part as the batch the grid's 1000 sources took 1000 launches instead of 252
# (and an H100 ~20x the time at n = 10^5); the same lines either way.
launches() { "$PY" -c "import json,sys; print(json.load(open(sys.argv[1]))['kernel_launches'])" "$1"; }
check "grid 50 x 50: figures of 1000 sources on PoCL" 0 "$BIN" --generator grid --n 2500 --algo sssp \
  --device pocl --stats "$T/gp.csv" --sources 0-999 --json
cp "$T/out" "$T/gp.json"
check "grid 50 x 50: the same with slot parts of 4 sources" 0 env OCL_SP_LANE_SLOT_SOURCES=4 "$BIN" \
  --generator grid --n 2500 --algo sssp --device pocl --stats "$T/gp4.csv" --sources 0-999 --json
cp "$T/out" "$T/gp4.json"
expect "grid 50 x 50: the figures' launches do not follow the slot parts" \
  test "$(launches "$T/gp.json")" = "$(launches "$T/gp4.json")"
expect "grid 50 x 50: the same lines" cmp "$T/gp.csv" "$T/gp4.csv"
check "geometric: symmetric" 0 "$BIN" --generator geometric --n 500 --degree 4 --backend openmp \
  --stats "$T/geo.csv" --sources 499,0-5,250,0 --json
expect "geometric: one pass (symmetric)" sh -c "! grep -q 'second pass' '$T/out'"
expect "geometric: the same lines" cmp "$T/geometric.want.csv" "$T/geo.csv"
check "negative: rows with the stats" 0 "$BIN" --input "$T/negative.txt" --algo sssp --backend serial \
  --stats "$T/n.csv" --sources 119,3,0-4,3,60 --output "$T/n.npy" --json
cp "$T/out" "$T/n.json"
expect "negative: the summary" summary "$T/n.csv" "$T/n.npy" "$T/n.json"
expect "negative: the reversed graph's rows" grep -q "second pass over the reversed graph" "$T/n.json"
expect "negative: the note" grep -q "stats: figures of 7 sources' rows" "$T/n.json"
check "text report" 0 "$BIN" --input "$T/negative.txt" --algo sssp --backend openmp --stats "$T/n2.csv" \
  --sources 119,3,0-4,3,60
expect "text report: the stats line names the sources" grep -q "^  stats     diameter .*(7 sources' rows: " "$T/out"
check "full --stats: no sources field" 0 "$BIN" --input "$T/negative.txt" --algo sssp --backend serial \
  --stats "$T/n3.csv" --json
expect "full --stats: the stats object has no sources" sh -c "! grep -q '\"sources\":' '$T/out'"

# npy and json files: the sources as the vertex field.
check "npy" 0 "$BIN" --input "$T/negative.txt" --backend openmp --stats "$T/n.npy2.npy" --sources 119,3,0-4,3,60
expect "npy: the vertices and figures" "$PY" -c "
import numpy as np, sys
a = np.load('$T/n.npy2.npy'); b = np.genfromtxt('$T/n.csv', delimiter=',', names=True)
sys.exit(not (list(a['vertex']) == [119, 3, 0, 1, 2, 3, 4, 3, 60] and
              all((a[k] == b[k]).all() for k in ('reach', 'eccentricity', 'closeness', 'harmonic'))))"
check "json" 0 "$BIN" --input "$T/negative.txt" --backend openmp --stats "$T/n.json2.json" --sources 119,3,0-4,3,60
expect "json: the vertices and the sources count" "$PY" -c "
import json, sys
j = json.load(open('$T/n.json2.json'))
sys.exit(not (j['vertex'] == [119, 3, 0, 1, 2, 3, 4, 3, 60] and j['stats']['sources'] == 7))"

# Float weights: the reversed graph's distances, within rounding of full --stats.
check "floats: full" 0 "$BIN" --input "$T/floats.txt" --type float64 --backend serial --algo sssp --stats "$T/f.full.csv"
for run in "--backend serial" "--device pocl"; do
  # shellcheck disable=SC2086
  check "floats $run: --sources" 0 "$BIN" --input "$T/floats.txt" --type float64 $run --algo sssp \
    --stats "$T/f.csv" --sources 7,0-5,7 &&
    expect "floats $run: full --stats' figures within 1e-12" "$PY" -c "
import numpy as np, sys
a = np.genfromtxt('$T/f.csv', delimiter=',', names=True); b = np.genfromtxt('$T/f.full.csv', delimiter=',', names=True)
ids = [7, 0, 1, 2, 3, 4, 5, 7]; b = b[ids]
sys.exit(not (list(a['vertex'].astype(int)) == ids and (a['reach'] == b['reach']).all() and
              all(np.allclose(a[k], b[k], rtol=1e-12, atol=0) for k in ('eccentricity', 'closeness', 'harmonic'))))"
done

# Refusals: exit 2, error: first, no file.
check "out of range" 2 "$BIN" --generator grid --n 400 --backend openmp --stats "$T/x.csv" --sources 3,400
expect "out of range: error" err_starts
expect "out of range: names the id" grep -q "400" "$T/err"
check "with --targets" 2 "$BIN" --generator grid --n 400 --backend openmp --stats "$T/x.csv" --sources 3 --targets 1
expect "with --targets: says why" grep -q "^error: --stats .*--targets" "$T/err"
check "targets alone" 2 "$BIN" --generator grid --n 400 --backend openmp --stats "$T/x.csv" --targets 1
expect "refusals: no stats file" test ! -e "$T/x.csv"

finish_tests
