"""networkx backend "ocl_sp": networkx's Floyd-Warshall functions, closeness and
harmonic centrality, eccentricity, diameter, radius and the everyday shortest-path
functions (Dijkstra, BFS lengths, Bellman-Ford lengths, Johnson, shortest_path(_length),
average_shortest_path_length: _nx_paths.py, the list in _PATH_FUNCTIONS) and
betweenness_centrality / edge_betweenness_centrality (_nx_betweenness.py) computed by
ocl_sp; docs/networkx.md lists what runs where.

With ocl_sp installed (``pip install .``; the entry points are in pyproject.toml),
networkx >= 3.2 dispatches to it::

    nx.floyd_warshall_numpy(G, backend="ocl_sp")
    nx.config.backend_priority = ["ocl_sp"]        # networkx >= 3.3: every call
    NETWORKX_BACKEND_PRIORITY=ocl_sp python ...    # (NETWORKX_AUTOMATIC_BACKENDS on 3.2)

Implemented, with networkx's results exactly: ``floyd_warshall_numpy(G, nodelist,
weight)`` and ``floyd_warshall(G, weight)`` (dict of dicts). ocl_sp computes only
what it computes exactly: integer weights, solved in int32 (the CLI's rule: every
path length below 2**29). Everything else is networkx's own computation:

* ``can_run`` is False (networkx runs its own code when dispatching automatically;
  ``backend="ocl_sp"`` raises NotImplementedError, as networkx does for any backend
  that cannot run a call) for: a weight function or unhashable weight key, a weight
  that is not a real number or not an integer (floats such as 0.5: ocl_sp would
  solve in float32), and for ``floyd_warshall`` a negative self-loop (networkx
  counts it as a negative cycle there; ``floyd_warshall_numpy`` ignores the
  diagonal, as ocl_sp does);
* found during the call: a negative cycle (networkx returns its unspecified
  numbers, negative on the diagonal, and raises nothing), path lengths beyond the
  int32 rule, an invalid ``nodelist``: the call returns networkx's own result (or
  error) computed by networkx's implementation on the original graph.

Also implemented, with networkx's results exactly:
``closeness_centrality(G, u, distance, wf_improved)``, ``harmonic_centrality(G,
nbunch, distance, sources)``, ``eccentricity(G, v, sp, weight)``, ``diameter`` and
``radius(G, e, usebounds, weight)``: distance rows of ocl_sp's multi-source engine
(int32), reduced in networkx's order and arithmetic. They run ocl_sp for
non-negative integer weights (or none: networkx's BFS); see the section comment
above ``closeness_centrality`` for what runs networkx's own code.

Not implemented: ``floyd_warshall_predecessor_and_distance`` (networkx's predecessors
on ties follow its loop order; ocl_sp's path matrix records a fewest-edge shortest
path, so the two differ wherever shortest paths are not unique).

Where ocl_sp runs is ``config`` (``backend``, ``device``, ``params`` as in
``ocl_sp.shortest_path``; default: ocl_sp's default, OpenCL on $OCL_SP_DEVICE or the
first GPU). ``ocl_sp.last_report()`` describes the last solve.
"""

import inspect
import logging
import numbers
from collections import defaultdict
from dataclasses import dataclass
from typing import Dict, NamedTuple, Optional

import numpy as np

from . import _api, _nx_betweenness, _nx_paths

__all__ = ["BackendInterface", "OclSpGraph", "Settings", "closeness_centrality", "config",
           "diameter", "eccentricity", "floyd_warshall", "floyd_warshall_numpy",
           "harmonic_centrality", "info", "radius"]

_log = logging.getLogger(__name__)


@dataclass
class Settings:
    """Where the backend runs its solves (arguments of ocl_sp.shortest_path).

    ``min_nodes``: ``should_run`` is False below this many nodes (automatic dispatch
    then prefers networkx; ``backend="ocl_sp"`` still runs ocl_sp). networkx's numpy
    loop and ocl_sp's call (conversion included, warm solver) cross at 32-64 nodes on
    a 2-core CPU (docs/performance/python.md "networkx backend")."""

    backend: Optional[str] = None
    device: Optional[str] = None
    params: Optional[Dict[str, int]] = None
    min_nodes: int = 64


