#!/usr/bin/env python3
"""Time model of the distributed solve (host/mpi/mpi_fw.cpp) for n = 300 000 int32
on R GPUs, 1D (R x 1) against the 2D block-cyclic grid (docs/performance/scale.md "MPI ranks").

Per round r on the slowest rank (ceil(q/pr) x ceil(q/pc) panels of P x P):
  compute  = panels x P^3 / rate(P)               (steps 2-3: one GEMM per panel)
  upload   = (received row + column panels) x P^2 x 4 B / H2D   (not overlapped:
             the received panels go to the device on the compute queue)
  chain    = the look-ahead's critical path to round r+1's panels:
             owner's look-ahead (its panels of row and column r+1) + pivot close
             (2 P^3 / rate: FW on one panel runs at about half the GEMM rate)
             + pivot broadcast + step 2 on the row/column ranks (one local panel
             row or column) + download + row/column panel broadcasts
  exposed  = max(0, chain - compute)             (the rest of round r hides it)
  T        = q x (compute + upload + exposed)
Broadcasts of m bytes to a group: 2 m / BW + log2(group) x latency (scatter +
allgather); row and column panels share the rank's NIC.
Usage: python3 bench/mpi_model.py [n] [GB/s per GPU] [device GiB]
"""
import math
import sys

n = int(sys.argv[1]) if len(sys.argv) > 1 else 300_000
BW = float(sys.argv[2]) * 1e9 if len(sys.argv) > 2 else 25e9  # InfiniBand NDR 200, one NIC per GPU
MEM = float(sys.argv[3]) * 2**30 if len(sys.argv) > 3 else 70 * 2**30  # of an 80 GB H100
LAT = 5e-6
H2D = 50e9
VS = 4
# Panel GEMM rate by panel edge (bench/results/nvidia-h1*/out-of-core/scale-run-*/runs.jsonl), log-interpolated.
RATES = [(1280, 5.5e12), (3200, 9.5e12), (5120, 10.15e12), (10112, 11.2e12), (50048, 11.3e12)]


def rate(p):
    if p <= RATES[0][0]:
        return RATES[0][1] * p / RATES[0][0]
    for (p0, r0), (p1, r1) in zip(RATES, RATES[1:]):
        if p <= p1:
            f = (math.log(p) - math.log(p0)) / (math.log(p1) - math.log(p0))
            return r0 + f * (r1 - r0)
    return RATES[-1][1]


def bcast(m, group):
    return 0.0 if group < 2 or m == 0 else 2 * m / BW + math.log2(group) * LAT


def grid_panels(q, pr, pc):  # host/solvers/panel_engine.cpp grid_resident_panels
    rows, cols = -(-q // pr), -(-q // pc)
    return rows * cols + (cols if pr > 1 else 0) + (rows if pc > 1 else 0) + (1 if pr * pc > 1 else 0) + 1


def model(pr, pc, p):
    q = -(-n // p)
    rows, cols = -(-q // pr), -(-q // pc)
    g = p ** 3 / rate(p)  # one panel GEMM
    compute = rows * cols * g
    row_bytes, col_bytes = p * cols * p * VS, rows * p * p * VS
    upload = ((row_bytes if pr > 1 else 0) + (col_bytes if pc > 1 else 0)) / H2D
    chain = ((rows + cols - 1) * g + 2 * g + bcast(p * p * VS, max(pr, pc)) + max(cols, rows) * g
             + max(row_bytes, col_bytes) / H2D + bcast(row_bytes, pr) + bcast(col_bytes, pc))
    exposed = max(0.0, chain - compute)
    t = q * (compute + upload + exposed)
    mem = grid_panels(q, pr, pc) * p * p * VS
    recv = q * ((row_bytes if pr > 1 else 0) + (col_bytes if pc > 1 else 0))
    return dict(p=p, q=q, compute=compute, bcast=bcast(row_bytes, pr) + bcast(col_bytes, pc),
                upload=upload, exposed=exposed, t=t, mem=mem, recv=recv)


def best(pr, pc):
    opts = [model(pr, pc, p) for p in range(1280, 40000, 128)]
    opts = [o for o in opts if o["mem"] <= MEM and o["q"] >= max(pr, pc)]
    return min(opts, key=lambda o: o["t"]) if opts else None


print(f"n = {n}, {BW / 1e9:.0f} GB/s per GPU, {MEM / 2**30:.0f} GiB per GPU; ideal = n^3 / (R x 11.3 T)")
print("| R | grid | P | q | compute/round | bcast/round | upload/round | exposed wait | T model | ideal | efficiency | received per rank | GiB per GPU |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in (8, 16, 32, 64):
    s = max(a for a in range(1, int(math.isqrt(r)) + 1) if r % a == 0)  # ocl_sp's default grid
    for pr, pc in ((r, 1), (s, r // s)):
        o = best(pr, pc)
        if not o:
            print(f"| {r} | {pr}x{pc} | - | does not fit |")
            continue
        ideal = n ** 3 / (r * RATES[-1][1])
        print(f"| {r} | {pr}x{pc} | {o['p']} | {o['q']} | {o['compute']:.2f} s | {o['bcast']:.3f} s | "
              f"{o['upload']:.3f} s | {o['exposed']:.3f} s | {o['t']:.0f} s | {ideal:.0f} s | "
              f"{100 * ideal / o['t']:.0f} % | {o['recv'] / 2**30:.0f} GiB | {o['mem'] / 2**30:.1f} |")
