"""pytest plugin: networkx's own test modules for closeness_centrality,
harmonic_centrality, eccentricity, diameter, radius and the shortest-path functions
(FUNCTIONS) in backend test mode with ocl_sp as the backend. Run by ctest as python.networkx_suite:

    PYTHONPATH=build/python:tests/python/nx_suite python3 -m pytest -p ocl_sp_nx_testmode \\
        --pyargs networkx.algorithms.centrality.tests.test_closeness_centrality ...

networkx >= 3.2: networkx's own test mode. The plugin registers ocl_sp's entry
points (pyproject.toml's, as installed metadata in a temporary folder) and sets
NETWORKX_TEST_BACKEND=ocl_sp and NETWORKX_FALLBACK_TO_NX=True before networkx is
imported; networkx's conftest then converts every graph argument with
BackendInterface.convert_from_nx and calls ocl_sp wherever can_run allows.

networkx < 3.2 (Debian 12 ships 2.8.8) has no dispatch at all. The plugin then
does what networkx's test mode does (networkx.utils.backends,
_convert_and_call_for_tests, with fallback to networkx) for FUNCTIONS:
each is replaced, where networkx defines and exports it, by a function that asks
BackendInterface.can_run with the original arguments, converts the graph with
convert_from_nx, calls ocl_sp's implementation, refuses numpy scalars in the
result and converts it back with convert_to_nx; where can_run is False the
original function runs.

Either way the plugin counts the calls ocl_sp computed, prints them with the
backends and devices they ran on, and fails the run if one of FUNCTIONS never ran
on ocl_sp or a call ran on another backend than $OCL_SP_SUITE_BACKEND (a suite that
silently fell back to networkx, or to another backend, would prove nothing).
"""

import atexit
import functools
import inspect
import os
import shutil
import sys
import tempfile

FUNCTIONS = ("closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius",
             "single_source_dijkstra_path_length", "single_source_dijkstra",
             "multi_source_dijkstra_path_length", "multi_source_dijkstra",
             "dijkstra_path_length", "all_pairs_dijkstra_path_length", "all_pairs_dijkstra",
             "all_pairs_shortest_path_length", "single_source_shortest_path_length",
             "all_pairs_bellman_ford_path_length", "johnson", "shortest_path_length",
             "shortest_path", "average_shortest_path_length", "betweenness_centrality",
             "edge_betweenness_centrality")
_ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")


