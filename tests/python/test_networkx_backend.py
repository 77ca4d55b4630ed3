"""ocl_sp.networkx_backend against networkx's own floyd_warshall_numpy and
floyd_warshall: random graphs directed and undirected, negative and zero weights,
disconnected graphs, multigraphs, nodelist order, custom / missing weights, n = 0
and 1, negative cycles (networkx's result, computed by networkx), the can_run
fallbacks; on OpenMP and OpenCL ($OCL_SP_TEST_DEVICE, default PoCL). The backend's
functions are called directly (Debian's networkx 2.8 has no dispatch); the
dispatch itself (backend="ocl_sp", automatic backends) runs in a subprocess that
sees pyproject.toml's entry points, and is skipped on networkx < 3.2."""

import importlib
import inspect
import os
import subprocess
import sys
import textwrap

import networkx as nx
import numpy as np
import pytest

import ocl_sp
from ocl_sp import networkx_backend as nb
from _support import BACKENDS

ROOT = os.path.join(os.path.dirname(__file__), "..", "..")
BI = nb.BackendInterface


@pytest.fixture(params=["openmp", "opencl"])
def on(request, monkeypatch):
    """Points the backend's config at OpenMP, then OpenCL; gives the report's backend."""
    kw = BACKENDS[request.param]
    monkeypatch.setattr(nb.config, "backend", kw["backend"])
    monkeypatch.setattr(nb.config, "device", kw.get("device"))
    return request.param


def solved_by_ocl_sp(f, *args, **kwargs):
    """f(*args, **kwargs) and whether ocl_sp ran a solve for it (a new report)."""
    before = ocl_sp.last_report()
    result = f(*args, **kwargs)
    after = ocl_sp.last_report()
    return result, after is not None and after is not before


def random_graph(n, p, seed, directed=True, multigraph=False, low=1, high=20,
                 negative=False, missing=0.0, key="weight", isolated=0):
    """Random graph on shuffled string labels (G's node order is not sorted) with
    integer weights in [low, high] under `key`; `negative` shifts them by vertex
    potentials (w + p(u) - p(v): negative edges, no negative cycle; directed only);
    `missing`: the share of edges without the attribute; `isolated` extra nodes."""
    rng = np.random.default_rng(seed)
    cls = {(True, False): nx.DiGraph, (False, False): nx.Graph,
           (True, True): nx.MultiDiGraph, (False, True): nx.MultiGraph}[directed, multigraph]
    G = cls()
    labels = [f"v{k}" for k in rng.permutation(n + isolated)]
    G.add_nodes_from(labels)
    pot = rng.integers(0, high + 1, n)
    for u in range(n):
        for v in range(n):
            copies = 1 + int(multigraph and rng.random() < 0.5)
            for _ in range(copies if u != v and rng.random() < p else 0):
                w = int(rng.integers(low, high + 1))
                if negative:
                    w += int(pot[u] - pot[v])
                attrs = {} if rng.random() < missing else {key: w}
                G.add_edge(labels[u], labels[v], **attrs)
    return G


def dict_of_dicts(d):
    return {u: dict(row) for u, row in d.items()}


def assert_fw_dict_equal(got, want):
    assert dict_of_dicts(got) == dict_of_dicts(want)
    for u in want:
        assert got[u]["no such node"] == float("inf")  # a defaultdict(inf), as networkx's


# --- floyd_warshall_numpy against networkx, on OpenMP and OpenCL ---------------------

@pytest.mark.parametrize("directed,negative", [(True, False), (True, True), (False, False)])
def test_numpy_random(on, directed, negative):
    G = random_graph(40, 0.12, seed=11, directed=directed, negative=negative)
    assert not negative or any(d["weight"] < 0 for _, _, d in G.edges(data=True))
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert ran and ocl_sp.last_report().backend == on and ocl_sp.last_report().dtype == "int32"
    want = nx.floyd_warshall_numpy(G)
    assert got.dtype == np.float64 and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if not directed:
        np.testing.assert_array_equal(got, got.T)


