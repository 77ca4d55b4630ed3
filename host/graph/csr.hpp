// Compressed sparse row form of a graph for the multi-source engine (host/sparse/,
// DESIGN.md "Sparse graphs and rows"): out-edges of vertex u are col[off[u] ..
// off[u+1]) with weights w[...], sorted by target. Built with the rules of the
// dense matrix (graph.hpp to_matrix): parallel edges keep the minimum, non-negative
// self-loops are dropped, a negative self-loop is a negative cycle, int32 weights
// must be integers in the exact range. Memory is O(n + m), never n^2.
#pragma once
#include <cstdint>
#include <vector>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"

namespace ocl_sp {

template <typename T>
struct Csr {
  int64_t n = 0;
  std::vector<int64_t> off;  // n + 1 offsets
  std::vector<int32_t> col;  // m targets
  std::vector<T> w;          // m weights
  int64_t m() const { return static_cast<int64_t>(col.size()); }
  bool has_negative_weight() const;
  // Bytes the CSR holds (offsets, targets, weights).
  uint64_t bytes() const;
};

// Host bytes of a Csr<T> of n vertices and m edges (before building it), plus the
// edge list it is built from: for the memory plan.
uint64_t csr_bytes(int64_t n, int64_t m, size_t value_size);

// From an edge list (UsageError for ids outside [0, n) or unusable weights,
// NegativeCycleError for a negative self-loop). n up to 2^31 - 1.
template <typename T>
Csr<T> build_csr(const Graph& g);
// From the dense adjacency (INF = no edge, the diagonal ignored): what the
// Solver interface hands every algorithm.
template <typename T>
Csr<T> csr_from_matrix(const DistMatrix<T>& a);
// The reversed graph: v's in-edges as its out-edges.
template <typename T>
Csr<T> transpose(const Csr<T>& g);
// Back to an edge list (for the negative-cycle search and tests).
template <typename T>
Graph to_graph(const Csr<T>& g);

}  // namespace ocl_sp
