#!/usr/bin/env bash
# End-to-end tests of --stats: the per-vertex figures equal networkx's
# (closeness_centrality with wf_improved, harmonic_centrality, reach and
# eccentricity from single-source Dijkstra) and the report's diameter, radius,
# reachable pairs and average shortest path length, on directed, undirected,
# disconnected and float-weighted graphs; sssp (streamed, every backend) and fw;
# csv, npy and json files; refusals (--stats --sources: stats_sources_cli.sh).
# Usage: stats_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python networkx numpy

# The graphs: written as edge lists by networkx's own generators.
nx_python "$T" <<'PY'
import sys
t = sys.argv[1]
save(t, "directed", nx.gnp_random_graph(60, 0.06, seed=3, directed=True), lambda r: r.randint(1, 9))
save(t, "undirected", nx.connected_watts_strogatz_graph(50, 4, 0.3, seed=5), lambda r: r.randint(1, 20))
g = nx.disjoint_union(nx.path_graph(12), nx.cycle_graph(9)); g.add_nodes_from(range(21, 25))
save(t, "disconnected", g, lambda r: r.randint(1, 5))
save(t, "floats", nx.gnp_random_graph(45, 0.08, seed=8, directed=True), lambda r: r.randint(1, 40) / 8)
PY

compare() {  # compare GRAPH STATSFILE REPORT_JSON
  nx_python "$T/$1.txt" "$2" "$3" <<'PY'
import sys, json, math, numpy as np
edges, path, report = sys.argv[1], sys.argv[2], sys.argv[3]
G, n = read_graph(edges)
if path.endswith(".npy"):
    a = np.load(path); cols = {k: a[k] for k in a.dtype.names}
elif path.endswith(".json"):
    cols = {k: np.array(v) for k, v in json.load(open(path)).items() if k != "stats"}
else:
    a = np.genfromtxt(path, delimiter=",", names=True); cols = {k: a[k] for k in a.dtype.names}
clo = nx.closeness_centrality(G, distance="weight", wf_improved=True)
har = nx.harmonic_centrality(G, distance="weight")
tol = 1e-12  # every file keeps all 17 digits
bad = []
tot = pairs = 0; ecc_all = []
for v in range(n):
    d = nx.single_source_dijkstra_path_length(G, v, weight="weight")
    ecc = max(d.values()); ecc_all.append(ecc)
    pairs += len(d) - 1; tot += sum(d.values())
    want = (v, len(d), ecc, clo[v], har[v])
    got = tuple(cols[k][v] for k in ("vertex", "reach", "eccentricity", "closeness", "harmonic"))
    if not all(math.isclose(a, b, rel_tol=tol, abs_tol=1e-12) for a, b in zip(got, want)):
        bad.append((v, got, want))
if len(cols["vertex"]) != n: bad.append(("rows", len(cols["vertex"]), n))
s = json.load(open(report))["stats"]
want = dict(diameter=max(ecc_all), radius=min(ecc_all), reachable_pairs=pairs,
            average_shortest_path_length=tot / pairs)
for k, w in want.items():
    if not math.isclose(s[k], w, rel_tol=1e-7): bad.append((k, s[k], w))
if nx.is_strongly_connected(G) and not math.isclose(
        s["average_shortest_path_length"], nx.average_shortest_path_length(G, weight="weight"), rel_tol=1e-7):
    bad.append("networkx average_shortest_path_length")
for b in bad[:5]: print("mismatch", b)
sys.exit(1 if bad else 0)
PY
}

for g in directed undirected disconnected floats; do
  type=int32
  [ $g = floats ] && type=float32
  for run in "sssp --backend serial" "sssp --backend openmp" "sssp --device pocl" "fw --backend openmp"; do
    for ext in csv npy json; do
      case "$run:$ext" in *openmp:npy | *pocl:json | *serial:csv | fw*:csv) ;; *) continue ;; esac
      # shellcheck disable=SC2086
      check "$g $run stats.$ext" 0 "$BIN" --input "$T/$g.txt" --algo $run --type $type \
        --stats "$T/st.$ext" --json &&
        cp "$T/out" "$T/report.json" &&
        expect "$g $run stats.$ext: equals networkx" compare $g "$T/st.$ext" "$T/report.json"
    done
  done
