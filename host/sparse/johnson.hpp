// Johnson's reweighting for the multi-source engine: one Bellman-Ford from a
// virtual source joined to every vertex by a 0-weight edge gives potentials p(v)
// <= 0 with w(u,v) + p(u) - p(v) >= 0 on every edge; Dijkstra (or the OpenCL
// engine) then runs on those weights and d(s,t) = d'(s,t) - p(s) + p(t).
#pragma once
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "graph/csr.hpp"

namespace ocl_sp {

// Potentials: exact int64 for the integer types, double for the floating ones.
template <typename T>
using PotentialOf = std::conditional_t<std::is_integral_v<T>, int64_t, double>;

template <typename T>
struct Reweighted {
  Csr<T> graph;                           // w' = w + p(u) - p(v) >= 0, same structure
  std::vector<PotentialOf<T>> potential;  // p(v)
};

// Throws NegativeCycleError naming the cycle (found in g by the search of
// graph/negative_cycle.hpp) when g has one. Bellman-Ford in rounds over the
// vertices whose potential changed, at most n rounds.
template <typename T>
Reweighted<T> reweight(const Csr<T>& g);

// Float weights as the engines need them: -0.0 becomes +0.0 (a negative zero's
// bit pattern would sort above every positive value). Null when nothing changes.
template <typename T>
std::unique_ptr<Csr<T>> positive_zeros(const Csr<T>& g);

}  // namespace ocl_sp
