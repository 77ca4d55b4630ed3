// Johnson's reweighting for the multi-source engine: one Bellman-Ford from a
// virtual source joined to every vertex by a 0-weight edge gives potentials p(v)
// <= 0 with w(u,v) + p(u) - p(v) >= 0 on every edge; Dijkstra (or the OpenCL
// engine) then runs on those weights and d(s,t) = d'(s,t) - p(s) + p(t).
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "graph/csr.hpp"

namespace ocl_sp {

template <typename T>
struct Reweighted {
  Csr<T> graph;              // w' = w + p(u) - p(v) >= 0, same structure as the input
  std::vector<double> potential;  // p(v), exact integers for int32
};

// Throws NegativeCycleError naming the cycle (found in g by the search of
// graph/negative_cycle.hpp) when g has one. Bellman-Ford in rounds over the
// vertices whose potential changed, at most n rounds.
template <typename T>
Reweighted<T> reweight(const Csr<T>& g);

// Float32 weights as the engines need them: -0.0 becomes +0.0 (a negative zero's
// bit pattern would sort above every positive value). Null when nothing changes.
std::unique_ptr<Csr<float>> positive_zeros(const Csr<float>& g);

}  // namespace ocl_sp