done
expect "undirected: one pass (no reversed-graph note)" sh -c "! grep -q 'second pass' '$T/report.json'"
# Directed, every vertex a source: the CPU engines gather the columns' figures
# from the rows as they pass (one pass; integers: the two passes' bytes; floats:
# the forward rows' distances, path order from the source, as every placement
# adds them, within rounding of networkx's reversed-graph ones above).
check "directed: one pass on the CPU" 0 "$BIN" --input "$T/directed.txt" --algo sssp --backend serial --stats "$T/s.csv"
expect "directed: columns from the rows note" grep -q "gathered from the rows on the host (one pass)" "$T/out"
expect "directed: no second pass" sh -c "! grep -q 'second pass' '$T/out'"
expect "directed: one pass equals fw's stats" sh -c "'$BIN' --input '$T/directed.txt' --algo fw --backend serial --stats '$T/sfw.csv' > /dev/null && cmp -s '$T/s.csv' '$T/sfw.csv'"
check "floats: one pass on the CPU" 0 "$BIN" --input "$T/floats.txt" --algo sssp --backend serial --type float32 --stats "$T/sf.csv"
expect "floats: columns from the rows note" grep -q "gathered from the rows on the host (one pass)" "$T/out"
expect "floats: no second pass" sh -c "! grep -q 'second pass' '$T/out'"
expect "human report: the stats line" grep -q "^  stats     diameter .*reachable pairs" "$T/out"
check "stats with an output, streamed" 0 "$BIN" --input "$T/directed.txt" --algo sssp --backend openmp \
  --stats "$T/s2.csv" --output "$T/d.bin"
expect "stats with an output: same stats" cmp -s "$T/s.csv" "$T/s2.csv"
check "fw output for the stats run" 0 "$BIN" --input "$T/directed.txt" --algo fw --backend serial --output "$T/dfw.bin"
expect "stats with an output: the distances are fw's" cmp -s "$T/d.bin" "$T/dfw.bin"
check "no --json: report has no stats" 0 "$BIN" --input "$T/directed.txt" --algo sssp --backend serial --json
expect "stats null without --stats" grep -q '"stats":null' "$T/out"

# The OpenCL engine reduces the rows on the device (PoCL has doubles): only each
# row's figures come back. By default the sources run side by side (sssp_lanes)
# and one pass gives rows' and columns' figures, the columns' sums continued in
# source order as the host adds them: the whole file equals the host reduction's
# (OCL_SP_STATS_ON_HOST=1) byte for byte. One source a work-group (LANES=1) takes
# two passes, rows of the graph and of its reverse, each reduced on the device
# (sums whose order shows, harmonic, in vertex order): the same file byte for
# byte. With a stats pass that also streams the rows (a
# file sink) or negative weights (potentials to undo) the rows come to the host.
check "pocl: rows and columns reduced on the device in one pass" 0 "$BIN" --input "$T/directed.txt" \
  --algo sssp --device pocl --stats "$T/lanes.csv" --json
expect "pocl one pass: the note" grep -q "reduced on the device in one pass" "$T/out"
expect "pocl one pass: no second pass" sh -c "! grep -q 'second pass' '$T/out'"
expect "pocl one pass: the lanes kernels ran" grep -q '"sssp_lanes_column_figures"' "$T/out"
check "pocl: rows reduced on the device, one source a group" 0 "$BIN" --input "$T/directed.txt" --algo sssp \
  --device pocl --param LANES=1 --stats "$T/dev.csv" --json
expect "pocl: the device note" grep -q "rows reduced on the device" "$T/out"
expect "pocl: both passes on the device (no host reduction)" sh -c "! grep -q 'row reduction (host)' '$T/out'"
expect "pocl: the figures kernel ran" grep -q '"sssp_row_figures"' "$T/out"
expect "pocl LANES=1: the second pass" grep -q "second pass over the reversed graph" "$T/out"
OCL_SP_STATS_ON_HOST=1 check "pocl: rows reduced on the host" 0 "$BIN" --input "$T/directed.txt" \
  --algo sssp --device pocl --stats "$T/host.csv" --json
