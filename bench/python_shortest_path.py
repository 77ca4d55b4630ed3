#!/usr/bin/env python3
"""The Python target: ocl_sp.shortest_path(A) against
scipy.sparse.csgraph.shortest_path(A), both with method 'auto' (the default), on the
graphs of bench/sparse/cpu_peers.py at n = 10 000: a 100 x 100 grid (4-neighbour
lattice, both directions, each arc its own weight 1..100, m = 39 600) and a random
graph of out-degree 20 (distinct out-neighbours, no self-loops, weights 1..100,
m = 200 000). A is a scipy.sparse CSR matrix of float64 (what scipy users pass); the
time is the whole call, conversion in and the float64 n x n result (inf = no path)
included. Target: ocl_sp >= 200x scipy (on the H100).

ocl_sp: --warmup calls first (solver set-up, OpenCL JIT or program cache; the
first one's time is printed apart), then the median of --reps calls. scipy: the
median of --scipy-reps calls (each takes tens of seconds: scipy's 'auto' runs its
Dijkstra from every vertex); 0 skips scipy, --scipy-seconds GRID,RANDOM gives its
times instead (from an earlier run on the same machine). One result of each is
compared (equal, exactly: integer weights are solved in int32).

Prints CSV on stdout (also --csv FILE): graph, n, m, library, backend, device,
algo, reps, median_s, min_s, first_s, speedup (scipy median / ocl_sp median),
equal. Progress goes to stderr.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_shortest_path.py                 # default device
  PYTHONPATH=build/python /usr/bin/python3 bench/python_shortest_path.py --device nvidia --reps 7
  PYTHONPATH=build/python /usr/bin/python3 bench/python_shortest_path.py --backend openmp --scipy-reps 0
"""

import argparse
import csv
import gc
import os
import statistics
import sys
import time

import numpy as np
import scipy.sparse as sp
from scipy.sparse.csgraph import shortest_path as scipy_shortest_path

# The graphs of the CPU peer comparison, the same generators and seeds.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "sparse"))
from cpu_peers import make_grid, make_random  # noqa: E402


def csr(n, src, dst, w):
    return sp.csr_matrix((w.astype(np.float64), (src, dst)), shape=(n, n))


def log(*a):
    print(*a, file=sys.stderr, flush=True)


def timed(f):
    t0 = time.perf_counter()
    r = f()
    return time.perf_counter() - t0, r


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--backend", default=None, help="ocl_sp backend (default: ocl_sp's)")
    ap.add_argument("--device", default=None, help="ocl_sp OpenCL device spec")
    ap.add_argument("--reps", type=int, default=5, help="timed ocl_sp calls (median)")
    ap.add_argument("--warmup", type=int, default=1, help="untimed ocl_sp calls first")
    ap.add_argument("--scipy-reps", type=int, default=1, help="timed scipy calls (0: skip)")
    ap.add_argument("--scipy-seconds", default=None,
                    help="GRID,RANDOM: scipy's times from an earlier run (skips scipy)")
    ap.add_argument("--graphs", default="grid,random", help="grid, random or both")
    ap.add_argument("--csv", default=None, help="also write the CSV here")
    args = ap.parse_args()

    import ocl_sp

    given = None
    if args.scipy_seconds:
        given = dict(zip(("grid", "random"), (float(x) for x in args.scipy_seconds.split(","))))
    graphs = {"grid": lambda: make_grid(100, 1), "random": lambda: make_random(10_000, 20, 2)}
    names = {"grid": "grid 100x100", "random": "random deg 20 n 10000"}
    kw = {}
    if args.backend:
        kw["backend"] = args.backend
    if args.device:
        kw["device"] = args.device

    header = ["graph", "n", "m", "library", "backend", "device", "algo", "reps", "median_s",
              "min_s", "first_s", "speedup", "equal"]
    rows = []
    for key in args.graphs.split(","):
        A = csr(*graphs[key]())
        n, m = A.shape[0], A.nnz
        log(f"{names[key]}: n = {n}, m = {m}")

        first = None
        for k in range(args.warmup):
            t, d = timed(lambda: ocl_sp.shortest_path(A, **kw))
            first = t if first is None else first
            del d
            log(f"  ocl_sp warm-up {k + 1}: {t:.4f} s")
        times = []
        keep = None
        for k in range(args.reps):
            gc.collect()
            t, d = timed(lambda: ocl_sp.shortest_path(A, **kw))
            times.append(t)
            if keep is None:
                keep = d
            del d
            log(f"  ocl_sp run {k + 1}: {t:.4f} s")
        rep = ocl_sp.last_report()
        log(f"  {rep}".replace("\n", "\n  "))
        ours = statistics.median(times)

        scipy_times, equal = [], ""
        if given is not None:
            scipy_med = given[key]
        elif args.scipy_reps > 0:
            for k in range(args.scipy_reps):
                gc.collect()
                t, d = timed(lambda: scipy_shortest_path(A))
                scipy_times.append(t)
                log(f"  scipy run {k + 1}: {t:.2f} s")
                if k == 0 and keep is not None:
                    equal = str(bool(np.array_equal(d, keep)))
                del d
            scipy_med = statistics.median(scipy_times)
        else:
            scipy_med = None
        del keep
        gc.collect()

        rows.append([names[key], n, m, "ocl_sp", rep.backend, rep.device, rep.algo,
                     len(times), f"{ours:.6f}", f"{min(times):.6f}",
                     "" if first is None else f"{first:.6f}",
                     "" if scipy_med is None else f"{scipy_med / ours:.1f}", equal])
        if scipy_med is not None:
            rows.append([names[key], n, m, "scipy", "cpu (1 thread)", "", "auto (D)",
                         len(scipy_times), f"{scipy_med:.6f}",
                         f"{min(scipy_times):.6f}" if scipy_times else "", "", "1.0",
                         equal])

    out = csv.writer(sys.stdout)
    out.writerow(header)
    out.writerows(rows)
    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(header)
            w.writerows(rows)


if __name__ == "__main__":
    main()
