#!/usr/bin/env bash
# End-to-end tests of the distributed solve (docs/scale.md "Clusters (MPI)"):
# `mpirun -np 1..4 ocl_sp ...` on the 2D block-cyclic process grid (default grids
# 1x1 with --grid, 1x2, 1x3, 2x2; explicit --grid 2x1, 4x1, 1x4) must give the same
# bytes as the single-process serial reference (int32, float32, negative edges, n
# not a multiple of the panel edge, n = 1, ranks without panels, every input format,
# bin and npy output), on OpenMP and on OpenCL (PoCL); a negative cycle exits 3
# with no file; a malformed --grid or one that does not match the rank count exits
# 2; a failing rank (bad --device on rank 1 only) ends the whole job with error:
# and no file, never a hang (timeout 60).
# Fails, never skips, when mpirun is missing or the binary was built without MPI
# (scripts/setup.sh installs openmpi-bin and libopenmpi-dev).
# Usage: mpi_cli.sh /path/to/ocl_sp
source "$(dirname "${BASH_SOURCE[0]}")/common.sh"
use_python json numpy

use_mpi

# The binary knows MPI: two ranks report one distributed solve.
run built 0 2 --n 40 --backend openmp --output "$T/b.bin"
if ! grep -q "^mpi       2 ranks" "$T/out"; then
  echo "FAIL: no distributed solve under mpirun -np 2 (built without MPI? configure finds libopenmpi-dev)"
  sed 's/^/  /' "$T/out" "$T/err" | head -20
  exit 1
fi

# Generated graphs: every rank count, n = 300 not a multiple of P = 32 (10 x 10
# panels). One rank is the distributed solve on a 1 x 1 grid whenever it takes the
# options (-np 1 accepts what -np 2 accepts, e.g. --backend openmp
# --panel, and writes the same bytes, --paths included); what only one process
# does (--algo squaring) stays the single-process solve.
check ref-int 0 "$BIN" --n 300 --backend serial --quiet --output "$T/ref.bin"
run int32-np1 0 1 --n 300 --backend openmp --output "$T/m1.bin" && same int32-np1 "$T/ref.bin" "$T/m1.bin"
expect np1-distributed grep -q "^mpi       1 ranks, 1 x 1 process grid" "$T/out"
run np1-paths 0 1 --n 60 --backend openmp --paths --query 0 5
expect np1-paths-distributed grep -q "^mpi       1 ranks, 1 x 1 process grid" "$T/out"
# np:grid:panels of each rank (10 x 10 panels dealt block-cyclically); -np 1
# without --grid takes the same flags.
mapfile -t C < <(cases "1:1x1:100" "2:1x2:50/50" "3:1x3:40/30/30" "4:2x2:25/25/25/25")
for case in "${C[@]}"; do
  IFS=: read -r np grid per <<<"$case"
  extra=()
  [ "$np" = 1 ] && extra=(--grid 1x1)
  run "int32-np$np" 0 "$np" --n 300 --backend openmp --panel 32 "${extra[@]}" --output "$T/m$np.bin" &&
    same "int32-np$np" "$T/ref.bin" "$T/m$np.bin"
  expect "grid-np$np-$grid" grep -q "^mpi       $np ranks, ${grid/x/ x } process grid .*panels per rank $per\$" "$T/out"
done
run np1-panel-nogrid 0 1 --n 300 --backend openmp --panel 128 --output "$T/m1p.bin" &&
  same np1-panel-nogrid "$T/ref.bin" "$T/m1p.bin"
run np2-panel 0 2 --n 300 --backend openmp --panel 128 --output "$T/m2p.bin" &&
  same np1-np2-same-bytes "$T/m1p.bin" "$T/m2p.bin"
# Output without a gather: bin / npy written in place by every rank ("each rank
# wrote its panels"), csv streamed to rank 0 panel row by panel row; same bytes as
# one process. A full device (ENOSPC) fails the job with no temporary left.
check ref-csv 0 "$BIN" --n 300 --backend serial --quiet --output "$T/ref.csv"
for np in 2 4; do
  run "csv-np$np" 0 "$np" --n 300 --backend openmp --panel 32 --output "$T/m.csv" &&
    same "csv-np$np" "$T/ref.csv" "$T/m.csv"
  expect "csv-np$np-streamed" grep -q "^output    .*(panel rows streamed to rank 0" "$T/out"
