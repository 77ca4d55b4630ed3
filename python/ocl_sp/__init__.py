"""ocl_sp: all-pairs shortest paths on any OpenCL device, OpenMP or serial CPU,
as a drop-in for ``scipy.sparse.csgraph``'s ``shortest_path``, ``floyd_warshall``,
``dijkstra``, ``johnson`` and ``bellman_ford``.

    >>> import numpy as np, ocl_sp
    >>> ocl_sp.floyd_warshall(np.array([[0, 1, 0], [0, 0, 2], [5, 0, 0]]))
    array([[0., 1., 3.],
           [7., 0., 2.],
           [5., 6., 0.]])

Switching from scipy is one import::

    from ocl_sp import (shortest_path, floyd_warshall, dijkstra, johnson, bellman_ford,
                        NegativeCycleError)

Extra keyword-only arguments pick where and how it runs: ``backend='opencl' |
'openmp' | 'serial'``, ``device='nvidia' | 'amd' | 'pocl' | 'P:D' | ...``,
``dtype=None | numpy.int32 | numpy.float32 | numpy.float64``, ``params={'BLOCK': 64}``.
``last_report()`` describes the last solve of the calling thread (device,
algorithm, T_o / T_h / T_k, relaxations per second); ``devices()`` lists the
OpenCL devices. See docs/python.md.
"""

from ._api import (
    INT32_INF,
    INT64_INF,
    Device,
    NegativeCycleError,
    PrecisionWarning,
    SolveReport,
    bellman_ford,
    betweenness,
    clear_cache,
    devices,
    dijkstra,
    floyd_warshall,
    johnson,
    last_report,
    shortest_path,
    stats,
)
from ._core import version as __version__

import atexit as _atexit

# Release cached solvers (OpenCL contexts, device buffers) while the interpreter and
# the OpenCL driver are still up, not in the C++ static destructors after them.
_atexit.register(clear_cache)

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
