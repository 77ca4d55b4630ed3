"""scipy.sparse.csgraph-compatible front end of the C++ core (ocl_sp._core).

Input rules (scipy's, see docs/python.md for the few differences):

* dense arrays (anything ``numpy.asarray`` takes): off the diagonal, an entry equal
  to ``null_value`` (default 0), NaN or +-inf is "no edge";
* masked arrays: masked entries (and non-finite values) are "no edge"; unmasked
  zeros are edges of weight 0 (csgraph's masked representation);
* scipy.sparse matrices and arrays (any format): stored entries are edges, explicit
  zeros included; duplicates keep the minimum;
* the diagonal is ignored (d(i, i) = 0), as scipy does;
* ``directed=False``: each pair gets the smaller of its two directions;
  ``unweighted=True``: every edge weighs 1.

Value types: integer weights are solved exactly in int32 (when every path length
stays below 2**29, the CLI's rule); other weights in float32. float64 weights that
float32 cannot hold exactly are rounded to float32 with a PrecisionWarning, unless
``dtype=numpy.float32`` asks for float32 explicitly; ``dtype=numpy.int32`` refuses
(ValueError) rather than round.
"""

import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Dict, List, NamedTuple, Optional

import numpy as np

from . import _core

try:  # scipy is optional: without it there are no sparse inputs to accept
    import scipy.sparse as _sparse
    from scipy.sparse.csgraph import NegativeCycleError as _ScipyNegativeCycleError
except ImportError:  # pragma: no cover - exercised only without scipy
    _sparse = None
    _ScipyNegativeCycleError = Exception

__all__ = [
    "INT32_INF",
    "INT64_INF",
    "Device",
    "NegativeCycleError",
    "PrecisionWarning",
    "SolveReport",
    "clear_cache",
    "devices",
    "bellman_ford",
    "betweenness",
    "dijkstra",
    "floyd_warshall",
    "johnson",
    "last_report",
    "shortest_path",
    "stats",
]

#: "No path" in int32 results (``dtype=numpy.int32``): 2**30 - 1, the CLI's INF.
INT32_INF = int(_core.INT32_INF)
#: "No path" in int64 results (``dtype=numpy.int64``): 2**62 - 1, the CLI's INF.
INT64_INF = int(_core.INT64_INF)


class NegativeCycleError(_ScipyNegativeCycleError):
    """The graph has a negative cycle; no distances are returned.

    A subclass of ``scipy.sparse.csgraph.NegativeCycleError`` when scipy is
    installed, so ``except scipy.sparse.csgraph.NegativeCycleError`` catches it.
    ``vertex`` is a vertex whose distance to itself is negative.
    """

    def __init__(self, message="Negative cycle detected", vertex=None):
        super().__init__(message)
        self.vertex = vertex


class PrecisionWarning(UserWarning):
    """The weights were rounded to float32 for the solve (see ``dtype``)."""


@dataclass(frozen=True)
class Device:
    """One OpenCL device, as ``ocl_sp devices`` lists it; ``id`` is the "P:D" spec."""

    id: str
    name: str
    vendor: str
    vendor_key: str
    type: str
    platform: str
    driver_version: str
    device_version: str
    opencl_c_version: str
    compute_units: int
    global_mem: int
    local_mem: int
    max_alloc: int
    max_work_group: int

    def __str__(self):
        return (f"{self.id}  {self.name}  [{self.vendor_key}, {self.type}, "
                f"{self.compute_units} CU, {self.global_mem / 2**30:.1f} GiB, {self.platform}]")