config = Settings()


def _inf():
    return float("inf")


class _Weights(NamedTuple):
    """One weight attribute of every edge of an OclSpGraph (missing: 1.0)."""

    data: Optional[np.ndarray]  # float64 per edge; None: some weight is not a real number
    integral: bool              # every weight is a finite integer: ocl_sp solves it exactly
    ints: bool                  # every weight is an int object (networkx's dicts hold ints)
    negative_loop: bool         # a self-loop of negative weight


def _read_weights(values, loops):
    """_Weights of the edge weights `values` (a list); `loops`: bool array, self-loops."""
    if not all(isinstance(v, numbers.Real) for v in values):
        return _Weights(None, False, False, False)
    try:
        data = np.array(values, dtype=np.float64)
    except (OverflowError, TypeError, ValueError):
        return _Weights(None, False, False, False)
    integral = bool(np.all(np.isfinite(data) & (data == np.trunc(data))))
    ints = all(isinstance(v, (int, np.integer)) for v in values)
    return _Weights(data, integral, ints, bool(np.any(loops & (data < 0))))


def _weight_problem(w, name):
    """Why ocl_sp cannot give networkx's exact result for these weights (None: it can)."""
    if w.data is None:
        return "a weight is not a real number"
    if not w.integral:
        return "the weights are not all integers (ocl_sp would solve in float32)"
    if name == "floyd_warshall" and w.negative_loop:
        return "a negative self-loop (a negative cycle for networkx's floyd_warshall)"
    return None


def _weight_key_problem(weight):
    if callable(weight):
        return "a weight function"
    try:
        hash(weight)
    except TypeError:
        return "an unhashable weight key"
    return None


class OclSpGraph:
    """A networkx graph as ocl_sp's edge arrays (the backend's graph type).

    Keeps the networkx graph it was made from (``graph``): node order, edge data
    (read when a weight attribute is first asked for) and networkx's own
    implementation for the cases ocl_sp hands back."""

    __networkx_backend__ = "ocl_sp"

    def __init__(self, graph):
        self.graph = graph
        self.nodes = list(graph)
        self.index = {v: i for i, v in enumerate(self.nodes)}
        self.directed = bool(graph.is_directed())
        self.multigraph = bool(graph.is_multigraph())
        row, col, self._edge_data = [], [], []
        index = self.index
        for u, v, d in graph.edges(data=True):
            row.append(index[u])
            col.append(index[v])
            self._edge_data.append(d)
        self.row = np.array(row, dtype=np.int64)
        self.col = np.array(col, dtype=np.int64)
        self._weights = {}
        self._node_array = None

    def node_array(self):
        """The nodes as a numpy object array (fancy indexing by position)."""
        if self._node_array is None:
            a = np.empty(len(self.nodes), dtype=object)
            for i, v in enumerate(self.nodes):
                a[i] = v
            self._node_array = a
        return self._node_array

    def __len__(self):
        return len(self.nodes)

    def number_of_nodes(self):
        return len(self.nodes)

    def is_directed(self):
        return self.directed

    def is_multigraph(self):
        return self.multigraph

    def weights(self, attr, default=1.0):
        """_Weights of edge attribute `attr` (None: every edge weighs 1), cached;
        `default` for edges without it (networkx's Floyd-Warshall reads 1.0, its
        Dijkstra 1)."""
        key = (attr, type(default))
        if key not in self._weights:
            if attr is None:
                values = [1] * len(self._edge_data)
            else:
                values = [d.get(attr, default) for d in self._edge_data]
            self._weights[key] = _read_weights(values, self.row == self.col)
        return self._weights[key]


def _as_backend_graph(G):
    return G if isinstance(G, OclSpGraph) else OclSpGraph(G)


