"""networkx's betweenness_centrality and edge_betweenness_centrality on ocl_sp's
multi-source engine (part of the networkx backend, ocl_sp.networkx_backend).

The engine solves the rows of the sources (every node, or networkx's own sample
of k nodes: the same ``seed.sample(list(G), k)`` networkx draws), the C++ side
(host/sparse/betweenness.hpp) counts shortest paths over the tight edges of each
row and accumulates the dependencies (networkx's arithmetic per source, the
sources' sums exact), and networkx's own _rescale (_rescale_e) of the running
version scales the sums. Integer weights run in int32 (int64 beyond), other finite
weights in float64; networkx's BFS (weight=None) is every edge 1.

networkx's own code runs (can_run False) for: weight functions, non-numeric or
non-finite weights, negative weights, zero weights (networkx's Dijkstra counts
paths through zero-weight edges in the order its heap settles nodes), multigraphs
for edge betweenness (its keys), edge betweenness with k; during the call, for a
device without float64 and for path counts beyond float64.
"""

import inspect
import logging

import numpy as np

from . import _api
from ._nx_paths import networkx_result, weight_problem

_log = logging.getLogger("ocl_sp.networkx_backend")


def _backend():
    from . import networkx_backend

    return networkx_backend


def weights_problem(w, weighted):
    """Why the engine cannot give networkx's betweenness for weights w (None: it can)."""
    if not weighted:
        return None
    problem = weight_problem(w, False)
    if problem:
        return problem
    if w.data.size and (w.data == 0).any():
        return "a zero weight (networkx counts paths over them in its heap's order)"
    return None


def _sums(g, w, sources, endpoints, edges):
    """Raw sums (vertex array, edge triple or None); None where the engine cannot."""
    cfg = _backend().config
    mode = "auto" if w.integral else "float64"
    edgelist = _api._EdgeList(g.row, g.col, w.data, len(g))
    try:
        vertex, edge, rep = _api._betweenness(
            edgelist, g.directed, False, sources, endpoints, edges, backend=cfg.backend,
            device=cfg.device, mode=mode, params=cfg.params)
    except (RuntimeError, ValueError) as e:  # tight zero-weight cycles (infinite path counts)
        _log.debug("ocl_sp: %s; networkx's own implementation runs", e)
        return None
    if not w.integral and rep.get("dtype") != "float64":
        return None  # a device without doubles: not networkx's sums
    return vertex, edge


def _rescale(result, n, normalized, directed, nodes, endpoints, edges):
    """networkx's own _rescale (or _rescale_e) of this networkx version on the raw
    sums: its scaling whatever the version (networkx 3.6 scales a sample's sources
    apart from the other nodes; 2.8 to 3.4 scale every node by n / k)."""
    from networkx.algorithms.centrality import betweenness as nxb

    k = None if nodes is None else len(nodes)
    f = nxb._rescale
    if "sampled_nodes" in inspect.signature(f).parameters:
        kw = {"normalized": normalized, "directed": directed, "sampled_nodes": nodes}
        if not edges:
            kw["endpoints"] = endpoints
        return f(result, n, **kw)
    if edges:
        return nxb._rescale_e(result, n, normalized=normalized, directed=directed, k=k)
    return f(result, n, normalized=normalized, directed=directed, k=k, endpoints=endpoints)


def _sample(g, k, seed):
    """networkx's sample of k nodes for this seed (its own random state)."""
    from networkx.utils import create_py_random_state

    return create_py_random_state(seed).sample(list(g.graph.nodes()), k)


def betweenness_centrality(G, k=None, normalized=True, weight=None, endpoints=False, seed=None):
    """networkx.betweenness_centrality on ocl_sp: {node: centrality}."""
    nb = _backend()
    g = nb._as_backend_graph(G)
    args = (k, normalized, weight, endpoints, seed)
    w = g.weights(weight, default=1)
    if nb._weight_key_problem(weight) or weights_problem(w, weight is not None) or len(g) == 0:
        return networkx_result("betweenness_centrality", g, *args)
    sources = nodes = None
    if k is not None:
        try:
            nodes = _sample(g, k, seed)
        except Exception:  # networkx's own error (k > n, bad seed)
            return networkx_result("betweenness_centrality", g, *args)
        sources = [g.index[v] for v in nodes]
    got = _sums(g, w, sources, endpoints, False)
    if got is None:
        return networkx_result("betweenness_centrality", g, *args)
    result = dict(zip(g.nodes, got[0].tolist()))
    return _rescale(result, len(g), normalized, g.directed, nodes, endpoints, False)


def edge_betweenness_centrality(G, k=None, normalized=True, weight=None, seed=None):
    """networkx.edge_betweenness_centrality on ocl_sp: {(u, v): centrality} over G's
    edges in G's order (an undirected edge's two directions under its key)."""
    nb = _backend()
    g = nb._as_backend_graph(G)
    args = (k, normalized, weight, seed)
    w = g.weights(weight, default=1)
    if (nb._weight_key_problem(weight) or weights_problem(w, weight is not None)
            or k is not None or g.multigraph or len(g) == 0):
        return networkx_result("edge_betweenness_centrality", g, *args)
    got = _sums(g, w, None, False, True)
    if got is None:
        return networkx_result("edge_betweenness_centrality", g, *args)
    src, dst, val = got[1]
    result = dict.fromkeys(g.graph.edges(), 0.0)
    index = g.index
    if g.directed:
        keys = {(index[u], index[v]): (u, v) for u, v in result}
    else:
        keys = {}
        for u, v in result:
            a, b = index[u], index[v]
            keys[(a, b) if a <= b else (b, a)] = (u, v)
    for a, b, x in zip(src.tolist(), dst.tolist(), val.tolist()):
        if x == 0.0:
            continue
        key = keys[(a, b) if g.directed or a <= b else (b, a)]
        result[key] += x
    return _rescale(result, len(g), normalized, g.directed, None, True, True)