@dataclass
class SolveReport:
    """What the last solve ran and how long each part took (seconds).

    t_o: solver set-up (OpenCL context, program build or cache; 0 when a cached
    solver was reused), t_h: host<->device transfers, t_k: kernels (or CPU compute),
    total: the solver's solve(); placement / panel / devices / bytes_moved: how an
    OpenCL solve was laid out (single buffer, resident panels, out of core; empty
    on the CPU backends); t_input / t_output: building the matrix from the
    Python object and the result arrays from it (incl. predecessors); wall: the
    whole call.
    """

    n: int = 0
    edges: int = 0
    dtype: str = ""
    device: str = ""
    vendor: str = ""
    driver: str = ""
    algo: str = ""
    backend: str = ""
    params: Dict[str, int] = field(default_factory=dict)
    params_source: str = ""
    cache: str = ""
    solver_reused: bool = False
    t_o: float = 0.0
    t_h: float = 0.0
    t_k: float = 0.0
    total: float = 0.0
    relaxations: float = 0.0
    products: int = 0
    kernel_launches: int = 0
    kernel_seconds: Dict[str, float] = field(default_factory=dict)
    paths: bool = False
    paths_kernels: str = ""
    placement: str = ""
    panel: int = 0
    devices: int = 1
    bytes_moved: float = 0.0
    t_input: float = 0.0
    t_solve: float = 0.0
    t_output: float = 0.0
    wall: float = 0.0
    notes: List[str] = field(default_factory=list)

    @property
    def relax_per_second(self):
        t = self.t_k if self.t_k > 0 else self.total
        return self.relaxations / t if t > 0 else 0.0

    def __str__(self):
        params = " ".join(f"{k}={v}" for k, v in sorted(self.params.items())) or "-"
        lines = [
            f"device   {self.device} ({self.vendor}; {self.driver})",
            f"solve    {self.algo} on {self.backend}, n = {self.n}, {self.dtype}, "
            f"params {params} ({self.params_source})",
            f"time     T_o {self.t_o:.4f} s, T_h {self.t_h:.4f} s, T_k {self.t_k:.4f} s, "
            f"total {self.total:.4f} s ({self.relax_per_second / 1e9:.1f} G relax/s)",
            f"python   input {self.t_input:.4f} s, output {self.t_output:.4f} s, "
            f"wall {self.wall:.4f} s",
        ]
        if self.placement:
            lines.append(f"layout   {self.placement}"
                         + (f", panel {self.panel}" if self.panel else "")
                         + (f", {self.bytes_moved / 2**20:.1f} MiB moved"
                            if self.bytes_moved else ""))
        lines += [f"note     {n}" for n in self.notes]
        return "\n".join(lines)


_local = threading.local()
_REPORT_FIELDS = set(SolveReport.__dataclass_fields__)


def last_report() -> Optional[SolveReport]:
    """The report of the calling thread's last successful solve (None before one)."""
    return getattr(_local, "report", None)


def devices() -> List[Device]:
    """Every OpenCL device of every platform (empty without an OpenCL platform)."""
    return [Device(**d) for d in _core.devices()]


def clear_cache():
    """Drops the solvers kept for reuse (their OpenCL contexts and device buffers)."""
    _core.clear_cache()


_METHODS = {"auto": "auto", "fw": "fw", "squaring": "squaring", "fw-naive": "fw-naive",
            "fw_naive": "fw-naive", "sssp": "sssp",
            # scipy's single-source methods: the multi-source engine (Dijkstra per
            # source on CPUs, near-far on OpenCL devices; Johnson's reweighting for
            # negative edges, so 'D' also takes them where scipy would refuse);
            # 'auto': fw or sssp from the CLI's estimates (sparse/auto_algo.hpp)
            "d": "sssp", "bf": "sssp", "j": "sssp"}

# The algorithms computed over rows (_core.rows): no n x n matrix besides the result.
_ROW_ALGOS = ("sssp", "auto")

def _algo_of(method):
    """The core's algorithm for a scipy-style method name (ValueError if unknown)."""
    m = str(method).lower()
    if m not in _METHODS:
        raise ValueError(f"unrecognized method '{method}' (expected 'auto', 'FW', 'squaring', "
                         "'fw-naive', 'sssp'; 'D', 'BF', 'J' run 'sssp')")
    return _METHODS[m]


_NATIVE_VALUES = {np.dtype(t) for t in (np.float64, np.float32, np.int64, np.int32, np.uint8)}


def _values(a):
    """The array as one of the element types the core reads without a copy."""
    if a.dtype == np.bool_:
        return a.view(np.uint8)
    if a.dtype in _NATIVE_VALUES and a.dtype.isnative:
        return a
    if a.dtype.kind == "c":
        raise TypeError("complex weights are not supported")
    try:
        return a.astype(np.float64)
    except (TypeError, ValueError) as e:
        raise TypeError(f"weights of dtype {a.dtype} cannot be read as numbers: {e}") from None


def _index_arrays(*arrays):
    dt = np.result_type(*arrays)
    if dt not in (np.dtype(np.int32), np.dtype(np.int64)) or not dt.isnative:
        dt = np.dtype(np.int64)
    return [np.ascontiguousarray(a, dtype=dt) for a in arrays]


def _square(shape):
    if len(shape) != 2:
        raise ValueError("csgraph must be 2-D")
    if shape[0] != shape[1]:
        raise ValueError("csgraph must be shape (N, N)")
    return int(shape[0])


class _EdgeList(NamedTuple):
    """An n x n graph given as edge arrays (row, col, weight): stored entries are edges,
    duplicates keep the minimum, as scipy.sparse COO input. Internal: how
    ocl_sp.networkx_backend hands a graph to the core without scipy."""

    row: np.ndarray
    col: np.ndarray
    data: np.ndarray
    n: int