def _networkx_result(name, g, *args):
    """networkx's own implementation of `name` on the original graph. Arguments
    beyond those of this networkx version's function (e.g. ``weight`` of
    eccentricity before networkx 3.0) are dropped while they hold None."""
    import networkx as nx

    f = getattr(nx, name)
    f = getattr(f, "orig_func", f)
    try:
        accepted = len(inspect.signature(f).parameters) - 1
    except (TypeError, ValueError):
        accepted = len(args)
    while len(args) > accepted and args[-1] is None:
        args = args[:-1]
    return f(g.graph, *args)


def _solve(g, w, position=None, native=False):
    """All-pairs distances of g under weights w in int32, rows / columns in node order
    (or vertex position[i] for node i); None where ocl_sp cannot give the exact result
    (negative cycle, path lengths beyond the int32 rule). native: the int32 array
    (unreachable INT32_INF), else float64 with inf."""
    row, col = (g.row, g.col) if position is None else (position[g.row], position[g.col])
    edges = _api._EdgeList(row, col, w.data, len(g))
    try:
        dist, _, _ = _api._solve(edges, "fw", "int32", native, directed=g.directed,
                                 backend=config.backend, device=config.device,
                                 params=config.params)
    except _api.NegativeCycleError:
        _log.debug("ocl_sp: negative cycle; networkx's own implementation runs")
        return None
    except ValueError as e:
        if "int32" not in str(e):
            raise
        _log.debug("ocl_sp: %s; networkx's own implementation runs", e)
        return None
    return dist


def _nodelist_positions(g, nodelist):
    """Vertex position of every node for `nodelist` (None: invalid, networkx says why)."""
    n = len(g)
    try:
        if len(nodelist) != n or len(set(nodelist)) != n:
            return None
        position = np.empty(n, dtype=np.int64)
        for k, v in enumerate(nodelist):
            position[g.index[v]] = k
    except (KeyError, TypeError):
        return None
    return position


def floyd_warshall_numpy(G, nodelist=None, weight="weight"):
    """networkx.floyd_warshall_numpy on ocl_sp: float64 n x n distances, rows and
    columns in ``nodelist`` order (default G's node order), inf = no path, 0 on the
    diagonal (self-loops ignored), parallel edges: the lightest, missing weight: 1."""
    g = _as_backend_graph(G)
    problem = _weight_key_problem(weight) or _weight_problem(g.weights(weight),
                                                              "floyd_warshall_numpy")
    position = None
    if problem is None and nodelist is not None:
        position = _nodelist_positions(g, nodelist)
        if position is None:
            problem = "invalid nodelist"
    dist = None if problem else _solve(g, g.weights(weight), position)
    if dist is None:
        if problem:
            _log.debug("ocl_sp: %s; networkx's own implementation runs", problem)
        return _networkx_result("floyd_warshall_numpy", g, nodelist, weight)
    return dist


def floyd_warshall(G, weight="weight"):
    """networkx.floyd_warshall on ocl_sp: {u: defaultdict(inf, {v: distance})} with every
    node as a key, 0 on the diagonal; int distances when every weight is an int,
    floats otherwise and with weight=None (every edge 1.0, as networkx counts it;
    networkx mixes the two per path when weights mix them: the values compare
    equal)."""
    g = _as_backend_graph(G)
    problem = _weight_key_problem(weight)
    w = None if problem else g.weights(weight)
    problem = problem or _weight_problem(w, "floyd_warshall")
    dist = None if problem else _solve(g, w, native=w.ints)
    if dist is None:
        if problem:
            _log.debug("ocl_sp: %s; networkx's own implementation runs", problem)
        return _networkx_result("floyd_warshall", g, weight)
    result = {}
    nodes = g.nodes
    inf = _api.INT32_INF
    for i, u in enumerate(nodes):
        values = dist[i].tolist()
        if w.ints:
            values = [float("inf") if x == inf else x for x in values]
            if weight is None:  # networkx counts every edge as 1.0: float distances
                values = [float(x) for x in values]
        row = defaultdict(_inf, zip(nodes, values))
        row[u] = 0
        result[u] = row
    return result


