#!/usr/bin/env bash
# End-to-end test of --stats FILE --betweenness where the numbers of shortest
# paths pass float64's range: a chain of 1100 "diamonds" (2^1100 shortest paths
# from one end to the other). The run succeeds, the column equals the chain's
# closed form (exact: networkx's float counts overflow there), every source and a
# sample of them (--sources), and is the same bytes on serial, OpenMP, PoCL and
# PoCL --split 2 (every source on the device: its wide pass).
# Usage: betweenness_wide_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"

K=1100  # hubs a_i = 3i (i = 0..K), middles 3i-2 and 3i-1 between a_{i-1} and a_i
"$PY" - "$T/chain.txt" $K <<'PY'
import sys
path, k = sys.argv[1], int(sys.argv[2])
with open(path, "w") as f:
    f.write(f"# {3 * k + 1} vertices\n")
    for i in range(1, k + 1):
        for m in (3 * i - 2, 3 * i - 1):
            for h in (3 * i - 3, 3 * i):
                f.write(f"{h} {m} 1\n{m} {h} 1\n")
PY

compare() {  # compare STATSFILE [SOURCES]: the column against the closed form
  "$PY" - "$1" $K "${2:-}" <<'PY'
import sys
from fractions import Fraction as F
path, k, sources = sys.argv[1], int(sys.argv[2]), sys.argv[3]
n = 3 * k + 1
rows = [l.split(",") for l in open(path).read().split("\n")[1:] if l]
col = open(path).readline().strip().split(",").index("betweenness")
got = [float(r[col]) for r in rows]
raw = [F(0)] * n
if sources:  # hub sources a_j: a middle of diamond i shares the pairs beyond it
    S = [int(x) for x in sources.split(",")]
    for s in S:
        j = s // 3
        for i in range(1, k + 1):
            far = 3 * (k - i) + 1 if i > j else 3 * i - 2  # targets beyond diamond i
            raw[3 * i - 2] += F(far, 2); raw[3 * i - 1] += F(far, 2)
            if 0 < i < k and i != j:
                raw[3 * i] += 3 * (k - i) if i > j else 3 * i
    scale = F(n, len(S))
else:  # every source: ordered pairs across each vertex
    for i in range(1, k + 1):
        raw[3 * i - 2] = raw[3 * i - 1] = F((3 * i - 2) * (3 * (k - i) + 1))
    for i in range(1, k):
        raw[3 * i] = F(18 * i * (k - i) + 2)
    raw[0] = raw[3 * k] = F(1)
    scale = F(1)
want = [float(r * scale / ((n - 1) * (n - 2))) for r in raw]
bad = [(v, got[v], want[v]) for v in range(n) if abs(got[v] - want[v]) > 1e-12 * max(want[v], 1e-300)]
if len(got) != n or max(want) <= 0: bad.append("size or empty")
for b in bad[:5]: print("mismatch", b)
sys.exit(1 if bad else 0)
PY
}

for run in "--backend serial" "--backend openmp" "--device pocl" "--device pocl --split 2"; do
  tag=$(printf '%s' "$run" | tr -c 'a-z0-9' '_')
  # shellcheck disable=SC2086
  check "$run: --stats --betweenness past float64's range" 0 "$BIN" --input "$T/chain.txt" \
    --algo sssp $run --stats "$T/$tag.csv" --betweenness
  col=$(head -1 "$T/$tag.csv" | tr , '\n' | grep -nx betweenness | cut -d: -f1)
  cut -d, -f"${col:-0}" "$T/$tag.csv" > "$T/$tag.col"
  if [ "$run" = "--device pocl" ]; then
    # the device runs every source: those past float64 in its wide pass (the
    # host's long double arithmetic), none left for the host
    expect "$run: every source on the device" \
      grep -Eq "betweenness: .* $((3 * K + 1)) sources on the device, 0 on the host" "$T/out"
  fi
done
expect "the column is the closed form" compare "$T/__backend_serial.csv"
for tag in __backend_openmp __device_pocl __device_pocl___split_2; do
  expect "$tag: the column's bytes are serial's" cmp -s "$T/__backend_serial.col" "$T/$tag.col"
done
# sampled: both ends (counts past float64) and the middle (within it)
src=0,1650,$((3 * K))
for run in "--backend openmp" "--device pocl --split 2"; do
  # shellcheck disable=SC2086
  check "sampled $run" 0 "$BIN" --input "$T/chain.txt" --algo sssp $run --stats "$T/k.csv" \
    --betweenness --sources $src
  expect "sampled $run: the closed form scaled by n / k" compare "$T/k.csv" $src
done
finish_tests