def _coo_arrays(row, col, data, n):
    row, col = _index_arrays(row, col)
    return "coo", row, col, np.ascontiguousarray(_values(np.asarray(data))), n


def _graph_arrays(csgraph):
    """(kind, a, b, c, n) for _core.solve: the caller's buffers wherever possible."""
    if isinstance(csgraph, _EdgeList):
        return _coo_arrays(csgraph.row, csgraph.col, csgraph.data, int(csgraph.n))
    if _sparse is not None and _sparse.issparse(csgraph):
        n = _square(csgraph.shape)
        fmt = csgraph.format
        if fmt in ("csr", "csc"):
            ptr, idx = _index_arrays(csgraph.indptr, csgraph.indices)
            if ptr.shape[0] != n + 1:
                raise ValueError("malformed sparse matrix: indptr has the wrong length")
            return fmt, ptr, idx, np.ascontiguousarray(_values(np.asarray(csgraph.data))), n
        coo = csgraph if fmt == "coo" else csgraph.tocoo()
        return _coo_arrays(coo.row, coo.col, coo.data, n)
    if isinstance(csgraph, np.ma.MaskedArray):
        n = _square(csgraph.shape)
        data = _values(np.asarray(np.ma.getdata(csgraph)))
        mask = np.ma.getmask(csgraph)
        mask = None if mask is np.ma.nomask else np.asarray(mask, dtype=np.bool_).view(np.uint8)
        return "masked", data, mask, None, n
    a = np.asarray(csgraph)
    n = _square(a.shape)
    return "dense", _values(a), None, None, n


def _dtype_mode(dtype):
    """(computation: auto | int32 | int64 | float32 | float64, native output?) for the
    dtype argument."""
    if dtype is None:
        return "auto", False
    dt = np.dtype(dtype)
    if dt == np.float64:
        return "float64", False
    if dt == np.float32:
        return "float32", True
    if dt == np.int32:
        return "int32", True
    if dt == np.int64:
        return "int64", True
    raise ValueError("dtype must be None, numpy.float64, numpy.float32, numpy.int64 or "
                     f"numpy.int32, not {dt}")


def shortest_path(csgraph, method="auto", directed=True, return_predecessors=False,
                  unweighted=False, overwrite=False, indices=None, *, null_value=0,
                  backend=None, device=None, dtype=None, params=None, use_tuned=True):
    """Shortest paths, as ``scipy.sparse.csgraph.shortest_path``.

    Parameters follow scipy: ``csgraph`` (dense, masked or sparse N x N),
    ``method`` ('auto': the CLI's ``--algo auto``, blocked Floyd-Warshall or the
    multi-source engine from estimated times, always the engine with ``indices``;
    'FW': blocked Floyd-Warshall; scipy's 'D', 'BF', 'J' and ocl_sp's 'sssp': the
    multi-source engine (Dijkstra per source on CPUs, near-far on OpenCL devices,
    Johnson's reweighting for negative edges); ocl_sp's 'squaring' (repeated
    (min,+) squaring) and 'fw-naive' (OpenCL baseline)), ``directed``,
    ``return_predecessors`` (int32, -9999 = none), ``unweighted``, ``overwrite``
    (as scipy: with Floyd-Warshall on a C-contiguous float64 ndarray the result is
    written into ``csgraph``; the input is never modified otherwise) and
    ``indices`` (sources: rows of the result; an int gives 1-D results, an array
    of shape S gives S + (N,); ValueError with 'FW', as scipy).

    Keyword-only: ``null_value`` (dense input: the entry that means "no edge",
    default 0; NaN and inf always mean it), ``backend`` ('opencl' | 'openmp' |
    'serial'; default OpenCL, or OpenMP when no OpenCL device exists), ``device``
    (OpenCL device spec as the CLI's ``--device``: 'nvidia', 'amd', 'pocl', 'cpu',
    'gpu', 'P:D', a name substring; default $OCL_SP_DEVICE, else the first GPU),
    ``dtype`` (None / numpy.float64: float64 result with inf; numpy.float32 or
    numpy.int32: the solver's own array, unreachable = inf or INT32_INF),
    ``params`` (kernel tunables, e.g. ``{'BLOCK': 64}``), ``use_tuned`` (use the
    parameters stored by ``ocl_sp sweep``).

    Returns the distance matrix, and the predecessor matrix with
    ``return_predecessors``. Raises NegativeCycleError (no partial result; as
    scipy's 'J' and 'BF', also for a negative self-loop), ValueError for unusable
    input or options, RuntimeError for device failures, KeyboardInterrupt when
    interrupted with Ctrl-C. 'D' warns about negative weights as scipy's
    dijkstra does, then solves them exactly (see :func:`dijkstra`).
    """
    return _run(csgraph, method, directed, return_predecessors, unweighted, overwrite, indices,
                np.inf, False, null_value, backend, device, dtype, params, use_tuned)