def test_numpy_zero_weights_disconnected(on):
    G = random_graph(30, 0.1, seed=12, low=0, high=3, isolated=5)
    assert any(d["weight"] == 0 for _, _, d in G.edges(data=True))
    assert not nx.is_weakly_connected(G)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert ran
    want = nx.floyd_warshall_numpy(G)
    assert np.isinf(want).any()
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("directed", [True, False])
def test_numpy_multigraph_takes_lightest_edge(on, directed):
    G = random_graph(30, 0.15, seed=13, directed=directed, multigraph=True)
    assert any(G.number_of_edges(u, v) > 1 for u, v in G.edges())
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert ran
    np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G))


def test_numpy_nodelist_order(on):
    G = random_graph(25, 0.15, seed=14, negative=True)
    order = list(reversed(sorted(G)))
    assert order != list(G)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G, nodelist=order)
    assert ran
    np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G, nodelist=order))


@pytest.mark.parametrize("nodelist", [["v0", "v1"], ["v0", "v1", "v2", "v2"],
                                      ["v0", "v1", "nope"]])
def test_numpy_invalid_nodelist_raises_as_networkx(nodelist):
    G = nx.path_graph(["v0", "v1", "v2"])
    with pytest.raises(nx.NetworkXError) as want:
        nx.floyd_warshall_numpy(G, nodelist=nodelist)
    with pytest.raises(nx.NetworkXError) as got:
        BI.floyd_warshall_numpy(G, nodelist=nodelist)
    assert str(got.value) == str(want.value)


def test_numpy_custom_key_missing_weights_and_none(on):
    G = random_graph(30, 0.15, seed=15, key="cost", missing=0.3)
    costs = [d.get("cost") for _, _, d in G.edges(data=True)]
    assert None in costs and any(c is not None and c != 1 for c in costs)
    for weight in ("cost", "weight", None):  # "weight": absent everywhere, so 1
        got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G, weight=weight)
        assert ran
        np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G, weight=weight))


@pytest.mark.parametrize("n", [0, 1])
def test_numpy_tiny(n):
    G = nx.DiGraph()
    G.add_nodes_from(range(n))
    got = BI.floyd_warshall_numpy(G)
    want = nx.floyd_warshall_numpy(G)
    assert got.shape == want.shape == (n, n)
    np.testing.assert_array_equal(got, want)


def test_numpy_negative_self_loop_is_ignored(on):
    G = random_graph(12, 0.3, seed=16)
    G.add_edge("v3", "v3", weight=-7)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert ran
    np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G))
    assert np.all(np.diag(got) == 0)


# --- negative cycles: networkx's own (unspecified) numbers, no exception --------------

@pytest.mark.parametrize("directed", [True, False])
def test_negative_cycle_gives_networkx_result(on, directed):
    G = random_graph(15, 0.2, seed=17, directed=directed)
    u, v = list(G.edges())[0]
    G[u][v]["weight"] = -50  # undirected: u-v-u is a negative cycle already
    if directed:
        G.add_edge(v, u, weight=1)
    want = nx.floyd_warshall_numpy(G)
    assert (np.diag(want) < 0).any()  # networkx raises nothing, the diagonal shows it
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert not ran  # ocl_sp found the cycle and handed the graph to networkx's code
    np.testing.assert_array_equal(got, want)
    assert_fw_dict_equal(BI.floyd_warshall(G), nx.floyd_warshall(G))


def test_int32_range_gives_networkx_result(on):
    G = nx.path_graph(6, create_using=nx.DiGraph)
    nx.set_edge_attributes(G, 2**28, "weight")  # path lengths past the int32 rule
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert not ran
    want = nx.floyd_warshall_numpy(G)
    assert want[0, 5] == 5 * 2**28
    np.testing.assert_array_equal(got, want)


# --- floyd_warshall (dict of dicts) ---------------------------------------------------

@pytest.mark.parametrize("directed,negative", [(True, True), (False, False)])
def test_dict_random(on, directed, negative):
    G = random_graph(30, 0.12, seed=18, directed=directed, negative=negative, isolated=3)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall, G)
    assert ran
    want = nx.floyd_warshall(G)
    assert_fw_dict_equal(got, want)
    u = next(iter(G))
    assert list(got) == list(want) == list(G)
    assert all(type(x) is int for x in got[u].values() if x != float("inf"))