done
run inplace-np4 0 4 --n 300 --backend openmp --panel 32 --output "$T/m4.bin"
expect inplace-np4-mode grep -q "^output    .*(each rank wrote its panels)" "$T/out"
expect inplace-no-temp sh -c "! ls '$T' | grep -q 'tmp'"
mknod "$T/full" c 1 7 2>/dev/null && {
  run full-np2 1 2 --n 300 --backend openmp --panel 32 --output "$T/full" --output-format bin
  expect full-np2-message grep -q "No space left" "$T/err"
  expect full-np2-chardev test -c "$T/full"
}
# Memory: no rank holds the matrix. Each rank's peak resident memory above a
# tiny solve's (the process baseline) stays below 80 % of the n x n matrix, and
# 70 % at the end of the set-up (its panels, buffers and one generated strip)
# (n = 2400: 23 MB; the gather held all of it on rank 0).
run rss-base 0 4 --n 40 --backend openmp --json
base=$("$PY" -c "import json; print(max(json.load(open('$T/out'))['rank_peak_rss_bytes']))")
setup_base=$("$PY" -c "import json; print(max(json.load(open('$T/out'))['rank_setup_peak_rss_bytes']))")
run rss-np4 0 4 --n 2400 --backend openmp --output "$T/rss.npy" --json
# Under AddressSanitizer (tests/sanitize/run.sh sets OCL_SP_UNDER_ASAN) freed
# memory sits in ASan's quarantine and shadow pages count as resident: the
# bound is checked in the plain build only (the CI's ctest job), said here.
if [ -z "${OCL_SP_UNDER_ASAN:-}" ]; then
  expect rss-np4-below-80pc "$PY" -c "
import json; r=json.load(open('$T/out')); m=2400*2400*4
peaks=r['rank_peak_rss_bytes']; assert len(peaks)==4, r
assert all(p - $base < 0.8 * m for p in peaks), (peaks, $base, m)
setup=r['rank_setup_peak_rss_bytes']; assert len(setup)==4, r
assert all(x - $setup_base < 0.7 * m for x in setup), (setup, $setup_base, m)
assert r['output_mode']=='each rank wrote its panels', r"
else
  echo "note rss-np4-below-80pc not checked under ASan (quarantine and shadow memory are resident)"
  expect rss-np4-mode grep -q '"output_mode":"each rank wrote its panels"' "$T/out"
fi
# Set-up without values moving: each rank draws its own rows of the dense model
# and keeps its columns, the sparse families' edges are kept by the rank of their
# panel: the same bytes as one process, and the report's edge count (summed over
# the ranks) is one process's.
# Every family (grid rounds n = 300 to 17^2 = 289), grids 1x3 and 2x2.
mapfile -t C < <(cases "dense:" "degree:--degree 5 --negative" "grid:--generator grid" "geometric:--generator geometric --degree 4")
for fam in "${C[@]}"; do
  IFS=: read -r name extra <<<"$fam"
  check "ref-gen-$name" 0 "$BIN" --n 300 $extra --algo fw --backend serial --quiet --output "$T/rg.bin" --json || continue
  want=$("$PY" -c "import json; print(json.load(open('$T/out'))['edges'])")
  for case in "3:1x3" "4:2x2"; do
    IFS=: read -r np grid <<<"$case"
    run "gen-$name-$grid" 0 $np --n 300 $extra --algo fw --backend openmp --panel 32 --grid $grid --output "$T/mg.bin" --json &&
      same "gen-$name-$grid" "$T/rg.bin" "$T/mg.bin"
    expect "gen-$name-$grid-edges" "$PY" -c "import json; r=json.load(open('$T/out')); assert r['edges']==$want and r['n']==(289 if '$name'=='grid' else 300), r"
    # The dense model: each rank draws exactly its process row's rows (300 x 300
    # on 1 x 3; panel rows 0, 2, .. (160 rows) and 1, 3, .. (140) on 2 x 2).
    [ "$name" = dense ] && expect "gen-$name-$grid-share" "$PY" -c "
