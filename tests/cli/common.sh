# Shared preamble of the end-to-end CLI tests (tests/cli/*.sh), sourced by each:
#   source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
# Takes the ocl_sp binary from the test's first argument ($BIN), makes a temporary
# folder $T removed at exit, points OCL_SP_CACHE_DIR into it (program cache and
# tuning file never touch ~/.cache), unsets OCL_SP_DEVICE, and defines the failure
# counter and helpers:
#   check NAME EXPECTED_EXIT CMD...  runs CMD (stdout -> $T/out, stderr -> $T/err);
#                                    returns 1 (and counts a failure) on another exit code
#   expect NAME CONDITION-COMMAND... counts a failure when the condition fails
#   use_python [MODULE...]           sets $PY to a python3 that imports the modules
#   has_line TEXT                    $T/out has the exact line
#   err_starts                       $T/err starts with "error:"
#   finish_tests                     prints the count and exits 1 on any failure
#   cases WORD...                    a loop's cases (under ASan the first and the last)
#   use_mpi, run, same, bad_rank_job the MPI tests' mpirun, runs and checks (below)
# Not a test itself: tests/CMakeLists.txt leaves it out of the cli.* tests.
set -uo pipefail
BIN=${1:?usage: $(basename "$0") OCL_SP_BINARY}
T=$(mktemp -d "/tmp/ocl_sp_$(basename "$0" .sh).XXXXXX")
trap 'rm -rf "$T"' EXIT
export OCL_SP_CACHE_DIR="$T/cache"
unset OCL_SP_DEVICE
fails=0
PY=python3

check() {  # check NAME EXPECTED_EXIT CMD...  (stdout -> $T/out, stderr -> $T/err)
  local name=$1 want=$2 got=0
  shift 2
  "$@" >"$T/out" 2>"$T/err" || got=$?
  if [ "$got" != "$want" ]; then
    echo "FAIL $name: exit $got, expected $want"
    sed 's/^/  stderr: /' "$T/err" | head -5
    sed 's/^/  stdout: /' "$T/out" | tail -5
    fails=$((fails + 1))
    return 1
  fi
  echo "ok   $name"
}

