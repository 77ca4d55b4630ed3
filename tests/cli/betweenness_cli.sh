#!/usr/bin/env bash
# End-to-end tests of --stats FILE --betweenness: the betweenness column equals
# networkx's betweenness_centrality (normalized; directed, undirected given as both
# directions, disconnected, ties: a grid's many equal paths, float weights); the
# column is the same bytes on serial, OpenMP, PoCL and PoCL --split 2 (the other
# columns: stats_cli.sh; the device's one-pass harmonic sums differ in the last
# bits between placements); --sources
# SPEC gives the sampled estimate as networkx's k scales it; generated graphs,
# every value type, zero weights and a zero-weight cycle the same on every
# backend (PoCL: Brandes on the device); refusals.
# Usage: betweenness_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python networkx numpy

nx_python "$T" <<'PY'
import sys
t = sys.argv[1]
save(t, "directed", nx.gnp_random_graph(60, 0.07, seed=3, directed=True), lambda r: r.randint(1, 3))
save(t, "undirected", nx.connected_watts_strogatz_graph(50, 4, 0.3, seed=5), lambda r: r.randint(1, 2))
g = nx.disjoint_union(nx.path_graph(12), nx.cycle_graph(9)); g.add_nodes_from(range(21, 25))
save(t, "disconnected", g, lambda r: 1)
save(t, "grid", nx.convert_node_labels_to_integers(nx.grid_2d_graph(8, 9)), lambda r: 1)
save(t, "floats", nx.gnp_random_graph(45, 0.08, seed=8, directed=True), lambda r: r.randint(1, 40) / 8)
PY

compare() {  # compare GRAPH STATSFILE [SOURCES]: the column against networkx
  nx_python "$T/$1.txt" "$2" "${3:-}" <<'PY'
import sys, math, numpy as np
edges, path, sources = sys.argv[1], sys.argv[2], sys.argv[3]
G, n = read_graph(edges)
if path.endswith(".npy"):
    a = np.load(path)
else:
    a = np.genfromtxt(path, delimiter=",", names=True)
got = a["betweenness"]
if sources:
    S = [int(x) for x in sources.split(",")]
    raw = nx.betweenness_centrality_subset(G, S, list(G), normalized=False, weight="weight")
    want = {v: raw[v] / ((n - 1) * (n - 2)) * n / len(S) for v in G}
else:
    want = nx.betweenness_centrality(G, weight="weight")
bad = [(v, got[v], want[v]) for v in range(n)
       if not math.isclose(got[v], want[v], rel_tol=1e-12, abs_tol=1e-15)]
if len(got) != n or max(want.values()) <= 0: bad.append("size or empty")
for b in bad[:5]: print("mismatch", b)
sys.exit(1 if bad else 0)
PY
}

for g in directed undirected disconnected grid floats; do
  type=int32
  [ $g = floats ] && type=float64
  for run in "--backend serial" "--backend openmp" "--device pocl" "--device pocl --split 2"; do
    tag=$(printf '%s' "$run" | tr -c 'a-z0-9' '_')
    # shellcheck disable=SC2086
    check "$g $run: --stats --betweenness" 0 "$BIN" --input "$T/$g.txt" --algo sssp $run \
      --type $type --stats "$T/$g.$tag.csv" --betweenness --json
  done
  expect "$g: the column equals networkx's" compare $g "$T/$g.__backend_serial.csv"
  cut -d, -f6 "$T/$g.__backend_serial.csv" > "$T/$g.serial.col"
  for tag in __backend_openmp __device_pocl __device_pocl___split_2; do
    cut -d, -f6 "$T/$g.$tag.csv" > "$T/$g.$tag.col"
    expect "$g: $tag the column's bytes are serial's" cmp -s "$T/$g.serial.col" "$T/$g.$tag.col"
  done
done
expect "the report's note" grep -q "betweenness: exact, every vertex a source" "$T/out"
check "npy: betweenness field" 0 "$BIN" --input "$T/grid.txt" --stats "$T/grid.npy" --betweenness \
  --backend openmp
expect "npy: equals networkx" compare grid "$T/grid.npy"
expect "--algo auto runs sssp" grep -q "betweenness comes from the multi-source engine" "$T/out"
check "json: betweenness array" 0 "$BIN" --input "$T/grid.txt" --stats "$T/grid.json" --betweenness \
  --backend openmp