def dijkstra(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
             limit=np.inf, min_only=False, *, null_value=0, backend=None, device=None,
             dtype=None, params=None, use_tuned=True):
    """Shortest paths from ``indices``, as ``scipy.sparse.csgraph.dijkstra``.

    Computed by the multi-source engine (Dijkstra per source on CPUs, near-far on
    OpenCL devices). ``limit``: distances above it are inf (and their predecessors
    -9999); ``min_only``: one row of shape (N,), the distance to each vertex from
    the nearest of ``indices`` (one search from a virtual source joined to every
    index by a 0-weight edge), with ``return_predecessors`` also the ``sources``
    array (the index each vertex is reached from, -9999 where none), as scipy.

    Negative weights: a UserWarning as scipy's, then the exact distances
    (Johnson's reweighting; scipy's own Dijkstra gives inaccurate ones), and
    NegativeCycleError where there is a negative cycle (scipy returns numbers).
    Other arguments as :func:`shortest_path`. Returns dist, (dist, pred) or, with
    min_only and return_predecessors, (dist, pred, sources).
    """
    return _run(csgraph, "D", directed, return_predecessors, unweighted, False, indices,
                limit, min_only, null_value, backend, device, dtype, params, use_tuned)


def johnson(csgraph, directed=True, indices=None, return_predecessors=False, unweighted=False,
            *, null_value=0, backend=None, device=None, dtype=None, params=None,
            use_tuned=True):
    """Shortest paths with negative weights allowed, as ``scipy.sparse.csgraph.johnson``:
    the multi-source engine after Johnson's reweighting. Raises NegativeCycleError
    for a negative cycle (a negative self-loop included, as scipy). Arguments and
    results as :func:`shortest_path` with ``method='J'``."""
    return _run(csgraph, "J", directed, return_predecessors, unweighted, False, indices,
                np.inf, False, null_value, backend, device, dtype, params, use_tuned)


def bellman_ford(csgraph, directed=True, indices=None, return_predecessors=False,
                 unweighted=False, *, null_value=0, backend=None, device=None, dtype=None,
                 params=None, use_tuned=True):
    """Shortest paths with negative weights allowed, as
    ``scipy.sparse.csgraph.bellman_ford`` (same results; computed as :func:`johnson`:
    one Bellman-Ford for the potentials, then the multi-source engine). Raises
    NegativeCycleError for any negative cycle of the graph (scipy: for one reachable
    from ``indices``)."""
    return _run(csgraph, "BF", directed, return_predecessors, unweighted, False, indices,
                np.inf, False, null_value, backend, device, dtype, params, use_tuned)


def floyd_warshall(csgraph, directed=True, return_predecessors=False, unweighted=False,
                   overwrite=False, *, null_value=0, backend=None, device=None, dtype=None,
                   params=None, use_tuned=True):
    """All-pairs shortest paths by Floyd-Warshall, as ``scipy.sparse.csgraph.floyd_warshall``.

    Same arguments and results as :func:`shortest_path` with ``method='FW'``.
    """
    return _run(csgraph, "FW", directed, return_predecessors, unweighted, overwrite, None,
                np.inf, False, null_value, backend, device, dtype, params, use_tuned)


_DIJKSTRA_NEGATIVE = ("Graph has negative weights: dijkstra will give inaccurate results if the "
                      "graph contains negative cycles. Consider johnson or bellman_ford.")


