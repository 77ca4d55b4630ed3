"""scipy.sparse.csgraph's single-source functions on ocl_sp: dijkstra
(limit, min_only and its sources), johnson, bellman_ford and shortest_path's 'D',
'J', 'BF', 'auto' against scipy on random graphs (dense, sparse in every format,
masked; directed, undirected, unweighted; negative weights), indices of every
shape, scipy's errors and warnings, rows without n x n memory, ocl_sp.stats over
rows; on every backend (OpenCL on $OCL_SP_TEST_DEVICE, default PoCL)."""

import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import ocl_sp
from _support import assert_same_distances, check_predecessors, edge_weights, random_dense

FUNCS = {"D": ocl_sp.dijkstra, "J": ocl_sp.johnson, "BF": ocl_sp.bellman_ford}
SCIPY = {"D": scg.dijkstra, "J": scg.johnson, "BF": scg.bellman_ford}


def _sparse(n, degree, seed, negative=False, zeros=False):
    """Random sparse graph with integer weights (explicit zeros with `zeros`;
    potential-shifted negative weights, no negative cycle, with `negative`)."""
    rng = np.random.default_rng(seed)
    m = n * degree
    row, col = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.integers(0 if zeros else 1, 30, m).astype(np.float64)
    if negative:
        p = rng.integers(0, 30, n)
        w = w + p[row] - p[col]
    keep = row != col
    return sp.csr_matrix((w[keep], (row[keep], col[keep])), shape=(n, n))


# --- the functions against scipy's -------------------------------------------------

@pytest.mark.parametrize("name", ["D", "J", "BF"])
@pytest.mark.parametrize("directed", [True, False])
def test_functions_equal_scipy(backend, name, directed):
    negative = name != "D" and directed
    g = random_dense(40, density=0.12, seed=31, negative=negative)
    want, want_pred = SCIPY[name](g, directed=directed, return_predecessors=True)
    dist, pred = FUNCS[name](g, directed=directed, return_predecessors=True, **backend)
    assert dist.dtype == np.float64 and pred.dtype == np.int32
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g, directed=directed), dist, pred)
    assert ocl_sp.last_report().algo == "sssp"
    assert ocl_sp.last_report().backend == backend["backend"]


@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok"])
@pytest.mark.parametrize("directed", [True, False])
def test_sparse_formats_and_zero_weights(fmt, directed):
    g = _sparse(60, 3, seed=32, zeros=True)
    assert (g.data == 0).any()  # explicit zeros: edges of weight 0
    want = scg.dijkstra(g, directed=directed)
    got = ocl_sp.dijkstra(g.asformat(fmt), directed=directed, backend="openmp")
    assert_same_distances(got, want)


def test_unsorted_csr_with_duplicates_and_masked():
    csr = sp.csr_matrix(([5.0, 2.0, 7.0, 1.0], [2, 1, 1, 0], [0, 3, 4, 4]), shape=(3, 3))
    assert not csr.has_canonical_format
    assert_same_distances(ocl_sp.dijkstra(csr, backend="openmp"), scg.dijkstra(csr))
    data = np.array([[0, 0, 4.0], [1, 0, 0], [0, 2, 0]])
    m = np.ma.masked_array(data, mask=[[1, 0, 0], [0, 1, 1], [1, 0, 1]])
    assert_same_distances(ocl_sp.johnson(m, backend="openmp"), scg.johnson(m))
    assert ocl_sp.dijkstra(m, backend="openmp")[0, 1] == 0  # an unmasked 0 is an edge


def test_unweighted_and_float_weights(cpu_backend):
    g = _sparse(50, 4, seed=33)
    assert_same_distances(ocl_sp.dijkstra(g, unweighted=True, **cpu_backend),
                          scg.dijkstra(g, unweighted=True))
    f = g.copy()
    f.data = f.data / 4  # real weights: float64, as scipy
    assert_same_distances(ocl_sp.johnson(f, **cpu_backend), scg.johnson(f), exact=False)
    assert ocl_sp.last_report().dtype == "float64"


