#!/usr/bin/env python3
"""The road graphs of bench/auto_choice.sh as DIMACS .gr (gzip), written once and
committed under bench/data/roads/:

- oldenburg.gr.gz: the road network of Oldenburg (6 105 intersections, 7 029
  road segments after duplicates were dropped; T. Brinkhoff's network generator
  data as distributed with F. Li et al.'s spatial data sets, OL.cnode / OL.cedge),
  each segment both ways, its length rounded to a whole unit (at least 1).
- san_joaquin.gr.gz: San Joaquin County (TG.cedge: 18 263 intersections, 23 874
  segments), both ways, length x 10 rounded (at least 1): its lengths are small
  (median 17, 155 under 1).
- road_grid_K.gr.gz: the road-like grid of bench/road_grid.py (K x K
  lattice, undirected, lengths 1..100, 10 % of the streets missing, the largest
  component, fixed seed), vertices renumbered 1..n in ascending order.

  /usr/bin/python3 bench/auto_choice_graphs.py --cedge-dir DIR --out bench/data/roads
"""
import argparse
import gzip
import os
import sys

import numpy as np


def write_gr(path, n, arcs, comment):
    with gzip.GzipFile(path, "wb", mtime=0) as f:
        lines = [f"c {c}\n" for c in comment]
        lines.append(f"p sp {n} {len(arcs)}\n")
        lines += [f"a {u + 1} {v + 1} {w}\n" for u, v, w in arcs]
        f.write("".join(lines).encode())
    print(f"{path}: n = {n}, arcs = {len(arcs)}", file=sys.stderr)


def cedge(path, n, scale, comment, out):
    a = np.loadtxt(path)
    arcs = []
    for _, u, v, w in a:
        w = max(1, int(round(w * scale)))
        arcs += [(int(u), int(v), w), (int(v), int(u), w)]
    write_gr(out, n, arcs, comment)


def road_grid_gr(side, seed, out, missing=0.1):
    from road_grid import road_grid  # bench/road_grid.py (networkx)

    G = road_grid(side, seed, missing)
    ids = {v: i for i, v in enumerate(sorted(G.nodes))}
    arcs = []
    for u, v, d in sorted(G.edges(data=True)):
        arcs += [(ids[u], ids[v], d["weight"]), (ids[v], ids[u], d["weight"])]
    write_gr(out, len(ids), arcs, [f"road-like grid {side} x {side} (bench/python_networkx.py road_grid, seed {seed})"])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cedge-dir", required=True, help="folder with OL.cedge and TG.cedge")
    ap.add_argument("--out", default="bench/data/roads")
    a = ap.parse_args()
    src = "Oldenburg road network (OL.cedge; Brinkhoff's generator data via Li et al.'s spatial data sets), both ways"
    cedge(os.path.join(a.cedge_dir, "OL.cedge"), 6105, 1.0, [src, "lengths rounded, at least 1"],
          os.path.join(a.out, "oldenburg.gr.gz"))
    cedge(os.path.join(a.cedge_dir, "TG.cedge"), 18263, 10.0,
          ["San Joaquin County road network (TG.cedge, same source), both ways", "lengths x 10 rounded, at least 1"],
          os.path.join(a.out, "san_joaquin.gr.gz"))
    for side, seed in ((45, 2), (84, 1), (100, 3)):
        road_grid_gr(side, seed, os.path.join(a.out, f"road_grid_{side}.gr.gz"))


if __name__ == "__main__":
    main()