# --- closeness, harmonic, eccentricity, diameter, radius ------------------
#
# networkx computes these from one search per node (BFS without a weight, Dijkstra
# with one: a missing attribute weighs 1, parallel edges the lightest). ocl_sp
# computes the same distances as rows of its multi-source engine (int32, exact),
# a block of rows at a time, and reduces them here in networkx's own order and
# arithmetic, so the results are networkx's bit for bit. can_run is False (networkx
# runs) for weights that are not non-negative integers, a weight function, `sp` /
# `e` given, nodes not in G, an empty graph, and harmonic_centrality where
# networkx >= 3.4 iterates the smaller node set (its float sums then follow the
# order of its own searches).

_NX_VERSION = None


def _nx_version():
    global _NX_VERSION
    if _NX_VERSION is None:
        import networkx as nx

        parts = []
        for x in nx.__version__.split(".")[:2]:
            digits = "".join(c for c in x if c.isdigit())
            parts.append(int(digits) if digits else 0)
        _NX_VERSION = tuple(parts)
    return _NX_VERSION


_ROW_VALUES = 1 << 24  # int32 values per block of rows (64 MiB)


def _distance_rows(g, w, positions, reverse=False):
    """(positions of the block, int32 rows d(p, *) over g under weights w, INT32_INF
    = no path) for each block of `positions`; reverse: rows of the reversed graph
    (d(*, p)). None instead of the generator where ocl_sp cannot give exact int32
    distances (the int32 rule); the caller runs networkx then."""
    n = len(g)
    row, col = (g.col, g.row) if reverse else (g.row, g.col)
    edges = _api._EdgeList(row, col, w.data, n)
    block = max(1, _ROW_VALUES // max(n, 1))
    positions = list(positions)
    first = positions[:block]
    try:
        dist, _, _, _ = _api._rows(edges, "sssp", "int32", True, directed=g.directed,
                                   indices=first, backend=config.backend,
                                   device=config.device, params=config.params)
    except ValueError as e:
        if "int32" not in str(e):
            raise
        _log.debug("ocl_sp: %s; networkx's own implementation runs", e)
        return None

    def blocks():
        yield first, dist
        for k in range(block, len(positions), block):
            part = positions[k:k + block]
            d, _, _, _ = _api._rows(edges, "sssp", "int32", True, directed=g.directed,
                                    indices=part, backend=config.backend,
                                    device=config.device, params=config.params)
            yield part, d
    return blocks()


def _dijkstra_weights(g, weight):
    """_Weights as networkx's shortest-path searches read them (None: BFS, all 1;
    a missing attribute: 1)."""
    return g.weights(weight, default=1)


def _search_weight_problem(w):
    if w.data is None:
        return "a weight is not a real number"
    if not w.integral:
        return "the weights are not all integers (ocl_sp would solve in float32)"
    if w.data.size and w.data.min() < 0:
        return "a negative weight (networkx's Dijkstra refuses or errs)"
    return None


def _value(x, ints):
    return int(x) if ints else float(x)


def closeness_centrality(G, u=None, distance=None, wf_improved=True):
    """networkx.closeness_centrality on ocl_sp: rows of the reversed graph (distances
    *to* each node), then networkx's formula in its arithmetic."""
    g = _as_backend_graph(G)
    w = _dijkstra_weights(g, distance)
    n = len(g)
    nodes = g.nodes if u is None else [u]
    positions = [g.index[v] for v in nodes]
    rows = _distance_rows(g, w, positions, reverse=g.directed)
    if rows is None:
        return _networkx_result("closeness_centrality", g, u, distance, wf_improved)
    inf = _api.INT32_INF
    result = {}
    for part, dist in rows:
        finite = dist != inf
        reach = finite.sum(axis=1).tolist()
        total = np.where(finite, dist, 0).sum(axis=1, dtype=np.int64).tolist()
        for p, r, t in zip(part, reach, total):
            c = 0.0
            if t > 0.0 and n > 1:
                c = (r - 1.0) / t
                if wf_improved:
                    c *= (r - 1.0) / (n - 1)
            result[g.nodes[p]] = c
    if u is not None:
        return result[u]
    return result


def _harmonic_sets(G, nbunch, sources):
    """networkx's (nbunch set, sources iterable) of harmonic_centrality, built as its
    version builds them (the iteration orders its sums follow)."""
    nb = set(G.nbunch_iter(nbunch)) if nbunch is not None else set(G.nodes)
    if _nx_version() >= (3, 4):
        src = set(G.nbunch_iter(sources)) if sources is not None else set(G.nodes)
    else:
        src = set(G.nbunch_iter(sources)) if sources is not None else G.nodes
    return nb, src


def harmonic_centrality(G, nbunch=None, distance=None, sources=None):
    """networkx.harmonic_centrality on ocl_sp: rows from each source in networkx's
    order, 1/d added per node in that order (d = 0 skipped, as networkx)."""
    g = _as_backend_graph(G)
    w = _dijkstra_weights(g, distance)
    nb, src = _harmonic_sets(g.graph, nbunch, sources)
    centrality = {v: 0 for v in nb}
    if not nb:
        return centrality
    targets = np.array([g.index[v] for v in centrality], dtype=np.int64)
    source_list = list(src)
    rows = _distance_rows(g, w, [g.index[v] for v in source_list])
    if rows is None:
        return _networkx_result("harmonic_centrality", g, nbunch, distance, sources)
    inf = _api.INT32_INF
    acc = np.zeros(len(targets))
    touched = np.zeros(len(targets), dtype=bool)
    for _, dist in rows:
        sub = dist[:, targets]
        for d in sub:  # sources one after the other: networkx's order of additions
            use = (d != inf) & (d != 0)
            acc[use] += 1.0 / d[use]
            touched |= use
    for k, v in enumerate(centrality):
        if touched[k]:
            centrality[v] = float(acc[k])
    return centrality


_NOT_CONNECTED = {
    True: "Found infinite path length because the digraph is not strongly connected",
    False: "Found infinite path length because the graph is not connected",
}


def _eccentricities(g, nodes, weight, message):
    """{node: eccentricity} over `nodes` (in order), NetworkXError(message) where a
    node does not reach every node; None: ocl_sp cannot (networkx runs)."""
    import networkx as nx

    w = _dijkstra_weights(g, weight)
    ints = weight is None or w.ints
    rows = _distance_rows(g, w, [g.index[v] for v in nodes])
    if rows is None:
        return None
    inf = _api.INT32_INF
    e = {}
    for part, dist in rows:
        if (dist == inf).any():
            raise nx.NetworkXError(message)
        for p, x in zip(part, dist.max(axis=1).tolist()):
            e[g.nodes[p]] = _value(x, ints)
    return e


def eccentricity(G, v=None, sp=None, weight=None):
    """networkx.eccentricity on ocl_sp (``sp`` given: networkx's own code): the
    largest distance from each node of ``v`` (a node, a container of nodes, or
    every node); int distances for integer weights (and weight=None), floats for
    integral float weights; NetworkXError where a node does not reach all."""
    g = _as_backend_graph(G)
    if sp is not None:
        return _networkx_result("eccentricity", g, v, sp, weight)
    nodes = list(g.graph.nbunch_iter(v))
    e = _eccentricities(g, nodes, weight, _NOT_CONNECTED[g.directed])
    if e is None:
        return _networkx_result("eccentricity", g, v, sp, weight)
    if v in g.graph:
        return e[v]
    return e


def _extremum(name, pick, G, e, usebounds, weight):
    g = _as_backend_graph(G)
    if e is not None:
        return _networkx_result(name, g, e, usebounds, weight)
    bounds = usebounds is True and not g.directed  # networkx's _extrema_bounding path
    message = ("Cannot compute metric because graph is not connected." if bounds
               else _NOT_CONNECTED[g.directed])
    ecc = _eccentricities(g, g.nodes, weight, message)
    if ecc is None:
        return _networkx_result(name, g, e, usebounds, weight)
    return pick(ecc.values())


def diameter(G, e=None, usebounds=False, weight=None):
    """networkx.diameter on ocl_sp: the largest eccentricity (``e`` given:
    networkx's own code); ``usebounds`` gives the same value (and networkx's
    message for a disconnected graph)."""
    return _extremum("diameter", max, G, e, usebounds, weight)


def radius(G, e=None, usebounds=False, weight=None):
    """networkx.radius on ocl_sp: the smallest eccentricity (as :func:`diameter`)."""
    return _extremum("radius", min, G, e, usebounds, weight)


# The parameter naming each function's weight, and its default.
_WEIGHT_PARAMETER = {
    "floyd_warshall_numpy": ("weight", "weight"),
    "floyd_warshall": ("weight", "weight"),
    "closeness_centrality": ("distance", None),
    "harmonic_centrality": ("distance", None),
    "eccentricity": ("weight", None),
    "diameter": ("weight", None),
    "radius": ("weight", None),
}


def _nx_weights(G, weight, default=1):
    """_Weights of attribute `weight` of networkx graph G's edges (missing: default)."""
    edges = G.edges(data=weight, default=default)
    loops = np.array([u == v for u, v, _ in edges], dtype=bool)
    return _read_weights([d for _, _, d in edges], loops)


def _call_weights(G, weight):
    """_Weights of attribute `weight` (missing: 1) of a call's graph: an OclSpGraph or
    a networkx graph."""
    return G.weights(weight, default=1) if isinstance(G, OclSpGraph) else _nx_weights(G, weight)


_SEARCHES = ("closeness_centrality", "harmonic_centrality", "eccentricity", "diameter", "radius")


# networkx's shortest-path functions on the engine's rows (_nx_paths.py): the
# parameter naming the weight, its default, and whether negative weights run
# (Bellman-Ford and Johnson; "method" decides for the generic functions).
_PATH_FUNCTIONS = {
    "single_source_dijkstra_path_length": ("weight", "weight", False),
    "single_source_dijkstra": ("weight", "weight", False),
    "multi_source_dijkstra_path_length": ("weight", "weight", False),
    "multi_source_dijkstra": ("weight", "weight", False),
    "dijkstra_path_length": ("weight", "weight", False),
    "all_pairs_dijkstra_path_length": ("weight", "weight", False),
    "all_pairs_dijkstra": ("weight", "weight", False),
    "all_pairs_shortest_path_length": (None, None, False),
    "single_source_shortest_path_length": (None, None, False),
    "all_pairs_bellman_ford_path_length": ("weight", "weight", True),
    "johnson": ("weight", "weight", True),
    "shortest_path_length": ("weight", None, "method"),
    "shortest_path": ("weight", None, "method"),
    "average_shortest_path_length": ("weight", None, "method"),
}
for _name in _PATH_FUNCTIONS:
    globals()[_name] = getattr(_nx_paths, _name)
    __all__.append(_name)


def _path_call_problem(name, G, bound):
    """Why the engine cannot run one of _PATH_FUNCTIONS (None: it can)."""
    parameter, default, negative_ok = _PATH_FUNCTIONS[name]
    weight = bound.get(parameter, default) if parameter else None
    if negative_ok == "method":
        method = bound.get("method")
        if name == "average_shortest_path_length":
            method = method or ("unweighted" if weight is None else "dijkstra")
            if method == "unweighted":
                weight = None
            elif method not in ("dijkstra", "bellman-ford"):
                return f"method {method!r}"
        elif method is None:
            method = "dijkstra"
        if method not in ("dijkstra", "bellman-ford"):
            return f"method {method!r}"
        negative_ok = method == "bellman-ford"
    problem = _weight_key_problem(weight)
    if problem:
        return problem
    if weight is None:
        return None
    return _nx_paths.weight_problem(_call_weights(G, weight), negative_ok)


_IMPLEMENTED = {f.__name__: f for f in (floyd_warshall_numpy, floyd_warshall, closeness_centrality,
                                        harmonic_centrality, eccentricity, diameter, radius)}
_IMPLEMENTED.update({name: getattr(_nx_paths, name) for name in _PATH_FUNCTIONS})

# Betweenness (_nx_betweenness.py): the parameter naming the weight is "weight"
# (default None: networkx's BFS).
_BETWEENNESS = ("betweenness_centrality", "edge_betweenness_centrality")
betweenness_centrality = _nx_betweenness.betweenness_centrality
edge_betweenness_centrality = _nx_betweenness.edge_betweenness_centrality
__all__ += list(_BETWEENNESS)
_IMPLEMENTED.update({name: getattr(_nx_betweenness, name) for name in _BETWEENNESS})


def _betweenness_call_problem(name, G, bound):
    weight = bound.get("weight")
    problem = _weight_key_problem(weight)
    if problem:
        return problem
    multigraph = G.is_multigraph()
    if name == "edge_betweenness_centrality":
        if bound.get("k") is not None:
            return "k given (networkx's own sample of edges' sources)"
        if multigraph:
            return "a multigraph (networkx's keys per parallel edge)"
    if weight is None:
        return None
    return _nx_betweenness.weights_problem(_call_weights(G, weight), True)


_SIGNATURES = {name: inspect.signature(f) for name, f in _IMPLEMENTED.items()}


def _bound_arguments(name, args, kwargs):
    """The arguments of a call of `name` by parameter name (None: not one ocl_sp takes)."""
    try:
        return _SIGNATURES[name].bind(*args, **kwargs).arguments
    except (KeyError, TypeError):
        return None


def _search_call_problem(name, G, bound):
    """What keeps ocl_sp from one of the search-based functions besides the weights."""
    if len(G) == 0:
        return "an empty graph"
    if name == "eccentricity" and bound.get("sp") is not None:
        return "precomputed path lengths (sp)"
    if name in ("diameter", "radius") and bound.get("e") is not None:
        return "precomputed eccentricities (e)"
    graph = G.graph if isinstance(G, OclSpGraph) else G
    if name == "closeness_centrality" and bound.get("u") is not None:
        try:
            if bound["u"] not in graph:
                return "u is not a node of G"
        except TypeError:
            return "u is not a node of G"
    if name == "harmonic_centrality" and _nx_version() >= (3, 4):
        try:
            nb, src = _harmonic_sets(graph, bound.get("nbunch"), bound.get("sources"))
        except Exception:  # networkx's own code raises its error
            return "invalid nbunch or sources"
        if len(nb) < len(src):
            return "networkx >= 3.4 searches from the smaller nbunch (its own order of sums)"
    return None


def _cannot_run(name, args, kwargs):
    """Why the backend cannot run `name` with these arguments exactly (None: it can)."""
    bound = _bound_arguments(name, args, kwargs)
    if bound is None:
        return f"ocl_sp does not implement {name} with these arguments"
    G = bound["G"]
    if name in _PATH_FUNCTIONS:
        return _path_call_problem(name, G, bound)
    if name in _BETWEENNESS:
        return _betweenness_call_problem(name, G, bound)
    parameter, default = _WEIGHT_PARAMETER[name]
    weight = bound.get(parameter, default)
    problem = _weight_key_problem(weight)
    if problem:
        return problem
    if name in _SEARCHES:
        problem = _search_call_problem(name, G, bound)
        if problem:
            return problem
        if weight is None:
            return None
        if isinstance(G, OclSpGraph):
            return _search_weight_problem(_dijkstra_weights(G, weight))
        return _search_weight_problem(_nx_weights(G, weight))
    if isinstance(G, OclSpGraph):
        w = G.weights(weight)
    elif weight is None:
        return None
    else:
        w = _nx_weights(G, weight, default=1.0)
    return _weight_problem(w, name)


class BackendInterface:
    """networkx's backend protocol for ocl_sp (entry point ``networkx.backends``)."""

    Graph = OclSpGraph
    floyd_warshall_numpy = staticmethod(floyd_warshall_numpy)
    floyd_warshall = staticmethod(floyd_warshall)
    closeness_centrality = staticmethod(closeness_centrality)
    harmonic_centrality = staticmethod(harmonic_centrality)
    eccentricity = staticmethod(eccentricity)
    diameter = staticmethod(diameter)
    radius = staticmethod(radius)
    for _name in _PATH_FUNCTIONS:
        locals()[_name] = staticmethod(getattr(_nx_paths, _name))
    del _name
    betweenness_centrality = staticmethod(_nx_betweenness.betweenness_centrality)
    edge_betweenness_centrality = staticmethod(_nx_betweenness.edge_betweenness_centrality)

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None,
                        graph_name=None):
        """The OclSpGraph of networkx graph G (weights are read from G's edge data
        when an algorithm first asks for an attribute, so every attribute is kept)."""
        return _as_backend_graph(G)

    @staticmethod
    def convert_to_nx(result, *, name=None):
        """Results are networkx's types already; an OclSpGraph gives its networkx graph."""
        return result.graph if isinstance(result, OclSpGraph) else result

    @staticmethod
    def can_run(name, args, kwargs):
        """True when ocl_sp gives networkx's exact result for this call (see the module
        doc); the reason for False is logged at DEBUG level."""
        problem = _cannot_run(name, args, kwargs)
        if problem:
            _log.debug("ocl_sp cannot run %s: %s", name, problem)
        return problem is None

    @staticmethod
    def should_run(name, args, kwargs):
        """Whether automatic dispatch should convert to ocl_sp: graphs of at least
        ``config.min_nodes`` nodes (below that networkx's own loop is faster)."""
        bound = _bound_arguments(name, args, kwargs)
        return bound is not None and len(bound["G"]) >= config.min_nodes


