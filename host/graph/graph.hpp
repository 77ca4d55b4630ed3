// Edge-list graph as read from a file or generated, and its conversion to the
// dense distance matrix the solvers work on (parallel edges keep the minimum,
// non-negative self-loops are ignored, a negative self-loop is a negative cycle).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/matrix.hpp"
#include "ocl_sp/graph.hpp"  // Edge, Graph: the public API's types

namespace ocl_sp {

// Largest vertex count a reader accepts: a dense n x n matrix
// beyond this (160 GB of int32) cannot be solved, so a bigger header is taken as a
// malformed file rather than an allocation request.
constexpr int64_t kMaxVertices = 200000;
// Largest n generate_random accepts; what really limits --n is host memory (the
// dense matrix), checked before generating (DESIGN.md "Scale"). Panels index
// with int inside a panel and int64 across the matrix.
constexpr int64_t kMaxGeneratedVertices = int64_t{1} << 21;
// Largest |weight| the generator draws (before --negative potentials, which at
// most double it): exact in float32 and far from the int32 limit per edge.
constexpr int64_t kMaxGeneratorWeight = int64_t{1} << 24;

// Random directed graph, the same on every machine, compiler and thread count for
// the same parameters (own xoshiro256** streams, one per row, integer-only draws).
// Each ordered pair (i, j), i != j, is an edge with probability `density`; weights
// are uniform integers in [wlo, whi]. Edges come out sorted by (u, v).
// With `negative`, each vertex gets a potential p(v) uniform in [0, P] with
// P = max(1, whi), and an edge weighs w + p(u) - p(v) with w drawn from
// [max(0, wlo), whi]: every cycle keeps its non-negative length (the potentials
// cancel around it) while roughly a sixth of the edges become negative; weights
// then lie in [max(0, wlo) - P, whi + P].
struct GeneratorParams {
  int64_t n = 0;
  uint64_t seed = 0;
  double density = 0.0;  // edge probability in (0, 1]; exactly 0 means default_density(n)
  int64_t wlo = 1, whi = 100;
  bool negative = false;  // add negative edges, never a negative cycle
};
// Default edge probability: min(1, max(0.1, 20 / n)). Small graphs get about 20
// out-edges per vertex (complete up to n = 20), large ones 10% of all pairs, so
// nearly every pair is reachable and shortest paths still take several hops.
double default_density(int64_t n);
// UsageError unless 1 <= n <= kMaxGeneratedVertices, density is 0 (default) or
// in (0, 1], wlo <= whi, |wlo|, |whi| <= kMaxGeneratorWeight, and with
// `negative` whi >= 0.
void validate(const GeneratorParams& p);
Graph generate_random(const GeneratorParams& p);  // validates first
// to_matrix<T>(generate_random(p)) without the edge list, rows in parallel;
// *edges (if given) receives the edge count. The caller checks the int32 range
// (generated_max_abs_weight) as check_int32_range would.
template <typename T>
DistMatrix<T> generate_matrix(const GeneratorParams& p, long long* edges);
// Rows [row0, row1) of generate_matrix<T>(p), bit for bit, row-major
// ((row1 - row0) x n): each MPI rank generates only the rows it owns.
template <typename T>
std::vector<T> generate_rows(const GeneratorParams& p, int64_t row0, int64_t row1,
                             long long* edges);
// The largest |weight| generate_random can draw for p (potentials included).
int64_t generated_max_abs_weight(const GeneratorParams& p);

// Refuse (UsageError) an int32 solve when some path length could leave the exact
// range: the sum of the n-1 largest |w| must stay below the finite limit.
void check_int32_range(const Graph& g);

// Dense matrix; throws NegativeCycleError for a negative self-loop and UsageError
// for non-integer weights with T = int32.
template <typename T>
DistMatrix<T> to_matrix(const Graph& g);

}  // namespace ocl_sp