expect "pocl host: no device note" sh -c "! grep -q 'reduced on the device' '$T/out'"
expect "one pass with lanes: the host's stats byte for byte" cmp -s "$T/lanes.csv" "$T/host.csv"
# Deep searches (a geometric graph past 2 log2 n levels, mean degree past 5):
# integers on a symmetric graph take a source a group's row figures in one pass
# (faster than lanes there); the same bytes as OpenMP and as lanes forced;
# float32 stays in lanes.
GEO=(--generator geometric --n 6000 --algo sssp)
check "deep: openmp" 0 "$BIN" "${GEO[@]}" --backend openmp --stats "$T/deep_ref.csv"
check "deep: pocl, a source a group" 0 "$BIN" "${GEO[@]}" --device pocl --stats "$T/deep.csv" --json &&
  expect "deep: the one-pass note" grep -q "stats: one pass, the rows' figures the columns' (a symmetric graph)" "$T/out" &&
  expect "deep: the row figures kernel ran, no lanes" sh -c "grep -q '\"sssp_row_figures\"' '$T/out' && ! grep -q sssp_lanes '$T/out'" &&
  expect "deep: buckets of 800 %" grep -q "buckets 800% of the mean weight" "$T/out" &&
  expect "deep: the same bytes as openmp" cmp -s "$T/deep_ref.csv" "$T/deep.csv"
check "deep: pocl, lanes forced" 0 "$BIN" "${GEO[@]}" --device pocl --param LANES=8 --stats "$T/deep8.csv" &&
  expect "deep lanes: the same bytes" cmp -s "$T/deep_ref.csv" "$T/deep8.csv"
check "deep float32: pocl stays in lanes" 0 "$BIN" "${GEO[@]}" --type float32 --device pocl --stats "$T/deepf.csv" --json &&
  expect "deep float32: lanes' one pass" grep -q "reduced on the device in one pass" "$T/out"
# A device with room for one source but not for a group of 8 (the 50 x 50 grid:
# ~88 KB of graph, 70 KB a source, 140 KB a group of lanes): --stats falls back
# to one source a group in two passes, with the same bytes; rows asked for in
# lanes are refused, naming the group.
check "pocl, room for a source, not a group: stats" 0 "$BIN" --generator grid --n 2500 --algo sssp \
  --device pocl --device-memory 230K --stats "$T/small.csv"
expect "not a group: the second pass" grep -q "second pass over the reversed graph" "$T/out"
OCL_SP_STATS_ON_HOST=1 check "grid 50 x 50 stats on the host" 0 "$BIN" --generator grid --n 2500 \
  --algo sssp --backend openmp --stats "$T/small_host.csv"
expect "not a group: the host's stats byte for byte" cmp -s "$T/small.csv" "$T/small_host.csv"
# Room for one group where the device runs one a core at once (PoCL: a compute
# unit a core): groups of twice the items (LANE_WG not given; GPUs keep their
# threads busy that way), built apart, the same file byte for byte.
check "pocl, room for one group: stats" 0 "$BIN" --generator grid --n 2500 --algo sssp --device pocl \
  --stats "$T/one_group.csv" --device-memory 250K --json
cp "$T/out" "$T/one_group.json"
check "pocl, room for every group: stats" 0 "$BIN" --generator grid --n 2500 --algo sssp --device pocl \
  --stats "$T/all_groups.csv" --json
cp "$T/out" "$T/all_groups.json"
if [ "$(nproc)" -ge 2 ]; then
  expect "one group of room: groups of 128 items" grep -q "8 a group of 128 work-items" "$T/one_group.json"
else
  expect "one core: groups of 64 items" grep -q "8 a group of 64 work-items" "$T/one_group.json"
fi
expect "every group: groups of 64 items" grep -q "8 a group of 64 work-items" "$T/all_groups.json"
expect "larger groups: the same stats byte for byte" cmp -s "$T/one_group.csv" "$T/all_groups.csv"
# Launches take two lane sets in turn on two queues where two fit (the column
# figures of each wait for the previous launch's); room for one group: one set.
expect "every group: two launches in flight" grep -q "2 launches in flight" "$T/all_groups.json"
expect "one group of room: one launch at a time" sh -c "! grep -q 'launches in flight' '$T/one_group.json'"
check "pocl, one launch at a time (OCL_SP_LANE_SETS=1), BATCH 16" 0 env OCL_SP_LANE_SETS=1 "$BIN" --generator grid \
  --n 2500 --algo sssp --device pocl --stats "$T/one_set.csv" --param BATCH=16 --json