def info():
    """The ``networkx.backend_info`` entry point: what networkx shows about ocl_sp."""
    docs = {
        "floyd_warshall_numpy": (
            "Computed by ocl_sp (OpenCL, OpenMP or serial: ocl_sp.networkx_backend.config) "
            "for integer weights, exactly; non-integer weights, weight functions, negative "
            "cycles and path lengths beyond ocl_sp's int32 rule run networkx's own code."),
        "floyd_warshall": (
            "Computed by ocl_sp for integer weights, exactly (dict of dicts as networkx); "
            "non-integer weights, weight functions, negative self-loops, negative cycles "
            "and path lengths beyond ocl_sp's int32 rule run networkx's own code."),
    }
    searches = (
        "Computed by ocl_sp's multi-source engine (OpenCL, OpenMP or serial) for "
        "non-negative integer weights (or none), exactly: networkx's results bit for bit. "
        "Float or negative weights, weight functions and path lengths beyond ocl_sp's int32 "
        "rule run networkx's own code.")
    docs.update({
        "closeness_centrality": searches,
        "harmonic_centrality": searches + " On networkx >= 3.4, calls whose nbunch is "
        "smaller than sources run networkx's own code too.",
        "eccentricity": searches + " So does a given sp.",
        "diameter": searches + " So does a given e.",
        "radius": searches + " So does a given e.",
    })
    paths = (
        "Computed from rows of ocl_sp's multi-source engine (OpenCL, OpenMP or serial): "
        "integer weights exactly (int32, int64 beyond its range), other finite real "
        "weights in float64 (networkx's sums); paths from the engine's predecessors (a "
        "shortest path; on ties possibly another than networkx's). Weight functions, "
        "non-numeric or non-finite weights, negative weights for Dijkstra, negative "
        "cycles and errors (missing nodes, no path) run networkx's own code.")
    docs.update({name: paths for name in _PATH_FUNCTIONS})
    between = (
        "Exact Brandes' algorithm on the rows of ocl_sp's multi-source engine (OpenCL, "
        "OpenMP or serial; every backend the same bits), networkx's normalisation; k samples "
        "networkx's own nodes for the seed. Weight functions, non-numeric, non-finite, "
        "negative or zero weights run networkx's own code.")
    docs["betweenness_centrality"] = between
    docs["edge_betweenness_centrality"] = between + " So do multigraphs and k."
    return {
        "backend_name": "ocl_sp",
        "project": "ocl_sp",
        "package": "ocl_sp",
        "short_summary": "All-pairs shortest paths on OpenCL devices, OpenMP or serial CPU.",
        "functions": {name: {"additional_docs": doc, "extra_docstring": doc}
                      for name, doc in docs.items()},
    }