def test_dict_multigraph_missing_weights_are_floats(on):
    G = random_graph(20, 0.2, seed=19, multigraph=True, missing=0.4)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall, G)
    assert ran
    assert_fw_dict_equal(got, nx.floyd_warshall(G))
    u = next(iter(G))
    assert got[u][u] == 0 and type(got[u][u]) is int  # networkx's diagonal is int 0
    assert all(type(x) is float for v, x in got[u].items() if v != u)


def test_dict_weight_none_gives_floats_as_networkx(on):
    G = random_graph(20, 0.2, seed=21)
    got, ran = solved_by_ocl_sp(BI.floyd_warshall, G, weight=None)
    assert ran
    want = nx.floyd_warshall(G, weight=None)
    assert_fw_dict_equal(got, want)
    for u in G:
        for v, x in want[u].items():
            assert type(got[u][v]) is type(x), (u, v, got[u][v], x)


def test_dict_negative_self_loop_falls_back():
    G = random_graph(10, 0.3, seed=20)
    G.add_edge("v2", "v2", weight=-1)
    assert not BI.can_run("floyd_warshall", (G,), {})
    assert BI.can_run("floyd_warshall_numpy", (G,), {})
    got, ran = solved_by_ocl_sp(BI.floyd_warshall, G)
    assert not ran
    want = nx.floyd_warshall(G)
    assert want["v2"]["v2"] < 0
    assert_fw_dict_equal(got, want)


def test_dict_tiny():
    assert BI.floyd_warshall(nx.Graph()) == nx.floyd_warshall(nx.Graph()) == {}
    G = nx.Graph()
    G.add_node("a")
    assert_fw_dict_equal(BI.floyd_warshall(G), nx.floyd_warshall(G))


# --- can_run / should_run: what ocl_sp cannot do exactly falls back ----------------

def test_can_run():
    G = random_graph(20, 0.2, seed=21)
    for name in ("floyd_warshall_numpy", "floyd_warshall"):
        assert BI.can_run(name, (G,), {})
        assert BI.can_run(name, (G,), {"weight": None})
        assert not BI.can_run(name, (G,), {"weight": lambda u, v, d: 1})
        assert not BI.can_run(name, (G,), {"weight": ["unhashable"]})
    assert not BI.can_run("floyd_warshall_predecessor_and_distance", (G,), {})
    assert not BI.can_run("floyd_warshall_numpy", (G,), {"no_such_argument": 1})
    H = G.copy()
    u, v = next(iter(H.edges()))
    H[u][v]["weight"] = 0.5  # ocl_sp would solve in float32
    assert not BI.can_run("floyd_warshall_numpy", (H,), {})
    H[u][v]["weight"] = 2.0  # integral floats are exact
    assert BI.can_run("floyd_warshall_numpy", (H,), {})
    H[u][v]["weight"] = "heavy"
    assert not BI.can_run("floyd_warshall", (H,), {})
    H[u][v]["weight"] = float("inf")
    assert not BI.can_run("floyd_warshall_numpy", (H, None, "weight"), {})
    assert BI.can_run("floyd_warshall_numpy", (BI.convert_from_nx(G),), {})


def test_float_weights_run_networkx_when_called_directly():
    G = random_graph(15, 0.2, seed=22)
    for _, _, d in G.edges(data=True):
        d["weight"] /= 3.0
    got, ran = solved_by_ocl_sp(BI.floyd_warshall_numpy, G)
    assert not ran
    np.testing.assert_array_equal(got, nx.floyd_warshall_numpy(G))


def test_should_run_threshold(monkeypatch):
    monkeypatch.setattr(nb.config, "min_nodes", 10)
    assert not BI.should_run("floyd_warshall_numpy", (nx.path_graph(9),), {})
    assert BI.should_run("floyd_warshall_numpy", (nx.path_graph(10),), {})
    assert BI.should_run("floyd_warshall", (), {"G": nx.path_graph(10)})
    assert not BI.should_run("floyd_warshall_predecessor_and_distance", (nx.path_graph(99),), {})
    assert not BI.should_run("floyd_warshall_numpy", (), {"graph": nx.path_graph(99)})