expect "one set: no launches in flight" sh -c "! grep -q 'launches in flight' '$T/out'"
check "pocl, two sets, BATCH 16" 0 "$BIN" --generator grid --n 2500 --algo sssp --device pocl \
  --stats "$T/two_sets.csv" --param BATCH=16 --json
expect "two sets, BATCH 16: 157 launches of three kernels" grep -q '"kernel_launches":471' "$T/out"
expect "one set or two: the same stats byte for byte" cmp -s "$T/one_set.csv" "$T/all_groups.csv"
expect "two sets, BATCH 16: the same stats byte for byte" cmp -s "$T/two_sets.csv" "$T/all_groups.csv"
# A round's queued heads in a __local set of 8 ids (OCL_SP_LANE_SET=3): heads
# that find it full go to their tags, each still queued once a round (a duplicate
# a round overflowed the queue once: wrong closeness on this graph).
check "pocl, a set of 8 ids: stats" 0 env OCL_SP_LANE_SET=3 "$BIN" --generator random --degree 5 --n 1003 \
  --algo sssp --device pocl --stats "$T/set8.csv"
check "serial: stats" 0 "$BIN" --generator random --degree 5 --n 1003 --algo sssp --backend serial \
  --stats "$T/set8_host.csv"
expect "a set of 8 ids: the host's stats byte for byte" cmp -s "$T/set8.csv" "$T/set8_host.csv"
check "pocl, rows in lanes that do not fit" 1 "$BIN" --generator grid --n 2500 --algo sssp --device pocl \
  --device-memory 230K --param LANES=8 --output "$T/nofit.bin"
expect "rows in lanes: the error names the group" grep -q "error: sssp: n = 2500 needs .* for one group of 8 sources (LANES)" "$T/err"
expect "rows in lanes: no output file" test ! -e "$T/nofit.bin"
expect "device and host reductions: the same bytes" cmp -s "$T/dev.csv" "$T/host.csv"
check "pocl: stats and streamed rows" 0 "$BIN" --input "$T/directed.txt" --algo sssp --device pocl \
  --stats "$T/dev2.csv" --output "$T/dpocl.bin" --json
expect "pocl streamed: the rows are fw's" cmp -s "$T/dpocl.bin" "$T/dfw.bin"
"$PY" - "$T/directed.txt" "$T/negative.txt" <<'PY'
import sys
# The directed graph reweighted by potentials, w + p(u) - p(v): negative edges,
# every cycle's weight unchanged (no negative cycle), other distances.
out = open(sys.argv[2], "w")
p = lambda x: (7 * x) % 11
for line in open(sys.argv[1]):
    if line.startswith("#"): out.write(line); continue
    u, v, w = map(int, line.split())
    out.write(f"{u} {v} {w + p(u) - p(v)}\n")
PY
if "$BIN" --input "$T/negative.txt" --algo sssp --backend serial --stats "$T/neg_cpu.csv" >/dev/null 2>&1; then
  check "pocl: negative weights" 0 "$BIN" --input "$T/negative.txt" --algo sssp --device pocl --stats "$T/neg_dev.csv" --json
  expect "pocl negative: reduced on the host" sh -c "! grep -q 'reduced on the device' '$T/out'"
  expect "pocl negative: equals the CPU" cmp -s "$T/neg_dev.csv" "$T/neg_cpu.csv"
else
  expect "negative-weight graph has no negative cycle" false
fi

# Refusals before any work.
check "stats with --targets" 2 "$BIN" --input "$T/directed.txt" --algo sssp --backend serial --stats "$T/x.csv" --targets 1
expect "stats with --targets: says why" grep -q "^error: --stats .*--targets" "$T/err"
check "stats unknown extension" 2 "$BIN" --input "$T/directed.txt" --algo sssp --backend serial --stats "$T/x.txt"
expect "stats unknown extension: names it" grep -q "^error: --stats '$T/x.txt'" "$T/err"
check "stats = output" 2 "$BIN" --input "$T/directed.txt" --backend serial --stats "$T/same.csv" --output "$T/same.csv"
expect "refusals: no files" sh -c "! ls '$T' | grep -q -e '^x\.' -e '^same'"

finish_tests
