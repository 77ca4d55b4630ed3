"""Betweenness centrality: ocl_sp.betweenness and the networkx backend's
betweenness_centrality / edge_betweenness_centrality against networkx's own:
directed and undirected, unweighted, integer weights with ties (several shortest
paths: every one counts), float weights, disconnected graphs, normalized or not,
endpoints, networkx's k sample for a seed; every backend the same bits; what
runs networkx's own code (zero, negative, non-numeric weights, weight functions,
multigraph edges, edge k)."""

import random

import networkx as nx
import numpy as np
import pytest
import scipy.sparse as sp

import ocl_sp
from ocl_sp import networkx_backend as nb
from _support import BACKENDS
from test_networkx_backend import BI, on, random_graph, solved_by_ocl_sp  # noqa: F401
from test_networkx_paths import float_graph

GRAPHS = {
    "unweighted-directed": (lambda: random_graph(50, 0.08, 21, isolated=3), None),
    "unweighted-undirected": (lambda: random_graph(50, 0.06, 22, directed=False, isolated=2), None),
    "ties-directed": (lambda: random_graph(50, 0.1, 23, low=1, high=2), "weight"),
    "ties-undirected": (lambda: random_graph(50, 0.08, 24, directed=False, low=1, high=2),
                        "weight"),
    "missing": (lambda: random_graph(40, 0.1, 25, missing=0.3, low=2, high=4), "weight"),
    "float": (lambda: float_graph(50, 0.08, 26, directed=False), "weight"),
    "grid": (lambda: nx.grid_2d_graph(7, 9), None),  # many equal paths
}


def assert_close(got, want):
    assert list(got) == list(want)  # networkx's keys in its order
    for key in want:
        assert got[key] == pytest.approx(want[key], abs=1e-12, rel=1e-12), key
        assert type(got[key]) is float


@pytest.mark.parametrize("kind", sorted(GRAPHS))
def test_betweenness_equals_networkx(on, kind):
    make, weight = GRAPHS[kind]
    G = make()
    for normalized in (True, False):
        for endpoints in (False, True):
            want = nx.betweenness_centrality(G, normalized=normalized, weight=weight,
                                             endpoints=endpoints)
            got, ran = solved_by_ocl_sp(BI.betweenness_centrality, G, normalized=normalized,
                                        weight=weight, endpoints=endpoints)
            assert ran
            assert_close(got, want)
    assert max(want.values()) > 0
    want = nx.edge_betweenness_centrality(G, weight=weight)
    got, ran = solved_by_ocl_sp(BI.edge_betweenness_centrality, G, weight=weight)
    assert ran
    assert_close(got, want)
    assert_close(BI.edge_betweenness_centrality(G, normalized=False, weight=weight),
                 nx.edge_betweenness_centrality(G, normalized=False, weight=weight))


def test_ties_are_all_counted(on):
    # a 4-cycle: two shortest paths between opposite corners, each middle node on one
    G = nx.cycle_graph(4)
    got = BI.betweenness_centrality(G, normalized=False)
    assert got == {0: 0.5, 1: 0.5, 2: 0.5, 3: 0.5} == nx.betweenness_centrality(G, normalized=False)


@pytest.mark.parametrize("kind", ["ties-directed", "unweighted-undirected"])
def test_k_sample_is_networkx_sample(on, kind):
    make, weight = GRAPHS[kind]
    G = make()
    for seed in (1, 7):
        want = nx.betweenness_centrality(G, k=12, seed=seed, weight=weight)
        got, ran = solved_by_ocl_sp(BI.betweenness_centrality, G, k=12, seed=seed, weight=weight)
        assert ran
        assert_close(got, want)
    # a random.Random instance advances as networkx's own use of it
    r1, r2 = random.Random(5), random.Random(5)
    assert_close(BI.betweenness_centrality(G, k=9, seed=r1, weight=weight, endpoints=True),
                 nx.betweenness_centrality(G, k=9, seed=r2, weight=weight, endpoints=True))
    assert r1.random() == r2.random()


