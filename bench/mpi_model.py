#!/usr/bin/env python3
"""Time model of the distributed solve (host/mpi/mpi_fw.cpp, mpi_rounds.hpp) on R GPUs,
1D (R x 1) against the 2D block-cyclic grid (docs/performance/mpi.md),
calibrated against the 4-rank runs of bench/results/nvidia-h100/mpi/fw-panels-tcp-x4/.

Per round, on the slowest rank (ceil(q/pr) x ceil(q/pc) local panels of P x P; g = one
panel GEMM = P^3 / rate(P)):
  work   = local GEMMs + its share of step 2: the ranks of the pivot's process row make
           its row panels, those of its process column its column panels, the owner also
           closes the pivot (~2 g); the owner moves round by round, so the busiest rank
           averages (ceil(q/pr) + ceil(q/pc)) / 2 + 1 extra GEMMs a round on a 2D grid
           and ceil(q/pc) + 1 on 1D (every rank makes row panels of its own columns)
  chain  = the look-ahead's critical path to round r+1's panels: the owner's row and
           column r+1 (rows + cols - 1 GEMMs), the pivot close (2 g), the pivot
           broadcast, step 2 (max(rows, cols) g), the read-back, the row / column
           broadcasts, the upload
  round  = max(work, chain);  T = q x round
Broadcasts of m bytes to a group: 2 m / BW + log2(group) x latency (scatter +
allgather); row and column panels share the rank's link. Received panels go up on the
copy queue beside the GEMMs (not counted beyond the chain).
The panel edge is the code's: 8 panels a rank and dimension where P >= 2560, at least 4
(plan_panels, kGridPanelEdge), the smallest such q that fits the device.

Usage: python3 bench/mpi_model.py [n] [GB/s per GPU] [device GiB]
  prints the calibration (model against the measured 4-rank runs, the shared-memory
  host's BW), then R = 8, 64, 256 at n (default 300 000) over a network of BW per GPU.
"""
import math
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
BW = float(sys.argv[2]) * 1e9 if len(sys.argv) > 2 else 25e9  # InfiniBand NDR 200, one NIC per GPU
MEM = float(sys.argv[3]) * 2**30 if len(sys.argv) > 3 else 70 * 2**30  # of an 80 GB H100
LAT = 5e-6
VS = 4
EDGE = 2560  # kGridPanelEdge
# Panel GEMM rate by panel edge on an H100, log-interpolated. The large-P end is the
# measured one-GPU fw n = 100 000 solve (1e15 / 70.96 s = 14.1 T) and the 4-rank
# runs' busy time (P = 6272: 64 + ~9 GEMMs a round in 1.22 s, ~14.8 T); the small-P
# end keeps the older panel-GEMM measurements' shape (bench/results/nvidia-h1*/
# out-of-core/scale-run-*/runs.jsonl: 5.5 T at 1280, 9.5 T at 3200 of 11.3 T at the top).
RATES = [(1280, 7.2e12), (2560, 11.5e12), (3200, 12.4e12), (5120, 13.4e12), (6272, 14.0e12),
         (12544, 14.4e12), (50048, 14.6e12)]
# The 4 x H100 host (Open MPI 4.1, shared memory): BW fitted to the six 4-rank runs
# below (3.5 GB/s, the 2-core machine's pieces without single copy, gives model / 1.7;
# 7 GB/s puts every run within 0.78-1.06 of the model); pinned copies ~12 GB/s.
HOST = dict(bw=7e9, lat=20e-6, h2d=12e9)
NET = dict(bw=BW, lat=LAT, h2d=12e9)
# The measured 4-rank runs (2 x 2, one H100 a rank): (n, P, solve seconds, medians).
MEASURED = [(100_000, 12544, 28.88), (100_000, 6272, 20.66), (100_000, 4096, 23.04),
            (40_000, 5120, 2.94), (40_000, 2560, 2.90), (40_000, 2048, 3.30)]


def rate(p):
    if p <= RATES[0][0]:
        return RATES[0][1] * p / RATES[0][0]
    for (p0, r0), (p1, r1) in zip(RATES, RATES[1:]):
        if p <= p1:
            f = (math.log(p) - math.log(p0)) / (math.log(p1) - math.log(p0))
            return r0 + f * (r1 - r0)
    return RATES[-1][1]


