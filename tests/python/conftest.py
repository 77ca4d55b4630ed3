"""pytest set-up of the ocl_sp Python tests (run by ctest as python.pytest).

The module, numpy, scipy and networkx are imported here so that a missing one makes the run
fail (an import error while loading conftest), never skip. The OpenCL program and
tuning cache goes to a temporary folder (OCL_SP_CACHE_DIR) so the tests neither
read nor write ~/.cache/ocl_sp. The OpenCL tests run on $OCL_SP_TEST_DEVICE
(default 'pocl'), as the C++ suites do.
"""

import atexit
import os
import shutil
import tempfile

_CACHE = tempfile.mkdtemp(prefix="ocl_sp_pytest_")
os.environ["OCL_SP_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)

import numpy  # noqa: E402,F401  (fail, not skip, when missing)
import scipy.sparse.csgraph  # noqa: E402,F401
import networkx  # noqa: E402,F401  (Debian's python3-networkx; the backend's tests need it)
import ocl_sp  # noqa: E402,F401

import pytest  # noqa: E402

from _support import BACKENDS  # noqa: E402

# Suites of other projects run with ocl_sp in their libraries' place; their shims
# patch scipy / networkx for the whole process, so each runs in its own ctest
# (python.scipy_suite.*, python.networkx_suite), never inside this run.
collect_ignore = ["scipy_suite", "nx_suite"]


@pytest.fixture(params=sorted(BACKENDS))
def backend(request):
    """Keyword arguments selecting each backend in turn (openmp, serial, opencl)."""
    return dict(BACKENDS[request.param])


@pytest.fixture(params=["openmp", "serial"])
def cpu_backend(request):
    """The CPU backends only (cases that would cost an OpenCL compile each)."""
    return dict(BACKENDS[request.param])


@pytest.fixture
def opencl():
    return dict(BACKENDS["opencl"])