import json; r=json.load(open('$T/out')); g=r['rank_generated']
want={'1x3': [300*300]*3, '2x2': [160*300]*2 + [140*300]*2}['$grid']
assert g==want, (g, want)"
  done
  # Panel columns dealt unevenly (1 x 4: 3, 3, 2, 2 of the 10; the last one 12
  # columns wide) and 4 x 1 (every rank all columns of a few rows).
  if [ "$name" = dense ]; then
    for grid in 1x4 4x1; do
      run "gen-$name-$grid" 0 4 --n 300 --algo fw --backend openmp --panel 32 --grid $grid --output "$T/mg.bin" &&
        same "gen-$name-$grid" "$T/rg.bin" "$T/mg.bin"
    done
  fi
done
# A read graph: rank 0 holds the edge list, never the matrix; each edge goes to
# the rank of its panel. Rank 0's peak at the end of the set-up stays below 60 %
# of the n x n matrix above the baseline (it was over 100 %: the whole matrix).
"$PY" - "$T/big.edges" <<'EOF2'
import random, sys
random.seed(5)
n = 2400
with open(sys.argv[1], "w") as f:
    for u in range(n):
        for v in random.sample(range(n), 8):
            f.write(f"{u} {v} {random.randint(1, 50)}\n")
EOF2
run rss-read-np4 0 4 --input "$T/big.edges" --algo fw --backend openmp --json
if [ -z "${OCL_SP_UNDER_ASAN:-}" ]; then
  expect rss-read-np4-rank0 "$PY" -c "
import json; r=json.load(open('$T/out')); m=2400*2400*4
s=r['rank_setup_peak_rss_bytes']; assert len(s)==4 and s[0] - $setup_base < 0.6 * m, (s, $setup_base, m)
assert 0 < r['bytes_scatter'] < 0.1 * m, r"
else
  echo "note rss-read-np4-rank0 not checked under ASan (quarantine and shadow memory are resident)"
fi
# Explicit grids: 1D row-cyclic (2x1, 4x1: uneven 3/3/2/2 panel rows) and 1x4.
for case in $(cases "2:2x1:50/50" "4:4x1:30/30/20/20" "4:1x4:30/30/20/20"); do
  IFS=: read -r np grid per <<<"$case"
  run "int32-grid$grid" 0 "$np" --n 300 --backend openmp --panel 32 --grid "$grid" --output "$T/g.bin" &&
    same "int32-grid$grid" "$T/ref.bin" "$T/g.bin"
  expect "grid-$grid-report" grep -q "^mpi       $np ranks, ${grid/x/ x } process grid .*panels per rank $per\$" "$T/out"
done
# Bad grids: exit 2 on every rank, the message once; without mpirun only 1x1.
run grid-mismatch 2 2 --n 50 --backend openmp --grid 3x1
expect grid-mismatch-message grep -q "^error: --grid 3x1 is a process grid of 3 ranks, but the job has 2" "$T/err"
expect grid-mismatch-once test "$(grep -c '^error:' "$T/err")" = 1
for bad in $(cases 2y2 0x2 x2 2x -1x2 2x1x1 abc); do
  run "grid-malformed-$bad" 2 2 --n 50 --backend openmp --grid "$bad"
  expect "grid-malformed-$bad-message" grep -q "^error: --grid expects PRxPC" "$T/err"