def test_convert_round_trip(on):
    G = random_graph(20, 0.2, seed=23, negative=True)
    g = BI.convert_from_nx(G, edge_attrs={"weight": 1}, name="floyd_warshall_numpy",
                           graph_name="G")
    assert g.__networkx_backend__ == "ocl_sp" and len(g) == 20 and g.is_directed()
    assert BI.convert_from_nx(g) is g
    assert BI.convert_to_nx(g) is G
    dist = BI.floyd_warshall_numpy(g)
    assert BI.convert_to_nx(dist, name="floyd_warshall_numpy") is dist
    np.testing.assert_array_equal(dist, nx.floyd_warshall_numpy(G))
    assert_fw_dict_equal(BI.floyd_warshall(g), nx.floyd_warshall(G))


# --- closeness, harmonic, eccentricity, diameter, radius ------------------

def _weighted(G, seed, low=1, high=9, key="weight", missing=0.0):
    rng = np.random.default_rng(seed)
    for u, v, d in G.edges(data=True):
        if rng.random() >= missing:
            d[key] = int(rng.integers(low, high + 1))
    return G


def _search_graphs():
    yield "directed", _weighted(nx.gnp_random_graph(45, 0.06, seed=31, directed=True), 1)
    yield "undirected", _weighted(nx.connected_watts_strogatz_graph(40, 4, 0.3, seed=32), 2)
    dis = nx.disjoint_union(nx.path_graph(8), nx.cycle_graph(6))
    dis.add_nodes_from(["x", "y"])
    yield "disconnected", _weighted(dis, 3, low=0, high=4)  # zero weights too
    multi = nx.MultiDiGraph(nx.gnp_random_graph(30, 0.1, seed=33, directed=True))
    multi.add_edges_from(list(multi.edges())[:10])
    yield "multigraph", _weighted(multi, 4, missing=0.3)  # parallel edges, missing weights
    yield "labels", random_graph(30, 0.1, seed=34)  # shuffled string labels


@pytest.mark.parametrize("kind,G", list(_search_graphs()), ids=lambda x: x if isinstance(x, str) else "")
def test_centralities_equal_networkx(on, kind, G):
    for distance in (None, "weight"):
        for wf in (True, False):
            got, ran = solved_by_ocl_sp(BI.closeness_centrality, G, distance=distance,
                                        wf_improved=wf)
            want = nx.closeness_centrality(G, distance=distance, wf_improved=wf)
            assert ran and list(got) == list(want) and got == want  # bit for bit, same order
        got, ran = solved_by_ocl_sp(BI.harmonic_centrality, G, distance=distance)
        want = nx.harmonic_centrality(G, distance=distance)
        assert ran and list(got) == list(want) and got == want
        assert all(type(x) in (int, float) for x in got.values())
    u = list(G)[3]
    assert BI.closeness_centrality(G, u, "weight") == nx.closeness_centrality(G, u, "weight")
    some = list(G)[::3]
    assert (BI.harmonic_centrality(G, sources=some, distance="weight")
            == nx.harmonic_centrality(G, sources=some, distance="weight"))


def _weight_kwargs():
    # networkx < 3.0 has no weight argument for these
    return [{}] + ([{"weight": "weight"}] if "weight" in
                   inspect.signature(nx.eccentricity).parameters else [])


@pytest.mark.parametrize("kind,G", [g for g in _search_graphs() if g[0] != "disconnected"],
                         ids=lambda x: x if isinstance(x, str) else "")
def test_distance_measures_equal_networkx(on, kind, G):
    strong = nx.is_strongly_connected(G) if G.is_directed() else nx.is_connected(G)
    for kw in _weight_kwargs():
        if not strong:
            with pytest.raises(nx.NetworkXError) as want:
                nx.eccentricity(G, **kw)
            with pytest.raises(nx.NetworkXError) as got:
                BI.eccentricity(G, **kw)
            assert str(got.value) == str(want.value)
            continue
        got, ran = solved_by_ocl_sp(BI.eccentricity, G, **kw)
        want = nx.eccentricity(G, **kw)
        assert ran and got == want and list(got) == list(want)
        assert [type(x) for x in got.values()] == [type(x) for x in want.values()]
        v = list(G)[2]
        assert BI.eccentricity(G, v, **kw) == nx.eccentricity(G, v, **kw)
        assert BI.eccentricity(G, [v, v], **kw) == nx.eccentricity(G, [v, v], **kw)
        for f in ("diameter", "radius"):
            assert getattr(BI, f)(G, **kw) == getattr(nx, f)(G, **kw)
            if not G.is_directed():
                assert (getattr(BI, f)(G, usebounds=True, **kw)
                        == getattr(nx, f)(G, usebounds=True, **kw))


