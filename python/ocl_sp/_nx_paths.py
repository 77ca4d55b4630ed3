"""networkx's shortest-path functions on ocl_sp's multi-source engine (part of the
networkx backend, ocl_sp.networkx_backend).

Every function here computes the rows d(s, *) of its sources with the engine
(``_api._rows``: int32 or int64 for integer weights, exact; float64 for other
real weights, whose sums are networkx's own: every engine computes the least
fixed point of d(v) = min over edges of d(u) + w(u, v) in float64, the value
networkx's Dijkstra computes) and builds networkx's result from them: dicts
ordered by distance (networkx's order of settled nodes, ties by node order), paths
from the engine's predecessors (shortest paths of the graph; where several are
shortest, possibly another one than networkx's), generators where networkx gives
generators (the all-pairs length rows in G's node order, see all_pairs_lengths).
Everything a row cannot answer as networkx does (a node not in G, an
empty source list, no path to a target, a negative cycle, a path-length rule of
the engine) runs networkx's own implementation on the original graph, which
returns its result or raises its error.
"""

import logging
import math

import numpy as np

from . import _api

_log = logging.getLogger("ocl_sp.networkx_backend")

_ROW_VALUES = 1 << 24  # values per block of rows (128 MiB of float64, with predecessors 192)


def _nx():
    import networkx as nx

    return nx


def networkx_result(name, g, *args, **kwargs):
    """networkx's own `name` on the original graph of g (an OclSpGraph)."""
    f = getattr(_nx(), name)
    f = getattr(f, "orig_func", f)
    return f(g.graph, *args, **kwargs)


def weight_problem(w, negative_ok):
    """Why the engine cannot give networkx's result for weights w (None: it can)."""
    if w.data is None:
        return "a weight is not a real number"
    if w.data.size and not np.all(np.isfinite(w.data)):
        return "a weight is not finite"
    if not negative_ok and w.data.size and w.data.min() < 0:
        return "a negative weight (networkx's Dijkstra refuses or errs)"
    if negative_ok and w.negative_loop:
        return "a negative self-loop (a negative cycle for networkx)"
    return None