done
# A grid too large for any job is refused, not overflowed into a small rank count.
check grid-huge 2 "$BIN" --n 50 --backend openmp --grid 65536x65536
expect grid-huge-message grep -q "^error: --grid 65536x65536 is a grid of 4294967296 ranks" "$T/err"
# --output -: the matrix alone on stdout (report on stderr), as in one process.
run stdout-matrix 0 2 --n 40 --backend openmp --output - --output-format bin
same stdout-matrix "$T/b.bin" "$T/out"
expect stdout-report-on-stderr grep -q "^mpi       2 ranks" "$T/err"
check grid-no-mpirun 2 "$BIN" --n 50 --backend openmp --grid 2x2
expect grid-no-mpirun-message grep -q "^error: --grid 2x2 is a process grid of 4 MPI ranks" "$T/err"
check grid-no-mpirun-bad 2 "$BIN" --n 50 --backend openmp --grid 2by2
check grid-no-mpirun-1x1 0 "$BIN" --n 50 --backend openmp --grid 1x1 --quiet
# n = 1 (one panel; on 2 x 2 three ranks own nothing) and n = 2..33 around P.
for nn in 1 33; do
  check "ref-n$nn" 0 "$BIN" --n $nn --backend serial --quiet --output "$T/rn.bin"
  run "n$nn-np4" 0 4 --n $nn --backend openmp --panel 32 --output "$T/n.bin" && same "n$nn-np4" "$T/rn.bin" "$T/n.bin"
done
# Default panel edge, npy output, float32.
check ref-npy 0 "$BIN" --n 257 --type float32 --backend serial --quiet --output "$T/ref.npy"
for np in 2 3; do
  run "float32-np$np" 0 $np --n 257 --type float32 --backend openmp --output "$T/f$np.npy" &&
    same "float32-np$np" "$T/ref.npy" "$T/f$np.npy"
done
check ref-intnpy 0 "$BIN" --n 300 --backend serial --quiet --output "$T/ref.npy"
run int32-npy 0 3 --n 300 --backend openmp --panel 64 --output "$T/m.npy" && same int32-npy "$T/ref.npy" "$T/m.npy"
# Negative edges (no negative cycle), int32 and float32, with --verify on rank 0.
check ref-neg 0 "$BIN" --n 300 --negative --backend serial --quiet --output "$T/rneg.bin"
run neg-np3 0 3 --n 300 --negative --backend openmp --panel 32 --verify --output "$T/neg.bin" &&
  same neg-np3 "$T/rneg.bin" "$T/neg.bin"
expect neg-verified grep -q "^verify    ok" "$T/out"
check ref-negf 0 "$BIN" --n 200 --negative --type float32 --backend serial --quiet --output "$T/rnegf.bin"
run negf-np4 0 4 --n 200 --negative --type float32 --backend openmp --panel 32 --output "$T/negf.bin" &&
  same negf-np4 "$T/rnegf.bin" "$T/negf.bin"

# Input files of every format, read by rank 0 and scattered. The tiny ones
# (n = 2..4, one panel row) leave ranks without rows.
D=$(cd "$(dirname "${BASH_SOURCE[0]}")/../data" && pwd)
"$PY" - "$T" <<'EOF'
import random, struct, sys
t = sys.argv[1]
random.seed(13)
n = 150
edges = {}
for u in range(n):
    for v in random.sample(range(n), 12):
        if u != v:
            edges[(u, v)] = random.randint(-3, 60)
# potentials keep cycles non-negative: w' = w + p(u) - p(v) with w >= 0
p = [random.randint(0, 20) for _ in range(n)]
edges = {(u, v): abs(w) + p[u] - p[v] for (u, v), w in edges.items()}
es = sorted(edges.items())
open(f"{t}/g.edges", "w").write("".join(f"{u} {v} {w}\n" for (u, v), w in es))
open(f"{t}/g.gr", "w").write(f"p sp {n} {len(es)}\n" + "".join(f"a {u+1} {v+1} {w}\n" for (u, v), w in es))
open(f"{t}/g.mtx", "w").write("%%MatrixMarket matrix coordinate integer general\n"
                              f"{n} {n} {len(es)}\n" + "".join(f"{u+1} {v+1} {w}\n" for (u, v), w in es))
with open(f"{t}/g.bin", "wb") as f:
    f.write(struct.pack("<ii", n, len(es)))
    for (u, v), w in es:
        f.write(struct.pack("<iii", u, v, w))
EOF
for f in "$T/g.edges" "$T/g.gr" "$T/g.mtx" "$T/g.bin" "$D/small.bin" "$D/small.gr" "$D/small.mtx" \
         "$D/sym_pattern.mtx"; do
  name=$(basename "$f" | tr -c 'a-z0-9\n' '_')
  check "ref-$name" 0 "$BIN" --input "$f" --backend serial --quiet --output "$T/rf.bin" || continue
  run "file-$name" 0 3 --input "$f" --backend openmp --panel 32 --output "$T/mf.bin" &&
    same "file-$name" "$T/rf.bin" "$T/mf.bin"
