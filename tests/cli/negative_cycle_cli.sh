#!/usr/bin/env bash
# End-to-end tests of negative cycle reports: every backend and
# algorithm names a cycle that really is one — its edges exist in the input and
# add up to a negative length — in the stderr message and in the --json object,
# exits 3 and writes no file; also where the solvers' own vertex (the lowest with
# d(i,i) < 0) is off the cycle, for a negative self-loop, float32, --verify and a
# larger random graph with a planted cycle.
# Usage: negative_cycle_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python

HAVE_POCL=0
if "$BIN" devices --json 2>/dev/null | "$PY" -c "
import json,sys; d=json.load(sys.stdin)['devices']
sys.exit(0 if any(x['vendor_key']=='pocl' for x in d) else 1)"; then HAVE_POCL=1; fi
RUNS=("--backend serial --algo fw" "--backend serial --algo squaring" "--backend serial --algo fw-naive"
      "--backend openmp --algo fw" "--backend openmp --algo squaring"
      "--backend serial --algo sssp" "--backend openmp --algo sssp")
if [ $HAVE_POCL = 1 ]; then
  RUNS+=("--device pocl --algo fw" "--device pocl --algo squaring" "--device pocl --algo fw-naive"
        "--device pocl --algo sssp")
else
  echo "note: no PoCL device: the OpenCL runs are left out"
fi

# Serial FW names vertex 0 here (d(0,0) < 0), which lies on no negative cycle;
# the only one is 2 -> 4 -> 2 (-5 - 5), 0-based.
cat >"$T/offcycle.gr" <<'EOF'
c vertex 0 reaches the negative cycle 2 -> 4 -> 2 and is reached from it
p sp 6 8
a 1 3 -6
a 2 1 11
a 3 2 0
a 3 5 -5
a 5 2 10
a 5 3 -5
a 5 4 -1
a 5 6 -2
EOF
WANT="error: negative cycle detected: 2 -> 4 -> 2 (length -10); no distances written"

# is_cycle FILE JSON: the JSON's cycle is a cycle of the edge list with the
# reported negative length (parallel edges: the cheapest).
is_cycle() {
  "$PY" - "$1" "$2" <<'EOF'
import json, sys
path, rep = sys.argv[1], json.loads(open(sys.argv[2]).read())
w = {}
for line in open(path):
    t = line.split('#')[0].split()
    if not t or t[0] in ('c', 'p'):
        continue
    if t[0] == 'a':
        u, v, x = int(t[1]) - 1, int(t[2]) - 1, float(t[3])
    else:
        u, v, x = int(t[0]), int(t[1]), float(t[2]) if len(t) > 2 else 1.0
    w[(u, v)] = min(x, w.get((u, v), x))
assert rep['error'] == 'negative cycle' and rep['exit_code'] == 3, rep
c = rep['cycle']
assert c and len(set(c)) == len(c) and c[0] == min(c) and rep['vertex'] == c[0], c
total = sum(w[(c[k], c[(k + 1) % len(c)])] for k in range(len(c)))
assert total < 0 and abs(total - rep['cycle_length']) < 1e-6, (total, rep)
assert ' -> '.join(map(str, c + [c[0]])) in rep['message'], rep['message']
EOF
}

for run in "${RUNS[@]}"; do
  name=$(echo "$run" | tr -d '-' | tr ' ' '_')
  # shellcheck disable=SC2086
  check "text-$name" 3 "$BIN" --input "$T/offcycle.gr" $run --output "$T/d.npy"
  expect "text-$name-msg" grep -qxF -- "$WANT" "$T/err"
  expect "text-$name-no-file" test ! -e "$T/d.npy"
  expect "text-$name-no-report" test ! -s "$T/out"
  # shellcheck disable=SC2086
  check "json-$name" 3 "$BIN" --input "$T/offcycle.gr" $run --json
  expect "json-$name-cycle" is_cycle "$T/offcycle.gr" "$T/out"
  expect "json-$name-exact" "$PY" -c "
import json; r = json.load(open('$T/out'))
assert r['cycle'] == [2, 4] and r['cycle_length'] == -10 and r['vertex'] == 2, r"
  expect "json-$name-stderr" grep -qxF -- "$WANT" "$T/err"
done

# float32 and --verify (the verify copy serves the search) on the first backends.
check float32 3 "$BIN" --input "$T/offcycle.gr" --backend openmp --type float32 --json
expect float32-cycle is_cycle "$T/offcycle.gr" "$T/out"
check verify 3 "$BIN" --input "$T/offcycle.gr" --backend serial --verify
expect verify-msg grep -qxF -- "$WANT" "$T/err"

# A negative self-loop is reported as the cycle u -> u (from the matrix build).
printf '0 1 1\n1 1 -2\n1 2 3\n' >"$T/loop.txt"
check self-loop 3 "$BIN" --input "$T/loop.txt" --backend serial
expect self-loop-msg grep -qxF -- \
  "error: negative cycle detected: 1 -> 1 (length -2); no distances written" "$T/err"
check self-loop-json 3 "$BIN" --input "$T/loop.txt" --backend openmp --json
expect self-loop-json-cycle is_cycle "$T/loop.txt" "$T/out"

# 400 vertices, random positive and negative edges (potentials: no negative
# cycle of their own) plus a planted 7-cycle of length -1 through high ids.
"$PY" - "$T/big.txt" <<'EOF'
import random, sys
random.seed(16)
n, p = 400, [random.randint(0, 50) for _ in range(400)]
with open(sys.argv[1], 'w') as f:
    for u in range(n):
        for v in random.sample(range(n), 12):
            if u != v:
                f.write(f"{u} {v} {random.randint(1, 60) + p[u] - p[v]}\n")
    cyc = [390, 17, 333, 250, 398, 5, 120]
    for k, u in enumerate(cyc):
        v = cyc[(k + 1) % len(cyc)]
        f.write(f"{u} {v} {(1 if k else -7) + p[u] - p[v]}\n")
EOF
for run in "--backend openmp --algo fw" "--backend serial --algo squaring"; do
  name=$(echo "$run" | tr -d '-' | tr ' ' '_')
  # shellcheck disable=SC2086
  check "big-$name" 3 "$BIN" --input "$T/big.txt" $run --json
  expect "big-$name-cycle" is_cycle "$T/big.txt" "$T/out"
done
if [ $HAVE_POCL = 1 ]; then
  check big-pocl 3 "$BIN" --input "$T/big.txt" --device pocl --json
  expect big-pocl-cycle is_cycle "$T/big.txt" "$T/out"
fi

# No negative cycle: negative edges alone still solve (exit 0).
check no-cycle 0 "$BIN" --n 50 --negative --backend serial --json
expect no-cycle-report "$PY" -c "import json; r = json.load(open('$T/out')); assert 'error' not in r, r"

finish_tests