@pytest.mark.parametrize("shape", [(), (4,), (4, 1), (2, 2), (0,)])
def test_indices_shapes(backend, shape):
    g = _sparse(30, 3, seed=34)
    idx = np.array([3, -1, 7, 3][:int(np.prod(shape))] if shape else 5).reshape(shape)
    for name in ("D", "J", "BF"):
        want, want_pred = SCIPY[name](g, indices=idx, return_predecessors=True)
        dist, pred = FUNCS[name](g, indices=idx, return_predecessors=True, **backend)
        assert dist.shape == want.shape == shape + (30,)
        assert pred.shape == want_pred.shape
        assert_same_distances(dist.reshape(-1, 30), want.reshape(-1, 30))
    rows = (np.atleast_1d(idx).reshape(-1) + 30) % 30
    if rows.size:
        check_predecessors(edge_weights(g), dist, pred, rows=rows)


def test_shortest_path_methods_and_indices(cpu_backend):
    g = random_dense(35, density=0.1, seed=35, negative=True)
    want = scg.shortest_path(g, method="J")
    for method in ("auto", "J", "BF", "FW", "sssp", "squaring"):
        assert_same_distances(ocl_sp.shortest_path(g, method=method, **cpu_backend), want)
    got = ocl_sp.shortest_path(g, indices=[4, 2], **cpu_backend)
    assert_same_distances(got, want[[4, 2]])
    assert ocl_sp.last_report().algo == "sssp"  # auto with indices: always rows
    with pytest.raises(ValueError, match="Cannot specify indices with method == 'FW'"):
        ocl_sp.shortest_path(g, method="FW", indices=[0])
    with pytest.raises(ValueError, match="unrecognized method 'X'"):
        ocl_sp.shortest_path(g, method="X")
    with pytest.raises(ValueError, match="out of range"):
        ocl_sp.johnson(g, indices=[35])
    with pytest.raises(ValueError, match="out of range"):
        ocl_sp.dijkstra(g, indices=-36)


def test_auto_chooses_rows_for_sparse_graphs():
    g = sp.random(2000, 2000, density=1e-3, format="csr", random_state=36)
    got = ocl_sp.shortest_path(g, indices=None, backend="openmp", dtype=np.float32)
    rep = ocl_sp.last_report()
    assert rep.algo == "sssp" and any(n.startswith("auto: sssp") for n in rep.notes)
    want = scg.dijkstra(g.astype(np.float32).astype(np.float64))
    np.testing.assert_allclose(got, want, rtol=2e-6)
    small = random_dense(30, density=0.5, seed=37)
    ocl_sp.shortest_path(small, backend="openmp")
    assert ocl_sp.last_report().algo == "fw"  # dense: auto picks Floyd-Warshall
    assert any(n.startswith("auto: fw") for n in ocl_sp.last_report().notes)


# --- dijkstra: limit, min_only -----------------------------------------------------

@pytest.mark.parametrize("directed", [True, False])
def test_limit_equals_scipy(backend, directed):
    g = _sparse(40, 3, seed=38)
    for limit in (0, 7, 20.5, np.inf):
        want, want_pred = scg.dijkstra(g, directed=directed, limit=limit,
                                       return_predecessors=True, indices=[0, 5, 9])
        dist, pred = ocl_sp.dijkstra(g, directed=directed, limit=limit,
                                     return_predecessors=True, indices=[0, 5, 9], **backend)
        assert_same_distances(dist, want)
        assert np.array_equal(pred == -9999, want_pred == -9999)
        check_predecessors(edge_weights(g, directed=directed), dist, pred, rows=[0, 5, 9])
    with pytest.raises(ValueError, match="limit must be >= 0"):
        ocl_sp.dijkstra(g, limit=-1)


