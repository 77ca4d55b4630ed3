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

// The positions i of keys[i] (each below 2^bits, bits <= 64) in order of key,
// ties in order of position: what sorting (key, i) pairs gives.
std::vector<int32_t> order_by_key(const std::vector<uint64_t>& keys, int bits);

// Hop distances from `source` into d (n values; -1 where unreached).
using DistanceSearch = std::function<void(int64_t source, std::vector<int32_t>& d)>;

// New ids for a graph that lies in a plane (geometric graphs, meshes, road
// networks), from the graph alone: four breadth-first searches find two far
// vertices a and q at two corners of the plane (a the farthest from vertex 0, b
// the farthest from a, q the farthest from both a and b: a and q are not
// opposite, so no two far-apart vertices share both distances); each vertex's
// hops from a and q are its coordinates, and the vertices are numbered along
// the Hilbert curve of those coordinates (ties, and the vertices reached from
// neither, in id order). Returns new_id[v], a permutation of [0, n). The device
// engine searches with its own kernel (kernels/sssp_order.cl); the overload
// below on the host's cores (hop_distances): the same order.
std::vector<int32_t> locality_order(int64_t n, const DistanceSearch& search);
std::vector<int32_t> locality_order(const int64_t* off, const int32_t* col, int64_t n);

// g with vertex v renumbered new_id[v] (a permutation): rows in the new order,
// each row's targets renumbered, weights with them; a row of at most kSortedRow
// edges sorted by target (stably: equal targets in their order), a longer one
// left in its order (the device engine renumbers on the device the same way,
// kernels/sssp_order.cl).
constexpr size_t kSortedRow = 64;
template <typename T>
Csr<T> renumber(const Csr<T>& g, const std::vector<int32_t>& new_id);

}  // namespace ocl_sp