def _run(csgraph, method, directed, return_predecessors, unweighted, overwrite, indices, limit,
         min_only, null_value, backend, device, dtype, params, use_tuned):
    """Every public solve: method dispatch, scipy's checks and warnings, results.
    Warnings name the public function's caller (stacklevel 3)."""
    t0 = time.perf_counter()
    algo = _algo_of(method)
    name = str(method).upper()
    if name == "FW" and indices is not None:
        raise ValueError("Cannot specify indices with method == 'FW'.")
    if not limit >= 0:
        raise ValueError("limit must be >= 0")
    mode, native = _dtype_mode(dtype)
    if algo in _ROW_ALGOS:
        if not unweighted and name in ("J", "BF", "AUTO") and _negative_self_loop(
                csgraph, null_value, name == "AUTO" and indices is None):
            # scipy's Bellman-Ford and Johnson find the loop (its 'auto' picks 'J'
            # then); Dijkstra and Floyd-Warshall ignore the diagonal
            raise NegativeCycleError("Negative cycle detected: a negative self-loop")
        try:
            dist, pred, sources, rep = _rows(
                csgraph, algo, mode, native, directed, return_predecessors, unweighted, indices,
                null_value, backend, device, params, use_tuned, t0, limit=float(limit),
                min_only=bool(min_only))
        except NegativeCycleError:
            if name == "D":
                warnings.warn(_DIJKSTRA_NEGATIVE, UserWarning, stacklevel=3)
            raise
        if name == "D" and not unweighted and (rep.get("negative_weights") or
                                               _negative_self_loop(csgraph, null_value, False)):
            warnings.warn(_DIJKSTRA_NEGATIVE, UserWarning, stacklevel=3)
        if dist is None:  # 'auto' chose Floyd-Warshall
            choice = rep.get("choice", "")
            dist, pred, rep = _solve(csgraph, "fw", mode, native, directed, return_predecessors,
                                     unweighted, None, null_value, backend, device, params,
                                     use_tuned, t0)
            if choice and _local.report is not None:
                _local.report.notes.append(choice)
    else:
        dist, pred, rep = _solve(csgraph, algo, mode, native, directed, return_predecessors,
                                 unweighted, indices, null_value, backend, device, params,
                                 use_tuned, t0)
        sources = None
    _precision_warnings(rep, mode)
    if (overwrite and rep.get("algo") == "fw" and type(csgraph) is np.ndarray
            and csgraph.dtype == np.float64 and csgraph.flags.c_contiguous
            and csgraph.flags.writeable and dist.shape == csgraph.shape):
        # scipy's floyd_warshall works in the caller's array when allowed to
        np.copyto(csgraph, dist)
        dist = csgraph
    if not return_predecessors:
        return dist
    if min_only:
        return dist, pred, sources
    return dist, pred


def _precision_warnings(rep, mode):
    if mode != "auto" or rep.get("dtype") != "float32":
        return
    refused = rep.get("int64_refused", "") or rep.get("int32_refused", "")
    if rep.get("inexact"):
        warnings.warn(
            "ocl_sp: the OpenCL device has no float64 (cl_khr_fp64) and some weights are not "
            "exactly representable in float32: they were rounded to it (the solve runs in "
            "float32, about 7 significant digits); pass dtype=numpy.float32 to accept this "
            "without a warning, or backend='openmp' for float64",
            PrecisionWarning, stacklevel=4)
    elif "int64 range" in refused or "int32 range" in refused:
        warnings.warn(
            f"ocl_sp: integer weights too large for exact int32 path lengths ({refused}); "
            "solved in float32, where sums above 2**24 round; pass dtype=numpy.float32 to "
            "accept this without a warning",
            PrecisionWarning, stacklevel=4)


def _negative_self_loop(csgraph, null_value, scipy_auto):
    """Whether csgraph stores a negative weight on its diagonal (scipy's 'J' and 'BF'
    call that a negative cycle). scipy_auto: only where scipy's 'auto' would pick 'J'
    (fewer than N^2/4 edges; 'FW' ignores the diagonal)."""
    if isinstance(csgraph, _EdgeList):
        loops = (np.asarray(csgraph.row) == np.asarray(csgraph.col)) & (np.asarray(csgraph.data) < 0)
        found = bool(np.any(loops))
    elif _sparse is not None and _sparse.issparse(csgraph):
        if len(csgraph.shape) != 2 or csgraph.shape[0] != csgraph.shape[1]:
            return False
        found = bool(np.any(csgraph.diagonal() < 0))
    else:
        a = csgraph if isinstance(csgraph, np.ma.MaskedArray) else np.asarray(csgraph)
        if a.ndim != 2 or a.shape[0] != a.shape[1] or a.dtype.kind not in "biuf":
            return False
        d = np.diagonal(a)
        if isinstance(a, np.ma.MaskedArray):
            d = np.ma.filled(d, 0)
        with np.errstate(invalid="ignore"):
            found = bool(np.any((d < 0) & np.isfinite(d) & (d != null_value)))
    if not found or not scipy_auto:
        return found
    n = csgraph.shape[0]
    if _sparse is not None and _sparse.issparse(csgraph):
        edges = csgraph.nnz
    elif isinstance(csgraph, np.ma.MaskedArray):
        edges = csgraph.count()
    else:
        a = np.asarray(csgraph, dtype=np.float64)
        edges = int(np.count_nonzero(np.isfinite(a) & (a != 0)))
    return edges < n * n / 4


