"""Runs scipy's own test file for the shortest-path functions with ocl_sp's
functions in scipy's place.

test_shortest_path.py is scipy/sparse/csgraph/tests/test_shortest_path.py as
Debian's python3-scipy 1.10.1-2 ships it (scipy v1.10.1 plus Debian's mips64el
skip), unchanged; scipy's licence (BSD-3-Clause) is LICENSE.scipy.txt beside it.

Before pytest imports it, this shim replaces shortest_path, dijkstra, johnson,
bellman_ford, floyd_warshall and NegativeCycleError in scipy.sparse.csgraph with
ocl_sp's, so the file's own ``from scipy.sparse.csgraph import ...`` binds
ocl_sp's functions (construct_dist_matrix stays scipy's: ocl_sp has none). They
run on the backend named by $OCL_SP_SUITE_BACKEND (openmp, serial or opencl;
default openmp; opencl uses $OCL_SP_TEST_DEVICE, default pocl). A collection hook
checks that every substituted name in the module is ocl_sp's. Every call records
the backend of the solve it ran (ocl_sp.last_report()); the run fails unless
ocl_sp solved something and every solve ran on $OCL_SP_SUITE_BACKEND (a suite
that silently fell back to another backend would prove nothing), and prints the
count per backend and device.

Run by ctest as python.scipy_suite.<backend>; the main python.pytest run does not
collect this folder (tests/python/conftest.py collect_ignore), since the shim
changes scipy for the whole process. No test is marked xfail: every deliberate
difference from scipy (docs/python.md) lies outside what this file tests.
"""

import functools
import os
import sys

import scipy.sparse.csgraph as csgraph

import ocl_sp

BACKEND = os.environ.get("OCL_SP_SUITE_BACKEND", "openmp")
if BACKEND not in ("openmp", "serial", "opencl"):
    raise RuntimeError(f"OCL_SP_SUITE_BACKEND={BACKEND!r}: expected openmp, serial or opencl")
KWARGS = {"backend": BACKEND}
if BACKEND == "opencl":
    KWARGS["device"] = os.environ.get("OCL_SP_TEST_DEVICE") or "pocl"

SUBSTITUTED = ("shortest_path", "dijkstra", "johnson", "bellman_ford", "floyd_warshall")

RAN = {}  # (backend, device) -> solves


def _recording(f):
    """f, recording the backend and device of each solve it ran."""
    @functools.wraps(f)
    def call(*args, **kwargs):
        before = ocl_sp.last_report()
        try:
            return f(*args, **kwargs)
        finally:
            rep = ocl_sp.last_report()
            if rep is not None and rep is not before:
                key = (rep.backend, rep.device)
                RAN[key] = RAN.get(key, 0) + 1
    return call


for _name in SUBSTITUTED:
    _f = functools.partial(_recording(getattr(ocl_sp, _name)), **KWARGS)
    functools.update_wrapper(_f, getattr(ocl_sp, _name))
    setattr(csgraph, _name, _f)
csgraph.NegativeCycleError = ocl_sp.NegativeCycleError


def pytest_collection_modifyitems(session, config, items):
    modules = {item.module for item in items if getattr(item, "module", None) is not None}
    assert modules, "scipy's test file was not collected"
    for module in modules:
        for name in SUBSTITUTED:
            f = getattr(module, name, None)
            if f is not None:
                f = getattr(f, "func", None)
                assert getattr(f, "__wrapped__", None) is getattr(ocl_sp, name), (module, name)
        if hasattr(module, "NegativeCycleError"):
            assert module.NegativeCycleError is ocl_sp.NegativeCycleError


def pytest_report_header(config):
    return f"scipy's test_shortest_path.py on ocl_sp ({KWARGS})"


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    ran = ", ".join(f"{n} on {b} ({d})" for (b, d), n in sorted(RAN.items()))
    terminalreporter.write_line(f"ocl_sp solved: {ran or 'nothing'}")


def pytest_sessionfinish(session, exitstatus):
    if exitstatus != 0 or not session.testscollected:
        return
    other = sum(n for (b, _), n in RAN.items() if b != BACKEND)
    if not RAN:
        sys.stderr.write("error: ocl_sp solved nothing: every call fell back or failed\n")
        session.exitstatus = 1
    elif other:
        sys.stderr.write(f"error: {other} solves ran on another backend than {BACKEND}\n")
        session.exitstatus = 1
