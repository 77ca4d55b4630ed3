"""ocl_sp.shortest_path / floyd_warshall against scipy.sparse.csgraph: random and
real graphs, directed and undirected, negative and zero weights, disconnected
graphs, n = 1, negative cycles, predecessors, dense / sparse / masked input, on
every backend (OpenCL on $OCL_SP_TEST_DEVICE, default PoCL, with small n)."""

import os

import numpy as np
import pytest
import scipy.io
import scipy.sparse as sp
from scipy.sparse.csgraph import NegativeCycleError as ScipyNegativeCycleError
from scipy.sparse.csgraph import floyd_warshall as scipy_fw
from scipy.sparse.csgraph import shortest_path as scipy_sp

import ocl_sp
from _support import (assert_same_distances, check_predecessors, edge_weights, florentine,
                      karate, random_dense)

DATA = os.path.join(os.path.dirname(__file__), "..", "data")


# --- random graphs, every backend --------------------------------------------------

@pytest.mark.parametrize("directed", [True, False])
def test_random_integer_weights(backend, directed):
    g = random_dense(48, density=0.15, seed=1)
    want = scipy_fw(g, directed=directed)
    got = ocl_sp.floyd_warshall(g, directed=directed, **backend)
    assert got.dtype == np.float64
    assert_same_distances(got, want)
    assert ocl_sp.last_report().dtype == "int32"


def test_random_negative_weights_with_predecessors(backend):
    g = random_dense(40, density=0.2, seed=2, negative=True)
    assert (g < 0).any() and (g == 0).sum() > 40  # negative edges, and zeros = no edge
    want = scipy_fw(g)
    dist, pred = ocl_sp.floyd_warshall(g, return_predecessors=True, **backend)
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g), dist, pred)


def test_random_float_weights(backend):
    g = random_dense(40, density=0.2, seed=3, low=0.5, high=20.0, floats=True)
    want = scipy_fw(g)
    got = ocl_sp.floyd_warshall(g, **backend)  # real weights: float64, as scipy
    assert ocl_sp.last_report().dtype == "float64"
    assert_same_distances(got, want, exact=False)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_predecessors_positive_weights(backend):
    g = random_dense(50, density=0.1, seed=4)
    dist, pred = ocl_sp.shortest_path(g, return_predecessors=True, **backend)
    assert_same_distances(dist, scipy_fw(g))
    check_predecessors(edge_weights(g), dist, pred)


@pytest.mark.parametrize("method", ["squaring", "FW", "auto"])
def test_methods_cpu(cpu_backend, method):
    g = random_dense(33, density=0.15, seed=5, negative=True)
    dist, pred = ocl_sp.shortest_path(g, method=method, return_predecessors=True, **cpu_backend)
    assert_same_distances(dist, scipy_fw(g))
    check_predecessors(edge_weights(g), dist, pred)


def test_squaring_opencl(opencl):
    g = random_dense(40, density=0.15, seed=6)
    got = ocl_sp.shortest_path(g, method="squaring", **opencl)
    assert_same_distances(got, scipy_fw(g))
    assert ocl_sp.last_report().algo == "squaring"


def test_fw_naive_serial_and_openmp_refusal():
    g = random_dense(20, seed=7)
    assert_same_distances(ocl_sp.shortest_path(g, method="fw-naive", backend="serial"),
                          scipy_fw(g))
    with pytest.raises(ValueError, match="fw-naive"):
        ocl_sp.shortest_path(g, method="fw-naive", backend="openmp")


# --- zero weights, disconnected graphs, n = 1 ----------------------------------------

def test_zero_weight_edges_sparse(backend):
    # Explicit zeros in a sparse matrix are edges of weight 0 (scipy's rule), incl. a
    # zero-weight cycle 0 -> 1 -> 2 -> 0.
    rows = [0, 1, 2, 2, 3, 4, 5]
    cols = [1, 2, 0, 3, 4, 5, 3]
    vals = [0.0, 0.0, 0.0, 5.0, 0.0, 2.0, 1.0]
    g = sp.csr_matrix((vals, (rows, cols)), shape=(7, 7))
    assert g.nnz == 7  # explicit zeros stored
    want = scipy_fw(g)
    dist, pred = ocl_sp.floyd_warshall(g, return_predecessors=True, **backend)
    assert_same_distances(dist, want)
    assert dist[0, 2] == 0 and dist[0, 3] == 5 and np.isinf(dist[0, 6])
    check_predecessors(edge_weights(g), dist, pred)