expect() {  # expect NAME CONDITION-COMMAND...
  local name=$1
  shift
  if "$@"; then echo "ok   $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}

use_python() {  # use_python [MODULE...]: the system python3 when a pyenv one lacks a module
  local p m ok
  for p in python3 /usr/bin/python3; do
    ok=1
    for m in "$@"; do "$p" -c "import $m" 2>/dev/null || ok=0; done
    if [ $ok = 1 ] && command -v "$p" >/dev/null; then PY=$p; return 0; fi
  done
  echo "FAIL: no python3 with ${*:-python3} (install python3-${1:-minimal})"
  exit 1
}

has_line() { grep -qxF -- "$1" "$T/out"; }
err_starts() { head -c 6 "$T/err" | grep -q '^error:'; }

finish_tests() {
  echo "$fails failure(s)"
  [ "$fails" -eq 0 ] || exit 1
  exit 0
}

cases() {  # cases WORD...: a test loop's cases, one a line: every one; under
  # AddressSanitizer (tests/sanitize/run.sh sets OCL_SP_UNDER_ASAN) the first and
  # the last only: the sanitized run takes each code path once, the plain ctest
  # run every case. Words with spaces: mapfile -t C < <(cases ...), never a
  # while-read loop (mpirun reads stdin).
  if [ -n "${OCL_SP_UNDER_ASAN:-}" ] && [ $# -gt 2 ]; then
    printf '%s\n' "$1" "${!#}"
  else
    printf '%s\n' "$@"
  fi
}

use_mpi() {  # use_mpi: mpirun for the tests (fails, never skips, without it); sets MPI=(...)
  if ! command -v mpirun >/dev/null; then
    echo "FAIL: mpirun not found (apt-get install openmpi-bin libopenmpi-dev; scripts/setup.sh does)"
    exit 1
  fi
  # Containers: root, more ranks than cores, no ptrace-based single copy.
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
  export OMP_NUM_THREADS=1
  MPI=(timeout 60 mpirun --oversubscribe --allow-run-as-root)
}

# The MPI tests' helpers (after use_mpi):
run() {  # run NAME EXPECTED_EXIT NP ARGS...: ocl_sp under mpirun -np NP
  local name=$1 want=$2 np=$3
  shift 3
  check "$name" "$want" "${MPI[@]}" -np "$np" "$BIN" "$@"
}
same() { expect "$1-same-bytes" cmp -s "$2" "$3"; }  # same NAME REF GOT: byte-identical outputs
rows_to() {  # NAME OUT ARGS...: the run streams its rows to OUT
  local name=$1 out=$2; shift 2
  check "$name" 0 "$BIN" "$@" --quiet --output "$out"
}
same_rows() {  # NAME REF ARGS...: the run's rows equal REF's bytes
  local name=$1 ref=$2; shift 2
  rows_to "$name" "$T/got.bin" "$@" && expect "$name: same bytes" cmp -s "$T/got.bin" "$ref"
}

# A job one rank of which fails: ocl_sp ARGS... --output $T/bad.bin under mpirun
# -np 3, rank 1 given --device no-such-device, the others PoCL (stdout -> $T/out,
# stderr -> $T/err); counts a failure unless the job failed (no timeout) with an
# error naming rank 1 and left no $T/bad.bin.
bad_rank_job() {  # bad_rank_job ARGS...
  cat >"$T/rankwrap.sh" <<EOF2
#!/usr/bin/env bash
dev=pocl
[ "\${OMPI_COMM_WORLD_RANK:-0}" = 1 ] && dev=no-such-device
exec "$BIN" "\$@" --device "\$dev"
EOF2
  chmod +x "$T/rankwrap.sh"
  local rc=0
  "${MPI[@]}" -np 3 "$T/rankwrap.sh" "$@" --output "$T/bad.bin" >"$T/out" 2>"$T/err" || rc=$?
  expect bad-device-failed test "$rc" != 0 -a "$rc" != 124
  expect bad-device-no-file test ! -e "$T/bad.bin"
  expect bad-device-message grep -q "^error: rank 1: .*no-such-device" "$T/err"
}

# The networkx graph tests' (stats_cli, betweenness_cli) Python helpers:
#   save(folder, name, G, weight)  G as FOLDER/NAME.txt: a "# N vertices" line, "u v w"
#                                  an edge (w = weight(rnd), rnd seeded by the name's
#                                  length; an undirected edge both ways), then "n-1 n-1 0"
#                                  (a self-loop of weight 0 pins n: isolated vertices at
#                                  the end still count)
#   read_graph(path)               such a file back as (nx.DiGraph with weight, n)
NX_GRAPH_HELPERS='
import random, networkx as nx
def save(folder, name, G, weight):
    rnd = random.Random(len(name))
    with open(f"{folder}/{name}.txt", "w") as f:
        f.write(f"# {G.number_of_nodes()} vertices\n")
        for u, v in G.edges():
            w = weight(rnd)
            f.write(f"{u} {v} {w}\n")
            if not G.is_directed():
                f.write(f"{v} {u} {w}\n")
        n = G.number_of_nodes() - 1
        f.write(f"{n} {n} 0\n")
def read_graph(path):
    G, n = nx.DiGraph(), 0
    for line in open(path):
        if line.startswith("#"):
            n = int(line.split()[1]); continue
        u, v, w = line.split(); u, v, w = int(u), int(v), float(w)
        if u != v: G.add_edge(u, v, weight=w)
    G.add_nodes_from(range(n))
    return G, n
'
nx_python() {  # nx_python ARG... <<'PY' ... PY: the script after NX_GRAPH_HELPERS, sys.argv[1:] = ARGs
  "$PY" -c "$NX_GRAPH_HELPERS
$(cat)" "$@"
}

# A directed graph of fractional weights (mpi_sssp_cli, stats_placement_cli) to
# FILE: a cycle through the N vertices (u -> u + 1 weighs BASE + u / DIV) and 3
# more out-edges a vertex (weights in [1, 10)) drawn by an LCG seeded SEED; nine
# decimals, so no sum is exact. SYM_FILE: the same edges both ways (symmetric: a
# vertex's row and column hold the same paths, added in opposite orders).
write_fractional_edges() {  # write_fractional_edges FILE SYM_FILE N SEED BASE DIV
  awk -v n="$3" -v x="$4" -v base="$5" -v div="$6" 'BEGIN {
    for (u = 0; u < n; ++u) printf "%d %d %.9f\n", u, (u + 1) % n, base + u / div
    for (u = 0; u < n; ++u) for (k = 0; k < 3; ++k) {
      x = (x * 1103515245 + 12345) % 2147483648; v = x % n
      x = (x * 1103515245 + 12345) % 2147483648; w = 1 + (x % 1000003) / 1000003 * 9
      if (v != u) printf "%d %d %.9f\n", u, v, w } }' >"$1"
  awk '{ print; print $2, $1, $3 }' "$1" >"$2"
}

# The paths tests' graph (panel_cli, mpi_cli) to FILE: n = 333 (not a multiple of
# the panels), 5 out-edges a vertex, negative edges from potentials (no negative
# cycle), zero weights, and 300..332 reaching nothing below 300.
write_paths_graph() {  # write_paths_graph FILE
  "$PY" - "$1" <<'EOF2'
import random, sys
random.seed(26)
n = 333
pot = [random.randint(0, 30) for _ in range(n)]
lines = []
for u in range(n):
    for v in random.sample(range(n), 5):
        if u != v and not (u >= 300 > v):  # 300..332 reach nothing below 300
            lines.append(f"{u} {v} {random.randint(0, 20) + pot[u] - pot[v]}\n")
open(sys.argv[1], "w").write("".join(lines))
EOF2
}

# The via matrix expanded independently of ocl_sp: for every STEP-th source and
# the SOURCEs given, each reachable target's path runs over input edges (the
# lightest of parallel ones) from i to j and adds up to the distance; no via for
# unreachable pairs and the diagonal.
expand_paths() {  # expand_paths DIST.npy VIA.npy EDGES STEP [SOURCE...]
  "$PY" - "$@" <<'EOF2'
import sys, numpy as np
d, via = np.load(sys.argv[1]), np.load(sys.argv[2])
step, extra = int(sys.argv[4]), [int(x) for x in sys.argv[5:]]
n = d.shape[0]
w = {}
for line in open(sys.argv[3]):
    u, v, x = map(int, line.split())
    if u != v: w[(u, v)] = min(w.get((u, v), 1 << 40), x)
INF = 1073741823
def path(i, j, depth=0):
    assert depth < n, ('loop', i, j)
    k = via[i, j]
    return [i, j] if k < 0 else path(i, k, depth + 1)[:-1] + path(k, j, depth + 1)
for i in list(range(0, n, step)) + extra:
    assert via[i, i] == -1
    for j in range(n):
        if i == j: continue
        if d[i, j] == INF:
            assert via[i, j] == -1, (i, j); continue
        p = path(i, j)
        assert p[0] == i and p[-1] == j, (i, j, p)
        assert sum(w[(a, b)] for a, b in zip(p, p[1:])) == d[i, j], (i, j, p)
EOF2
}
