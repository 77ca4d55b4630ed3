"""The road-like grid of the bench scripts (bench/python_networkx.py,
bench/auto_choice_graphs.py): a side x side lattice, undirected, lengths 1..100,
`missing` of the streets dropped at random (fixed seed), the largest component
kept so that every length is finite, as in a road network."""
import networkx as nx
import numpy as np


def road_grid(side, seed, missing=0.1):
    rng = np.random.default_rng(seed)
    G = nx.Graph()
    G.add_nodes_from(range(side * side))
    for r in range(side):
        for c in range(side):
            v = r * side + c
            for u in ((v + 1) if c + 1 < side else None, (v + side) if r + 1 < side else None):
                if u is not None and rng.random() >= missing:
                    G.add_edge(v, u, weight=int(rng.integers(1, 101)))
    return G.subgraph(max(nx.connected_components(G), key=len)).copy()
