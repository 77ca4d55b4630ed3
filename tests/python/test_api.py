"""The rest of the ocl_sp Python API: value types and exactness rules, the solve
report, devices(), errors, zero-copy results, the GIL and Ctrl-C."""

import os
import signal
import threading
import time
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
from scipy.sparse.csgraph import floyd_warshall as scipy_fw

import ocl_sp
from _support import OPENCL_DEVICE, assert_same_distances, random_dense


def test_module_is_the_build():
    build = os.environ.get("OCL_SP_PYTHON_BUILD_DIR")
    if build:  # under ctest: the module of this build, not an installed one
        assert os.path.realpath(ocl_sp.__file__).startswith(os.path.realpath(build))
    assert ocl_sp.__version__
    assert ocl_sp.INT32_INF == 2**30 - 1


# --- value types -------------------------------------------------------------------

def test_dtype_int32_native_zero_copy():
    g = random_dense(40, density=0.1, seed=1)
    want = scipy_fw(g)
    got = ocl_sp.floyd_warshall(g, dtype=np.int32, backend="openmp")
    assert got.dtype == np.int32 and got.shape == (40, 40)
    assert np.array_equal(np.where(got == ocl_sp.INT32_INF, np.inf, got), want)
    # the array owns the solver's memory: no numpy-side copy was made
    assert not got.flags.owndata and got.base is not None and got.flags.writeable
    got[0, 0] = 5  # writable, independent of the next result
    again = ocl_sp.floyd_warshall(g, dtype=np.int32, backend="openmp")
    assert again[0, 0] == 0 and got[0, 0] == 5


def test_dtype_float32_native():
    g = random_dense(30, density=0.1, seed=2)
    got = ocl_sp.floyd_warshall(g, dtype=np.float32, backend="serial")
    assert got.dtype == np.float32
    assert_same_distances(got.astype(np.float64), scipy_fw(g))
    assert np.isinf(got).any()


def test_dtype_float64_is_the_default():
    g = random_dense(20, density=0.2, seed=3)
    a = ocl_sp.floyd_warshall(g, dtype=np.float64, backend="openmp")
    b = ocl_sp.floyd_warshall(g, backend="openmp")
    assert a.dtype == b.dtype == np.float64 and np.array_equal(a, b)
    assert ocl_sp.last_report().dtype == "int32"  # integers: exact int32 by default
    with pytest.raises(ValueError, match="dtype"):
        ocl_sp.floyd_warshall(g, dtype=np.int16)


def test_int32_refuses_rather_than_rounds():
    g = random_dense(20, density=0.3, seed=4)
    g[0, 1] = 2.5
    with pytest.raises(ValueError, match="not an integer"):
        ocl_sp.floyd_warshall(g, dtype=np.int32, backend="openmp")
    # default: non-integer weights are solved in float64, as scipy
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_same_distances(ocl_sp.floyd_warshall(g, backend="openmp"), scipy_fw(g))
    assert ocl_sp.last_report().dtype == "float64"


def test_int32_path_length_range():
    # 30 vertices, weights near 2**25 (multiples of 4: exact in float32): 29 of them
    # add up past 2**29
    g = 4 * random_dense(30, density=0.5, seed=5, low=2**23, high=2**23 + 1000)
    with pytest.raises(ValueError, match="exact int32 range"):
        ocl_sp.floyd_warshall(g, dtype=np.int32, backend="openmp")
    with warnings.catch_warnings():  # default: exact int64 sums, no warning
        warnings.simplefilter("error")
        got = ocl_sp.floyd_warshall(g, backend="openmp")
    assert ocl_sp.last_report().dtype == "int64"
    assert np.array_equal(got, scipy_fw(g))
    with pytest.raises(ValueError, match="exact int32 range"):
        ocl_sp.floyd_warshall(np.array([[0, 2.0**29], [0, 0]]), dtype=np.int32, backend="serial")