def test_disconnected(backend):
    a = random_dense(12, density=0.4, seed=8)
    b = random_dense(9, density=0.4, seed=9)
    g = np.zeros((21, 21))
    g[:12, :12] = a
    g[12:, 12:] = b
    dist, pred = ocl_sp.floyd_warshall(g, return_predecessors=True, **backend)
    want, want_pred = scipy_fw(g, return_predecessors=True)
    assert_same_distances(dist, want)
    assert np.isinf(dist[:12, 12:]).all() and np.isinf(dist[12:, :12]).all()
    assert (pred[:12, 12:] == -9999).all()
    check_predecessors(edge_weights(g), dist, pred)


@pytest.mark.parametrize("g", [np.zeros((1, 1)), np.array([[7.0]]), np.array([[-3.0]]),
                               sp.csr_matrix((1, 1))], ids=["zero", "loop", "negloop", "sparse"])
def test_single_vertex(backend, g):
    dist, pred = ocl_sp.floyd_warshall(g, return_predecessors=True, **backend)
    want, want_pred = scipy_fw(g, return_predecessors=True)  # scipy ignores the diagonal
    assert dist.shape == (1, 1) and dist[0, 0] == 0 == want[0, 0]
    assert pred.tolist() == want_pred.tolist() == [[-9999]]


def test_empty_graph():
    assert ocl_sp.floyd_warshall(np.zeros((0, 0))).shape == (0, 0)


# --- negative cycles ---------------------------------------------------------------

def test_negative_cycle(backend):
    g = random_dense(30, density=0.2, seed=10)
    g[3, 17], g[17, 25], g[25, 3] = 2.0, -9.0, 1.0  # a cycle of length -6
    with pytest.raises(ScipyNegativeCycleError):
        scipy_fw(g)
    with pytest.raises(ocl_sp.NegativeCycleError) as info:
        ocl_sp.floyd_warshall(g, return_predecessors=True, **backend)
    assert isinstance(info.value, ScipyNegativeCycleError)  # except clauses for scipy work
    assert info.value.vertex is not None and 0 <= info.value.vertex < 30
    assert "negative cycle" in str(info.value).lower()


def test_negative_edge_undirected_is_a_cycle(cpu_backend):
    g = np.array([[0, -1.0, 0], [0, 0, 2.0], [0, 0, 0]])
    with pytest.raises(ScipyNegativeCycleError):
        scipy_fw(g, directed=False)
    with pytest.raises(ocl_sp.NegativeCycleError):
        ocl_sp.floyd_warshall(g, directed=False, **cpu_backend)
    # directed, the same graph is fine
    assert_same_distances(ocl_sp.floyd_warshall(g, **cpu_backend), scipy_fw(g))


def test_negative_cycle_squaring_and_sparse(cpu_backend):
    g = sp.csr_matrix(([1.0, -2.0, 0.5], ([0, 1, 2], [1, 2, 0])), shape=(4, 4))
    with pytest.raises(ocl_sp.NegativeCycleError):
        ocl_sp.shortest_path(g, method="squaring", **cpu_backend)


# --- input kinds -------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csr", "csc", "coo", "lil", "dok", "bsr"])
@pytest.mark.parametrize("directed", [True, False])
def test_sparse_formats(fmt, directed):
    g = sp.csr_matrix(random_dense(35, density=0.15, seed=11, negative=directed))
    want = scipy_fw(g, directed=directed)
    got = ocl_sp.floyd_warshall(g.asformat(fmt), directed=directed, backend="openmp")
    assert_same_distances(got, want)


def test_sparse_int_and_float32_data():
    g = sp.csr_matrix(random_dense(30, density=0.2, seed=12))
    want = scipy_fw(g)
    for dt in (np.int32, np.int64, np.float32, np.int16):
        assert_same_distances(ocl_sp.floyd_warshall(g.astype(dt), backend="openmp"), want)


def test_sparse_duplicates_keep_minimum():
    # COO with a parallel edge 0 -> 1 (weights 5 and 2): ocl_sp keeps the minimum, as
    # scipy's csgraph_to_dense does for CSR input with duplicates.
    g = sp.coo_matrix(([5.0, 2.0, 1.0], ([0, 0, 1], [1, 1, 2])), shape=(3, 3))
    dist = ocl_sp.floyd_warshall(g, backend="openmp")
    assert dist[0, 1] == 2 and dist[0, 2] == 3
    csr = sp.csr_matrix(([5.0, 2.0, 1.0], [1, 1, 2], [0, 2, 3, 3]), shape=(3, 3))
    assert not csr.has_canonical_format
    assert_same_distances(ocl_sp.floyd_warshall(csr, backend="openmp"), scipy_fw(csr))


