#!/usr/bin/env bash
# ocl_sp's OpenMP Floyd-Warshall against scipy.sparse.csgraph.floyd_warshall on the
# same 1500-vertex graph (course `bin` format), checked for equal distances, plus
# the n = 2000 rate of `ocl_sp --backend openmp --n 2000 --json`. Medians of RUNS.
# Usage: bench/cpu_vs_scipy.sh path/to/ocl_sp   (env: RUNS=3, N=1500, PYTHON, OUT)
set -euo pipefail

OCL_SP=${1:?usage: $0 path/to/ocl_sp}
OCL_SP=$(cd "$(dirname "$OCL_SP")" && pwd)/$(basename "$OCL_SP")
RUNS=${RUNS:-3}
N=${N:-1500}
HERE=$(cd "$(dirname "$0")" && pwd)

# A python3 with numpy and scipy (Debian's python3-scipy lives in /usr/bin).
PY=${PYTHON:-}
if [[ -z $PY ]]; then
  for cand in python3 /usr/bin/python3; do
    if "$cand" -c 'import numpy, scipy' 2>/dev/null; then PY=$cand; break; fi
  done
fi
[[ -n $PY ]] || { echo "error: no python3 with numpy and scipy (apt-get install python3-scipy)" >&2; exit 2; }

model=$(sed -n 's/^model name[[:space:]]*:[[:space:]]*//p' /proc/cpuinfo | head -1)
slug=$(echo "${model:-cpu}" | tr '[:upper:]' '[:lower:]' | sed 's/([^)]*)//g; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
OUT=${OUT:-$HERE/results/cpu-$slug-$(nproc)c/fw/openmp-vs-scipy/cpu_vs_scipy.txt}
mkdir -p "$(dirname "$OUT")"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

median() { sort -g | awk '{a[NR] = $1} END {print a[int((NR + 1) / 2)]}'; }

# The graph: directed, edge probability 0.1, integer weights 1..100, no self-loops,
# no parallel edges (scipy would add those up; ocl_sp keeps the minimum).
"$PY" - "$N" "$WORK/g.bin" <<'EOF'
import sys
import numpy as np
n, path = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(n)
mask = rng.random((n, n)) < 0.1
np.fill_diagonal(mask, False)
src, dst = np.nonzero(mask)
w = rng.integers(1, 101, size=src.size)
edges = np.stack([src, dst, w], axis=1).astype(np.int32)
with open(path, "wb") as f:
    np.array([n, edges.shape[0]], dtype=np.int32).tofile(f)
    edges.tofile(f)
EOF

# scipy: read the file, build the sparse matrix, solve; timed inside python (the
# interpreter and import start-up are left out, to scipy's benefit).
cat >"$WORK/scipy_fw.py" <<'EOF'
import sys, time
import numpy as np
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import floyd_warshall
t0 = time.perf_counter()
raw = np.fromfile(sys.argv[1], dtype=np.int32)
n, m = int(raw[0]), int(raw[1])
e = raw[2:2 + 3 * m].reshape(m, 3)
g = csr_matrix((e[:, 2].astype(np.float64), (e[:, 0], e[:, 1])), shape=(n, n))
d = floyd_warshall(g, directed=True)
t = time.perf_counter() - t0
if len(sys.argv) > 2:
    np.save(sys.argv[2], d)
print(t)
EOF

scipy_times=()
for ((r = 0; r < RUNS; r++)); do
  save=()  # the first run also keeps its distances for the comparison
  if ((r == 0)); then save=("$WORK/scipy.npy"); fi
  scipy_times+=("$("$PY" "$WORK/scipy_fw.py" "$WORK/g.bin" "${save[@]}")")
done

# ocl_sp: the whole process, start-up, reading, solving and writing included.
ocl_times=()
for ((r = 0; r < RUNS; r++)); do
  t0=$(date +%s.%N)
  "$OCL_SP" --backend openmp --input "$WORK/g.bin" --output "$WORK/out.bin" >/dev/null
  t1=$(date +%s.%N)
  ocl_times+=("$(awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}')")
done

check=$("$PY" - "$WORK/scipy.npy" "$WORK/out.bin" "$N" <<'EOF'
import sys
import numpy as np
ref = np.load(sys.argv[1])
got = np.fromfile(sys.argv[2], dtype=np.int32).reshape(int(sys.argv[3]), -1)
want = np.where(np.isinf(ref), 1073741823, ref).astype(np.int64)
bad = int(np.count_nonzero(want != got))
print("identical" if bad == 0 else f"MISMATCH in {bad} entries")
EOF
)

rates=()
for ((r = 0; r < RUNS; r++)); do
  rates+=("$("$OCL_SP" --backend openmp --n 2000 --json |
    "$PY" -c 'import json, sys; d = json.load(sys.stdin); print(d["relaxations_per_s"] / 1e9)')")
done

scipy_med=$(printf '%s\n' "${scipy_times[@]}" | median)
ocl_med=$(printf '%s\n' "${ocl_times[@]}" | median)
rate_med=$(printf '%s\n' "${rates[@]}" | median)
ratio=$(awk -v a="$scipy_med" -v b="$ocl_med" 'BEGIN {print a / b}')
verdict=$(awk -v r="$ratio" 'BEGIN {print (r >= 20) ? "ok (>= 20x)" : "BELOW the 20x target"}')

{
  echo "# ocl_sp openmp vs scipy.sparse.csgraph.floyd_warshall ($(date -u +%Y-%m-%d))"
  echo "cpu: ${model:-unknown}, $(nproc) cores; load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "ocl_sp: $("$OCL_SP" --version 2>/dev/null | head -1); scipy $("$PY" -c 'import scipy; print(scipy.__version__)')"
  echo "graph: n = $N, edge probability 0.1, weights 1..100 (bin format); runs: $RUNS, medians"
  echo
  echo "scipy floyd_warshall, read + solve (s):   $(printf '%.3f ' "${scipy_times[@]}")-> median $(printf '%.3f' "$scipy_med")"
  echo "ocl_sp --backend openmp, whole process (s): $(printf '%.3f ' "${ocl_times[@]}")-> median $(printf '%.3f' "$ocl_med")"
  echo "distances: $check"
  echo "speed-up: $(printf '%.1f' "$ratio")x  $verdict"
  echo
  echo "ocl_sp --backend openmp --n 2000 --json, G relaxations/s: $(printf '%.1f ' "${rates[@]}")-> median $(printf '%.1f' "$rate_med")"
} | tee "$OUT"
echo "(written to $OUT)" >&2
[[ $check == identical ]]