done
check ref-small-edges 0 "$BIN" --input "$D/small.edges" --type float32 --backend serial --quiet --output "$T/rf.bin"
run file-small-edges 0 2 --input "$D/small.edges" --type float32 --backend openmp --output "$T/mf.bin" &&
  same file-small-edges "$T/rf.bin" "$T/mf.bin"

# A negative cycle: exit 3 from the job, one error line (rank 0), no file.
printf '0 1 1\n1 2 -5\n2 0 1\n2 3 1\n99 98 1\n' >"$T/cyc.edges"
for np in 2 4; do
  run "neg-cycle-np$np" 3 $np --input "$T/cyc.edges" --backend openmp --panel 32 --output "$T/cyc.bin"
  expect "neg-cycle-np$np-no-file" test ! -e "$T/cyc.bin"
  expect "neg-cycle-np$np-one-message" test "$(grep -c '^error: negative cycle' "$T/err")" = 1
done

# Usage errors are reported once and end every rank with exit 2.
run usage-algo 2 3 --n 50 --backend openmp --algo squaring
expect usage-algo-once test "$(grep -c '^error:' "$T/err")" = 1
run usage-split 2 2 --n 50 --device pocl --split 2
expect usage-split-message grep -q 'split.*not supported by the distributed solve' "$T/err"
run usage-serial 2 2 --n 50 --backend serial
# Errors found before the distributed solve begins (the graph options, a value
# CLI11 rejects): the same on every rank, printed by rank 0 alone.
run usage-no-graph 2 3 --backend openmp
expect usage-no-graph-once test "$(grep -c '^error: no graph' "$T/err")" = 1
# ... and only rank 0 exits with the code: a rank exiting non-zero first makes
# mpirun end the job, which could cut rank 0 off before its line was read
cat > "$T/rank_rc.sh" <<EOF2
#!/usr/bin/env bash
"$BIN" "\$@"
rc=\$?
echo "\${OMPI_COMM_WORLD_RANK:-x} \$rc" > "$T/rc.\${OMPI_COMM_WORLD_RANK:-x}"
exit \$rc
EOF2
chmod +x "$T/rank_rc.sh"
rm -f "$T"/rc.*
check usage-rank-codes 2 "${MPI[@]}" -np 3 "$T/rank_rc.sh" --backend openmp
expect usage-rank-codes-rank0 test "$(cat "$T/rc.0" 2>/dev/null)" = "0 2"
# (a rank mpirun ended after rank 0 wrote no file; one that ran to its end, 0)
expect usage-rank-codes-others test -z "$(cat "$T/rc.1" "$T/rc.2" 2>/dev/null | grep -v ' 0$')"
run usage-n-and-input 2 2 --n 10 --input "$T/none.edges" --backend openmp
expect usage-n-and-input-once test "$(grep -c '^error: give either --n or --input' "$T/err")" = 1
run usage-weights 2 2 --n 10 --weights 5:1 --backend openmp
expect usage-weights-once test "$(grep -c '^error: --weights' "$T/err")" = 1
run usage-parse 2 2 --n 0 --backend openmp
expect usage-parse-once test "$(grep -c '^error: --n' "$T/err")" = 1