def _check_min_only(g, indices, dist, pred, sources, directed=True):
    """dist: the minimum over the indices' rows; sources: an index at that distance
    whose tree reaches the vertex through pred."""
    full = scg.dijkstra(g, directed=directed, indices=indices)
    want = full.reshape(-1, g.shape[0]).min(axis=0)
    assert_same_distances(dist, want)
    idx = set(np.atleast_1d(indices).tolist())
    for v in range(g.shape[0]):
        if np.isinf(want[v]):
            assert sources[v] == -9999 and pred[v] == -9999
            continue
        s = sources[v]
        assert s in idx
        assert scg.dijkstra(g, directed=directed, indices=s)[v] == want[v]
        if v in idx:
            assert s == v and pred[v] == -9999
        k, steps = v, 0
        while pred[k] != -9999:
            assert sources[pred[k]] == s
            k, steps = pred[k], steps + 1
            assert steps <= g.shape[0]
        assert k == s


@pytest.mark.parametrize("directed", [True, False])
def test_min_only(backend, directed):
    g = _sparse(60, 2, seed=39)
    indices = [7, 3, 50, 3]
    dist, pred, sources = ocl_sp.dijkstra(g, directed=directed, indices=indices, min_only=True,
                                          return_predecessors=True, **backend)
    assert dist.shape == pred.shape == sources.shape == (60,)
    assert pred.dtype == sources.dtype == np.int32
    _check_min_only(g, indices, dist, pred, sources, directed)
    want, _, want_src = scg.dijkstra(g, directed=directed, indices=indices, min_only=True,
                                     return_predecessors=True)
    assert_same_distances(dist, want)
    unique = np.isinf(want) | (np.sort(scg.dijkstra(g, directed=directed, indices=[3, 7, 50]),
                                       axis=0)[1] > want)  # one nearest index
    assert np.array_equal(sources[unique], want_src[unique])
    only = ocl_sp.dijkstra(g, directed=directed, indices=indices, min_only=True, **backend)
    assert_same_distances(only, want)
    # one multi-source search, not one per index
    assert ocl_sp.last_report().relaxations <= g.nnz * 2 + len(indices)


def test_min_only_limit_scalar_and_empty():
    g = _sparse(40, 2, seed=40)
    want = scg.dijkstra(g, indices=[1, 2], min_only=True, limit=10)
    assert_same_distances(ocl_sp.dijkstra(g, indices=[1, 2], min_only=True, limit=10,
                                          backend="openmp"), want)
    d, p, s = ocl_sp.dijkstra(g, indices=4, min_only=True, return_predecessors=True,
                              backend="openmp")
    assert d.shape == (40,) and s[4] == 4
    assert_same_distances(d, scg.dijkstra(g, indices=4))
    d, p, s = ocl_sp.dijkstra(g, indices=[], min_only=True, return_predecessors=True,
                              backend="openmp")
    assert np.isinf(d).all() and (p == -9999).all() and (s == -9999).all()
    # indices=None with min_only: every vertex its own source (scipy 1.10 fails on
    # a reshape there; see docs/python.md)
    d, p, s = ocl_sp.dijkstra(g, min_only=True, return_predecessors=True, backend="openmp")
    assert (d == 0).all() and (s == np.arange(40)).all()


def test_min_only_negative_weights_exact():
    g = _sparse(30, 3, seed=41, negative=True)
    assert (g.data < 0).any()
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        d, p, s = ocl_sp.dijkstra(g, indices=[0, 9], min_only=True, return_predecessors=True,
                                  backend="openmp")
    want = scg.johnson(g, indices=[0, 9]).min(axis=0)
    assert_same_distances(d, want)


# --- negative weights and cycles: scipy's errors and warnings -----------------------

