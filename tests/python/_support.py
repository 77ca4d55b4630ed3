"""Graphs and checks shared by the ocl_sp Python tests."""

import os

import numpy as np

OPENCL_DEVICE = os.environ.get("OCL_SP_TEST_DEVICE") or "pocl"

BACKENDS = {
    "openmp": {"backend": "openmp"},
    "serial": {"backend": "serial"},
    "opencl": {"backend": "opencl", "device": OPENCL_DEVICE},
}


def random_dense(n, density=0.2, seed=0, low=1, high=100, negative=False, floats=False):
    """Dense csgraph (0 = no edge): random directed edges with integer (or float32-exact)
    weights; `negative` shifts weights by vertex potentials (w + p(u) - p(v)), which
    makes some negative but leaves every cycle's length unchanged (no negative cycle)."""
    rng = np.random.default_rng(seed)
    if floats:
        w = rng.uniform(low, high, (n, n)).astype(np.float32).astype(np.float64)
    else:
        w = rng.integers(low, high + 1, (n, n)).astype(np.float64)
    if negative:
        p = rng.integers(0, high + 1, n).astype(np.float64)
        w = w + p[:, None] - p[None, :]
    g = np.where(rng.random((n, n)) < density, w, 0.0)
    np.fill_diagonal(g, 0)
    return g


def edge_weights(g, directed=True, kind="dense", null_value=0.0):
    """The n x n edge-weight matrix (inf = no edge, diagonal ignored) that ocl_sp must
    see for csgraph `g` under scipy's rules (used to walk predecessors)."""
    import scipy.sparse as sp

    if sp.issparse(g):
        coo = g.tocoo()
        w = np.full(g.shape, np.inf)
        for i, j, v in zip(coo.row, coo.col, coo.data):
            if np.isfinite(v):
                w[i, j] = min(w[i, j], v)
    elif isinstance(g, np.ma.MaskedArray):
        data = np.asarray(g.data, dtype=np.float64)
        w = np.where(np.ma.getmaskarray(g) | ~np.isfinite(data), np.inf, data)
    else:
        a = np.asarray(g, dtype=np.float64)
        w = np.where((a == null_value) | ~np.isfinite(a), np.inf, a)
    if not directed:
        w = np.minimum(w, w.T)
    np.fill_diagonal(w, np.inf)
    return w


def check_predecessors(w, dist, pred, rows=None, rtol=0.0):
    """Following pred back from every j reaches the source i over edges of w whose
    weights add up to dist[i, j]; -9999 exactly on the diagonal and unreachable pairs."""
    n = w.shape[0]
    rows = np.arange(n) if rows is None else np.asarray(rows)
    dist = np.asarray(dist, dtype=np.float64).reshape(len(rows), n)
    pred = np.asarray(pred).reshape(len(rows), n)
    assert pred.dtype == np.int32
    src = np.repeat(rows[:, None], n, axis=1)
    dst = np.repeat(np.arange(n)[None, :], len(rows), axis=0)
    none = (src == dst) | np.isinf(dist)
    assert np.all(pred[none] == -9999)
    assert np.all((pred[~none] >= 0) & (pred[~none] < n))
    r = np.repeat(np.arange(len(rows))[:, None], n, axis=1)
    cur = dst.copy()
    total = np.zeros(dist.shape)
    active = ~none
    for _ in range(n):
        if not active.any():
            break
        p = pred[r[active], cur[active]]
        assert np.all(p >= 0), "predecessor chain broken"
        step = w[p, cur[active]]
        assert np.all(np.isfinite(step)), "predecessor uses a missing edge"
        total[active] += step
        cur[active] = p
        active &= cur != src
    assert not active.any(), "predecessor chain does not reach the source"
    np.testing.assert_allclose(total[~none], dist[~none], rtol=rtol, atol=1e-9)


def assert_same_distances(got, want, exact=True):
    got = np.asarray(got)
    assert got.shape == want.shape
    assert np.array_equal(np.isinf(got), np.isinf(want))
    finite = np.isfinite(want)
    if exact:
        assert np.array_equal(got[finite], want[finite])
    else:
        np.testing.assert_allclose(got[finite], want[finite], rtol=2e-6, atol=1e-5)


# Zachary's karate club (34 members, 78 friendships; 0-based as networkx numbers them).
KARATE = {
    0: [1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 12, 13, 17, 19, 21, 31],
    1: [2, 3, 7, 13, 17, 19, 21, 30], 2: [3, 7, 8, 9, 13, 27, 28, 32], 3: [7, 12, 13],
    4: [6, 10], 5: [6, 10, 16], 6: [16], 8: [30, 32, 33], 9: [33], 13: [33], 14: [32, 33],
    15: [32, 33], 18: [32, 33], 19: [33], 20: [32, 33], 22: [32, 33],
    23: [25, 27, 29, 32, 33], 24: [25, 27, 31], 25: [31], 26: [29, 33], 27: [33],
    28: [31, 33], 29: [32, 33], 30: [32, 33], 31: [32, 33], 32: [33],
}

# Padgett's Florentine families, marriage ties (15 families, 20 ties).
FLORENTINE = [
    ("Acciaiuoli", "Medici"), ("Castellani", "Peruzzi"), ("Castellani", "Strozzi"),
    ("Castellani", "Barbadori"), ("Medici", "Barbadori"), ("Medici", "Ridolfi"),
    ("Medici", "Tornabuoni"), ("Medici", "Albizzi"), ("Medici", "Salviati"),
    ("Salviati", "Pazzi"), ("Peruzzi", "Strozzi"), ("Peruzzi", "Bischeri"),
    ("Strozzi", "Ridolfi"), ("Strozzi", "Bischeri"), ("Ridolfi", "Tornabuoni"),
    ("Tornabuoni", "Guadagni"), ("Albizzi", "Ginori"), ("Albizzi", "Guadagni"),
    ("Bischeri", "Guadagni"), ("Guadagni", "Lamberteschi"),
]


def karate():
    """Upper-triangular sparse adjacency (use directed=False)."""
    import scipy.sparse as sp

    rows = [u for u, vs in KARATE.items() for _ in vs]
    cols = [v for vs in KARATE.values() for v in vs]
    assert len(rows) == 78
    return sp.csr_matrix((np.ones(len(rows)), (rows, cols)), shape=(34, 34))


def florentine():
    names = sorted({x for e in FLORENTINE for x in e})
    ix = {name: k for k, name in enumerate(names)}
    g = np.zeros((len(names), len(names)))
    for a, b in FLORENTINE:
        g[ix[a], ix[b]] = 1
    return g