expect "json: a betweenness key" grep -q '"betweenness":\[' "$T/grid.json"
check "without --betweenness: no column" 0 "$BIN" --input "$T/grid.txt" --stats "$T/plain.csv" \
  --backend openmp
expect "no column" sh -c "head -1 '$T/plain.csv' | grep -qx 'vertex,reach,eccentricity,closeness,harmonic'"

# --sources: the estimate from those sources (networkx's k scaling)
for run in "--backend serial" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "sampled $run" 0 "$BIN" --input "$T/directed.txt" --algo sssp $run --stats "$T/k.csv" \
    --betweenness --sources 3,17,42,0,9
  expect "sampled $run: networkx's subset scaled by n / k" compare directed "$T/k.csv" 3,17,42,0,9
done
expect "sampled: the note" grep -q "estimated from 5 sources" "$T/out"

# Generated graphs, every value type, zero weights, samples: the column's bytes
# on every backend (PoCL and PoCL --split 2 run Brandes on the device beside the
# rows: kernels/betweenness.cl; the report says where the sources ran)
printf '# 6 vertices\n0 1 0\n1 2 1\n0 2 1\n3 0 0\n2 4 0\n4 5 2\n2 5 2\n1 4 1\n' > "$T/zeros.txt"
same_column() {  # same_column LABEL ARGS...: the column's bytes on every backend
  local label=$1; shift
  for run in "--backend serial" "--backend openmp" "--device pocl" "--device pocl --split 2"; do
    tag=$(printf '%s' "$run" | tr -c 'a-z0-9' '_')
    # shellcheck disable=SC2086
    check "$label $run" 0 "$BIN" "$@" --algo sssp $run --stats "$T/gen.$tag.csv" --betweenness
    [ "$run" = "--device pocl" ] && expect "$label: on the device" grep -q "sources on the device, 0 on the host" "$T/out"
    # two devices: each takes its share of the sources
    [ "$run" = "--device pocl --split 2" ] && expect "$label: on both devices" \
      grep -Eq "sources on 2 devices \([1-9][0-9]* \+ [1-9][0-9]*\), 0 on the host" "$T/out"
    col=$(head -1 "$T/gen.$tag.csv" | tr , '\n' | grep -nx betweenness | cut -d: -f1)
    cut -d, -f"${col:-0}" "$T/gen.$tag.csv" > "$T/gen.$tag.col"
  done
  for tag in __backend_openmp __device_pocl __device_pocl___split_2; do
    expect "$label: $tag the column's bytes are serial's" cmp -s "$T/gen.__backend_serial.col" "$T/gen.$tag.col"
  done
}
same_column "grid 20 x 20 unit weights" --generator grid --n 400 --weights 1:1
same_column "grid 30 x 30" --generator grid --n 900 --type int64
same_column "random degree 8" --n 300 --degree 8 --weights 1:3 --type float32
same_column "geometric" --generator geometric --n 300 --degree 6 --type float64
same_column "random, 12 sources" --n 300 --degree 6 --weights 1:2 --sources 0,5,17,40,41,99,150,151,200,250,298,299
same_column "zero weights" --input "$T/zeros.txt"
# --stats --betweenness computes the rows once (the CPU engines' rows to both
# sinks; the device's figures beside Brandes' passes where rows run in lanes):
# the other columns are the bytes --stats alone gives on the same backend
# (directed and undirected, integers and floats, several batches)
for g in "--generator grid --n 400 --weights 1:1" "--n 300 --degree 6 --weights 1:2" \
         "--generator geometric --n 300 --degree 6 --type float64"; do
  for run in "--backend serial" "--backend openmp" "--device pocl" "--device pocl --param LANES=8" \
             "--device pocl --param LANES=8 --param BATCH=16" "--device pocl --split 2"; do
    # shellcheck disable=SC2086
    check "one pass $g $run: --stats" 0 "$BIN" $g --algo sssp $run --stats "$T/alone.csv"
    # shellcheck disable=SC2086
    check "one pass $g $run: --stats --betweenness" 0 "$BIN" $g --algo sssp $run --stats "$T/both.csv" --betweenness
    case "$run" in
      *LANES=8*) expect "one pass $g $run: the figures beside the betweenness pass" \
                   grep -q "rows and columns reduced on the device beside the betweenness pass" "$T/out" ;;
      *serial*) expect "one pass $g $run: the rows to both sinks" grep -q "with the stats' pass" "$T/out" ;;
    esac
    cut -d, -f1-5 "$T/both.csv" > "$T/both.cols"
    expect "one pass $g $run: the stats' bytes" cmp -s "$T/alone.csv" "$T/both.cols"
  done
