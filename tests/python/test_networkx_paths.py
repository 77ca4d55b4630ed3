"""ocl_sp.networkx_backend's shortest-path functions (Dijkstra, BFS lengths,
Bellman-Ford, Johnson, the generic shortest_path(_length), average length)
against networkx's own: directed and undirected, integer / float / zero weights,
ties, disconnected graphs, multigraphs, missing weights; generators stay
generators; networkx's errors and fallbacks. Lengths are compared exactly (integer
weights are exact; float64 sums are networkx's own sums), paths are checked to be
shortest paths of the graph (on ties networkx may pick another one)."""

import inspect
import math

import networkx as nx
import numpy as np
import pytest

import ocl_sp
from ocl_sp import networkx_backend as nb
from test_networkx_backend import BI, on, random_graph, solved_by_ocl_sp  # noqa: F401


def float_graph(n, p, seed, directed=True, zeros=False, isolated=0, multigraph=False):
    """random_graph with float weights (non-integral; some 0.0 with `zeros`)."""
    G = random_graph(n, p, seed, directed=directed, isolated=isolated, multigraph=multigraph)
    rng = np.random.default_rng(seed + 1000)
    for e in (G.edges(keys=True, data=True) if multigraph else G.edges(data=True)):
        d = e[-1]
        d["weight"] = float(rng.choice([0.0, 0.1, 0.7])) if zeros and rng.random() < 0.3 \
            else float(rng.uniform(0.1, 3.0))
    return G


GRAPHS = {
    "int-directed": lambda: random_graph(40, 0.08, 1, isolated=3),
    "int-undirected": lambda: random_graph(40, 0.06, 2, directed=False, isolated=2),
    "ties": lambda: random_graph(40, 0.12, 3, low=1, high=2),  # many equal paths
    "zeros": lambda: random_graph(40, 0.08, 4, low=0, high=3),
    "missing": lambda: random_graph(35, 0.1, 5, missing=0.3),
    "multigraph": lambda: random_graph(30, 0.1, 6, multigraph=True, directed=False),
    "float-directed": lambda: float_graph(40, 0.08, 7, isolated=2),
    "float-zeros-undirected": lambda: float_graph(40, 0.07, 8, directed=False, zeros=True),
}


def edge_weight(G, u, v, weight="weight"):
    if weight is None:
        return 1
    if G.is_multigraph():
        return min(d.get(weight, 1) for d in G[u][v].values())
    return G[u][v].get(weight, 1)