def test_distance_measures_disconnected_messages():
    G = nx.Graph([(0, 1), (2, 3)])
    for call in (lambda m: m.eccentricity(G), lambda m: m.diameter(G),
                 lambda m: m.radius(G, usebounds=True), lambda m: m.diameter(G, usebounds=True)):
        with pytest.raises(nx.NetworkXError) as want:
            call(nx)
        with pytest.raises(nx.NetworkXError) as got:
            call(BI)
        assert str(got.value) == str(want.value)


def test_search_functions_fall_back_to_networkx():
    G = _weighted(nx.connected_watts_strogatz_graph(25, 4, 0.3, seed=35), 5)
    assert BI.can_run("closeness_centrality", (G,), {"distance": "weight"})
    F = G.copy()
    u, v = next(iter(F.edges()))
    F[u][v]["weight"] = 0.5  # float32 would not be exact
    N = G.copy()
    N[u][v]["weight"] = -1  # networkx's Dijkstra refuses
    for name in ("closeness_centrality", "harmonic_centrality"):
        assert BI.can_run(name, (F,), {})  # no distance: BFS
        assert not BI.can_run(name, (F,), {"distance": "weight"})
        assert not BI.can_run(name, (N,), {"distance": "weight"})
        assert not BI.can_run(name, (G,), {"distance": lambda a, b, d: 1})
        got, ran = solved_by_ocl_sp(getattr(BI, name), F, distance="weight")
        assert not ran and got == getattr(nx, name)(F, distance="weight")
    assert not BI.can_run("eccentricity", (G,), {"sp": dict(nx.shortest_path_length(G))})
    assert not BI.can_run("diameter", (G,), {"e": nx.eccentricity(G)})
    assert not BI.can_run("radius", (nx.Graph(),), {})
    assert not BI.can_run("closeness_centrality", (G,), {"u": "nope"})
    sp_ = dict(nx.shortest_path_length(G))
    got, ran = solved_by_ocl_sp(BI.eccentricity, G, sp=sp_)
    assert not ran and got == nx.eccentricity(G, sp=sp_)
    e = nx.eccentricity(G)
    assert BI.diameter(G, e=e) == nx.diameter(G, e=e) and BI.radius(G, e=e) == nx.radius(G, e=e)
    # path lengths beyond the int32 rule: networkx's own code
    P = nx.path_graph(6)
    nx.set_edge_attributes(P, 2**28, "weight")
    got, ran = solved_by_ocl_sp(BI.closeness_centrality, P, distance="weight")
    assert not ran and got == nx.closeness_centrality(P, distance="weight")


# --- entry points and networkx's dispatch ------------------------------------------

def _entry_points():
    try:
        import tomllib
    except ImportError:  # Python < 3.11
        import tomli as tomllib
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        return tomllib.load(f)["project"]["entry-points"]


def _load(spec):
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr)


def test_entry_points_name_importable_objects():
    eps = _entry_points()
    assert set(eps["networkx.backends"]) == {"ocl_sp"} == set(eps["networkx.backend_info"])
    interface = _load(eps["networkx.backends"]["ocl_sp"])
    assert interface is BI
    for attr in ("convert_from_nx", "convert_to_nx", "can_run", "should_run"):
        assert callable(getattr(interface, attr))
    meta = _load(eps["networkx.backend_info"]["ocl_sp"])()
    assert meta["backend_name"] == "ocl_sp" and meta["package"] == "ocl_sp"
    assert set(meta["functions"]) == {"floyd_warshall_numpy", "floyd_warshall",
                                      "closeness_centrality", "harmonic_centrality",
                                      "eccentricity", "diameter", "radius"} | set(nb._PATH_FUNCTIONS) | set(nb._BETWEENNESS)
    assert "all_pairs_dijkstra_path_length" in meta["functions"]
    for name in meta["functions"]:
        assert callable(getattr(interface, name))
        assert callable(getattr(nx, name))  # a networkx function of that name


