#!/usr/bin/env bash
# End-to-end tests of path reconstruction: --query output on the paper's 5-vertex
# example (negative edges), "no path", bad vertex ids (exit 2), --paths-output in
# npy / csv / bin with the via convention (-1 for direct edges), --json queries and
# --verify's path check, on the serial and openmp backends and on PoCL.
# Usage: paths_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python numpy

# CLRS 25.1 / the OCL_SP paper's example, plus vertex 5 that nothing reaches.
cat >"$T/paper.txt" <<'G'
0 1 3
0 2 8
0 4 -4
1 3 1
1 4 7
2 1 4
3 0 2
3 2 -5
4 3 6
5 0 1
G

for where in "--backend serial" "--backend openmp" "--device pocl"; do
  for algo in fw squaring fw-naive; do
    [ "$where" = "--backend openmp" ] && [ "$algo" = fw-naive ] && continue
    for type in int32 float32; do
      tag="${where##* }-$algo-$type"
      # shellcheck disable=SC2086
      check "query-$tag" 0 "$BIN" --input "$T/paper.txt" $where --algo "$algo" --type "$type" \
        --query 0 1 --query 2 0 --query 0 5 --query 3 3 --verify || continue
      expect "query-$tag-0-1" has_line "path 0 -> 1: 0 -> 4 -> 3 -> 2 -> 1 (length 1)"
      expect "query-$tag-2-0" has_line "path 2 -> 0: 2 -> 1 -> 3 -> 0 (length 7)"
      expect "query-$tag-no-path" has_line "path 0 -> 5: no path"
      expect "query-$tag-self" has_line "path 3 -> 3: 3 (length 0)"
      expect "query-$tag-checked" grep -q "check     paths ok" "$T/out"
    done
  done
done

# Bad vertex ids: usage errors (exit 2) before anything is computed.
check bad-vertex-high 2 "$BIN" --input "$T/paper.txt" --backend serial --query 0 6
expect bad-vertex-high-msg grep -q "^error: .*vertex 6 out of range \[0, 6)" "$T/err"
check bad-vertex-negative 2 "$BIN" --input "$T/paper.txt" --backend serial --query -1 2
expect bad-vertex-negative-msg grep -q "vertex -1 out of range" "$T/err"
check bad-vertex-text 2 "$BIN" --input "$T/paper.txt" --backend serial --query 0 x
check bad-vertex-missing 2 "$BIN" --input "$T/paper.txt" --backend serial --query 0
check bad-vertex-pocl 2 "$BIN" --input "$T/paper.txt" --device pocl --query 7 0
check bad-paths-format 2 "$BIN" --input "$T/paper.txt" --backend serial --paths-output "$T/v.weird"
check same-output-twice 2 "$BIN" --input "$T/paper.txt" --backend serial --output "$T/x.npy" \
  --paths-output "$T/x.npy"

# JSON carries the queries.
check json 0 "$BIN" --input "$T/paper.txt" --device pocl --query 0 1 --query 0 5 --json
expect json-queries "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['paths'] is True, r
q=r['queries']; assert len(q)==2, q
assert q[0]=={'from':0,'to':1,'reachable':True,'path':[0,4,3,2,1],'length':1}, q[0]
assert q[1]['reachable'] is False and q[1]['path']==[] and q[1]['length'] is None, q[1]"

# The via matrix: int32, -1 on the diagonal, for direct edges and unreachable pairs;
# npy, csv and bin agree; expanding it reproduces the distances.
check via-npy 0 "$BIN" --input "$T/paper.txt" --backend serial --paths-output "$T/via.npy" \
  --output "$T/d.npy"
check via-csv 0 "$BIN" --input "$T/paper.txt" --device pocl --algo squaring \
  --paths-output "$T/via.csv"
check via-bin 0 "$BIN" --input "$T/paper.txt" --backend openmp --paths-output "$T/via.dat" \
  --paths-output-format bin
expect via-files "$PY" -c "
import numpy as np
v=np.load('$T/via.npy'); d=np.load('$T/d.npy')
assert v.dtype==np.int32 and v.shape==(6,6), (v.dtype, v.shape)
assert (np.diag(v)==-1).all(), v
assert v[0,4]==-1 and v[4,3]==-1 and v[3,2]==-1 and v[2,1]==-1, v  # direct edges on 0->1's path
assert (v[:,5]==-1).all(), v                                         # nothing reaches 5
c=np.loadtxt('$T/via.csv',delimiter=',',dtype=np.int64); b=np.fromfile('$T/via.dat',dtype='<i4')
assert c.shape==(6,6) and b.shape==(36,), (c.shape, b.shape)
w={(0,1):3,(0,2):8,(0,4):-4,(1,3):1,(1,4):7,(2,1):4,(3,0):2,(3,2):-5,(4,3):6,(5,0):1}
for via in (v, c, b.reshape(6,6)):
  def expand(i, j):
    k = via[i,j]
    return [i, j] if k < 0 else expand(i, k)[:-1] + expand(k, j)
  for i in range(6):
    for j in range(6):
      if i == j or d[i,j] == 1073741823: continue
      p = expand(i, j)
      assert sum(w[(p[e], p[e+1])] for e in range(len(p)-1)) == d[i,j], (i, j, p)"