def test_every_backend_same_bits():
    G = random_graph(80, 0.06, 27, low=1, high=2, directed=False)
    A = nx.to_scipy_sparse_array(G, weight="weight", format="csr")
    results = {name: ocl_sp.betweenness(A, directed=False, **kw) for name, kw in BACKENDS.items()}
    first = results["serial"]
    for name, r in results.items():
        assert r.tobytes() == first.tobytes(), name
    want = nx.betweenness_centrality(nx.relabel_nodes(G, {v: i for i, v in enumerate(G)}),
                                     weight="weight")
    np.testing.assert_allclose(first, [want[i] for i in range(len(G))], rtol=1e-12, atol=1e-14)


def test_public_api_sources_dtype_and_errors(cpu_backend):
    G = nx.gnp_random_graph(40, 0.1, seed=28, directed=True)
    A = nx.to_scipy_sparse_array(G, weight=None, format="csr")
    full = ocl_sp.betweenness(A, **cpu_backend)
    want = nx.betweenness_centrality(G)
    np.testing.assert_allclose(full, [want[i] for i in range(40)], rtol=1e-12, atol=1e-14)
    sources = [3, 11, 20]
    got = ocl_sp.betweenness(A, sources=sources, normalized=False, **cpu_backend)
    H = G.copy()
    sampled = nx.betweenness_centrality_subset(H, sources, list(H), normalized=False)
    np.testing.assert_allclose(got, [sampled[i] for i in range(40)], rtol=1e-12)  # no scale
    got = ocl_sp.betweenness(A, sources=sources, **cpu_backend)  # networkx's k scaling
    np.testing.assert_allclose(got, [sampled[i] / (39 * 38) * 40 / 3 for i in range(40)],
                               rtol=1e-12)
    for dtype in (np.int64, np.float64):
        assert ocl_sp.betweenness(A, dtype=dtype, **cpu_backend).tobytes() == full.tobytes()
    dense = A.toarray().astype(float)
    dense[dense > 0] = 2.0  # every weight 2: the same paths
    assert ocl_sp.betweenness(dense, **cpu_backend).tobytes() == full.tobytes()
    neg = dense.copy()
    neg[np.nonzero(neg)[0][0], np.nonzero(neg)[1][0]] = -1
    with pytest.raises(ValueError, match="weights >= 0"):
        ocl_sp.betweenness(neg, **cpu_backend)
    zero = sp.csr_array(([0.0, 0.0], ([0, 1], [1, 0])), shape=(3, 3))
    with pytest.raises(ValueError, match="zero-weight"):
        ocl_sp.betweenness(zero, **cpu_backend)
    assert ocl_sp.betweenness(np.zeros((0, 0))).shape == (0,)


def test_fallbacks(on):
    G = random_graph(30, 0.1, 29, low=0, high=2)  # zero weights
    assert not BI.can_run("betweenness_centrality", (G,), {"weight": "weight"})
    assert BI.can_run("betweenness_centrality", (G,), {})  # BFS: weights unused
    got, ran = solved_by_ocl_sp(BI.betweenness_centrality, G, weight="weight")
    assert not ran and got == nx.betweenness_centrality(G, weight="weight")
    G = random_graph(30, 0.1, 30, negative=True)
    assert not BI.can_run("betweenness_centrality", (G,), {"weight": "weight"})
    assert not BI.can_run("betweenness_centrality", (G,), {"weight": lambda u, v, d: 1})
    M = random_graph(20, 0.2, 31, multigraph=True)
    assert BI.can_run("betweenness_centrality", (M,), {"weight": "weight"})
    assert_close(BI.betweenness_centrality(M, weight="weight"),
                 nx.betweenness_centrality(M, weight="weight"))
    assert not BI.can_run("edge_betweenness_centrality", (M,), {})
    assert not BI.can_run("edge_betweenness_centrality", (G,), {"k": 3})
    assert BI.betweenness_centrality(nx.Graph()) == {}