_DISPATCH = textwrap.dedent('''
    import inspect, networkx as nx, numpy as np, ocl_sp
    from ocl_sp import networkx_backend as nb
    nb.config.backend = "openmp"
    nb.config.min_nodes = 1
    assert "ocl_sp" in nx.utils.backends.backends, nx.utils.backends.backends
    orig = nx.floyd_warshall_numpy.orig_func
    G = nx.gnp_random_graph(30, 0.2, seed=5, directed=True)
    for k, (u, v) in enumerate(G.edges):
        G[u][v]["weight"] = k % 7

    def ran(f, *a, **kw):
        before = ocl_sp.last_report()
        out = f(*a, **kw)
        return out, ocl_sp.last_report() is not before

    got, r = ran(nx.floyd_warshall_numpy, G, backend="ocl_sp")
    assert r and np.array_equal(got, orig(G)), "backend='ocl_sp'"
    got, r = ran(nx.floyd_warshall, G, backend="ocl_sp")
    assert r and got == nx.floyd_warshall.orig_func(G), "floyd_warshall"
    got, r = ran(nx.floyd_warshall_numpy, G)  # automatic (environment)
    assert r and np.array_equal(got, orig(G)), "automatic"
    F = G.copy()
    for u, v, d in F.edges(data=True):
        d["weight"] += 0.25
    got, r = ran(nx.floyd_warshall_numpy, F)  # can_run False: networkx runs
    assert not r and np.array_equal(got, orig(F)), "fallback"
    try:
        nx.floyd_warshall_numpy(F, backend="ocl_sp")
        raise AssertionError("float weights ran on ocl_sp")
    except NotImplementedError:  # networkx >= 3.4
        pass
    except RuntimeError as e:  # networkx 3.2, 3.3
        assert "not implemented by ocl_sp" in str(e), e
    U = G.to_undirected()
    for name in ("closeness_centrality", "harmonic_centrality"):
        got, r = ran(getattr(nx, name), G, distance="weight", backend="ocl_sp")
        assert r and got == getattr(nx, name).orig_func(G, distance="weight"), name
    H = nx.cycle_graph(40)
    for name in ("eccentricity", "diameter", "radius"):
        got, r = ran(getattr(nx, name), H)  # automatic
        assert r and got == getattr(nx, name).orig_func(H), name
    gen, r = ran(nx.all_pairs_dijkstra_path_length, G, backend="ocl_sp")
    assert r and inspect.isgenerator(gen), "all_pairs_dijkstra_path_length"
    assert dict(gen) == dict(nx.all_pairs_dijkstra_path_length.orig_func(G))
    got, r = ran(nx.single_source_dijkstra_path_length, F, 0)  # float weights: automatic
    assert r and got == nx.single_source_dijkstra_path_length.orig_func(F, 0), "float"
    print("dispatch ok", nx.__version__)
''')


def test_networkx_dispatch(tmp_path):
    version = tuple(int(x) for x in nx.__version__.split(".")[:2])
    if version < (3, 2):
        pytest.skip(f"networkx {nx.__version__} has no backend dispatch (needs >= 3.2); "
                    "the backend's functions are tested directly above")
    # pyproject.toml's entry points as installed metadata, without installing
    dist = tmp_path / "ocl_sp-0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: ocl_sp\nVersion: 0.0\n")
    lines = []
    for group, entries in _entry_points().items():
        lines.append(f"[{group}]")
        lines += [f"{name} = {spec}" for name, spec in entries.items()]
    (dist / "entry_points.txt").write_text("\n".join(lines) + "\n")
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path)] + sys.path)
    env["NETWORKX_AUTOMATIC_BACKENDS"] = "ocl_sp"  # networkx 3.2
    env["NETWORKX_BACKEND_PRIORITY"] = "ocl_sp"    # networkx >= 3.3
    run = subprocess.run([sys.executable, "-c", _DISPATCH], env=env, capture_output=True,
                         text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "dispatch ok" in run.stdout