def _index_list(indices, n):
    """(shape of the rows, the flat list of vertices) for scipy's ``indices``: any
    integer array (negative ones count from the end); floats are truncated, as
    scipy's conversion to int32 does."""
    idx = np.asarray(indices)
    if idx.dtype.kind not in "iu":
        if idx.dtype.kind not in "bf":
            raise ValueError("indices must be integers")
        idx = idx.astype(np.int64)
    flat = idx.reshape(-1).astype(np.int64)
    flat = np.where(flat < 0, flat + n, flat)
    if flat.size and (flat.min() < 0 or flat.max() >= n):
        raise ValueError(f"indices out of range 0...{n - 1}")
    return idx.shape, flat.tolist()


def _rows(csgraph, algo, mode, native, directed=True, return_predecessors=False,
          unweighted=False, indices=None, null_value=0, backend=None, device=None, params=None,
          use_tuned=True, t0=None, limit=np.inf, min_only=False, stats=False):
    """The solve behind the single-source methods (_core.rows): rows of `indices`
    (every vertex when None), computed without an n x n matrix of their own.
    Returns (dist, pred or None, sources or None, report dict); dist is None when
    'auto' chose Floyd-Warshall (the caller runs _solve then). With stats the
    figures dict stands in dist. Records last_report()."""
    t0 = time.perf_counter() if t0 is None else t0
    if backend is not None and str(backend).lower() not in ("opencl", "openmp", "serial"):
        raise ValueError(f"unknown backend '{backend}' (expected 'opencl', 'openmp' or 'serial')")
    kind, a, b, c, n = _graph_arrays(csgraph)
    rows, shape = None, None
    if indices is not None:
        idx_shape, rows = _index_list(indices, n)
        shape = idx_shape + (n,)
    elif min_only:
        rows = list(range(n))
    if min_only:
        shape = (n,)

    if n == 0 or (rows is not None and not rows and not min_only):
        out_dtype = np.float64 if not native else {"float32": np.float32, "int32": np.int32,
                                                             "int64": np.int64}[mode]
        shape = shape if shape is not None else (n, n)
        pred = np.full(shape, -9999, dtype=np.int32) if return_predecessors else None
        src = np.full(shape, -9999, dtype=np.int32) if return_predecessors and min_only else None
        return np.zeros(shape, dtype=out_dtype), pred, src, {"algo": "sssp"}

    tunables = {str(k): int(v) for k, v in (params or {}).items()}
    t_prep = time.perf_counter() - t0
    try:
        dist, pred, src, rep = _core.rows(
            kind, a, b, c, n, bool(directed), bool(unweighted), float(null_value), mode, native,
            bool(return_predecessors), rows, algo, "" if backend is None else str(backend),
            "" if device is None else str(device), tunables, bool(use_tuned), float(limit),
            bool(min_only), bool(stats))
    except _core.NegativeCycle as e:
        vertex = int(e.args[1]) if len(e.args) > 1 else None
        raise NegativeCycleError(f"Negative cycle detected: vertex {vertex} lies on one",
                                 vertex=vertex) from None
    if dist is None:
        return None, None, None, rep
    if shape is not None and not stats:
        dist = dist.reshape(shape)
        if pred is not None:
            pred = pred.reshape(shape)
    report = SolveReport(**{k: v for k, v in rep.items() if k in _REPORT_FIELDS})
    report.notes = list(rep.get("notes", []))
    if rep.get("choice"):
        report.notes.append(rep["choice"])
    report.t_input += t_prep
    report.wall = time.perf_counter() - t0
    _local.report = report
    return dist, pred, src, rep


