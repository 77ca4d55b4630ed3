// Finding a negative cycle itself. The solvers only know a vertex i with
// d(i,i) < 0 after solving — a vertex on a negative closed walk, which may merely
// reach a negative cycle and be reached from it. From the input graph (the dense
// adjacency before solving, or the edge list) these functions find an actual
// cycle whose edges add up to a negative length, for the report and the
// NegativeCycleError the solve command rethrows.
//
// Method: Bellman-Ford with predecessor edges, in rounds that only scan the
// out-edges of vertices whose distance changed in the previous round, from the
// hint vertex (the cycle lies in its strongly connected component, so it is
// reachable from it), else from a virtual source joined to every vertex. After
// each round the predecessor graph is checked for a cycle (O(n)); any cycle there
// has negative length (for exact sums; the length is recomputed from the input
// and checked, so float rounding cannot make a non-negative cycle pass). At most
// n + 1 rounds of O(edges): O(n^3) in the worst case for a dense graph, a few
// rounds in practice (n = 2000 dense: tens of milliseconds; see
// tests/test_negative_cycle.cpp for the timing bound).
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

#include "graph/graph.hpp"
#include "graph/matrix.hpp"
#include "util/errors.hpp"

namespace ocl_sp {

// (Not named NegativeCycle: that is the public API's exception, include/ocl_sp/.)
struct FoundCycle {
  // v0 -> v1 -> ... -> v(k-1) -> v0, rotated so that v0 is the smallest vertex
  // id on it; simple (no vertex twice); one vertex for a negative self-loop.
  // Empty when the graph has no negative cycle.
  std::vector<int64_t> vertices;
  double length = 0;  // the sum of the cycle's edge weights in the input
  bool found() const { return !vertices.empty(); }
};

// `a` is the input adjacency: a(i,j) the weight of the edge i -> j,
// ValueTraits<T>::inf for none; a negative diagonal entry is a self-loop cycle.
// `hint` (a vertex with d(i,i) < 0 from a solver) restricts the search to what it
// reaches; a hint outside [0, n) or that reaches no negative cycle is ignored.
template <typename T>
FoundCycle find_negative_cycle(const DistMatrix<T>& a,
                                  std::optional<int64_t> hint = std::nullopt);

// The same on an edge list (parallel edges allowed, weights as read).
FoundCycle find_negative_cycle(const Graph& g, std::optional<int64_t> hint = std::nullopt);

// For the solve command: rethrows `e` as a NegativeCycleError carrying the cycle
// found in `input` (the adjacency before solving; the solver's vertex as the
// hint), or `e` itself when it already has a cycle, `input` is null (no copy was
// kept) or no cycle is found.
template <typename T>
[[noreturn]] void rethrow_with_cycle(const NegativeCycleError& e, const DistMatrix<T>* input);

// Sum of the weights of the edges v0 -> v1 -> ... -> v0 in `a`; nullopt when one
// of them is not an edge. For tests and checks.
template <typename T>
std::optional<double> cycle_length(const DistMatrix<T>& a, const std::vector<int64_t>& cycle);

}  // namespace ocl_sp