# JSON report from rank 0 only: the grid, per-rank and per-round times, bytes.
run json 0 4 --n 200 --backend openmp --panel 32 --json
expect json-report "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['mpi_ranks']==4 and r['distribution']=='2D block-cyclic' and r['panel']==32, r
assert r['grid']=='2x2' and r['grid_rows']==2 and r['grid_cols']==2 and r['devices_per_rank']==1, r
assert r['panels_per_dim']==7 and len(r['rank_compute_s'])==4 and len(r['rank_bytes_sent'])==4, r
assert len(r['round_compute_s'])==7 and len(r['round_wait_s'])==7, r
# 2 x 2, P = 32, q = 7, each broadcast has one receiver: per round the pivot twice
# (row and column), the 7 row panels and the 7 column panels, 32 x 32 x 4 B each.
assert r['bytes_broadcast'] == sum(r['rank_bytes_sent']) == 7 * 16 * 4096, r
assert 0 < r['parallel_efficiency'] <= 1.0001, r"
# The same bytes broadcast in pieces of 1000 bytes (250 values: a panel's 1024
# values in five pieces), the same distances.
OCL_SP_MPI_BCAST_BYTES=1000 run json-pieces 0 4 --n 200 --backend openmp --panel 32 --json --output "$T/pieces.bin"
expect json-pieces-bytes "$PY" -c "
import json; r=json.load(open('$T/out')); assert r['bytes_broadcast'] == 7 * 16 * 4096, r"
# Per round: when the latest rank had the pivot on its host, had posted its part of
# steps 1-2 and had the last block it receives (on 2 x 2 every round has senders and
# receivers, and step 2 starts from the pivot).
expect json-round-chain "$PY" -c "
import json; r=json.load(open('$T/out')); v=r['round_pivot_s']; p=r['round_posted_s']; a=r['round_arrived_s']
assert len(v) == 7 and len(p) == 7 and len(a) == 7, r
assert all(x > 0 for x in v + p + a), (v, p, a)
assert all(x <= y for x, y in zip(v, p)), (v, p)"
check ref-200 0 "$BIN" --n 200 --backend serial --quiet --output "$T/r200.bin"
same json-pieces "$T/r200.bin" "$T/pieces.bin"
# The rounds sleeping between polls while broadcasts fly (the comparison switch):
# the same distances.
OCL_SP_MPI_POLL=sleep run poll-sleep 0 4 --n 200 --backend openmp --panel 32 --output "$T/ps.bin" &&
  same poll-sleep "$T/r200.bin" "$T/ps.bin"
# The rounds' trace (OCL_SP_MPI_TRACE): a file a rank, every round begun and ended
# on every rank, each round's pivot posted by its owner only, and every block a rank
# posts arriving at the rank of the other process row (2 x 2: one receiver each).
OCL_SP_MPI_TRACE="$T/trace" run trace 0 4 --n 200 --backend openmp --panel 32 --output "$T/tr.bin" &&
  same trace "$T/r200.bin" "$T/tr.bin"
expect trace-events "$PY" -c "
import csv
ev = {k: [r for r in csv.DictReader(open('$T/trace.%d.tsv' % k), delimiter='\t')] for k in range(4)}
for k, rows in ev.items():
    for what in ('begin', 'round_end'):
        assert sorted(int(r['round']) for r in rows if r['event'] == what) == list(range(7)), (k, what)
    assert all(float(a['seconds']) <= float(b['seconds']) for a, b in zip(rows, rows[1:])), k
for r in range(7):
    owner = (r % 2) * 2 + r % 2
    got = [k for k in range(4) for e in ev[k] if e['event'] == 'pivot_posted' and int(e['round']) == r]
    assert got == [owner], (r, got)
    for k in range(4):
        sent = sum(e['event'] == 'row_block_posted' and int(e['round']) == r for e in ev[k])
        got = sum(e['event'] == 'row_block_arrived' and int(e['round']) == r for e in ev[(k + 2) % 4])
        assert sent == got, (r, k, sent, got)"

# The OpenCL backend on PoCL, one device per rank: default grid and panels, a
# 2 x 2 grid with look-ahead over 5 x 5 panels (float32, negative edges), 3 x 1.
run pocl-np2 0 2 --n 300 --device pocl --quiet --output "$T/pocl.bin" && same pocl-np2 "$T/ref.bin" "$T/pocl.bin"
expect pocl-report grep -q "^backend   opencl" "$T/out"
check ref-negf600 0 "$BIN" --n 600 --negative --type float32 --backend serial --quiet --output "$T/rf600.bin"
run pocl-2x2 0 4 --n 600 --negative --type float32 --device pocl --panel 128 --quiet --output "$T/pf.bin" &&
  same pocl-2x2 "$T/rf600.bin" "$T/pf.bin"