def bcast(m, group, link):
    return 0.0 if group < 2 or m == 0 else 2 * m / link["bw"] + math.log2(group) * link["lat"]


def grid_panels(q, pr, pc):  # host/solvers/panel_plan.cpp grid_resident_panels
    rows, cols = -(-q // pr), -(-q // pc)
    return rows * cols + 2 * ((cols if pr > 1 else 0) + (rows if pc > 1 else 0)) + (1 if pr * pc > 1 else 0) + 1


def model(nn, pr, pc, p, link):
    q = -(-nn // p)
    rows, cols = -(-q // pr), -(-q // pc)
    g = p ** 3 / rate(p)
    extra = ((rows + cols) / 2 + 1) if pr > 1 and pc > 1 else (max(rows, cols) + 1 if pr * pc > 1 else 0)
    work = (rows * cols + extra) * g
    row_bytes, col_bytes = p * cols * p * VS, rows * p * p * VS
    moved = max(row_bytes if pr > 1 else 0, col_bytes if pc > 1 else 0)
    chain = 0.0
    if pr * pc > 1:
        chain = ((rows + cols - 1) * g + 2 * g + bcast(p * p * VS, max(pr, pc), link) + max(rows, cols) * g
                 + 2 * moved / link["h2d"] + bcast(row_bytes, pr, link) + bcast(col_bytes, pc, link))
    t = q * max(work, chain)
    recv = q * ((row_bytes if pr > 1 else 0) + (col_bytes if pc > 1 else 0))
    return dict(p=p, q=q, work=work, chain=chain, t=t, mem=grid_panels(q, pr, pc) * p * p * VS, recv=recv)


def code_panel(nn, pr, pc, multiple=128):
    """The panel edge plan_panels gives a process grid (resident only)."""
    most = max(pr, pc)
    q0 = min(max(-(-nn // EDGE), 4 * most), 8 * most) if pr * pc > 1 else 1
    for q in range(q0, 1025):
        p = -(-(-(-nn // q)) // multiple) * multiple
        if grid_panels(-(-nn // p), pr, pc) * p * p * VS <= MEM:
            return p
    return None


def grids(r):
    s = max(a for a in range(1, int(math.isqrt(r)) + 1) if r % a == 0)  # ocl_sp's default grid
    return ((r, 1), (s, r // s))


print("Calibration: 2 x 2 ranks on one 4 x H100 host (shared memory), model against measured solve")
print("| n | P | q | work/round | chain/round | model | measured | measured / model |")
print("|---|---|---|---|---|---|---|---|")
for nn, p, t in MEASURED:
    o = model(nn, 2, 2, p, HOST)
    print(f"| {nn} | {p} | {o['q']} | {o['work']:.3f} s | {o['chain']:.3f} s | {o['t']:.1f} s | {t:.1f} s | {t / o['t']:.2f} |")
one = n ** 3 / RATES[-1][1]
print(f"\nn = {n}, {BW / 1e9:.0f} GB/s per GPU, {MEM / 2**30:.0f} GiB per GPU; the code's panel edge;"
      f" efficiency = n^3 / rate / (R x T) (one GPU's rate {RATES[-1][1] / 1e12:.1f} T)")
print("| R | grid | P | q | work/round | chain/round | T model | efficiency | received per rank | GiB per GPU |")
print("|---|---|---|---|---|---|---|---|---|---|")
for r in (4, 8, 64, 256):
    for pr, pc in grids(r):
        p = code_panel(n, pr, pc)
        if not p:
            print(f"| {r} | {pr}x{pc} | - | does not fit |")
            continue
        o = model(n, pr, pc, p, NET)
        print(f"| {r} | {pr}x{pc} | {o['p']} | {o['q']} | {o['work']:.3f} s | {o['chain']:.3f} s | {o['t']:.0f} s | "
              f"{100 * one / (r * o['t']):.0f} % | {o['recv'] / 2**30:.0f} GiB | {o['mem'] / 2**30:.1f} |")
