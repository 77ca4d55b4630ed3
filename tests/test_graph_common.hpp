// Helpers of the edge-list tests (test_generator.cpp, test_generator_sparse.cpp,
// test_graph_io.cpp).
#pragma once
#include <omp.h>

#include "graph/graph.hpp"

namespace ocl_sp {

// The same n and the same edges (u, v, w) in the same order.
inline bool same_edges(const Graph& a, const Graph& b) {
  if (a.n != b.n || a.edges.size() != b.edges.size()) return false;
  for (size_t i = 0; i < a.edges.size(); ++i)
    if (a.edges[i].u != b.edges[i].u || a.edges[i].v != b.edges[i].v ||
        a.edges[i].w != b.edges[i].w)
      return false;
  return true;
}

// generate() run on 1 and on 4 OpenMP threads gives the same edges.
template <typename Generate>
bool same_on_any_thread_count(const Generate& generate) {
  const int before = omp_get_max_threads();
  omp_set_num_threads(1);
  const Graph one = generate();
  omp_set_num_threads(4);
  const Graph four = generate();
  omp_set_num_threads(before);
  return same_edges(one, four);
}

// Generator parameters of the random family.
inline GeneratorParams params(int64_t n, uint64_t seed, double density, int64_t wlo, int64_t whi,
                              bool negative = false) {
  GeneratorParams p;
  p.n = n;
  p.seed = seed;
  p.density = density;
  p.wlo = wlo;
  p.whi = whi;
  p.negative = negative;
  return p;
}

}  // namespace ocl_sp
