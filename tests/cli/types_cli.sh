#!/usr/bin/env bash
# --type auto|int32|int64|float32|float64 end to end: what auto picks and says,
# npy dtypes and unreachable values, float64 equal to scipy's float64 (1e-12
# relative) on random real weights for every algorithm and backend, int64 with
# weights near 2^40 equal to exact Python integers, the refusals (int64 sums past
# 2^61, weights past 2^53, float64 without cl_khr_fp64 is a unit test), and the
# output-safety rules for the 64-bit types (no file on failure, none clobbered).
# Usage: types_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy scipy

# Random real weights (and a disconnected part): scipy's float64 as the reference.
"$PY" - "$T" <<'EOF'
import sys, numpy as np
t = sys.argv[1]
rng = np.random.default_rng(27)
n = 90
with open(f"{t}/real.edges", "w") as f:
    for u in range(n):
        for v in rng.choice(60, 5, replace=False):
            if u < 60 and u != v:
                f.write(f"{u} {v} {rng.uniform(0.001, 1000.0):.15g}\n")
    for u in range(60, n - 1):
        f.write(f"{u} {u + 1} {rng.uniform(0, 1):.17g}\n")
# int64: weights near 2^40 (sums need 64 bits), a few negative, no negative cycle.
pot = rng.integers(0, 2**38, n)
with open(f"{t}/big.edges", "w") as f:
    for u in range(n):
        for v in rng.choice(n, 4, replace=False):
            if u != v:
                w = int(rng.integers(2**39, 2**40)) + int(pot[u]) - int(pot[v])
                f.write(f"{u} {v} {w}\n")
EOF

# auto's choice, in the report and the JSON.
check auto-real 0 "$BIN" --input "$T/real.edges" --backend serial --json
expect auto-real-type grep -q '"type": *"float64"' "$T/out"
check auto-big 0 "$BIN" --input "$T/big.edges" --backend serial
expect auto-big-type grep -q "type auto: int64" "$T/out"
check auto-generated 0 "$BIN" --n 50 --backend serial
expect auto-generated-type grep -q "type auto: int32" "$T/out"
check auto-generated-wide 0 "$BIN" --n 300 --weights 1:10000000 --backend serial
expect auto-generated-wide-type grep -q "type auto: int64" "$T/out"

# float64 against scipy, every algorithm and backend (PoCL included).
"$PY" - "$T" <<'EOF'
import sys, numpy as np, scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path
t = sys.argv[1]
e = np.loadtxt(f"{t}/real.edges")
n = 90
a = sp.coo_matrix((e[:, 2], (e[:, 0].astype(int), e[:, 1].astype(int))), shape=(n, n)).tocsr()
a.sum_duplicates()  # (no duplicates are drawn per row)
np.save(f"{t}/scipy.npy", shortest_path(a, method="D"))
e = np.loadtxt(f"{t}/big.edges", dtype=np.int64)
d = np.full((n, n), 2**62 - 1, dtype=object)
for s in range(n):  # Bellman-Ford in Python integers: exact
    d[s, s] = 0
    for _ in range(n):
        changed = False
        for u, v, w in e:
            if d[s, u] != 2**62 - 1 and d[s, u] + int(w) < d[s, v]:
                d[s, v] = d[s, u] + int(w); changed = True
        if not changed:
            break
np.save(f"{t}/exact.npy", d.astype(np.int64))
EOF
for run in "fw serial" "fw openmp" "fw pocl" "squaring pocl" "fw-naive pocl" "sssp pocl" "sssp openmp" "fw pocl --panel 32" "fw pocl --split 2"; do
  set -- $run
  algo=$1 be=$2
  shift 2
  if [ "$be" = pocl ]; then where=(--device pocl); else where=(--backend "$be"); fi
  name="float64-$algo-$be${1:+-panel}"
  check "$name" 0 "$BIN" --input "$T/real.edges" --type float64 --algo "$algo" "${where[@]}" "$@" \
    --output "$T/f.npy" --quiet &&
    expect "$name-vs-scipy" "$PY" -c "
import numpy as np
a, b = np.load('$T/f.npy'), np.load('$T/scipy.npy')
assert a.dtype == np.float64, a.dtype
assert (np.isinf(a) == np.isinf(b)).all()
f = np.isfinite(b)
assert (np.abs(a[f] - b[f]) <= 1e-12 * np.maximum(1, np.abs(b[f]))).all(), np.abs(a[f] - b[f]).max()"
  name="int64-$algo-$be${1:+-panel}"
  check "$name" 0 "$BIN" --input "$T/big.edges" --type int64 --algo "$algo" "${where[@]}" "$@" \
    --output "$T/i.npy" --quiet &&
    expect "$name-exact" "$PY" -c "