def test_dijkstra_warns_on_negative_weights_as_scipy():
    g = random_dense(30, density=0.15, seed=42, negative=True)
    with pytest.warns(UserWarning, match="Graph has negative weights") as rec:
        dist = ocl_sp.dijkstra(g, backend="openmp")
    assert rec[0].filename == __file__  # names the caller
    assert_same_distances(dist, scg.johnson(g))  # exact, where scipy's would not be
    with pytest.warns(UserWarning, match="Graph has negative weights"):
        ocl_sp.shortest_path(g, method="D", backend="openmp")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ocl_sp.johnson(g, backend="openmp")
        ocl_sp.dijkstra(g, unweighted=True, backend="openmp")
        ocl_sp.dijkstra(np.abs(g), backend="openmp")


@pytest.mark.parametrize("name", ["J", "BF", "D"])
@pytest.mark.parametrize("directed", [True, False])
def test_negative_cycles(cpu_backend, name, directed):
    g = np.ones((5, 5))
    g.flat[::6] = 0
    g[1, 2] = -2
    with pytest.raises(scg.NegativeCycleError):
        SCIPY[name](g, directed=directed) if name != "D" else scg.johnson(g, directed=directed)
    ctx = pytest.warns(UserWarning, match="negative weights") if name == "D" else _nothing()
    with ctx, pytest.raises(ocl_sp.NegativeCycleError) as e:
        FUNCS[name](g, directed=directed, **cpu_backend)
    assert isinstance(e.value, scg.NegativeCycleError)


class _nothing:
    def __enter__(self):
        return self

    def __exit__(self, *a):
        return False


def test_undirected_negative_edge_is_a_cycle():
    g = sp.csr_matrix(([2.0, -1.0], ([0, 1], [1, 2])), shape=(3, 3))
    with pytest.raises(scg.NegativeCycleError):
        scg.bellman_ford(g, directed=False)
    with pytest.raises(ocl_sp.NegativeCycleError):
        ocl_sp.bellman_ford(g, directed=False, backend="openmp")
    assert_same_distances(ocl_sp.bellman_ford(g, backend="openmp"), scg.bellman_ford(g))


@pytest.mark.parametrize("kind", ["dense", "sparse", "masked"])
def test_negative_self_loop_as_scipy(kind):
    g = random_dense(8, density=0.2, seed=43)
    g[3, 3] = -1
    if kind == "sparse":
        g = sp.csr_matrix(g)
    elif kind == "masked":
        g = np.ma.masked_equal(g, 0)
    for name in ("J", "BF"):
        with pytest.raises(scg.NegativeCycleError):
            SCIPY[name](g)
        with pytest.raises(ocl_sp.NegativeCycleError):
            FUNCS[name](g, backend="openmp")
        FUNCS[name](g, unweighted=True, backend="openmp")  # unweighted: no negative loop
    # Floyd-Warshall ignores the diagonal, Dijkstra too (with scipy's warning)
    assert_same_distances(ocl_sp.floyd_warshall(g, backend="openmp"), scg.floyd_warshall(g))
    with pytest.warns(UserWarning, match="negative weights"):
        assert_same_distances(ocl_sp.dijkstra(g, backend="openmp"), scg.floyd_warshall(g))
    # 'auto' does what scipy's choice does (J for a sparse-ish graph: the cycle)
    try:
        want = scg.shortest_path(g)
    except scg.NegativeCycleError:
        with pytest.raises(ocl_sp.NegativeCycleError):
            ocl_sp.shortest_path(g, backend="openmp")
    else:
        assert_same_distances(ocl_sp.shortest_path(g, backend="openmp"), want)


# --- types, sizes, memory ----------------------------------------------------------

def test_native_types_and_float_indices():
    g = _sparse(25, 3, seed=44)
    got = ocl_sp.dijkstra(g, indices=[1, 2], dtype=np.int32, backend="openmp", limit=15)
    want = scg.dijkstra(g, indices=[1, 2], limit=15)
    assert got.dtype == np.int32
    assert np.array_equal(np.where(got == ocl_sp.INT32_INF, np.inf, got), want)
    got = ocl_sp.johnson(g, indices=[1, 2], dtype=np.float32, backend="openmp")
    assert got.dtype == np.float32
    # float indices are truncated, as scipy's conversion does
    assert_same_distances(ocl_sp.dijkstra(g, indices=2.7, backend="openmp"),
                          scg.dijkstra(g, indices=2.7))


