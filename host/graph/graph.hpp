// Edge-list graph as read from a file or generated, and its conversion to the
// dense distance matrix the solvers work on (parallel edges keep the minimum,
// non-negative self-loops are ignored, a negative self-loop is a negative cycle).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "graph/matrix.hpp"

namespace ocl_sp {

struct Edge {
  int64_t u = 0, v = 0;
  double w = 1;  // exact for every int32 weight; float inputs keep their value
};

struct Graph {
  int64_t n = 0;
  std::vector<Edge> edges;
  bool has_negative_weight() const;
  bool integer_weights() const;  // every weight is an integer (int32 allowed)
};

// Random directed graph, the same on every machine for the same parameters.
struct GeneratorParams {
  int64_t n = 0;
  uint64_t seed = 0;
  double density = 0.0;  // edge probability; <= 0 means the documented default
  int64_t wlo = 1, whi = 100;
  bool negative = false;  // add negative edges, never a negative cycle
};
double default_density(int64_t n);
Graph generate_random(const GeneratorParams& p);

// Refuse (UsageError) an int32 solve when some path length could leave the exact
// range: the sum of the n-1 largest |w| must stay below the finite limit.
void check_int32_range(const Graph& g);

// Dense matrix; throws NegativeCycleError for a negative self-loop and UsageError
// for non-integer weights with T = int32.
template <typename T>
DistMatrix<T> to_matrix(const Graph& g);

}  // namespace ocl_sp