done
# OCL_SP_BETWEENNESS_ON_HOST=1: the rows to the host sink, the same bytes
check "on the host by request" 0 env OCL_SP_BETWEENNESS_ON_HOST=1 "$BIN" --n 300 --degree 8 --weights 1:3 \
  --type float32 --algo sssp --device pocl --stats "$T/host.csv" --betweenness
expect "on the host by request: the note" grep -q "300 sources on the host (OCL_SP_BETWEENNESS_ON_HOST=1)" "$T/out"
col=$(head -1 "$T/host.csv" | tr , '\n' | grep -nx betweenness | cut -d: -f1)
cut -d, -f"${col:-0}" "$T/host.csv" > "$T/host.col"
same_column "random degree 8 (again)" --n 300 --degree 8 --weights 1:3 --type float32
expect "on the host by request: the device's bytes" cmp -s "$T/host.col" "$T/gen.__device_pocl.col"
# The report counts the betweenness pass: its seconds within the solve's, its
# kernels within T_k (the rate divides both passes' relaxations by T_k)
for run in "--backend openmp" "--device pocl"; do
  # shellcheck disable=SC2086
  check "json times $run" 0 "$BIN" --generator grid --n 900 --algo sssp $run --stats "$T/t.csv" --betweenness --json
  expect "json times $run: the betweenness pass within the solve and T_k" "$PY" - "$T/out" <<'PY'
import json, re, sys
j = json.load(open(sys.argv[1]))
note = [x for x in j["notes"] if x.startswith("betweenness:")][0]
secs = float(re.search(r"\(([0-9.e+-]+) s\)$", note).group(1))
bc = j["kernel_seconds"].get("bc_sources", 0)
print("solve", j["solve"], "betweenness", secs, "t_k", j["t_k"], "bc_sources", bc)
sys.exit(0 if j["solve"] >= secs and j["t_k"] >= bc else 1)
PY
done
# a zero-weight cycle: the same error everywhere (the device flags the source,
# the host reports it)
printf '# 4 vertices\n0 1 0\n1 2 1\n0 2 1\n3 0 0\n1 0 0\n' > "$T/zcycle.txt"
for run in "--backend serial" "--backend openmp" "--device pocl" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "zero-weight cycle $run" 2 "$BIN" --input "$T/zcycle.txt" --algo sssp $run --stats "$T/zc.csv" --betweenness
  expect "zero-weight cycle $run: the message" grep -q "cycle of zero-weight edges through vertex 0" "$T/err"
done

# refusals (exit 2, error: first)
check "--betweenness without --stats" 2 "$BIN" --input "$T/grid.txt" --betweenness
expect "without --stats: error" err_starts
check "--betweenness with --algo fw" 2 "$BIN" --input "$T/grid.txt" --algo fw --stats "$T/x.csv" --betweenness
expect "fw: the message" grep -q "multi-source engine" "$T/err"
check "--betweenness with --verify" 2 "$BIN" --input "$T/grid.txt" --stats "$T/x.csv" --betweenness --verify
check "--stats --betweenness with --targets" 2 "$BIN" --input "$T/grid.txt" --stats "$T/x.csv" --betweenness --targets 1,2
check "--sources --betweenness with --output" 2 "$BIN" --input "$T/grid.txt" --stats "$T/x.csv" \
  --betweenness --sources 1,2 --output "$T/x.bin"
printf '# 3 vertices\n0 1 2\n1 2 -1\n' > "$T/neg.txt"
check "negative weights" 2 "$BIN" --input "$T/neg.txt" --algo sssp --backend serial --stats "$T/x.csv" --betweenness
expect "negative: the message" grep -q "weights >= 0" "$T/err"
expect "no stats file written on refusals" test ! -e "$T/x.csv"
finish_tests