# A graph with zero-weight cycles: every path still expands (the check runs in --verify).
printf '0 1 0\n1 0 0\n1 2 0\n2 1 0\n2 0 0\n0 2 0\n2 3 1\n3 2 0\n' >"$T/zero.txt"
for where in "--backend serial" "--backend openmp" "--device pocl"; do
  # shellcheck disable=SC2086
  check "zero-cycles-${where##* }" 0 "$BIN" --input "$T/zero.txt" $where --query 1 3 --verify
  expect "zero-cycles-${where##* }-path" has_line "path 1 -> 3: 1 -> 2 -> 3 (length 1)"
done

# A negative cycle still exits 3 and writes no path file.
printf '0 1 1\n1 2 -3\n2 0 1\n' >"$T/negcyc.txt"
check negcycle 3 "$BIN" --input "$T/negcyc.txt" --device pocl --paths-output "$T/neg.npy"
expect negcycle-nofile test ! -e "$T/neg.npy"

# The single buffer's rebuild (integer --paths from n = 10 000 by default): the
# tight edges found on the device give the via bytes of the host scan's way
# (OCL_SP_PATHS_DEVICE_EDGES=0), --verify holds; n = 333 (no multiple of a tile),
# weights 0:2 (many equal shortest paths), with and without negative weights; a
# negative cycle still exits 3 with no path file.
for case in "--weights 0:2" "--weights 1:3 --negative"; do
  tag=$(echo "$case" | tr -c 'a-z0-9\n' '-')
  # shellcheck disable=SC2086
  check "device-edges$tag" 0 env OCL_SP_PATHS_REBUILD=1 "$BIN" --n 333 $case --device pocl \
    --paths-output "$T/dev.npy" --output "$T/dev-d.npy" --verify --json || continue
  expect "device-edges$tag-route" grep -q "found on the device" "$T/out"
  # shellcheck disable=SC2086
  check "host-edges$tag" 0 env OCL_SP_PATHS_REBUILD=1 OCL_SP_PATHS_DEVICE_EDGES=0 "$BIN" --n 333 \
    $case --device pocl --paths-output "$T/host.npy" --output "$T/host-d.npy" --json || continue
  expect "host-edges$tag-route" grep -q "found on the host" "$T/out"
  expect "device-edges$tag-same-via" cmp -s "$T/dev.npy" "$T/host.npy"
  expect "device-edges$tag-same-d" cmp -s "$T/dev-d.npy" "$T/host-d.npy"
done
check device-edges-negcycle 3 env OCL_SP_PATHS_REBUILD=1 "$BIN" --input "$T/negcyc.txt" --device pocl \
  --paths-output "$T/negdev.npy"
expect device-edges-negcycle-nofile test ! -e "$T/negdev.npy"

# One via matrix for one graph: exact sums (int32, int64, float32 holding
# integers) give the same via bytes on every backend and placement (serial,
# OpenMP, PoCL, PoCL split in two, panels, the path kernels' route, mpirun ranks)
# and for every algorithm: the smallest predecessor on a fewest-edge shortest
# path. n = 301 (no multiple of a tile or panel), weights 0:2 (zero-weight cycles,
# many equal paths) and 1:3 with negative edges.
use_mpi
for case in "--weights 0:2" "--weights 1:3 --negative"; do
  tag=$(echo "$case" | tr -c 'a-z0-9\n' '-')
  ref="$T/ref$tag.bin"
  # shellcheck disable=SC2086
  check "via-ref$tag" 0 "$BIN" --n 301 $case --backend serial --paths-output "$ref" --quiet || continue
  k=0
  while IFS= read -r run; do
    k=$((k + 1))
    # shellcheck disable=SC2086
    check "via-same$tag-$k" 0 $run --n 301 $case --paths-output "$T/via$k.bin" --quiet </dev/null &&
      expect "via-same$tag-$k: $run" cmp -s "$ref" "$T/via$k.bin"
  done <<RUNS  # (mpirun would forward the list on stdin to rank 0: </dev/null above)
$BIN --backend openmp
$BIN --device pocl
$BIN --device pocl --split 2
$BIN --device pocl --panel 128
env OCL_SP_PATHS_REBUILD=0 $BIN --device pocl
$BIN --device pocl --type int64
$BIN --backend openmp --type float32
$BIN --device pocl --split 2 --type float32
$BIN --algo fw-naive --device pocl
$BIN --algo squaring --backend serial
$BIN --algo squaring --device pocl
$BIN --algo sssp --backend openmp
$BIN --algo sssp --device pocl --split 2
${MPI[*]} -np 2 $BIN --backend openmp
${MPI[*]} -np 3 $BIN --device pocl
${MPI[*]} -np 2 $BIN --algo sssp --backend openmp
RUNS
done

check help 0 "$BIN" --help
expect help-paths grep -q -- "--paths-output" "$T/out"
expect help-convention grep -q -- "-1 when the path is the single edge" "$T/out"

finish_tests