expect pocl-2x2-grid grep -q "^mpi       4 ranks, 2 x 2 process grid.*P = 128, 5 x 5 panels" "$T/out"
run pocl-3x1 0 3 --n 300 --device pocl --panel 128 --grid 3x1 --quiet --output "$T/p3.npy" &&
  same pocl-3x1 "$T/ref.npy" "$T/p3.npy"
# 1 x 4: only column panels travel (along the process row), each P x P block a
# broadcast of its own (here in pieces of 1000 bytes: 5 a block), uploaded as it
# arrives, each GEMM waiting only for the blocks it reads.
OCL_SP_MPI_BCAST_BYTES=1000 run pocl-1x4 0 4 --n 300 --device pocl --panel 32 --grid 1x4 --quiet \
  --output "$T/p14.bin" && same pocl-1x4 "$T/ref.bin" "$T/p14.bin"
# Received panels double-buffered by round parity (uploaded on the copy queue
# while the previous round's GEMMs run): q = 9 rounds (odd, so both sets are
# reused unevenly and the last round ends on set 0), 2 x 2 grid, n = 1100 not a
# multiple of P = 128, negative edges; pinned broadcast buffers and pageable ones
# (OCL_SP_MPI_PINNED=0) give the one-process bytes. The report's overlap figures:
# every rank that receives panels uploaded them, every rank that sends read back,
# each within the solve; pinning (on a thread beside the set-up) only with pinned
# buffers, the wait for it after the set-up no longer than the pinning.
check ref-neg1100 0 "$BIN" --n 1100 --negative --backend serial --quiet --output "$T/r1100.bin"
# The broadcasts go in pieces (default 16 MiB): with pinned buffers in pieces of
# 5000 bytes (1250 values, not a divisor of a panel row), pageable in one piece.
for pinned in 1 0; do
  piece=$([ $pinned = 1 ] && echo 5000 || echo 1000000000)
  OCL_SP_MPI_BCAST_BYTES=$piece OCL_SP_MPI_PINNED=$pinned run "parity-pinned$pinned" 0 4 --n 1100 --negative \
    --device pocl --panel 128 --output "$T/pp.bin" --json &&
    same "parity-pinned$pinned" "$T/r1100.bin" "$T/pp.bin"
  expect "parity-pinned$pinned-report" "$PY" -c "
import json; r=json.load(open('$T/out'))
assert r['grid']=='2x2' and r['panel']==128 and r['panels_per_dim']==9, r
up, rb, pin = r['rank_upload_s'], r['rank_readback_s'], r['rank_pin_s']
assert len(up)==len(rb)==len(pin)==4, r
assert all(0 < x < r['solve_s'] for x in up + rb), (up, rb, r['solve_s'])
assert len(r['rank_kernels_s'])==4 and all(0 < x < r['solve_s'] for x in r['rank_kernels_s']), r
assert all(x > 0 for x in pin) if $pinned else all(x == 0 for x in pin), pin
assert all(0 <= w <= p for w, p in zip(r['rank_pin_wait_s'], pin)), r
assert len(r['round_wait_s'])==9 and all(0 <= w <= r['solve_s'] for w in r['round_wait_s']), r
# two sets of pivot, row and column panels (n = 1100, P = 128, 5 or 4 panels a rank and dimension)
assert all(x == (2*4*(128*128 + 128*mc + mr*128) if $pinned else 0) for x, (mr, mc) in
           zip(r['rank_pinned_bytes'], [(640, 640), (640, 512), (512, 640), (512, 512)])), r['rank_pinned_bytes']"
done
# Only panels that travel are pinned: on 1 x 2 ranks no row panels (one process
# row), on 2 x 1 no column panels.
for g in 1x2:1152:0 2x1:0:1152; do
  IFS=: read -r grid mr mc <<<"$g"
  OCL_SP_MPI_PINNED=1 run "pinned-$grid" 0 2 --n 1100 --negative --device pocl --panel 128 --grid "$grid" \
    --output "$T/pg.bin" --json && same "pinned-$grid" "$T/r1100.bin" "$T/pg.bin"
  expect "pinned-$grid-bytes" "$PY" -c "