def check_paths(G, paths, lengths, weight="weight", reverse=False):
    """Each path runs over edges of G from its first to its last node and weighs
    the expected length."""
    for target, path in paths.items():
        assert path[0 if reverse else -1] == target
        total = 0
        for a, b in zip(path, path[1:]):
            assert G.has_edge(a, b)
            total += edge_weight(G, a, b, weight)
        assert total == pytest.approx(lengths[target], rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("kind", sorted(GRAPHS))
def test_single_source_and_pairs(on, kind):
    G = GRAPHS[kind]()
    nodes = list(G)
    for s in nodes[:4]:
        want = nx.single_source_dijkstra_path_length(G, s)
        got, ran = solved_by_ocl_sp(BI.single_source_dijkstra_path_length, G, s)
        assert ran and got == want
        assert list(got.values()) == sorted(got.values())  # in networkx's settle order
        assert all(type(got[v]) is type(want[v]) for v in want)
        dist, paths = BI.single_source_dijkstra(G, s)
        assert dist == want and set(paths) == set(want)
        check_paths(G, paths, want)
        cut = sorted(want.values())[len(want) // 2]
        assert BI.single_source_dijkstra_path_length(G, s, cutoff=cut) == \
            nx.single_source_dijkstra_path_length(G, s, cutoff=cut)
        for t in nodes[-6:]:
            if t in want:
                assert BI.dijkstra_path_length(G, s, t) == want[t]
                length, path = BI.single_source_dijkstra(G, s, t)
                assert length == want[t]
                check_paths(G, {t: path}, want)
                assert BI.shortest_path_length(G, s, t, weight="weight") == want[t]
                check_paths(G, {t: BI.shortest_path(G, s, t, weight="weight")}, want)
            else:
                with pytest.raises(nx.NetworkXNoPath):
                    BI.dijkstra_path_length(G, s, t)
                with pytest.raises(nx.NetworkXNoPath):
                    BI.single_source_dijkstra(G, s, t)


@pytest.mark.parametrize("kind", ["int-directed", "float-directed"])
def test_source_is_target(on, kind):
    """From a node to itself: length int 0 (float weights too) and path [s], as
    networkx returns them, through every function that takes a source and a target."""
    G = GRAPHS[kind]()
    s = list(G)[0]
    for weight in (None, "weight"):
        for method in ("dijkstra", "bellman-ford"):
            want = nx.shortest_path_length(G, s, s, weight=weight, method=method)
            got = BI.shortest_path_length(G, s, s, weight=weight, method=method)
            assert (got, type(got)) == (want, type(want)) == (0, int)
            assert BI.shortest_path(G, s, s, weight=weight, method=method) == [s]
    got = BI.dijkstra_path_length(G, s, s)
    assert (got, type(got)) == (0, int)
    for got in (BI.single_source_dijkstra(G, s, s), BI.multi_source_dijkstra(G, [s], s)):
        assert got == (0, [s]) and type(got[0]) is int


@pytest.mark.parametrize("kind", sorted(GRAPHS))
def test_all_pairs(on, kind):
    G = GRAPHS[kind]()
    gen = BI.all_pairs_dijkstra_path_length(G)
    assert inspect.isgenerator(gen)
    want = dict(nx.all_pairs_dijkstra_path_length(G))
    assert dict(gen) == want
    got = dict(BI.all_pairs_dijkstra(G))
    assert {u: d for u, (d, _) in got.items()} == want
    for u, (d, paths) in got.items():
        check_paths(G, paths, d)
    assert dict(BI.shortest_path_length(G, weight="weight")) == want
    gen = BI.all_pairs_shortest_path_length(G)
    assert inspect.isgenerator(gen)
    assert dict(gen) == dict(nx.all_pairs_shortest_path_length(G))
    assert dict(BI.all_pairs_shortest_path_length(G, cutoff=2)) == \
        dict(nx.all_pairs_shortest_path_length(G, cutoff=2))
    assert dict(BI.all_pairs_bellman_ford_path_length(G)) == \
        dict(nx.all_pairs_bellman_ford_path_length(G))
    hops = dict(nx.all_pairs_shortest_path_length(G))
    every = BI.shortest_path(G)  # networkx < 3.5: a dict; from 3.5 an iterator
    assert isinstance(every, dict) == (nb._nx_version() < (3, 5))
    for u, paths in dict(every).items():  # unweighted: a BFS path
        check_paths(G, paths, hops[u], weight=None)


@pytest.mark.parametrize("kind", ["int-directed", "float-directed", "multigraph"])
def test_unweighted_and_target_only(on, kind):
    G = GRAPHS[kind]()
    s, t = list(G)[0], list(G)[5]
    assert BI.single_source_shortest_path_length(G, s) == \
        nx.single_source_shortest_path_length(G, s)
    assert BI.single_source_shortest_path_length(G, s, cutoff=1) == \
        nx.single_source_shortest_path_length(G, s, cutoff=1)
    assert BI.shortest_path_length(G, s) == nx.shortest_path_length(G, s)
    for weight in (None, "weight"):
        want = nx.shortest_path_length(G, target=t, weight=weight)
        assert BI.shortest_path_length(G, target=t, weight=weight) == want
        paths = BI.shortest_path(G, target=t, weight=weight)  # from each node to t
        assert set(paths) == set(want) and all(p[-1] == t for p in paths.values())
        check_paths(G, paths, want, weight=weight, reverse=True)


@pytest.mark.parametrize("kind", ["int-directed", "ties", "float-zeros-undirected"])
def test_multi_source(on, kind):
    G = GRAPHS[kind]()
    sources = list(G)[2:6]
    want = nx.multi_source_dijkstra_path_length(G, sources)
    got, ran = solved_by_ocl_sp(BI.multi_source_dijkstra_path_length, G, sources)
    assert ran and got == want
    dist, paths = BI.multi_source_dijkstra(G, set(sources))
    assert dist == want
    for v, path in paths.items():
        assert path[0] in sources
    check_paths(G, paths, want)
    t = next(v for v in want if v not in sources)
    length, path = BI.multi_source_dijkstra(G, sources, t)
    assert length == want[t] and path[0] in sources
    assert BI.multi_source_dijkstra(G, sources, sources[1]) == (0, [sources[1]])
    cut = sorted(want.values())[len(want) // 2]
    assert BI.multi_source_dijkstra_path_length(G, sources, cutoff=cut) == \
        nx.multi_source_dijkstra_path_length(G, sources, cutoff=cut)


@pytest.mark.parametrize("directed", [True, False])
def test_bellman_ford_and_johnson_negative(on, directed):
    G = random_graph(30, 0.1, 9, negative=True) if directed else random_graph(30, 0.1, 9, directed=False)
    assert not directed or any(d["weight"] < 0 for _, _, d in G.edges(data=True))
    gen, ran = solved_by_ocl_sp(BI.all_pairs_bellman_ford_path_length, G)
    assert ran and inspect.isgenerator(gen)
    want = dict(nx.all_pairs_bellman_ford_path_length(G))
    assert dict(gen) == want
    got, ran = solved_by_ocl_sp(BI.johnson, G)
    assert ran
    assert got.keys() == nx.johnson(G).keys()
    for u, paths in got.items():
        assert set(paths) == set(want[u])
        check_paths(G, paths, want[u])
    s = list(G)[0]
    assert BI.shortest_path_length(G, s, method="bellman-ford", weight="weight") == \
        nx.shortest_path_length(G, s, method="bellman-ford", weight="weight")


def test_negative_cycle_raises_as_networkx(on):
    G = random_graph(15, 0.2, 10)
    u, v = list(G.edges())[0]
    G[u][v]["weight"] = -50
    G.add_edge(v, u, weight=1)
    gen = BI.all_pairs_bellman_ford_path_length(G)
    with pytest.raises(nx.NetworkXUnbounded):
        dict(gen)
    with pytest.raises(nx.NetworkXUnbounded):
        BI.johnson(G)
    G.add_edge("v1", "v1", weight=-1)  # the engine ignores loops; networkx: a cycle
    assert not BI.can_run("all_pairs_bellman_ford_path_length", (G,), {})


def test_average_shortest_path_length(on):
    G = random_graph(30, 0.3, 11, directed=False)
    assert nx.is_connected(G)
    for kw in ({}, {"weight": "weight"}, {"weight": "weight", "method": "bellman-ford"}):
        got, ran = solved_by_ocl_sp(BI.average_shortest_path_length, G, **kw)
        assert ran and got == nx.average_shortest_path_length(G, **kw)
    F = float_graph(30, 0.3, 12)
    assert nx.is_strongly_connected(F)
    got, ran = solved_by_ocl_sp(BI.average_shortest_path_length, F, weight="weight")
    assert ran and math.isclose(got, nx.average_shortest_path_length(F, weight="weight"),
                                rel_tol=1e-14)
    D = random_graph(20, 0.1, 13, directed=False, isolated=2)
    with pytest.raises(nx.NetworkXError, match="not connected"):
        BI.average_shortest_path_length(D)
    with pytest.raises(nx.NetworkXPointlessConcept):
        BI.average_shortest_path_length(nx.Graph())
    assert BI.average_shortest_path_length(nx.path_graph(1)) == 0


def test_errors_as_networkx(on):
    G = random_graph(10, 0.3, 14)
    for f, args in [("single_source_dijkstra_path_length", (G, "nope")),
                    ("single_source_dijkstra", (G, "nope")),
                    ("dijkstra_path_length", (G, "v0", "nope")),
                    ("multi_source_dijkstra_path_length", (G, ["v0", "nope"])),
                    ("single_source_shortest_path_length", (G, "nope")),
                    ("shortest_path_length", (G, "nope")),
                    ("shortest_path", (G, "v0", "nope"))]:
        with pytest.raises(nx.NetworkXException) as want:
            getattr(nx, f)(*args)
        with pytest.raises(type(want.value), match=str(want.value)):
            getattr(BI, f)(*args)
    with pytest.raises(ValueError, match="sources must not be empty"):
        BI.multi_source_dijkstra_path_length(G, [])
    with pytest.raises(ValueError, match="method not supported"):
        BI.shortest_path_length(G, "v0", weight="weight", method="nope")
    U = nx.path_graph(4)
    with pytest.raises(nx.NetworkXError, match="not weighted"):
        BI.johnson(U)


def test_fallbacks(on):
    G = random_graph(20, 0.2, 15)
    u, v = list(G.edges())[0]
    G[u][v]["weight"] = -3
    # Dijkstra with a negative weight: networkx's own code (its result or its error)
    assert not BI.can_run("single_source_dijkstra_path_length", (G, "v0"), {})
    assert BI.can_run("all_pairs_bellman_ford_path_length", (G,), {})
    assert BI.can_run("shortest_path_length", (G,), {"weight": "weight", "method": "bellman-ford"})
    assert not BI.can_run("shortest_path_length", (G,), {"weight": "weight"})
    assert BI.can_run("shortest_path_length", (G,), {})  # unweighted: weights unused
    assert not BI.can_run("all_pairs_dijkstra_path_length", (G,), {"weight": lambda a, b, d: 1})
    G[u][v]["weight"] = "heavy"
    assert not BI.can_run("all_pairs_dijkstra_path_length", (G,), {})
    G[u][v]["weight"] = float("inf")
    assert not BI.can_run("all_pairs_dijkstra_path_length", (G,), {})
    assert not BI.can_run("average_shortest_path_length", (G,), {"method": "floyd-warshall"})
    # what can_run lets through but the engine cannot: networkx's own answer
    G[u][v]["weight"] = 2**28
    P = nx.path_graph(8, create_using=nx.DiGraph)
    nx.set_edge_attributes(P, 2**28, "weight")  # beyond int32: the engine runs int64
    got, ran = solved_by_ocl_sp(BI.single_source_dijkstra_path_length, P, 0)
    assert ran and got == nx.single_source_dijkstra_path_length(P, 0)
    assert got[7] == 7 * 2**28 and type(got[7]) is int
    assert ocl_sp.last_report().dtype == "int64"
    nx.set_edge_attributes(P, 2**61, "weight")  # beyond int64's rule: networkx's own ints
    got, ran = solved_by_ocl_sp(BI.single_source_dijkstra_path_length, P, 0)
    assert not ran and got == nx.single_source_dijkstra_path_length(P, 0) and got[7] == 7 * 2**61


def test_config_backend_reported(on):
    G = random_graph(20, 0.2, 16)
    _, ran = solved_by_ocl_sp(lambda: dict(BI.all_pairs_dijkstra_path_length(G)))
    assert ran and ocl_sp.last_report().backend == on
    assert nb.config.backend == on
