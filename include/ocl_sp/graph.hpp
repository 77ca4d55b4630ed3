// ocl_sp public API: the edge list a graph is read into or built from. The
// library's readers and solvers use these very types (host/graph/graph.hpp
// includes this header), so nothing is converted between the API and the core.
#pragma once
#include <cstdint>
#include <vector>

namespace ocl_sp {

// A directed edge u -> v of weight w (vertices 0-based). w is a double: exact for
// every int32 weight; float inputs keep their value.
struct Edge {
  int64_t u = 0, v = 0;
  double w = 1;
};

// n vertices and their edges as read (parallel edges and self-loops included).
struct Graph {
  int64_t n = 0;
  std::vector<Edge> edges;
  bool has_negative_weight() const;
  bool integer_weights() const;  // every weight is an integer (int32 allowed)
};

}  // namespace ocl_sp
