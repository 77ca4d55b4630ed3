#!/usr/bin/env python3
"""The networkx backend against networkx itself, in one process: all-pairs
Dijkstra lengths of a road-like graph and weighted betweenness centrality.

Graphs (fixed seeds): a road-like grid of --apsp-side^2 vertices (default 84 x 84
= 7 056: a 4-neighbour lattice, undirected, lengths 1..100, 10 % of the streets
missing) for ``all_pairs_dijkstra_path_length`` (every row consumed into a dict of
dicts, as ``dict(...)`` does); the same kind of grid of --bc-side^2 vertices
(default 45 x 45 = 2 025) for ``betweenness_centrality(G, weight="weight")``.

ocl_sp runs through the backend's functions (ocl_sp.networkx_backend.BackendInterface,
what networkx >= 3.2 dispatches to; Debian's networkx 2.8 has no dispatch), graph
conversion included, on --backend (default openmp) / --device; --warmup calls
first, then the median of --reps. networkx: the median of --nx-reps calls of its
own function (orig_func where dispatch exists). The results are compared:
lengths equal exactly, betweenness within 1e-12.

Prints CSV on stdout (also --csv FILE): function, graph, n, m, library, backend,
reps, median_s, min_s, speedup (networkx median / ocl_sp median), equal.

  PYTHONPATH=build/python /usr/bin/python3 bench/python_networkx.py
  PYTHONPATH=build/python /usr/bin/python3 bench/python_networkx.py --nx-reps 1 --reps 5
"""

import argparse
import csv
import gc
import math
import statistics
import sys
import time

import networkx as nx
import numpy as np

from ocl_sp import networkx_backend as nb
from road_grid import road_grid


def nx_func(name):
    f = getattr(nx, name)
    return getattr(f, "orig_func", f)


def timed(f, reps):
    times, out = [], None
    for _ in range(reps):
        out = None
        gc.collect()
        t = time.perf_counter()
        out = f()
        times.append(time.perf_counter() - t)
    return out, times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--apsp-side", type=int, default=84)
    ap.add_argument("--bc-side", type=int, default=45)
    ap.add_argument("--backend", default="openmp")
    ap.add_argument("--device", default=None)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--warmup", type=int, default=1)
    ap.add_argument("--nx-reps", type=int, default=1)
    ap.add_argument("--only", choices=["apsp", "betweenness"], default=None)
    ap.add_argument("--csv", default=None)
    a = ap.parse_args()
    nb.config.backend = a.backend
    nb.config.device = a.device
    BI = nb.BackendInterface
    cases = []
    if a.only in (None, "apsp"):
        G = road_grid(a.apsp_side, 1)
        cases.append(("all_pairs_dijkstra_path_length", G,
                      lambda: dict(BI.all_pairs_dijkstra_path_length(G)),
                      lambda: dict(nx_func("all_pairs_dijkstra_path_length")(G)),
                      lambda x, y: x == y))
    if a.only in (None, "betweenness"):
        H = road_grid(a.bc_side, 2)
        cases.append(("betweenness_centrality", H,
                      lambda: BI.betweenness_centrality(H, weight="weight"),
                      lambda: nx_func("betweenness_centrality")(H, weight="weight"),
                      lambda x, y: x.keys() == y.keys() and all(
                          math.isclose(x[k], y[k], rel_tol=1e-12, abs_tol=1e-12) for k in y)))
    rows = []
    for name, graph, ours, theirs, same in cases:
        n, m = graph.number_of_nodes(), graph.number_of_edges()
        print(f"{name}: n = {n}, m = {m}", file=sys.stderr)
        for _ in range(a.warmup):
            ours()
        got, t_ours = timed(ours, a.reps)
        print(f"  ocl_sp {a.backend}: median {statistics.median(t_ours):.3f} s", file=sys.stderr)
        want, t_nx = timed(theirs, a.nx_reps)
        print(f"  networkx: median {statistics.median(t_nx):.3f} s", file=sys.stderr)
        equal = same(got, want)
        del got, want
        speed = statistics.median(t_nx) / statistics.median(t_ours)
        graph_name = f"road grid {int(round(math.sqrt(n)))}^2"
        rows.append([name, graph_name, n, m, "ocl_sp", a.backend, a.reps,
                     f"{statistics.median(t_ours):.4f}", f"{min(t_ours):.4f}", f"{speed:.1f}", equal])
        rows.append([name, graph_name, n, m, "networkx " + nx.__version__, "python", a.nx_reps,
                     f"{statistics.median(t_nx):.4f}", f"{min(t_nx):.4f}", "1.0", equal])
    header = ["function", "graph", "n", "m", "library", "backend", "reps", "median_s", "min_s",
              "speedup", "equal"]
    w = csv.writer(sys.stdout)
    w.writerow(header)
    w.writerows(rows)
    if a.csv:
        with open(a.csv, "w", newline="") as f:
            cw = csv.writer(f)
            cw.writerow(header)
            cw.writerows(rows)


if __name__ == "__main__":
    main()