import numpy as np
a, b = np.load('$T/i.npy'), np.load('$T/exact.npy')
assert a.dtype == np.int64, a.dtype
assert (a == b).all()"
done

# sssp's 64-bit compare-and-swap loop (devices without atom_min on 64 bits).
for t in int64 float64; do
  check "sssp-cas-$t" 0 env OCL_SP_NO_ATOM_MIN64=1 "$BIN" --input "$T/big.edges" --type "$t" \
    --algo sssp --device pocl --quiet --output "$T/cas_$t.npy" &&
    expect "sssp-cas-$t-exact" "$PY" -c "
import numpy as np
a, b = np.load('$T/cas_$t.npy'), np.load('$T/exact.npy')
none = b == 2**62 - 1
assert (a[~none] == b[~none]).all() and (a[none] == (np.inf if a.dtype.kind == 'f' else 2**62 - 1)).all()"
done

# MPI ranks: the same bytes as one process (2 ranks, OpenMP and PoCL panels).
if command -v mpirun >/dev/null; then
  for t in int64 float64; do
    check "mpi-ref-$t" 0 "$BIN" --input "$T/big.edges" --type "$t" --backend serial --quiet \
      --output "$T/ref_$t.npy"
    check "mpi-np2-$t" 0 timeout 120 mpirun --oversubscribe --allow-run-as-root -np 2 "$BIN" \
      --input "$T/big.edges" --type "$t" --backend openmp --panel 32 --quiet --output "$T/mpi_$t.npy" &&
      expect "mpi-np2-$t-bytes" cmp -s "$T/ref_$t.npy" "$T/mpi_$t.npy"
  done
else
  echo "FAIL: mpirun not found (scripts/setup.sh installs openmpi-bin)"
  fails=$((fails + 1))
fi

# Formats: bin holds 8-byte values, csv the full precision, unreachable as documented.
check bin64 0 "$BIN" --input "$T/big.edges" --backend serial --output "$T/i.bin" --quiet
expect bin64-size test "$(stat -c %s "$T/i.bin")" = $((90 * 90 * 8))
printf '0 1 1234.5678912345\n2 0 1\n' >"$T/p.edges"
check csv64 0 "$BIN" --input "$T/p.edges" --backend serial --output "$T/p.csv" --quiet
expect csv64-text test "$(head -1 "$T/p.csv")" = "0,1234.5678912345,inf"
printf '0 1 3\n' >"$T/q.edges"
check int64-inf 0 "$BIN" --input "$T/q.edges" --backend serial --type int64 --output "$T/q.csv" --quiet
expect int64-inf-text test "$(sed -n 2p "$T/q.csv")" = "4611686018427387903,0"

# Refusals: exit 2, error: first, no output file.
check int-frac 2 "$BIN" --input "$T/p.edges" --backend serial --type int64 --output "$T/no.npy"
expect int-frac-msg grep -q "not an integer" "$T/err"
expect int-frac-nofile test ! -e "$T/no.npy"
printf '0 1 1e18\n1 2 1e18\n2 3 1e18\n' >"$T/huge.edges"  # integers; sums past 2^61
check int64-overflow 2 "$BIN" --input "$T/huge.edges" --backend serial --type int64 --output "$T/no.npy"
expect int64-overflow-msg grep -q "exact int64 range" "$T/err"
expect int64-overflow-nofile test ! -e "$T/no.npy"
check auto-overflow 0 "$BIN" --input "$T/huge.edges" --backend serial --quiet --output "$T/h.npy"
expect auto-overflow-float64 "$PY" -c "import numpy as np; assert np.load('$T/h.npy').dtype == np.float64"
printf '0 1 18014398509481985\n' >"$T/inexact.edges"
check past-2-53 2 "$BIN" --input "$T/inexact.edges" --backend serial --type int64
expect past-2-53-msg grep -q "2^53" "$T/err"
echo keep >"$T/keep.npy"
printf '0 1 -1.5\n1 0 1.25\n' >"$T/neg.edges"
check float64-negcycle 3 "$BIN" --input "$T/neg.edges" --backend serial --type float64 \
  --output "$T/keep.npy"
expect float64-negcycle-untouched test "$(cat "$T/keep.npy")" = keep
check bad-type 2 "$BIN" --n 5 --backend serial --type int16
expect bad-type-msg err_starts

finish_tests