def _solve(csgraph, algo, mode, native, directed=True, return_predecessors=False,
           unweighted=False, indices=None, null_value=0, backend=None, device=None,
           params=None, use_tuned=True, t0=None, stats=False):
    """The solve behind shortest_path, with the computation mode given directly
    (auto | int32 | float32; native: return the computed type, else float64 with inf).
    Returns (dist, pred or None, the core's report dict); records last_report()."""
    t0 = time.perf_counter() if t0 is None else t0
    if backend is not None and str(backend).lower() not in ("opencl", "openmp", "serial"):
        raise ValueError(f"unknown backend '{backend}' (expected 'opencl', 'openmp' or 'serial')")
    kind, a, b, c, n = _graph_arrays(csgraph)

    rows = None
    out_shape = None
    if indices is not None:
        idx = np.asarray(indices)
        if idx.dtype.kind not in "iu":
            raise ValueError("indices must be integers")
        out_shape = idx.shape + (n,)
        flat = idx.reshape(-1).astype(np.int64)
        flat = np.where(flat < 0, flat + n, flat)
        if flat.size and (flat.min() < 0 or flat.max() >= n):
            raise ValueError(f"indices out of range 0...{n - 1}")
        rows = flat.tolist()

    if n == 0:
        out_dtype = np.float64 if not native else {"float32": np.float32, "int32": np.int32,
                                                             "int64": np.int64}[mode]
        shape = out_shape if out_shape is not None else (0, 0)
        pred = np.zeros(shape, dtype=np.int32) if return_predecessors else None
        return np.zeros(shape, dtype=out_dtype), pred, {}

    tunables = {str(k): int(v) for k, v in (params or {}).items()}
    t_prep = time.perf_counter() - t0
    try:
        dist, pred, rep = _core.solve(
            kind, a, b, c, n, bool(directed), bool(unweighted), float(null_value), mode, native,
            bool(return_predecessors), rows, algo, "" if backend is None else str(backend),
            "" if device is None else str(device), tunables, bool(use_tuned), bool(stats))
    except _core.NegativeCycle as e:
        vertex = int(e.args[1]) if len(e.args) > 1 else None
        raise NegativeCycleError(f"Negative cycle detected: vertex {vertex} lies on one",
                                 vertex=vertex) from None

    if out_shape is not None:
        dist = dist.reshape(out_shape)
        if pred is not None:
            pred = pred.reshape(out_shape)

    report = SolveReport(**{k: v for k, v in rep.items() if k in _REPORT_FIELDS})
    report.notes = list(rep.get("notes", []))
    report.t_input += t_prep
    report.wall = time.perf_counter() - t0
    _local.report = report
    return dist, pred, rep


def stats(csgraph, method="auto", directed=True, unweighted=False, *, indices=None, null_value=0,
          backend=None, device=None, dtype=None, params=None, use_tuned=True):
    """Per-vertex shortest-path figures of a graph, as the CLI's ``--stats``.

    ``csgraph`` and the keyword arguments as :func:`shortest_path`. Returns a dict
    of numpy arrays indexed by vertex: ``vertex``, ``reach`` (vertices reachable
    from it, itself included), ``eccentricity`` (largest finite distance from
    it), ``closeness`` and ``harmonic`` exactly as networkx's
    ``closeness_centrality`` (wf_improved=True) and ``harmonic_centrality``
    define them with ``distance='weight'`` (distances *to* the vertex), and the
    graph's ``diameter``, ``radius`` (max / min eccentricity),
    ``reachable_pairs`` (ordered pairs u != v) and
    ``average_shortest_path_length`` over them. With the methods of the
    multi-source engine ('auto', 'D', 'J', 'BF', 'sssp') no n x n memory, as the
    CLI's ``--algo sssp --stats``: on an OpenCL device with doubles one pass
    (sources side by side, rows and columns reduced on the device; the report's
    notes say so), else the rows reduced as they come (forward rows, their
    columns gathered as they pass for integer distances, else the reversed
    graph's rows); 'FW' and 'squaring' solve the n x n matrix first.

    ``indices`` (ids, order kept, repeats allowed): the figures of those
    sources alone, as the CLI's ``--stats --sources`` (``vertex`` holds them;
    their rows of the graph and of its reverse, not n; integer weights: the
    same values full ``stats`` gives them), the summary over the distinct
    sources, counted in ``sources``; the multi-source engine's methods only.
    """
    t0 = time.perf_counter()
    algo = _algo_of(method)
    mode, _ = _dtype_mode(dtype)
    kind, _, _, _, n = _graph_arrays(csgraph)
    if indices is not None:
        if algo not in _ROW_ALGOS:
            raise ValueError(f"stats: indices need the multi-source engine (method 'auto', 'D', 'J', "
                             f"'BF' or 'sssp'), not '{method}'")
        indices = np.atleast_1d(np.asarray(indices)).ravel()
        if indices.size == 0:
            raise ValueError("stats: indices is empty")
    if n == 0:
        if indices is not None:  # no vertex to be a source (as dijkstra's indices)
            raise ValueError("indices out of range 0...-1")
        empty = {k: np.zeros(0, dtype=t) for k, t in (
            ("vertex", np.int64), ("reach", np.int64), ("eccentricity", np.float64),
            ("closeness", np.float64), ("harmonic", np.float64))}
        empty.update(diameter=0.0, radius=0.0, reachable_pairs=0, average_shortest_path_length=0.0)
        return empty
    if algo in _ROW_ALGOS:
        figures, _, _, _ = _rows(csgraph, algo, mode, True, directed, False, unweighted, indices,
                                 null_value, backend, device, params, use_tuned, t0, stats=True)
        return figures
    figures, _, _ = _solve(csgraph, algo, mode, True, directed, False, unweighted, None,
                           null_value, backend, device, params, use_tuned, t0, stats=True)
    return figures


