// Vertex ids with locality (the multi-source engine's deep searches,
// docs/performance/sparse.md "Vertex ids with locality"): a search's frontier
// touches a row's entries of neighbouring vertices together, so ids that keep
// neighbours close put them in the same memory sectors.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "graph/csr.hpp"

namespace ocl_sp {

// Hop distances from `source` over out-edges (-1: unreached), breadth first,
// level by level on every core; the same on any thread count.
std::vector<int32_t> hop_distances(const int64_t* off, const int32_t* col, int64_t n, int64_t source);

// Distances from `source` into d (n values; negative where unreached).
using DistanceSearch = std::function<void(int64_t source, std::vector<double>& d)>;

// New ids for a graph that lies in a plane (geometric graphs, meshes, road
// networks), from the graph alone: four searches find two far vertices a and q
// at two corners of the plane (a the farthest from vertex 0, b the farthest
// from a, q the farthest from both a and b: a and q are not opposite, so no two
// far-apart vertices share both distances); each vertex's distances from a and
// q, in units of `unit` (about an edge's weight), are its coordinates, and the
// vertices are numbered along the Hilbert curve of those coordinates (ties, and
// the vertices reached from neither, in id order). Returns new_id[v], a
// permutation of [0, n). The device engine searches with its own kernel
// (weighted distances); the overload below with hop distances on the host.
std::vector<int32_t> locality_order(int64_t n, const DistanceSearch& search, double unit);
std::vector<int32_t> locality_order(const int64_t* off, const int32_t* col, int64_t n);

// g with vertex v renumbered new_id[v] (a permutation): rows in the new order,
// each row's targets renumbered and sorted, weights with them.
template <typename T>
Csr<T> renumber(const Csr<T>& g, const std::vector<int32_t>& new_id);

}  // namespace ocl_sp