import json; r=json.load(open('$T/out')); mr, mc = $mr, $mc
rows, cols = (128*mc if r['grid_rows'] > 1 else 0), (mr*128 if r['grid_cols'] > 1 else 0)
assert r['rank_pinned_bytes']==[2*4*(128*128 + rows + cols)]*2, (r['rank_pinned_bytes'], rows, cols)"
done
# The GEMMs of a row's local panels go in runs (one launch over sub-buffers of the
# row; default 4 panels, above): a launch a panel, and runs of 3 (the 5 or 4 local
# panel columns end in a shorter run) with one run queued ahead, give the same bytes.
for runs in 1:1 3:1; do
  OCL_SP_MPI_GEMM_PANELS=${runs%:*} OCL_SP_MPI_GEMM_AHEAD=${runs#*:} run "gemm-runs-${runs%:*}" 0 4 --n 1100 \
    --negative --device pocl --panel 128 --quiet --output "$T/gr.bin" && same "gemm-runs-${runs%:*}" "$T/r1100.bin" "$T/gr.bin"
done

# Paths under MPI: each rank rebuilds its panels' part of the path
# matrix from the distances. -np 1/2/4 (1x1, 1x2, 2x2) on OpenMP and -np 2 on PoCL:
# --verify (distances and every pair's path, on rank 0), the via file written
# without a gather byte-equal to one process's (--panel on PoCL: the same rebuild),
# an independent expansion in Python against the input, --query answered; negative
# edges, zero weights, an unreachable part, n = 333 not a multiple of P.
write_paths_graph "$T/neg.edges"
check paths-ref 0 "$BIN" --input "$T/neg.edges" --device pocl --panel 128 --quiet \
  --output "$T/pd_ref.npy" --paths-output "$T/via_ref.npy"
for case in "1:openmp" "2:openmp" "4:openmp" "2:pocl"; do
  IFS=: read -r np be <<<"$case"
  dev=(--backend openmp --panel 32)
  [ "$be" = pocl ] && dev=(--device pocl --panel 128)
  run "paths-np$np-$be" 0 "$np" --input "$T/neg.edges" "${dev[@]}" --paths --verify --query 0 5 \
    --query 332 0 --output "$T/pd.npy" --paths-output "$T/via.npy" || continue
  expect "paths-np$np-$be-verified" grep -q "^verify    ok" "$T/out"
  expect "paths-np$np-$be-checked" grep -q "^check     paths ok" "$T/out"
  expect "paths-np$np-$be-no-path" grep -q "^path 332 -> 0: no path" "$T/out"
  same "paths-np$np-$be-distances" "$T/pd_ref.npy" "$T/pd.npy"
  same "paths-np$np-$be-via" "$T/via_ref.npy" "$T/via.npy"
done
expect paths-expanded expand_paths "$T/pd.npy" "$T/via.npy" "$T/neg.edges" 11
expect paths-query-line grep -q "^path 0 -> 5: 0 -> .* -> 5 (length " "$T/out"
run paths-json 0 2 --input "$T/neg.edges" --backend openmp --panel 32 --paths --query 0 5 --json
expect paths-json-fields "$PY" -c "
import json; r=json.load(open('$T/out'))
q=r['queries'][0]
assert r['paths'] and q['from']==0 and q['to']==5 and q['path'][0]==0 and q['path'][-1]==5, r"
run paths-neg-cycle 3 2 --input "$T/cyc.edges" --backend openmp --panel 32 --paths-output "$T/cycvia.npy"
expect paths-neg-cycle-no-file test ! -e "$T/cycvia.npy"
printf '0 1 0.5\n1 2 1.25\n2 0 3\n' >"$T/frac.edges"
run paths-float-fraction 2 2 --input "$T/frac.edges" --type float32 --backend openmp --paths
expect paths-float-message grep -q "exact float32 sums" "$T/err"

# A rank that fails (a device spec only rank 1 gets) ends the job: error naming
# the rank, no output file, no hang.
start=$(date +%s)
bad_rank_job --n 200 --quiet
end=$(date +%s)
expect bad-device-quick test $((end - start)) -lt 60

finish_tests