def test_tiny_graphs():
    for f in (ocl_sp.dijkstra, ocl_sp.johnson, ocl_sp.bellman_ford):
        assert f(np.zeros((0, 0))).shape == (0, 0)
        d, p = f(np.array([[0.0]]), return_predecessors=True, backend="serial")
        assert d.tolist() == [[0.0]] and p.tolist() == [[-9999]]
        assert f(sp.csr_matrix((3, 3)), indices=[], backend="openmp").shape == (0, 3)
    G = sp.csr_matrix([[1.0]])
    G.data.flags["WRITEABLE"] = False  # read-only buffers (scipy's test_buffer)
    assert ocl_sp.dijkstra(G, backend="openmp").tolist() == [[0.0]]


def test_rows_need_no_square_matrix():
    # A path of 300 000 vertices: its n x n matrix would take 360 GB (float32), the
    # rows of two sources 4.8 MB.
    n = 300_000
    g = sp.csr_matrix((np.ones(n - 1), (np.arange(n - 1), np.arange(1, n))), shape=(n, n))
    d = ocl_sp.dijkstra(g, indices=[0, n - 2], directed=False, backend="openmp")
    assert d.shape == (2, n) and d[0, -1] == n - 1 and d[1, 0] == n - 2
    d, p, s = ocl_sp.dijkstra(g, indices=[0, n - 1], min_only=True, return_predecessors=True,
                              directed=False, backend="openmp")
    assert d[n // 2] == n - 1 - n // 2 and s[1] == 0 and s[n - 2] == n - 1


def test_opencl_rows(opencl):
    g = _sparse(50, 3, seed=45, negative=True)
    want, want_pred = scg.johnson(g, indices=[0, 3, 49], return_predecessors=True)
    dist, pred = ocl_sp.johnson(g, indices=[0, 3, 49], return_predecessors=True, **opencl)
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g), dist, pred, rows=[0, 3, 49])
    assert ocl_sp.last_report().backend == "opencl"


# --- ocl_sp.stats over rows --------------------------------------------------------

@pytest.mark.parametrize("directed", [True, False])
def test_stats_rows_equal_matrix_stats(cpu_backend, directed):
    g = _sparse(50, 2, seed=46)
    rows = ocl_sp.stats(g, directed=directed, **cpu_backend)
    assert ocl_sp.last_report().algo == "sssp"
    dense = ocl_sp.stats(g, method="FW", directed=directed, **cpu_backend)
    for key in ("vertex", "reach", "eccentricity", "closeness", "harmonic"):
        np.testing.assert_array_equal(rows[key], dense[key], err_msg=key)
    for key in ("diameter", "radius", "reachable_pairs", "average_shortest_path_length"):
        assert rows[key] == dense[key]


def test_stats_one_pass_on_the_device(opencl):
    # A directed graph on PoCL (it has doubles): sources side by side, rows and
    # columns reduced on the device in one pass, as the CLI's --stats; the same
    # figures, bit for bit, as the serial engine's rows reduced on the host (integer
    # distances: the columns' figures gathered from the rows as they pass, one pass).
    g = _sparse(60, 3, seed=47)
    dev = ocl_sp.stats(g, **opencl)
    notes = ocl_sp.last_report().notes
    assert any("reduced on the device in one pass" in line for line in notes), notes
    host = ocl_sp.stats(g, backend="serial")
    notes = ocl_sp.last_report().notes
    assert any("gathered from the rows on the host (one pass)" in line for line in notes), notes
    for key in ("vertex", "reach", "eccentricity", "closeness", "harmonic"):
        np.testing.assert_array_equal(dev[key], host[key], err_msg=key)
    for key in ("diameter", "radius", "reachable_pairs", "average_shortest_path_length"):
        assert dev[key] == host[key]