def _register_entry_points():
    """pyproject.toml's entry points as an installed distribution's metadata."""
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    with open(os.path.join(_ROOT, "pyproject.toml"), "rb") as f:
        eps = tomllib.load(f)["project"]["entry-points"]
    site = tempfile.mkdtemp(prefix="ocl_sp_nx_suite_")
    dist = os.path.join(site, "ocl_sp-0.0.dist-info")
    os.mkdir(dist)
    with open(os.path.join(dist, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: ocl_sp\nVersion: 0.0\n")
    with open(os.path.join(dist, "entry_points.txt"), "w") as f:
        for group, entries in eps.items():
            f.write(f"[{group}]\n")
            for name, spec in entries.items():
                f.write(f"{name} = {spec}\n")
    sys.path.insert(0, site)
    atexit.register(shutil.rmtree, site, True)
    return site


# The OpenCL program and tuning cache in a temporary folder, as the other Python tests.
_CACHE = tempfile.mkdtemp(prefix="ocl_sp_nx_suite_cache_")
os.environ["OCL_SP_CACHE_DIR"] = _CACHE
atexit.register(shutil.rmtree, _CACHE, True)
os.environ.setdefault("NETWORKX_TEST_BACKEND", "ocl_sp")
os.environ.setdefault("NETWORKX_FALLBACK_TO_NX", "True")
os.environ.setdefault("NETWORKX_AUTOMATIC_BACKENDS", "ocl_sp")  # networkx 3.2's name
_SITE = _register_entry_points()

import networkx as nx  # noqa: E402  (after the entry points and the environment)
import numpy as np  # noqa: E402

import ocl_sp  # noqa: E402
from ocl_sp import networkx_backend as nb  # noqa: E402

BI = nb.BackendInterface
_backend = os.environ.get("OCL_SP_SUITE_BACKEND", "openmp")
nb.config.backend = _backend
nb.config.device = (os.environ.get("OCL_SP_TEST_DEVICE") or "pocl") if _backend == "opencl" else None

CALLS = {name: 0 for name in FUNCTIONS}
RAN = {}  # (backend, device) -> calls ocl_sp computed there


def _counting(name):
    impl = getattr(BI, name)

    @functools.wraps(impl)
    def counted(*args, **kwargs):
        before = ocl_sp.last_report()
        result = impl(*args, **kwargs)
        rep = ocl_sp.last_report()
        if rep is not before:  # ocl_sp solved (not networkx's code)
            CALLS[name] += 1
            RAN[(rep.backend, rep.device)] = RAN.get((rep.backend, rep.device), 0) + 1
        return result
    return counted


for _name in FUNCTIONS:
    setattr(BI, _name, staticmethod(_counting(_name)))


def _version():
    return tuple(int("".join(c for c in x if c.isdigit()) or 0) for x in nx.__version__.split(".")[:2])


NATIVE = _version() >= (3, 2)
MODE = "networkx's backend test mode" if NATIVE else "emulated backend test mode (networkx < 3.2)"


def _check_result(name, val, depth=0):
    """networkx's test mode refuses numpy scalars anywhere in a result."""
    if isinstance(val, np.number):
        raise RuntimeError(f"{name} returned a numpy scalar {val!r} (depth {depth})")
    if isinstance(val, (str, np.ndarray)):
        return
    if isinstance(val, dict):
        for x in val.values():
            _check_result(name, x, depth + 1)
    elif isinstance(val, (list, tuple, set)):
        for x in val:
            _check_result(name, x, depth + 1)


def _emulate(name):
    """networkx's function `name` dispatched as its test mode would (fallback on)."""
    orig = getattr(nx, name)
    signature = inspect.signature(orig)

    @functools.wraps(orig)
    def dispatched(*args, **kwargs):
        if not BI.can_run(name, args, kwargs):
            return orig(*args, **kwargs)
        bound = signature.bind(*args, **kwargs)
        bound.arguments["G"] = BI.convert_from_nx(bound.arguments["G"], name=name,
                                                  graph_name="G")
        result = getattr(BI, name)(*bound.args, **bound.kwargs)
        _check_result(name, result)
        return BI.convert_to_nx(result, name=name)

    dispatched.orig_func = orig
    return dispatched


if not NATIVE:
    # Every module that defines or re-exports the functions (tests import them from
    # networkx, networkx.algorithms, networkx.algorithms.centrality, ...).
    for _name in FUNCTIONS:
        _orig = getattr(nx, _name)
        _wrapped = _emulate(_name)
        for _module in list(sys.modules.values()):
            if (getattr(_module, "__name__", "").startswith("networkx")
                    and getattr(_module, _name, None) is _orig):
                setattr(_module, _name, _wrapped)
else:
    from networkx.utils import backends as _backends

    assert "ocl_sp" in _backends.backends, "ocl_sp's entry point was not found by networkx"


def pytest_report_header(config):
    return (f"ocl_sp networkx backend suite: networkx {nx.__version__}, {MODE}, "
            f"ocl_sp on {nb.config.backend}" + (f" ({nb.config.device})" if nb.config.device else ""))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    ran = ", ".join(f"{k} {v}" for k, v in CALLS.items())
    terminalreporter.write_line(f"ocl_sp computed: {ran} ({MODE})")
    where = ", ".join(f"{n} on {b} ({d})" for (b, d), n in sorted(RAN.items()))
    terminalreporter.write_line(f"ocl_sp ran: {where or 'nothing'}")


def pytest_sessionfinish(session, exitstatus):
    missing = [k for k, v in CALLS.items() if v == 0]
    if missing and exitstatus == 0 and session.testscollected:
        sys.stderr.write(f"error: ocl_sp never computed {', '.join(missing)}: every call fell "
                         "back to networkx\n")
        session.exitstatus = 1
    other = sum(n for (b, _), n in RAN.items() if b != _backend)
    if other and exitstatus == 0:
        sys.stderr.write(f"error: {other} calls ran on another backend than {_backend}\n")
        session.exitstatus = 1
