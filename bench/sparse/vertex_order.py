#!/usr/bin/env python3
"""A geometric graph (k nearest neighbours of n uniform points, symmetric,
integer weights by length) written in several vertex orders, to measure what
the ids' locality is worth to the sparse engine. Usage:
  vertex_order.py N K OUTDIR [ORDER ...]   ORDER: random (as drawn), bfs (breadth-
  first from vertex 0, neighbours in id order), rcm (scipy's reverse Cuthill-McKee),
  hilbert (the points' Hilbert index), hops (the Hilbert order of two
  breadth-first distances, from two far vertices: graph-only), bisect (recursive
  bisection by breadth-first search from a far vertex: graph-only). Files: OUTDIR/geo-ORDER.bin (the course
  format: int32 n, int32 m, m x (src, dst, w)).
"""
import sys
import numpy as np
from scipy.spatial import cKDTree
from scipy.sparse import csr_matrix
from scipy.sparse.csgraph import reverse_cuthill_mckee, breadth_first_order


def hilbert_index(x, y, bits):
    d = np.zeros(x.shape, dtype=np.int64)
    s = 1 << (bits - 1)
    x = x.copy(); y = y.copy()
    while s > 0:
        rx = ((x & s) > 0).astype(np.int64)
        ry = ((y & s) > 0).astype(np.int64)
        d += s * s * ((3 * rx) ^ ry)
        # rotate
        m = ry == 0
        flip = m & (rx == 1)
        x[flip] = s - 1 - x[flip]
        y[flip] = s - 1 - y[flip]
        x[m], y[m] = y[m].copy(), x[m].copy()
        s >>= 1
    return d


def bisection_order(a, leaf=32):
    """Recursive bisection by breadth-first search: a part's vertices in BFS
    order from a far vertex, cut in half, each half ordered the same way."""
    out = []
    stack = [np.arange(a.shape[0])]
    while stack:
        part = stack.pop()
        if len(part) <= leaf:
            out.append(part)
            continue
        sub = a[part][:, part]
        first = breadth_first_order(sub, 0, directed=False, return_predecessors=False)
        far = first[-1]
        bfs = breadth_first_order(sub, far, directed=False, return_predecessors=False)
        if len(bfs) < len(part):
            bfs = np.concatenate([bfs, np.setdiff1d(np.arange(len(part)), bfs)])
        h = len(part) // 2
        stack.append(part[bfs[h:]])
        stack.append(part[bfs[:h]])
    return np.concatenate(out)


def hop_hilbert_order(a):
    """Hilbert order of two hop-distance coordinates: the distances from a far
    vertex p and from the vertex q farthest from both p and p's farthest one."""
    from scipy.sparse.csgraph import dijkstra
    hop = lambda s: dijkstra(a, directed=False, unweighted=True, indices=s)
    d0 = hop(0)
    p = int(np.argmax(np.where(np.isfinite(d0), d0, -1)))
    dp = hop(p)
    far = int(np.argmax(np.where(np.isfinite(dp), dp, -1)))
    df = hop(far)
    both = np.minimum(dp, df)
    q = int(np.argmax(np.where(np.isfinite(both), both, -1)))
    dq = hop(q)
    x = np.where(np.isfinite(dp), dp, 0).astype(np.int64)
    y = np.where(np.isfinite(dq), dq, 0).astype(np.int64)
    bits = max(1, int(max(x.max(), y.max())).bit_length())
    return np.argsort(hilbert_index(x, y, bits), kind="stable")


def main():
    n, k, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    orders = sys.argv[4:] or ["random", "bfs", "rcm", "hilbert", "bisect", "hops"]
    rng = np.random.default_rng(7)
    pts = rng.random((n, 2))
    dist, idx = cKDTree(pts).query(pts, k + 1)
    src = np.repeat(np.arange(n), k)
    dst = idx[:, 1:].ravel()
    d = dist[:, 1:].ravel()
    w = 1 + np.rint(999 * d / d.max()).astype(np.int64)
    a = csr_matrix((w, (src, dst)), shape=(n, n))
    a = a.maximum(a.T).tocsr()  # symmetric, each pair once a direction
    for order in orders:
        if order == "random":
            perm = np.arange(n)
        elif order == "bfs":
            perm = breadth_first_order(a, 0, directed=False, return_predecessors=False)
            rest = np.setdiff1d(np.arange(n), perm)
            perm = np.concatenate([perm, rest])
        elif order == "bisect":
            perm = bisection_order(a)
        elif order == "hops":
            perm = hop_hilbert_order(a)
        elif order == "rcm":
            perm = reverse_cuthill_mckee(a, symmetric_mode=True)
        elif order == "hilbert":
            q = (pts * (1 << 16)).astype(np.int64).clip(0, (1 << 16) - 1)
            perm = np.argsort(hilbert_index(q[:, 0], q[:, 1], 16), kind="stable")
        else:
            raise SystemExit("unknown order " + order)
        new_id = np.empty(n, dtype=np.int64)
        new_id[perm] = np.arange(n)
        c = a.tocoo()
        rows, cols = new_id[c.row], new_id[c.col]
        o = np.lexsort((cols, rows))
        recs = np.empty((len(o), 3), dtype="<i4")
        recs[:, 0], recs[:, 1], recs[:, 2] = rows[o], cols[o], c.data[o]
        with open("%s/geo-%s.bin" % (out, order), "wb") as f:
            np.array([n, len(o)], dtype="<i4").tofile(f)
            recs.tofile(f)
        band = np.abs(rows - cols)
        print(order, "m", len(o), "median |u-v|", int(np.median(band)), "p90", int(np.percentile(band, 90)))


main()