def betweenness_scale(n, normalized, directed, k=None, endpoints=False):
    """networkx's _rescale factor of betweenness_centrality (None: the sums as they are)."""
    if normalized:
        if endpoints:
            scale = None if n < 2 else 1 / (n * (n - 1))
        else:
            scale = None if n <= 2 else 1 / ((n - 1) * (n - 2))
    else:
        scale = None if directed else 0.5
    if scale is not None and k is not None:
        scale = scale * n / k
    return scale


def edge_betweenness_scale(n, normalized, directed, k=None):
    """networkx's _rescale_e factor of edge_betweenness_centrality."""
    if normalized:
        scale = None if n <= 1 else 1 / (n * (n - 1))
    else:
        scale = None if directed else 0.5
    if scale is not None and k is not None:
        scale = scale * n / k
    return scale


def _betweenness(csgraph, directed=True, unweighted=False, sources=None, endpoints=False,
                 edges=False, null_value=0, backend=None, device=None, mode="auto",
                 params=None, use_tuned=True):
    """Raw betweenness sums (networkx's before its rescale) from _core.betweenness:
    (per-vertex float64 array, (src, dst, sums) over the graph's CSR edges or None,
    report dict). Records last_report()."""
    t0 = time.perf_counter()
    if backend is not None and str(backend).lower() not in ("opencl", "openmp", "serial"):
        raise ValueError(f"unknown backend '{backend}' (expected 'opencl', 'openmp' or 'serial')")
    kind, a, b, c, n = _graph_arrays(csgraph)
    rows = None
    if sources is not None:
        _, rows = _index_list(sources, n)
    if n == 0:
        empty = np.zeros(0, dtype=np.int64)
        return np.zeros(0), ((empty, empty, np.zeros(0)) if edges else None), {}
    tunables = {str(k): int(v) for k, v in (params or {}).items()}
    t_prep = time.perf_counter() - t0
    vertex, src, dst, val, rep = _core.betweenness(
        kind, a, b, c, n, bool(directed), bool(unweighted), float(null_value), mode, rows,
        "" if backend is None else str(backend), "" if device is None else str(device),
        tunables, bool(use_tuned), bool(endpoints), bool(edges))
    report = SolveReport(**{k: v for k, v in rep.items() if k in _REPORT_FIELDS})
    report.notes = list(rep.get("notes", []))
    report.t_input += t_prep
    report.wall = time.perf_counter() - t0
    _local.report = report
    return vertex, ((src, dst, val) if edges else None), rep


def betweenness(csgraph, directed=True, unweighted=False, *, sources=None, normalized=True,
                endpoints=False, null_value=0, backend=None, device=None, dtype=None,
                params=None, use_tuned=True):
    """Betweenness centrality of every vertex, as networkx's ``betweenness_centrality``
    (Brandes' algorithm, exact; weights >= 0, every shortest path counted).

    ``csgraph``, ``directed``, ``unweighted`` and the keyword arguments ``null_value``,
    ``backend``, ``device``, ``dtype``, ``params``, ``use_tuned`` as
    :func:`shortest_path` (``directed=False``: each pair's smaller weight, both
    directions). ``sources``: the vertices whose shortest paths count (networkx's
    ``k`` sample; the result is scaled by n / len(sources) as networkx 2.8 to 3.4
    scale it: networkx 3.6 scales the sample's own vertices apart);
    ``normalized`` and ``endpoints`` as networkx's. Returns a float64 array of n
    values. The distances are the multi-source engine's rows (any backend and
    device); the sums are exact fixed-point sums of each source's dependencies, so
    every backend, device and split gives the same bits. Raises ValueError for a
    negative weight or a cycle of zero-weight edges (infinitely many shortest paths).
    """
    mode, _ = _dtype_mode(dtype)
    vertex, _, rep = _betweenness(csgraph, directed, unweighted, sources, endpoints, False,
                                  null_value, backend, device, mode, params, use_tuned)
    n = vertex.shape[0]
    k = None if sources is None else len(_index_list(sources, n)[1]) if n else None
    scale = betweenness_scale(n, normalized, directed, k, endpoints)
    return vertex * scale if scale is not None else vertex