def test_masked_input(cpu_backend):
    # Masked entries are "no edge"; an unmasked 0 is an edge of weight 0 (csgraph's
    # masked representation; scipy's shortest_path 'BF' agrees).
    rng = np.random.default_rng(13)
    data = rng.integers(-3, 20, (25, 25)).astype(np.float64)
    mask = rng.random((25, 25)) > 0.2
    data[~mask & (rng.random((25, 25)) < 0.3)] = 0.0
    data = np.abs(data)  # keep it free of negative cycles
    g = np.ma.masked_array(data, mask=mask)
    want = scipy_sp(g, method="BF")
    dist, pred = ocl_sp.shortest_path(g, return_predecessors=True, **cpu_backend)
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g), dist, pred)
    # The same graph as sparse with explicit zeros gives the same distances.
    sparse = sp.csr_matrix((data[~mask], np.nonzero(~mask)), shape=data.shape)
    assert_same_distances(ocl_sp.floyd_warshall(sparse, **cpu_backend), want)


def test_masked_opencl(opencl):
    g = random_dense(30, density=0.25, seed=14)
    m = np.ma.masked_equal(g, 0)
    assert_same_distances(ocl_sp.floyd_warshall(m, **opencl), scipy_fw(g))


@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")  # numpy.matrix
def test_dense_layouts_and_types():
    g = random_dense(31, density=0.2, seed=15)
    want = scipy_fw(g)
    variants = [g.astype(np.int32), g.astype(np.int64), g.astype(np.float32),
                g.astype(np.uint16), np.asfortranarray(g), g.tolist(), np.matrix(g),
                g.astype(">f8")]
    for v in variants:
        assert_same_distances(ocl_sp.floyd_warshall(v, backend="openmp"), want)
    # a strided view: every second vertex of a bigger graph
    big = random_dense(62, density=0.2, seed=16)
    view = big[::2, ::2]
    assert_same_distances(ocl_sp.floyd_warshall(view, backend="openmp"),
                          scipy_fw(np.ascontiguousarray(view)))
    # reversed rows and columns (negative strides)
    rev = g[::-1, ::-1]
    assert_same_distances(ocl_sp.floyd_warshall(rev, backend="openmp"), scipy_fw(rev.copy()))


def test_bool_and_unweighted(cpu_backend):
    g = random_dense(30, density=0.15, seed=17, negative=True)
    want = scipy_fw(g, unweighted=True)
    assert_same_distances(ocl_sp.floyd_warshall(g, unweighted=True, **cpu_backend), want)
    assert_same_distances(ocl_sp.floyd_warshall(g != 0, **cpu_backend), want)


def test_null_value_and_non_finite():
    g = np.array([[0, 0, np.inf, 4], [np.nan, 0, 1, np.inf], [2, np.inf, 0, 0], [0, 3, 0, 0.0]])
    # default: 0, nan and inf are "no edge"
    assert_same_distances(ocl_sp.floyd_warshall(g, backend="openmp"), scipy_fw(g))
    # null_value=inf: zeros are edges of weight 0 (nan stays "no edge"); scipy's
    # equivalent is a sparse matrix with explicit zeros
    dist, pred = ocl_sp.floyd_warshall(g, null_value=np.inf, backend="openmp",
                                       return_predecessors=True)
    finite = np.isfinite(g)
    np.fill_diagonal(finite, False)
    sparse = sp.csr_matrix((g[finite], np.nonzero(finite)), shape=g.shape)
    assert_same_distances(dist, scipy_fw(sparse))
    assert dist[0, 1] == 0 and dist[3, 0] == 0
    check_predecessors(edge_weights(g, null_value=np.inf), dist, pred)


def test_input_not_modified():
    g = random_dense(20, seed=18)
    copy = g.copy()
    ocl_sp.floyd_warshall(g, directed=False, backend="openmp")
    for method in ("D", "J", "BF"):  # overwrite applies to Floyd-Warshall only, as scipy
        ocl_sp.shortest_path(g, method=method, overwrite=True, backend="openmp")
    ocl_sp.floyd_warshall(g.astype(np.float32), overwrite=True, backend="openmp")
    ocl_sp.floyd_warshall(np.asfortranarray(g), overwrite=True, backend="openmp")
    assert np.array_equal(g, copy)