def test_float64_weights_are_not_rounded():
    g = random_dense(25, density=0.3, seed=6, floats=True) + 0.1  # 0.1 is not a float32
    np.fill_diagonal(g, 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = ocl_sp.floyd_warshall(g, backend="openmp")
    assert ocl_sp.last_report().dtype == "float64"
    np.testing.assert_allclose(got, scipy_fw(g), rtol=1e-12)
    with warnings.catch_warnings():  # asking for float32 is explicit: no warning
        warnings.simplefilter("error")
        ocl_sp.floyd_warshall(g, dtype=np.float32, backend="openmp")
        ocl_sp.floyd_warshall(g.astype(np.float32), backend="openmp")


def test_float32_range():
    with pytest.raises(ValueError, match="float32"):
        ocl_sp.floyd_warshall(np.array([[0, 1e300], [0, 0]]), dtype=np.float32, backend="openmp")
    got = ocl_sp.floyd_warshall(np.array([[0, 1e300], [0, 0]]), backend="openmp")  # float64
    assert got[0, 1] == 1e300


# --- report, devices, solver reuse -------------------------------------------------

def test_report_cpu():
    g = random_dense(64, density=0.1, seed=7)
    ocl_sp.floyd_warshall(g, backend="openmp")
    r = ocl_sp.last_report()
    assert isinstance(r, ocl_sp.SolveReport)
    assert (r.backend, r.algo, r.dtype, r.n) == ("openmp", "fw", "int32", 64)
    assert r.relaxations == 64**3
    assert r.t_k >= 0 and r.total >= r.t_k and r.wall >= r.total
    assert r.edges == np.count_nonzero(g)
    assert "openmp" in str(r) and "T_k" in str(r)
    ocl_sp.floyd_warshall(g, backend="openmp")
    assert ocl_sp.last_report().solver_reused and ocl_sp.last_report().t_o == 0


def test_report_is_per_thread():
    g = random_dense(10, seed=8)
    ocl_sp.floyd_warshall(g, backend="serial")
    seen = []
    t = threading.Thread(target=lambda: seen.append(ocl_sp.last_report()))
    t.start()
    t.join()
    assert seen == [None] and ocl_sp.last_report().backend == "serial"


def test_report_opencl_and_devices(opencl):
    devs = ocl_sp.devices()
    assert devs and all(isinstance(d, ocl_sp.Device) for d in devs)
    if OPENCL_DEVICE == "pocl":
        assert any(d.vendor_key == "pocl" for d in devs)
    ocl_sp.clear_cache()
    g = random_dense(40, density=0.2, seed=9)
    ocl_sp.floyd_warshall(g, **opencl)
    r = ocl_sp.last_report()
    assert r.backend == "opencl" and r.cache in ("hit", "miss")
    assert r.t_o > 0 and not r.solver_reused and r.kernel_launches > 0
    assert r.params  # the kernel tunables in effect
    ocl_sp.floyd_warshall(g, **opencl)
    assert ocl_sp.last_report().solver_reused


def test_default_backend_is_opencl(monkeypatch):
    monkeypatch.setenv("OCL_SP_DEVICE", OPENCL_DEVICE)  # as the CLI: device from the env
    g = random_dense(24, density=0.2, seed=16)
    assert_same_distances(ocl_sp.floyd_warshall(g), scipy_fw(g))
    assert ocl_sp.last_report().backend == "opencl"


def test_params_and_use_tuned():
    g = random_dense(50, density=0.1, seed=10)
    got = ocl_sp.floyd_warshall(g, backend="openmp", params={"BLOCK": 16}, use_tuned=False)
    assert_same_distances(got, scipy_fw(g))
    assert ocl_sp.last_report().params == {"BLOCK": 16}


# --- errors ------------------------------------------------------------------------

def test_argument_errors():
    g = random_dense(5, seed=11)
    with pytest.raises(ValueError, match="method"):
        ocl_sp.shortest_path(g, method="XYZ")
    with pytest.raises(ValueError, match="backend"):
        ocl_sp.shortest_path(g, backend="cuda")
    with pytest.raises(ValueError, match="device"):
        ocl_sp.shortest_path(g, backend="openmp", device="pocl")
    with pytest.raises(ValueError, match=r"\(N, N\)"):
        ocl_sp.shortest_path(np.zeros((3, 4)))
    with pytest.raises(ValueError, match="2-D"):
        ocl_sp.shortest_path(np.zeros((2, 2, 2)))
    with pytest.raises(TypeError, match="complex"):
        ocl_sp.shortest_path(np.zeros((2, 2), dtype=complex))
    with pytest.raises(ValueError, match="sparse"):
        bad = sp.csr_matrix(([1.0], [5], [0, 1, 1]), shape=(2, 2), copy=False)
        bad.indices[0] = 5  # corrupt after construction
        ocl_sp.floyd_warshall(bad, backend="openmp")


def test_unknown_device_is_a_runtime_error():
    with pytest.raises(RuntimeError, match="no-such-device"):
        ocl_sp.floyd_warshall(np.zeros((3, 3)), backend="opencl", device="no-such-device")


def test_scipy_style_methods_accepted():
    g = random_dense(15, density=0.3, seed=12)
    for m in ("D", "BF", "J", "auto", "FW"):
        assert_same_distances(ocl_sp.shortest_path(g, method=m, backend="openmp"), scipy_fw(g))


# --- GIL and Ctrl-C ----------------------------------------------------------------

def test_gil_released_while_computing():
    g = random_dense(1000, density=0.1, seed=13)
    done = threading.Event()
    spins = [0]

    def solve():
        ocl_sp.floyd_warshall(g, backend="serial", dtype=np.int32)
        done.set()

    t = threading.Thread(target=solve)
    t.start()
    time.sleep(0.01)  # the solve starts
    t0 = time.perf_counter()
    while not done.is_set():
        spins[0] += 1
    elapsed = time.perf_counter() - t0
    t.join()
    # With the GIL held by the solve this loop could not run meanwhile.
    assert elapsed < 0.02 or spins[0] > 1000, (elapsed, spins[0])


def test_ctrl_c_interrupts():
    if threading.current_thread() is not threading.main_thread():
        pytest.skip("signals reach the main thread only")
    g = random_dense(2000, density=0.05, seed=14)  # serial FW: about a second
    timer = threading.Timer(0.15, os.kill, (os.getpid(), signal.SIGINT))
    in_solve = False
    timer.start()
    try:
        try:
            ocl_sp.floyd_warshall(g, backend="serial")
        except KeyboardInterrupt:
            in_solve = True
        else:
            try:  # finished before the signal (a very fast machine): absorb it
                time.sleep(5)
            except KeyboardInterrupt:
                pass
    finally:
        timer.cancel()
    assert in_solve, "Ctrl-C during the solve did not raise KeyboardInterrupt"
    assert ocl_sp.last_report() is None or ocl_sp.last_report().n != 2000  # no result kept
    # the cancel flag is cleared: the next solve runs normally
    small = random_dense(20, seed=15)
    assert_same_distances(ocl_sp.floyd_warshall(small, backend="serial"), scipy_fw(small))
