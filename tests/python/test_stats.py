"""ocl_sp.stats(): per-vertex figures equal networkx's closeness_centrality
(wf_improved), harmonic_centrality, reach and eccentricity from Dijkstra, and the
graph's diameter / radius / reachable pairs / average shortest path length, on
directed, undirected, disconnected and float-weighted graphs."""

import math

import networkx as nx
import numpy as np
import pytest

import ocl_sp


def _graph(kind):
    if kind == "directed":
        g = nx.gnp_random_graph(40, 0.07, seed=3, directed=True)
    elif kind == "undirected":
        g = nx.connected_watts_strogatz_graph(36, 4, 0.3, seed=5)
    elif kind == "disconnected":
        g = nx.disjoint_union(nx.path_graph(10), nx.cycle_graph(7))
        g.add_nodes_from(range(17, 21))
    else:  # floats
        g = nx.gnp_random_graph(30, 0.1, seed=8, directed=True)
    for k, (u, v) in enumerate(g.edges()):
        g[u][v]["weight"] = (k % 37 + 1) / 8 if kind == "floats" else (u * 7 + v) % 9 + 1
    return g


@pytest.mark.parametrize("kind", ["directed", "undirected", "disconnected", "floats"])
@pytest.mark.parametrize("backend", ["serial", "openmp"])
def test_stats_equal_networkx(kind, backend):
    g = _graph(kind)
    n = g.number_of_nodes()
    a = nx.to_scipy_sparse_array(g, nodelist=range(n), weight="weight")
    s = ocl_sp.stats(a, directed=g.is_directed(), backend=backend)
    clo = nx.closeness_centrality(g, distance="weight")
    har = nx.harmonic_centrality(g, distance="weight")
    assert s["vertex"].tolist() == list(range(n))
    ecc, pairs, total = [], 0, 0.0
    for v in range(n):
        d = nx.single_source_dijkstra_path_length(g, v, weight="weight")
        ecc.append(max(d.values()))
        pairs += len(d) - 1
        total += sum(d.values())
        assert s["reach"][v] == len(d)
        assert s["eccentricity"][v] == ecc[-1]
        assert math.isclose(s["closeness"][v], clo[v], rel_tol=1e-12, abs_tol=1e-15)
        assert math.isclose(s["harmonic"][v], har[v], rel_tol=1e-12, abs_tol=1e-15)
    assert s["diameter"] == max(ecc) and s["radius"] == min(ecc)
    assert s["reachable_pairs"] == pairs
    assert math.isclose(s["average_shortest_path_length"], total / pairs, rel_tol=1e-12)
    if kind == "undirected":
        assert math.isclose(s["average_shortest_path_length"],
                            nx.average_shortest_path_length(g, weight="weight"), rel_tol=1e-12)


def test_stats_refuses_unknown_method_and_handles_empty():
    with pytest.raises(ValueError):
        ocl_sp.stats(np.zeros((3, 3)), method="nope")
    e = ocl_sp.stats(np.zeros((0, 0)))
    assert e["reach"].shape == (0,) and e["reachable_pairs"] == 0


@pytest.mark.parametrize("kind", ["directed", "disconnected", "floats"])
def test_stats_indices_are_the_lines_of_full_stats(kind):
    # indices (order kept, repeats allowed): the figures full stats gives those
    # vertices (integer weights: the same values; floats: within rounding, the
    # reversed graph's distances), the summary over the distinct sources.
    g = _graph(kind)
    n = g.number_of_nodes()
    a = nx.to_scipy_sparse_array(g, nodelist=range(n), weight="weight")
    full = ocl_sp.stats(a, directed=g.is_directed(), backend="openmp")
    ids = [n - 1, 3, 0, 3, 5]
    s = ocl_sp.stats(a, directed=g.is_directed(), backend="serial", indices=ids)
    assert s["vertex"].tolist() == ids
    assert s["reach"].tolist() == full["reach"][ids].tolist()
    for k in ("eccentricity", "closeness", "harmonic"):
        if kind == "floats":
            assert np.allclose(s[k], full[k][ids], rtol=1e-12, atol=0)
        else:
            assert s[k].tolist() == full[k][ids].tolist()
    distinct = [n - 1, 3, 0, 5]
    assert s["sources"] == 4 and "sources" not in full
    assert s["diameter"] == max(full["eccentricity"][distinct])
    assert s["radius"] == min(full["eccentricity"][distinct])
    assert s["reachable_pairs"] == sum(full["reach"][distinct] - 1)
    with pytest.raises(ValueError):
        ocl_sp.stats(a, method="FW", indices=ids)
    with pytest.raises(ValueError):
        ocl_sp.stats(a, indices=[n])
    with pytest.raises(ValueError):
        ocl_sp.stats(a, indices=[])
    with pytest.raises(ValueError, match="out of range"):  # the empty graph has no source 0
        ocl_sp.stats(np.zeros((0, 0)), indices=[0])