def test_overwrite_as_scipy():
    # scipy's floyd_warshall works in the caller's C-contiguous float64 array when
    # overwrite=True: the input then holds the result (and is what comes back).
    g = random_dense(20, seed=18)
    want_g = g.copy()
    want = scipy_fw(want_g, directed=False, overwrite=True)
    assert np.array_equal(want_g, want)  # scipy's behaviour
    got = ocl_sp.floyd_warshall(g, directed=False, overwrite=True, backend="openmp")
    assert got is g
    assert_same_distances(g, want)


# --- indices -----------------------------------------------------------------------

def test_indices(cpu_backend):
    g = random_dense(40, density=0.1, seed=19)
    full, full_pred = scipy_fw(g, return_predecessors=True)
    rows = [5, 0, 39, 5, -1]
    dist, pred = ocl_sp.shortest_path(g, indices=rows, return_predecessors=True, **cpu_backend)
    assert dist.shape == pred.shape == (5, 40)
    assert_same_distances(dist, full[[5, 0, 39, 5, 39]])
    check_predecessors(edge_weights(g), dist, pred, rows=[5, 0, 39, 5, 39])
    one, one_pred = ocl_sp.shortest_path(g, indices=7, return_predecessors=True, **cpu_backend)
    assert one.shape == one_pred.shape == (40,)
    assert_same_distances(one, full[7])
    # scipy (Dijkstra for indices) gives the same rows and shapes
    want, want_pred = scipy_sp(g, indices=[3, 4], return_predecessors=True)
    got = ocl_sp.shortest_path(g, indices=np.array([3, 4]), **cpu_backend)
    assert_same_distances(got, want)
    with pytest.raises(ValueError, match="out of range"):
        ocl_sp.shortest_path(g, indices=[40], **cpu_backend)


def test_indices_opencl_native(opencl):
    g = random_dense(30, density=0.2, seed=20)
    got = ocl_sp.shortest_path(g, indices=[2, 3], dtype=np.int32, **opencl)
    want = scipy_fw(g)[[2, 3]]
    assert got.dtype == np.int32
    assert np.array_equal(np.where(got == ocl_sp.INT32_INF, np.inf, got), want)


# --- real graphs -------------------------------------------------------------------

def test_karate_club(backend):
    g = karate()
    want, _ = scipy_fw(g, directed=False, return_predecessors=True)
    dist, pred = ocl_sp.floyd_warshall(g, directed=False, return_predecessors=True, **backend)
    assert_same_distances(dist, want)
    assert dist.max() == 5  # the club's diameter
    check_predecessors(edge_weights(g, directed=False), dist, pred)


def test_karate_club_random_weights(cpu_backend):
    g = karate()
    rng = np.random.default_rng(21)
    g.data = rng.integers(1, 10, g.nnz).astype(np.float64)
    want = scipy_fw(g, directed=False)
    dist, pred = ocl_sp.floyd_warshall(g, directed=False, return_predecessors=True, **cpu_backend)
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g, directed=False), dist, pred)


def test_florentine_families(cpu_backend):
    g = florentine()
    want = scipy_sp(g, directed=False, unweighted=True)
    assert_same_distances(ocl_sp.shortest_path(g, directed=False, **cpu_backend), want)


@pytest.mark.parametrize("name", ["small.mtx", "real.mtx"])  # scipy refuses the others' headers
def test_matrix_market_files(name):
    g = sp.csr_matrix(scipy.io.mmread(os.path.join(DATA, name)))
    want = scipy_fw(g)
    dist, pred = ocl_sp.floyd_warshall(g, return_predecessors=True, backend="serial",
                                       dtype=np.float32 if name == "real.mtx" else None)
    assert_same_distances(dist, want, exact=name != "real.mtx")
    check_predecessors(edge_weights(g), dist, pred, rtol=1e-6)


# --- scipy's single-source methods run the multi-source engine -----------

@pytest.mark.parametrize("method", ["D", "J", "BF", "sssp"])
def test_single_source_methods_run_sssp(backend, method):
    g = random_dense(45, density=0.1, seed=23, negative=method != "D")
    want = scipy_sp(g, method="FW")
    dist, pred = ocl_sp.shortest_path(g, method=method, return_predecessors=True, **backend)
    assert_same_distances(dist, want)
    check_predecessors(edge_weights(g), dist, pred)
    assert ocl_sp.last_report().algo == "sssp"
