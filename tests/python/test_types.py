"""float64 and int64 in the Python module: real weights compute in
float64 (scipy's answer within 1e-12, no PrecisionWarning), integer weights beyond
int32's exact sums in int64 (exact), dtype= numpy.float64 / numpy.int64 accepted."""
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse import csgraph as scg

import ocl_sp

BACKENDS = [{"backend": "openmp"}, {"backend": "serial"}, {"backend": "opencl", "device": "pocl"}]


def _real_graph(n=70, seed=11):
    g = sp.random(n, n, density=0.08, random_state=seed, format="csr") * 1234.5678912345
    g.data += 1e-3
    return g


@pytest.mark.parametrize("be", BACKENDS, ids=lambda b: b["backend"])
@pytest.mark.parametrize("method", ["auto", "FW", "D", "J", "BF"])
def test_float64_equals_scipy(be, method):
    g = _real_graph()
    want = scg.shortest_path(g, method="D" if method == "auto" else method)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no PrecisionWarning
        got = ocl_sp.shortest_path(g, method=method, **be)
    assert ocl_sp.last_report().dtype == "float64"
    assert got.dtype == np.float64
    assert (np.isinf(got) == np.isinf(want)).all()
    f = np.isfinite(want)
    np.testing.assert_allclose(got[f], want[f], rtol=1e-12)


@pytest.mark.parametrize("be", BACKENDS, ids=lambda b: b["backend"])
def test_int64_sums_are_exact(be):
    rng = np.random.default_rng(5)
    n = 50
    g = sp.random(n, n, density=0.1, random_state=6, format="csr")
    g.data = rng.integers(2**39, 2**40, g.nnz).astype(np.float64)  # sums need int64
    want = scg.shortest_path(g)
    got = ocl_sp.shortest_path(g, **be)
    assert ocl_sp.last_report().dtype == "int64"
    assert np.array_equal(got, want)
    native = ocl_sp.shortest_path(g, dtype=np.int64, **be)
    assert native.dtype == np.int64
    assert (native[np.isinf(want)] == ocl_sp.INT64_INF).all()
    assert np.array_equal(native[np.isfinite(want)], want[np.isfinite(want)].astype(np.int64))
    rows = ocl_sp.dijkstra(g, indices=[0, 3], **be)
    assert ocl_sp.last_report().dtype == "int64"
    assert np.array_equal(rows, want[[0, 3]])


def test_dtype_float64_computes_in_float64():
    g = sp.random(30, 30, density=0.2, random_state=7, format="csr") * 100
    g.data = np.round(g.data) + 1  # integers: auto would pick int32
    got = ocl_sp.shortest_path(g, dtype=np.float64, backend="openmp")
    assert ocl_sp.last_report().dtype == "float64"
    assert np.array_equal(got, scg.shortest_path(g))


def test_int64_refusals():
    g = np.array([[0, 2.5], [0, 0]])
    with pytest.raises(ValueError, match="not an integer"):
        ocl_sp.shortest_path(g, dtype=np.int64, backend="openmp")
    big = np.array([[0, 2.0**60, 0], [0, 0, 2.0**60], [2.0**60, 0, 0]])
    with pytest.raises(ValueError, match="int64"):
        ocl_sp.shortest_path(big, dtype=np.int64, backend="openmp")
    got = ocl_sp.shortest_path(big, backend="openmp")  # auto: float64
    assert ocl_sp.last_report().dtype == "float64"
    assert got[0, 2] == 2.0**61