class Search:
    """The weights of one call as the engine solves them: `mode` (int32, int64 or
    float64), `ints` (results as Python ints: every weight an int, as networkx's
    sums then are), and rows(...) of any sources."""

    def __init__(self, g, w, config):
        self.g, self.w, self.config = g, w, config
        self.mode = "int32" if w.integral else "float64"
        self.ints = w.ints

    def _call(self, indices, preds, reverse=False, min_only=False):
        g = self.g
        row, col = (g.col, g.row) if reverse else (g.row, g.col)
        edges = _api._EdgeList(row, col, self.w.data, len(g))
        cfg = self.config
        while True:
            try:
                dist, pred, _, rep = _api._rows(
                    edges, "sssp", self.mode, True, directed=g.directed,
                    return_predecessors=preds, indices=indices, backend=cfg.backend,
                    device=cfg.device, params=cfg.params, min_only=min_only)
            except ValueError as e:
                if self.mode == "int32" and "int32" in str(e):
                    self.mode = "int64"  # path lengths beyond the int32 rule: exact in int64
                    continue
                if self.mode == "int64" and "int64" in str(e):
                    return None  # beyond int64 too: networkx's Python integers
                raise
            if self.mode == "float64" and rep.get("dtype") not in (None, "float64"):
                return None  # a device without doubles: not networkx's sums
            return dist, pred

    def inf(self):
        return {"int32": _api.INT32_INF, "int64": _api.INT64_INF}.get(self.mode, np.inf)

    def blocks(self, positions, preds=False, reverse=False):
        """(positions of the block, distance rows, predecessor rows or None) for each
        block of `positions`, the first computed now; None where the engine cannot
        (networkx's NegativeCycle / a device without doubles: the caller runs networkx)."""
        n = len(self.g)
        block = max(1, _ROW_VALUES // max(n, 1))
        positions = list(positions)
        try:
            first = self._call(positions[:block], preds, reverse)
        except _api.NegativeCycleError:
            _log.debug("ocl_sp: negative cycle; networkx's own implementation runs")
            return None
        if first is None:
            return None

        def gen():
            yield positions[:block], first[0], first[1]
            for k in range(block, len(positions), block):
                part = positions[k:k + block]
                d, p = self._call(part, preds, reverse)
                yield part, d, p
        return gen()

    def nearest(self, positions, preds=False):
        """The row of distances from the nearest of `positions` (and its predecessors;
        -9999 at the sources themselves); None where the engine cannot."""
        try:
            return self._call(list(positions), preds, min_only=True)
        except _api.NegativeCycleError:
            return None

    def finite(self, d, cutoff=None):
        mask = d != self.inf()
        if cutoff is not None:
            mask &= d <= cutoff
        return mask

    def ordered(self, d, cutoff=None):
        """Positions reached in row d (within cutoff), ordered by distance (ties by
        position), and their distances as Python numbers."""
        idx = np.flatnonzero(self.finite(d, cutoff))
        vals = d[idx]
        order = np.argsort(vals, kind="stable")
        idx, vals = idx[order], vals[order]
        if not self.ints:
            vals = vals.astype(np.float64)
        return idx, vals.tolist()

    def lengths(self, d, cutoff=None, roots=()):
        """networkx's {node: distance} of row d."""
        idx, vals = self.ordered(d, cutoff)
        return self.dist_dict(idx, vals, roots)

    def lengths_in_node_order(self, d, cutoff=None, roots=()):
        """{node: distance} of row d in G's node order (the all-pairs rows: no sort,
        the keys straight from G's node list where every node is reached)."""
        mask = self.finite(d, cutoff)
        if mask.all():
            keys = self.g.nodes
        else:
            idx = np.flatnonzero(mask)
            keys = self.g.node_array()[idx].tolist()
            d = d[idx]
        vals = (d if self.ints else d.astype(np.float64)).tolist()
        return self._roots_at_zero(dict(zip(keys, vals)), roots)

    def dist_dict(self, idx, vals, roots=()):
        """{node: distance}; the roots (sources) at int 0, as networkx starts them
        whatever the weights' type."""
        return self._roots_at_zero(dict(zip(self.g.node_array()[idx].tolist(), vals)), roots)

    def _roots_at_zero(self, out, roots):
        """out with the roots' distances (float 0.0 from a float row) at int 0, as
        networkx starts them whatever the weights' type."""
        if not self.ints:
            nodes = self.g.nodes
            for r in roots:
                if nodes[r] in out:
                    out[nodes[r]] = 0
        return out


def _paths(g, idx, pred, roots):
    """{node: path} for the positions idx (in order) from predecessor row `pred`
    (-9999: a root, whose path is [root])."""
    nodes = g.nodes
    built = {}
    out = {}
    pred = pred.tolist() if isinstance(pred, np.ndarray) else pred
    for v in idx.tolist():
        if v not in built:
            chain = []
            k = v
            while k not in built:
                p = pred[k]
                if p < 0:
                    built[k] = [nodes[k]]
                    break
                chain.append(k)
                k = p
            for c in reversed(chain):
                built[c] = built[pred[c]] + [nodes[c]]
        out[nodes[v]] = built[v]
    for r in roots:
        out.setdefault(nodes[r], [nodes[r]])
    return out


def _cutoff_ok(cutoff):
    return cutoff is None or (isinstance(cutoff, (int, float)) and not isinstance(cutoff, bool))


def _in_graph(g, *nodes):
    try:
        return all(v in g.index for v in nodes)
    except TypeError:
        return False


# --- single source / multi-source ---------------------------------------------------

def single_source_lengths(name, s, g, source, cutoff, *nx_args):
    if not _in_graph(g, source) or not _cutoff_ok(cutoff):
        return networkx_result(name, g, source, *nx_args)
    rows = s.blocks([g.index[source]])
    if rows is None:
        return networkx_result(name, g, source, *nx_args)
    _, d, _ = next(rows)
    return s.lengths(d[0], cutoff, [g.index[source]])


def single_source_paths(name, s, g, source, target, cutoff, *nx_args):
    """networkx's single_source_dijkstra: (dist, paths), or (dist, path) to target."""
    if (not _in_graph(g, source) or not _cutoff_ok(cutoff)
            or (target is not None and not _in_graph(g, target))):
        return networkx_result(name, g, source, *nx_args)
    if target is not None and target == source:
        return (0, [source])
    rows = s.blocks([g.index[source]], preds=True)
    if rows is None:
        return networkx_result(name, g, source, *nx_args)
    _, d, p = next(rows)
    got = _dist_paths(s, g, d[0], p[0], [g.index[source]], target, cutoff)
    return networkx_result(name, g, source, *nx_args) if got is None else got


def multi_source(name, s, g, sources, target, cutoff, want_paths, *nx_args):
    try:
        sources = list(sources)
    except TypeError:
        return networkx_result(name, g, sources, *nx_args)
    if (not sources or not _in_graph(g, *sources) or not _cutoff_ok(cutoff)
            or (target is not None and not _in_graph(g, target))):
        return networkx_result(name, g, sources, *nx_args)
    if target is not None and target in sources:
        return (0, [target])
    positions = [g.index[v] for v in sources]
    got = s.nearest(positions, preds=want_paths)
    if got is None:
        return networkx_result(name, g, sources, *nx_args)
    d, p = got
    if not want_paths:
        return s.lengths(d, cutoff, positions)
    got = _dist_paths(s, g, d, p, positions, target, cutoff)
    return networkx_result(name, g, sources, *nx_args) if got is None else got


def _number(s, x):
    return int(x) if s.ints else float(x)


def _dist_paths(s, g, d, pred, roots, target, cutoff):
    """(dist, paths) of row d from the roots (positions), or (length, path) to target;
    None where target is not reached within cutoff (networkx's NetworkXNoPath)."""
    if target is not None:
        t = g.index[target]
        if not s.finite(d[t:t + 1], cutoff)[0]:
            return None
        return (_number(s, d[t]), _paths(g, np.array([t]), pred, roots)[target])
    idx, vals = s.ordered(d, cutoff)
    return s.dist_dict(idx, vals, roots), _paths(g, idx, pred, roots)


def _pair_row(s, g, source, target, preds):
    """(row from source, its predecessor row or None, target's position); None where
    the engine cannot or target is not reached (networkx's result then: its
    NetworkXNoPath)."""
    rows = s.blocks([g.index[source]], preds=preds)
    if rows is None:
        return None
    _, d, p = next(rows)
    t = g.index[target]
    if not s.finite(d[0][t:t + 1])[0]:
        return None
    return d[0], None if p is None else p[0], t


def pair_length(name, s, g, source, target, *nx_args):
    """networkx's dijkstra_path_length (and the other source-target lengths)."""
    if not _in_graph(g, source, target):
        return networkx_result(name, g, source, target, *nx_args)
    if source == target:
        return 0
    got = _pair_row(s, g, source, target, False)
    if got is None:
        return networkx_result(name, g, source, target, *nx_args)
    d, _, t = got
    return _number(s, d[t])


def pair_path(name, s, g, source, target, *nx_args):
    if not _in_graph(g, source, target):
        return networkx_result(name, g, source, target, *nx_args)
    if source == target:
        return [source]
    got = _pair_row(s, g, source, target, True)
    if got is None:
        return networkx_result(name, g, source, target, *nx_args)
    _, p, t = got
    return _paths(g, np.array([t]), p, [g.index[source]])[target]


def to_target(s, g, target, cutoff=None, want_paths=False):
    """{node: length to target} (or {node: path to target}) over the reversed graph,
    as networkx's shortest_path(_length) with only a target; None where target is
    not a node of G or the engine cannot (the caller returns networkx's result)."""
    if not _in_graph(g, target):
        return None
    rev = g.directed
    rows = s.blocks([g.index[target]], preds=want_paths, reverse=rev)
    if rows is None:
        return None
    _, d, p = next(rows)
    if not want_paths:
        return s.lengths(d[0], cutoff, [g.index[target]])
    idx, _ = s.ordered(d[0], cutoff)
    paths = _paths(g, idx, p[0], [g.index[target]])
    return {v: list(reversed(path)) for v, path in paths.items()}


# --- all pairs -------------------------------------------------------------------

def _every_source(s, g, preds, answer):
    """Generator of (node, answer(distance row, predecessor row or None, position))
    over every node in G's order, the rows computed a block at a time; None where
    the engine cannot (the caller returns networkx's result)."""
    rows = s.blocks(range(len(g)), preds=preds)
    if rows is None:
        return None

    def gen():
        nodes = g.nodes
        for part, d, pr in rows:
            for k, p in enumerate(part):
                yield nodes[p], answer(d[k], None if pr is None else pr[k], p)
    return gen()


def all_pairs_lengths(s, g, cutoff=None):
    """Generator of (node, {node: distance}) over every node in G's order, each dict
    in G's node order (networkx's are in the order its search settles nodes: the
    same dicts, compared as dicts; sorting every row would cost a third of the
    call); None where the engine cannot (the caller returns networkx's generator)."""
    return _every_source(s, g, False, lambda d, _, p: s.lengths_in_node_order(d, cutoff, (p,)))


def all_pairs_paths(s, g, cutoff=None, lengths=True):
    """Generator of (node, (dist, paths)) (lengths) or (node, paths)."""
    def answer(d, pred, p):
        idx, vals = s.ordered(d, cutoff)
        paths = _paths(g, idx, pred, [p])
        return (s.dist_dict(idx, vals, (p,)), paths) if lengths else paths
    return _every_source(s, g, True, answer)


def average_length(s, g):
    """networkx's average_shortest_path_length of a graph every node of which reaches
    every other (the caller checks); None where the engine cannot."""
    n = len(g)
    rows = s.blocks(range(n))
    if rows is None:
        return None
    if s.ints:
        total = 0
        for _, d, _ in rows:
            total += int(d.sum(dtype=np.int64))
        return total / (n * (n - 1))
    parts = []
    for _, d, _ in rows:
        parts.append(math.fsum(d.astype(np.float64).ravel().tolist()))
    return math.fsum(parts) / (n * (n - 1))


# --- the functions the backend dispatches (networkx's signatures) -------------------

def _backend():
    from . import networkx_backend

    return networkx_backend


def _search(G, weight, negative_ok=False):
    """(OclSpGraph, Search) for weight (None: every edge 1), or (g, None) where the
    weights keep the engine from networkx's result."""
    nb = _backend()
    g = nb._as_backend_graph(G)
    w = g.weights(weight, default=1)
    problem = nb._weight_key_problem(weight) or weight_problem(w, negative_ok)
    if problem:
        _log.debug("ocl_sp: %s; networkx's own implementation runs", problem)
        return g, None
    return g, Search(g, w, nb.config)


def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra_path_length on ocl_sp: {node: distance}."""
    g, s = _search(G, weight)
    if s is None:
        return networkx_result("single_source_dijkstra_path_length", g, source, cutoff, weight)
    return single_source_lengths("single_source_dijkstra_path_length", s, g, source, cutoff,
                                 cutoff, weight)


def single_source_dijkstra(G, source, target=None, cutoff=None, weight="weight"):
    """networkx.single_source_dijkstra on ocl_sp: (dist, paths), or (length, path)
    with a target."""
    g, s = _search(G, weight)
    args = (target, cutoff, weight)
    if s is None:
        return networkx_result("single_source_dijkstra", g, source, *args)
    return single_source_paths("single_source_dijkstra", s, g, source, target, cutoff, *args)


def multi_source_dijkstra_path_length(G, sources, cutoff=None, weight="weight"):
    """networkx.multi_source_dijkstra_path_length on ocl_sp: distance from the nearest
    source."""
    g, s = _search(G, weight)
    if s is None:
        return networkx_result("multi_source_dijkstra_path_length", g, sources, cutoff, weight)
    return multi_source("multi_source_dijkstra_path_length", s, g, sources, None, cutoff, False,
                        cutoff, weight)


def multi_source_dijkstra(G, sources, target=None, cutoff=None, weight="weight"):
    """networkx.multi_source_dijkstra on ocl_sp: (dist, paths) from the nearest source."""
    g, s = _search(G, weight)
    args = (target, cutoff, weight)
    if s is None:
        return networkx_result("multi_source_dijkstra", g, sources, *args)
    return multi_source("multi_source_dijkstra", s, g, sources, target, cutoff, True, *args)


def dijkstra_path_length(G, source, target, weight="weight"):
    """networkx.dijkstra_path_length on ocl_sp."""
    g, s = _search(G, weight)
    if s is None:
        return networkx_result("dijkstra_path_length", g, source, target, weight)
    return pair_length("dijkstra_path_length", s, g, source, target, weight)


def all_pairs_dijkstra_path_length(G, cutoff=None, weight="weight"):
    """networkx.all_pairs_dijkstra_path_length on ocl_sp: a generator of (node,
    {node: distance}), rows computed a block at a time."""
    g, s = _search(G, weight)
    rows = None if s is None or not _cutoff_ok(cutoff) else all_pairs_lengths(s, g, cutoff)
    if rows is None:
        return networkx_result("all_pairs_dijkstra_path_length", g, cutoff, weight)
    return rows


def all_pairs_dijkstra(G, cutoff=None, weight="weight"):
    """networkx.all_pairs_dijkstra on ocl_sp: a generator of (node, (dist, paths))."""
    g, s = _search(G, weight)
    rows = None if s is None or not _cutoff_ok(cutoff) else all_pairs_paths(s, g, cutoff)
    if rows is None:
        return networkx_result("all_pairs_dijkstra", g, cutoff, weight)
    return rows


def all_pairs_shortest_path_length(G, cutoff=None):
    """networkx.all_pairs_shortest_path_length on ocl_sp (every edge 1)."""
    g, s = _search(G, None)
    rows = None if not _cutoff_ok(cutoff) else all_pairs_lengths(s, g, cutoff)
    if rows is None:
        return networkx_result("all_pairs_shortest_path_length", g, cutoff)
    return rows


def single_source_shortest_path_length(G, source, cutoff=None):
    """networkx.single_source_shortest_path_length on ocl_sp (every edge 1)."""
    g, s = _search(G, None)
    return single_source_lengths("single_source_shortest_path_length", s, g, source, cutoff,
                                 cutoff)


def all_pairs_bellman_ford_path_length(G, weight="weight"):
    """networkx.all_pairs_bellman_ford_path_length on ocl_sp (negative weights too;
    a negative cycle: networkx's generator, which raises NetworkXUnbounded)."""
    g, s = _search(G, weight, negative_ok=True)
    rows = None if s is None else all_pairs_lengths(s, g)
    if rows is None:
        return networkx_result("all_pairs_bellman_ford_path_length", g, weight)
    return rows


def johnson(G, weight="weight"):
    """networkx.johnson on ocl_sp: {u: {v: path}} (negative weights too)."""
    g, s = _search(G, weight, negative_ok=True)
    if s is None or not _nx().is_weighted(g.graph, weight=weight):
        return networkx_result("johnson", g, weight)
    rows = all_pairs_paths(s, g, lengths=False)
    if rows is None:
        return networkx_result("johnson", g, weight)
    return dict(rows)


_METHODS = ("dijkstra", "bellman-ford")


def _method_search(G, weight, method):
    if method not in _METHODS:
        return _backend()._as_backend_graph(G), None
    if weight is None:
        return _search(G, None)
    return _search(G, weight, negative_ok=method == "bellman-ford")


def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
    """networkx.shortest_path_length on ocl_sp: every form (all pairs: a generator;
    one source or one target: a dict; both: a number)."""
    g, s = _method_search(G, weight, method)
    args = (source, target, weight, method)
    name = "shortest_path_length"
    if s is None:
        return networkx_result(name, g, *args)
    if source is None and target is None:
        rows = all_pairs_lengths(s, g)
        return networkx_result(name, g, *args) if rows is None else rows
    if source is None:
        got = to_target(s, g, target)
        return networkx_result(name, g, *args) if got is None else got
    if target is not None:
        return pair_length(name, s, g, source, target, *args[2:])
    return single_source_lengths(name, s, g, source, None, *args[1:])


def shortest_path(G, source=None, target=None, weight=None, method="dijkstra"):
    """networkx.shortest_path on ocl_sp: paths of the engine's predecessors (all pairs:
    a dict of dicts as networkx < 3.5 returns, an iterator of (node, paths) from 3.5)."""
    g, s = _method_search(G, weight, method)
    args = (source, target, weight, method)
    name = "shortest_path"
    if s is None:
        return networkx_result(name, g, *args)
    if source is None and target is None:
        rows = all_pairs_paths(s, g, lengths=False)
        if rows is None:
            return networkx_result(name, g, *args)
        return rows if _backend()._nx_version() >= (3, 5) else dict(rows)
    if source is None:
        got = to_target(s, g, target, want_paths=True)
        return networkx_result(name, g, *args) if got is None else got
    if target is not None:
        return pair_path(name, s, g, source, target, *args[2:])
    if not _in_graph(g, source):
        return networkx_result(name, g, *args)
    rows = s.blocks([g.index[source]], preds=True)
    if rows is None:
        return networkx_result(name, g, *args)
    _, d, p = next(rows)
    idx, _ = s.ordered(d[0])
    return _paths(g, idx, p[0], [g.index[source]])


def average_shortest_path_length(G, weight=None, method=None):
    """networkx.average_shortest_path_length on ocl_sp, for graphs where every node
    reaches every other (otherwise, and for the floyd-warshall methods, networkx's
    own code: its errors, and its sum over reachable pairs of a weakly connected
    digraph where its version does that)."""
    nx = _nx()
    m = method if method is not None else ("unweighted" if weight is None else "dijkstra")
    nb = _backend()
    g = nb._as_backend_graph(G)
    args = (weight, method)
    name = "average_shortest_path_length"
    if m not in ("unweighted", "dijkstra", "bellman-ford") or len(g) < 2:
        return networkx_result(name, g, *args)
    connected = (nx.is_strongly_connected(g.graph) if g.directed
                 else nx.is_connected(g.graph))
    if not connected:
        return networkx_result(name, g, *args)
    if m == "unweighted":
        g, s = _search(G, None)
    else:
        g, s = _search(G, weight, negative_ok=m == "bellman-ford")
    got = None if s is None else average_length(s, g)
    return networkx_result(name, g, *args) if got is None else got
